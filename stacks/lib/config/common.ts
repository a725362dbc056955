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

/** Hours a lab stack may live before `lab janitor` destroys it. @default 8 */
export const DEFAULT_TTL_HOURS = 8;
/** Identifies one benchmark run; changing it re-runs the benchmarks without re-creating infra. */
export const DEFAULT_RUN_ID = "r1";

export const commonFields = {
  /** `aws:region`, required: the region of the explicit AWS provider. */
  region: text(REGION_RULE, AWS_REGION_RE).refine((r) => AWS_REGIONS.includes(r), { error: REGION_RULE }),
  /** `lab:kind`: checked first by the stack dispatcher. */
  kind: z.string(),
  /** `lab:owner`: who to ask about this stack; tagged on every AWS resource. */
  owner: text("an owner name of 1–64 letters, digits, spaces or . _ : / = + - @ (an AWS tag value)", /^[\p{L}\p{N} ._:/=+@-]{1,64}$/u),
  /** `lab:ttlHours`: hours until `lab:expires-at`. @default 8 */
  ttlHours: int(1, 168, "a whole number of hours from 1 to 168").default(DEFAULT_TTL_HOURS),
  /** `lab:runId`: names this benchmark run (Kubernetes-name safe). @default "r1" */
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
