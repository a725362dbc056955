import { ECR_RULES } from "../../../lab/policy/ecr";
import { COMPUTED } from "../../../lab/policy/rule";
import { TYPES as T } from "../../../lab/resource-types";
import { Case, testRules } from "./cases";

/** The tools image repository as components/image builds it. */
const REPO = {
  name: "storage-bench-lab/fsx-eks/bench-tools",
  imageScanningConfiguration: { scanOnPush: true },
  imageTagMutability: "IMMUTABLE",
  encryptionConfigurations: [{ encryptionType: "AES256" }],
};

const CASES: readonly Case[] = [
  // ecr-scan-on-push
  { rule: "ecr-scan-on-push", title: "scan on push", type: T.ecrRepository, inputs: REPO, want: [] },
  {
    rule: "ecr-scan-on-push",
    title: "no scanning configuration",
    type: T.ecrRepository,
    inputs: { ...REPO, imageScanningConfiguration: undefined },
    want: ["imageScanningConfiguration.scanOnPush must be true, got nothing"],
  },
  {
    rule: "ecr-scan-on-push",
    title: "off",
    type: T.ecrRepository,
    inputs: { ...REPO, imageScanningConfiguration: { scanOnPush: false } },
    want: ["imageScanningConfiguration.scanOnPush must be true, got false"],
  },
  {
    rule: "ecr-scan-on-push",
    title: "unknown until deploy fails",
    type: T.ecrRepository,
    inputs: { ...REPO, imageScanningConfiguration: COMPUTED },
    want: ["imageScanningConfiguration.scanOnPush must be true, got <computed>"],
  },

  // ecr-immutable-tags
  { rule: "ecr-immutable-tags", title: "immutable", type: T.ecrRepository, inputs: REPO, want: [] },
  {
    rule: "ecr-immutable-tags",
    title: "unset: ECR's default is MUTABLE",
    type: T.ecrRepository,
    inputs: { ...REPO, imageTagMutability: undefined },
    want: ['imageTagMutability must be "IMMUTABLE", got nothing (ECR\'s default: MUTABLE)'],
  },
  {
    rule: "ecr-immutable-tags",
    title: "MUTABLE",
    type: T.ecrRepository,
    inputs: { ...REPO, imageTagMutability: "MUTABLE" },
    want: ['imageTagMutability must be "IMMUTABLE", got "MUTABLE"'],
  },
];

testRules("ecr", ECR_RULES, CASES);
