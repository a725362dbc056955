/** Config keys every stack kind has (README "Keys every kind has"). */
import { Region } from "@pulumi/aws/types/enums";
import { z } from "zod";
import { AWS_REGION_RE, int, text } from "./fields";

/**
 * The regions the AWS provider knows: @pulumi/aws's `Region` enum (types/enums/index.d.ts, "any valid
 * Amazon region that may be targeted with deployments"). The provider validates `region` against its
 * static list unless `skipRegionValidation` is set (provider.d.ts), which the lab never sets, so a
 * region outside it fails the first `pulumi up`: refused here, before any cloud call.
 */
export const AWS_REGIONS: readonly string[] = Object.values(Region);
const REGION_RULE = "an AWS region the AWS provider knows (@pulumi/aws Region, e.g. us-east-1)";

/**
 * The Pulumi project's name (Pulumi.yaml `name`, a test pins it): its stacks' project, and the
 * config namespace `pulumi config set KEY` writes a bare KEY to.
 */
export const PROJECT_NAMESPACE = "storage-bench-lab";

/** Hours a lab stack may live before `lab janitor` destroys it. @default 8 */
export const DEFAULT_TTL_HOURS = 8;
/** Identifies one benchmark run; changing it re-runs the benchmarks without re-creating infra. */
export const DEFAULT_RUN_ID = "r1";

export const commonFields = {
  /**
   * `aws:region`, required: the region of the explicit AWS provider.
   * @source AWS provider: validates the region name against its static list unless skipRegionValidation (never set by the lab);
   * lab rule: a region of the SDK's Region enum in the AWS_REGION_RE shape — `@pulumi/aws` 7.48.0 provider.d.ts:196-199, types/enums/index.d.ts:13-64
   */
  region: text(REGION_RULE, AWS_REGION_RE).refine((r) => AWS_REGIONS.includes(r), { error: REGION_RULE }),
  /**
   * `lab:kind`: checked first by the stack dispatcher.
   * @source lab dispatcher: one of STACK_KINDS (stacks/index.ts programFor); also the AWS tag lab:kind, within IAM's tag value rule (0–256
   * letters, digits, spaces, _.:/=+-@) — boto/botocore@0e6e2404 botocore/data/iam/2010-05-08/service-2.json:10321
   */
  kind: z.string(),
  /**
   * `lab:owner`: who to ask about this stack; tagged on every AWS resource.
   * @source lab rule (1–64 characters); AWS tags, IAM's rule the strictest of the tagged services: a value of 0–256 Unicode letters,
   * digits, spaces and _.:/=+-@ — boto/botocore@0e6e2404 botocore/data/iam/2010-05-08/service-2.json:10321
   */
  owner: text("an owner name of 1–64 letters, digits, spaces or . _ : / = + - @ (an AWS tag value)", /^[\p{L}\p{N} ._:/=+@-]{1,64}$/u),
  /**
   * `lab:ttlHours`: hours until `lab:expires-at`. @default 8
   * @source lab rule (a lab stack lives a week at most); nothing outside the lab reads it: expiresAt is the created-at time.Static plus
   * ttlHours, and lab janitor destroys past it — core/tags.ts expiresAt, stacks/lib/context.ts
   */
  ttlHours: int(1, 168, "a whole number of hours from 1 to 168").default(DEFAULT_TTL_HOURS),
  /**
   * `lab:runId`: names this benchmark run (Kubernetes-name safe). @default "r1"
   * @source lab rule (at most 20, so the Job name <name>-<tool>-<runId> fits 63); Kubernetes: a Job name is a DNS subdomain, and
   * the Job's job-name label and the lab's run-id label are label values, at most 63 with alphanumeric ends — kubernetes/apimachinery@v0.35.7 pkg/api/validate/content/kube.go:78-95
   */
  runId: text(
    "a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2)",
    /^[a-z0-9][a-z0-9-]{0,19}$/,
  ).default(DEFAULT_RUN_ID),
};

export type CommonConfig = {
  region: string;
  kind: string;
  owner: string;
  ttlHours: number;
  runId: string;
};

/**
 * Keys whose values must be given plainly, never as `secure:` values: they name the stack's
 * resources, tags, upstream stacks and results directories, which are not secret, and the offline
 * plan (which cannot decrypt) would read the placeholder it puts in a secret's place.
 */
export function mustBePlain(key: string): boolean {
  return ["aws:region", "lab:kind", "lab:owner", "lab:ttlHours", "lab:runId"].includes(key) || /^lab:[A-Za-z0-9]+Stack$/.test(key);
}
export const PLAIN_RULE = "a plain value, not a secure: one (it names resources, tags, stacks or results directories)";
