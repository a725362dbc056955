import { TYPES as T } from "../../../lab/resource-types";
import { TAG_RULES } from "../../../lab/policy/tags";
import { COMPUTED } from "../../../lab/policy/rule";
import { TAG_KEYS } from "../../../core/tags";
import { Case, testRules } from "./cases";

/** A value for every one of the lab's tag keys (core/tags.ts, the one list the rule reads). */
const TAGS: Record<string, string> = Object.fromEntries(TAG_KEYS.map((k) => [k, `${k}-value`]));
const WANT = TAG_KEYS.join(", ");
/** Every tag but these. */
const without = (...keys: string[]) => Object.fromEntries(Object.entries(TAGS).filter(([k]) => !keys.includes(k)));

const CASES: readonly Case[] = [
  // aws-provider-lab-tags
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags as the engine sees provider inputs (a JSON string)",
    type: T.awsProvider,
    inputs: { region: "us-east-1", defaultTags: JSON.stringify({ tags: TAGS }) },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags as an object",
    type: T.awsProvider,
    inputs: { defaultTags: { tags: TAGS } },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "a tag value unknown until deploy is present",
    type: T.awsProvider,
    inputs: { defaultTags: { tags: { ...TAGS, "lab:owner": COMPUTED } } },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "no defaultTags (e.g. a default provider)",
    type: T.awsProvider,
    inputs: { region: "us-east-1" },
    want: [`defaultTags.tags must carry ${WANT}, got nothing`],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "tags missing or empty",
    type: T.awsProvider,
    inputs: { defaultTags: JSON.stringify({ tags: { ...without("lab:kind"), "lab:owner": " " } }) },
    want: ["defaultTags.tags lacks lab:kind, lab:owner: build the provider with stacks/lib labAwsProvider"],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags without tags",
    type: T.awsProvider,
    inputs: { defaultTags: {} },
    want: [`defaultTags.tags must carry ${WANT}, got nothing`],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags unknown until deploy fails",
    type: T.awsProvider,
    inputs: { defaultTags: COMPUTED },
    want: [`defaultTags.tags must carry ${WANT}, got <computed>`],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags that is not JSON",
    type: T.awsProvider,
    inputs: { defaultTags: "{tags" },
    want: ['defaultTags must be JSON, got "{tags"'],
  },
];

testRules("tags", TAG_RULES, CASES);
