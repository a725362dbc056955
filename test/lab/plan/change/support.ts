/** What the change-plan tests share: a planned resource made by hand. */
import type { PlannedResource } from "../../../../lab/plan/run";

export const URN = "urn:pulumi:s::storage-bench-lab::";
const COMMAND = { replaceOnChanges: ["triggers[*]"], ignoreChanges: [], deleteBeforeReplace: false, retainOnDelete: false };
const PLAIN = { replaceOnChanges: [], ignoreChanges: [], deleteBeforeReplace: false, retainOnDelete: false };

export function res(type: string, name: string, inputs: Record<string, unknown>, extra: Partial<PlannedResource> = {}): PlannedResource {
  return {
    urn: `${URN}${type}::${name}`,
    type,
    name,
    parent: null,
    inputs,
    dependencies: [],
    custom: true,
    provider: null,
    options: type.startsWith("command:") ? COMMAND : PLAIN,
    ...extra,
  };
}
