/**
 * Policy rules of resource lifecycles: what a config change of a live stack may do. Pure (see
 * ./rule.ts for how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isSet, mirrors } from "./rule";

/** The lab's own: no scanner checks Pulumi Command lifecycles. */
export const COMMAND_LIFECYCLE = controls([], []);

/** The Command types of @pulumi/command that run a `delete`. */
export const COMMAND_TYPES = [T.localCommand, T.remoteCommand] as const;

export const commandDeleteWithoutTriggers = defineRule({
  name: "command-delete-no-triggers",
  description:
    "A Command with a `delete` has no `triggers`. @pulumi/command registers every Command with " +
    '`replaceOnChanges: ["triggers[*]"]` (local/command.js, remote/command.js at 1.2.1): a changed trigger replaces the ' +
    "command, creating the new one and then deleting the old, whose `delete` then runs (a `k0sctl reset` after the " +
    "apply). Pass what should re-run the command as inputs (its environment): a change is then an update that runs " +
    "`update`, never `delete` (pulumi-command provider/pkg/provider/local/commandController.go). Any `delete` counts: " +
    "the rule cannot tell a clean-up from a reset by its text. " +
    mirrors(COMMAND_LIFECYCLE),
  enforcementLevel: "mandatory",
  controls: COMMAND_LIFECYCLE,
  resourceTypes: [...COMMAND_TYPES],
  check(inputs) {
    if (!isSet(inputs.delete) || !isSet(inputs.triggers)) return [];
    if (Array.isArray(inputs.triggers) && inputs.triggers.length === 0) return [];
    return [
      "triggers must be absent on a Command with a delete (a changed trigger replaces it and runs its delete on the live system), got triggers and a delete",
    ];
  },
});

/** The lifecycle area's rules. */
export const LIFECYCLE_RULES = [commandDeleteWithoutTriggers] as const;
