/** What a stack module gets: its validated config and its identity. */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as time from "@pulumiverse/time";
import { CommonConfig } from "./config/common";
import { expiresAt, labTags } from "../../core/tags";

export interface StackIdentity {
  readonly project: string;
  readonly stack: string;
}

/**
 * The explicit AWS provider every component of a stack gets: region from `aws:region`, the lab's
 * tags as `defaultTags`. Also returns `expiresAt` (exported by every stack for `lab janitor`).
 */
export function labAwsProvider(cfg: CommonConfig, id: StackIdentity): { provider: aws.Provider; expiresAt: pulumi.Output<string> } {
  const created = new time.Static("created-at", {});
  const expiry = created.rfc3339.apply((t) => expiresAt(t, cfg.ttlHours));
  const provider = new aws.Provider("aws", {
    region: cfg.region as aws.Region,
    defaultTags: {
      tags: expiry.apply((e) => labTags({ project: id.project, stack: id.stack, kind: cfg.kind, owner: cfg.owner, expiresAt: e })),
    },
  });
  return { provider, expiresAt: expiry };
}
