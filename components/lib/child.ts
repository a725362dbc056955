import * as pulumi from "@pulumi/pulumi";

/**
 * Options for a component's children: `parent` (which carries the providers down), and the
 * component's `deletedWith`, which Pulumi does not inherit: objects inside a cluster that is being
 * destroyed go with it instead of being deleted one by one.
 */
export function childOptions(parent: pulumi.ComponentResource, opts?: pulumi.ComponentResourceOptions): pulumi.CustomResourceOptions {
  return { parent, ...(opts?.deletedWith ? { deletedWith: opts.deletedWith } : {}) };
}
