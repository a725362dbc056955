/**
 * ARNs in config held to the stack's own partition and region. An ARN's format is checked by the
 * key's own rule (components/lib/iam.ts POLICY_ARN_RE, components/fsx-ontap/rules.ts KMS_KEY_ARN_RE);
 * what the format cannot say is whether the ARN can be used *from this stack*:
 *
 * - the partition: an ARN of another partition names nothing in this one. The partition of a
 *   region is the AWS SDK's own table (@aws-sdk/core client `awsEndpointFunctions.partition`, its
 *   partitions.json with each partition's `regionRegex`): aws-cn for cn-*, aws-us-gov for
 *   us-gov-*, the ISO partitions;
 * - the region, for a regional resource: a KMS key lives in one Region (even the keys of a
 *   Multi-Region set are separate keys, one per Region, each with its own ARN: AWS KMS Developer
 *   Guide, "Multi-Region keys in AWS KMS"), and the services that encrypt with one take a key of
 *   their own Region (e.g. EKS `Provider.keyArn`: "The KMS key must be symmetric and created in the
 *   same Amazon Web Services Region as the cluster", boto/botocore 0e6e2404
 *   botocore/data/eks/2017-11-01/service-2.json:5957; FSx and Secrets Manager state no exception). IAM is
 *   global: its ARNs have an empty region field (`arn:partition:iam::account:…`, the IAM User
 *   Guide, "IAM identifiers").
 *
 * Which keys hold which ARN is {@link ARN_KEYS}: a kind checks those of its fields it has.
 */
import { ArgProblem, argProblem } from "../../../core/errors";

/** The ARN a config field holds: its service and whether its region field must be the stack's. */
export interface ArnKey {
  readonly service: string;
  /** The ARN's region is the stack's (a KMS key); otherwise it is empty (IAM). */
  readonly regional: boolean;
  readonly what: string;
}

/** Config fields that hold ARNs (a field may hold a list of them). */
export const ARN_KEYS: Readonly<Record<string, ArnKey>> = {
  permissionsBoundaryArn: { service: "iam", regional: false, what: "an IAM managed policy" },
  adminRoleArns: { service: "iam", regional: false, what: "an IAM role" },
  kmsKeyArn: { service: "kms", regional: true, what: "a KMS key" },
};

/** The partition of a region, from the AWS SDK's partitions table (`aws` for a region it does not know, as the SDK answers). */
export function partitionOf(region: string): string {
  // Loaded only when a config holds an ARN: the shipped stacks hold none, and `lab plan` stays fast.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { awsEndpointFunctions } = require("@aws-sdk/core/client") as {
    awsEndpointFunctions: { partition(region: string): { name: string } | null };
  };
  return awsEndpointFunctions.partition(region)?.name ?? "aws";
}

/** `arn:<partition>:<service>:<region>:<account>:<resource>` split, or undefined. */
function arnParts(arn: string): { partition: string; service: string; region: string } | undefined {
  const m = /^arn:([^:]+):([^:]+):([^:]*):[^:]*:.+$/.exec(arn);
  return m ? { partition: m[1], service: m[2], region: m[3] } : undefined;
}

/**
 * The problems of the ARN fields of `config` (fields of {@link ARN_KEYS}) in `region`: each names the
 * field, the ARN form this stack can use and the value. A value whose format is wrong is left to the
 * field's own rule (no second line).
 */
export function arnProblems(config: Readonly<Record<string, unknown>>, region: string): ArgProblem[] {
  const present = Object.keys(ARN_KEYS).filter((f) => config[f] !== undefined);
  if (present.length === 0) return [];
  const partition = partitionOf(region);
  const out: ArgProblem[] = [];
  for (const field of present) {
    const key = ARN_KEYS[field];
    const value = config[field];
    const items = Array.isArray(value) ? value : [value];
    items.forEach((arn, i) => {
      const p = typeof arn === "string" ? arnParts(arn) : undefined;
      if (p === undefined) return;
      const where = key.regional ? `${partition}:${key.service}:${region}` : `${partition}:${key.service}:`;
      const fits = p.partition === partition && p.service === key.service && p.region === (key.regional ? region : "");
      if (!fits) {
        const why = key.regional
          ? `the stack's partition and region: arn:${where}:<account>:…; a key works only in its own region`
          : `the stack's partition: arn:${where}:<account>:… (region ${region} is in ${partition})`;
        out.push(argProblem(Array.isArray(value) ? `${field}[${i}]` : field, `the ARN of ${key.what} in ${why}`, arn));
      }
    });
  }
  return out;
}
