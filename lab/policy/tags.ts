/**
 * Policy rules of tagging: the lab's tags on every AWS provider. Pure (see ./rule.ts for how rules
 * read inputs and unknown values).
 */
import { TAG_KEYS } from "../../core/tags";
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isObj, isOpaque, isSet, mirrors, shown } from "./rule";

const LAB_OWN = controls([]);

export const awsProviderLabTags = defineRule({
  name: "aws-provider-lab-tags",
  description:
    `Every AWS provider tags what it creates with the lab's tags (${TAG_KEYS.join(", ")}) through \`defaultTags\`, so ` +
    "that every resource can be traced to its project, stack and owner. A resource created through any other provider " +
    "(a default provider) is untagged. " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  resourceTypes: [T.awsProvider],
  check(inputs) {
    const want = TAG_KEYS.join(", ");
    const defaultTags = inputs.defaultTags;
    if (!isSet(defaultTags)) return [`defaultTags.tags must carry ${want}, got nothing`];
    if (isOpaque(defaultTags)) return [`defaultTags.tags must carry ${want}, got ${defaultTags}`];
    let parsed: unknown = defaultTags;
    // Provider inputs reach the engine with objects JSON-encoded: `defaultTags` is then a string.
    if (typeof defaultTags === "string") {
      try {
        parsed = JSON.parse(defaultTags);
      } catch {
        return [`defaultTags must be JSON, got ${JSON.stringify(defaultTags)}`];
      }
    }
    const tags = isObj(parsed) ? parsed.tags : undefined;
    if (!isObj(tags)) return [`defaultTags.tags must carry ${want}, got ${shown(tags)}`];
    const missing = TAG_KEYS.filter((k) => !isSet(tags[k]));
    return missing.length === 0 ? [] : [`defaultTags.tags lacks ${missing.join(", ")}: build the provider with stacks/lib labAwsProvider`];
  },
});

/** The tagging area's rules. */
export const TAG_RULES = [awsProviderLabTags] as const;
