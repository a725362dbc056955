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
 * tags as `defaultTags` (core/tags.ts). Its configuration is made of config values and the stack's
 * name only, so it is known at every preview, a new stack's first one included: a provider input
 * unknown at preview leaves the provider unconfigured, and the engine then answers every invoke
 * through it with an empty result (pulumi/pulumi sdk/go/common/resource/plugin/provider_plugin.go,
 * `Configure` and `Invoke`; pulumi/pulumi#24169). `lab plan --first-preview` checks it.
 *
 * Also returns `expiresAt`, the stack's expiry, which every stack exports for `lab janitor` (the
 * output named by core/tags.ts `EXPIRES_AT_OUTPUT`): the first deploy time (`time.Static`, kept in
 * state) plus `lab:ttlHours`. It is unknown during the first preview and known from the first
 * deploy on; the `time.Static` has no inputs, so later ups read it back from state unchanged.
 */
export function labAwsProvider(cfg: CommonConfig, id: StackIdentity): { provider: aws.Provider; expiresAt: pulumi.Output<string> } {
  const created = new time.Static("created-at", {});
  const provider = new aws.Provider("aws", {
    region: cfg.region as aws.Region,
    defaultTags: { tags: labTags({ project: id.project, stack: id.stack, kind: cfg.kind, owner: cfg.owner }) },
  });
  return { provider, expiresAt: created.rfc3339.apply((t) => expiresAt(t, cfg.ttlHours)) };
}
