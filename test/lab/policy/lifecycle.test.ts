import { LIFECYCLE_RULES } from "../../../lab/policy/lifecycle";
import { COMPUTED } from "../../../lab/policy/rule";
import { Case, testRules } from "./cases";

const BAD = [
  "triggers must be absent on a Command with a delete (a changed trigger replaces it and runs its delete on the live system), got triggers and a delete",
];

const CASES: readonly Case[] = [
  {
    rule: "command-delete-no-triggers",
    title: "k0sctl apply as the lab runs it: a delete, the config in its environment, no triggers",
    type: "command:local:Command",
    inputs: {
      create: "k0sctl apply",
      update: "k0sctl apply",
      delete: "k0sctl reset --force",
      environment: { LAB_K0SCTL_CONFIG: "apiVersion: …" },
    },
    want: [],
  },
  {
    rule: "command-delete-no-triggers",
    title: "a collector: triggers and no delete",
    type: "command:local:Command",
    inputs: { create: "collect.sh", triggers: ["r1", "job", "uid-1"] },
    want: [],
  },
  {
    rule: "command-delete-no-triggers",
    title: "an empty trigger list changes nothing",
    type: "command:local:Command",
    inputs: { create: "k0sctl apply", delete: "k0sctl reset --force", triggers: [] },
    want: [],
  },
  {
    rule: "command-delete-no-triggers",
    title: "the deliberately wrong component: k0sctl apply re-run by a hash trigger, reset on delete",
    type: "command:local:Command",
    inputs: { create: "k0sctl apply", update: "k0sctl apply", delete: "k0sctl reset --force", triggers: ["9f86d081884c7d65"] },
    want: BAD,
  },
  {
    rule: "command-delete-no-triggers",
    title: "a remote Command too",
    type: "command:remote:Command",
    inputs: { connection: { host: "10.0.0.1" }, create: "install", delete: "uninstall", triggers: [COMPUTED] },
    want: BAD,
  },
  {
    rule: "command-delete-no-triggers",
    title: "triggers unknown until deploy still count",
    type: "command:local:Command",
    inputs: { create: "x", delete: "rm -rf /data", triggers: COMPUTED },
    want: BAD,
  },
];

testRules("lifecycle", LIFECYCLE_RULES, CASES);
