/**
 * docs/changing-a-live-stack.md, generated: for every stack kind, every key's representative
 * change (./levers.ts) planned on a shipped stack of the kind, and what it does to the live stack.
 * `lab plan --change-table` prints it; a test fails when the page in docs/ differs.
 */
import { CODE_CHANGES } from "./code-changes";
import { PlanMemo, Program } from "..";
import type { StackSpec } from "../run";
import { ChangePlan, disruptions, refusals, ResourceChange } from "./diff";
import { CreationTimeChangeError, planChange } from ".";
import { CREATION_TIME_KEYS, ONE_WAY_KEYS } from "./creation-time";
import { heldInstead } from "./held";
import { LEVERS } from "./levers";

/** What one key's change does, in the table's words. */
export interface LeverImpact {
  readonly kind: string;
  readonly stack: string;
  readonly key: string;
  /** The value set, or undefined when the key is not changeable. */
  readonly value?: string;
  readonly note?: string;
  /** The change plan; undefined when the key is not changeable or the config refused the value. */
  readonly plan?: ChangePlan;
  /** Why there is no plan: the config's error, or why the key is not changeable. */
  readonly reason?: string;
  /** The key is fixed at creation by the upstream tool (./creation-time.ts): `lab plan --change` refuses it (exit 2). */
  readonly creationTime?: boolean;
}

/** Plans every lever of every kind (or of `kinds`), the kinds in the order of {@link LEVERS}. */
export async function leverImpacts(shipped: readonly StackSpec[], program: Program, kinds?: readonly string[]): Promise<LeverImpact[]> {
  const out: LeverImpact[] = [];
  const memo: PlanMemo = new Map();
  for (const [kind, levers] of Object.entries(LEVERS)) {
    if (kinds && !kinds.includes(kind)) continue;
    const spec = shipped.find((s) => s.name === levers.stack);
    if (!spec) throw new Error(`lab/plan/change/levers.ts: kind ${kind} names stack '${levers.stack}', which is not shipped`);
    for (const [key, lever] of Object.entries(levers.keys)) {
      const base = { kind, stack: spec.name, key };
      if ("notChangeable" in lever) {
        out.push({ ...base, reason: lever.notChangeable });
        continue;
      }
      const config: Record<string, string> = { ...spec.config, [key]: lever.value };
      for (const [k, x] of Object.entries(lever.also ?? {})) {
        if (x === null) delete config[k];
        else config[k] = x;
      }
      const next: StackSpec = { ...spec, config };
      try {
        out.push({ ...base, value: lever.value, note: lever.note, plan: await planChange(spec, next, shipped, program, memo) });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const fixed = CREATION_TIME_KEYS[kind]?.find((k) => k.key === key);
        out.push(
          e instanceof CreationTimeChangeError && fixed
            ? { ...base, value: lever.value, note: lever.note, reason: fixed.rule, creationTime: true }
            : { ...base, value: lever.value, note: lever.note, reason: message.split("\n")[0] },
        );
      }
    }
  }
  return out;
}

const MAX_NAMES = 6;

function names(changes: readonly ResourceChange[]): string {
  const shown = changes.slice(0, MAX_NAMES).map((c) => `\`${c.name}\``);
  return changes.length > MAX_NAMES ? `${shown.join(", ")} and ${changes.length - MAX_NAMES} more` : shown.join(", ");
}

/** One key's effect as a table cell. */
export function effectCell(impact: LeverImpact): string {
  if (impact.creationTime) return `fixed when the cluster is created: ${impact.reason} (see "Creation-time keys")`;
  if (!impact.plan) return impact.value === undefined ? `not changed here: ${impact.reason}` : `refused by the config: ${impact.reason}`;
  const p = impact.plan;
  const by = (a: ResourceChange["action"]) => p.changes.filter((c) => c.action === a);
  const parts: string[] = [];
  if (by("update").length > 0) parts.push(`in place: ${names(by("update"))}`);
  const replaced = by("replace");
  if (replaced.length > 0) {
    const destroying = replaced.filter((c) => c.destroys?.data);
    parts.push(
      `replaces ${names(replaced)}` +
        (destroying.length > 0 ? ` (destroys: ${[...new Set(destroying.map((c) => c.destroys?.what))].join("; ")})` : ""),
    );
  }
  if (by("create").length > 0) parts.push(`creates ${names(by("create"))}`);
  if (by("delete").length > 0)
    parts.push(`deletes ${names(by("delete"))} (${[...new Set(by("delete").map((c) => c.destroys?.what))].join("; ")})`);
  if (by("unknown").length > 0) parts.push(`unknown effect on ${names(by("unknown"))}`);
  parts.push(...disruptions(p));
  return parts.length === 0 ? "no resource changes" : parts.join("; ");
}

/** `refused` (needs --allow-replace), `allowed`, or `-` when nothing was planned. */
export function verdictCell(impact: LeverImpact): string {
  if (impact.creationTime) return "refused (exit 2)";
  if (!impact.plan) return "-";
  const data = refusals(impact.plan).length > 0;
  if (impact.plan.held.length > 0)
    return 'refused on a running cluster: the update cannot finish (see "Changes a running cluster holds"); destroy the stack and deploy it with the new value';
  if (impact.plan.benchmarks.sameRunId.length > 0)
    return `refused under the same run id (a run id runs once): with a new \`lab:runId\`${data ? " and `--allow-replace`" : ""}`;
  return data ? "refused without `--allow-replace`" : "allowed";
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The whole page. */
/**
 * How a live fsx-eks or kafka stack that built its own image (before the eks stack's `lab:images`)
 * moves to the image its eks stack builds: what each update does, in which order.
 */
const IMAGES_MOVED: readonly string[] = [
  "## Images built by the eks stack (a live fsx-eks or kafka stack that built its own)",
  "",
  "The tools image (fio, ioping) and the OpenMessaging Benchmark image are built by the eks stack (`lab:images`:",
  "`tools` in `fsx-eks-cluster`, `omb` in `kafka-cluster`) while the cluster and, beside it, the file system are",
  "created, and read by fsx-eks and kafka from its output `images` unless `lab:toolsImage` / `lab:ombImage` give one.",
  "An fsx-eks or kafka stack deployed when it built its own image (children `tools-*` / `omb-*`) moves in two updates:",
  "",
  "1. `pulumi up` of the eks stack with `lab:images`: creates its repository (`storage-bench-lab/<eks stack>/bench-tools`",
  "   or `…/omb`, another name than the old one), builds and pushes the image, exports `images` (needs a Docker daemon:",
  "   without one, the update fails before any resource with a config error naming `lab:images`).",
  "2. `pulumi up` of fsx-eks or kafka: reads the image from the eks stack (done first, it fails with a config error",
  "   naming `lab:toolsImage` / `lab:ombImage` and `lab:eksStack`, and changes nothing). It deletes its own",
  "   `tools-repo`, `tools-lifecycle` and `tools-image` (or `omb-*`): the repository goes with every image in it",
  "   (`forceDelete`: terraform-provider-aws `resourceRepositoryDelete` calls ECR DeleteRepository with `force`).",
  "   The image reference of the Jobs changes, so the benchmark Jobs and their collectors are replaced (fsx-eks'",
  "   `lab:toolsImage` row above; kafka's OMB workers are updated in place, its driver Jobs replaced): the benchmarks",
  "   run again under the same `lab:runId`. Save the earlier results first (`lab results save --stack S`).",
  "",
  "`lab run` creates new stacks every run: nothing to move there.",
];

export function renderLeverPage(impacts: readonly LeverImpact[]): string {
  const out: string[] = [
    "# Changing a live stack",
    "",
    "<!-- Generated by `npx lab plan --change-table > docs/changing-a-live-stack.md` from lab/plan/change/levers.ts;",
    "     test/lab/plan/change/table.test.ts fails when this page differs from the generator's output. -->",
    "",
    "`lab plan --stack S --change KEY=VALUE [...]` (or `--change-config NEW.yaml`) plans the stack as deployed and as it",
    "would be after the change, both offline, and lists per resource: updated in place (which inputs), **replaced** (which",
    "input, the rule that forces it and its source, and what the replacement destroys), created, deleted, or of unknown",
    "effect. A change that replaces or deletes what holds data (a volume, an instance, a file system, a Command whose",
    "`delete` runs, a PVC) is refused (exit 1) unless `--allow-replace`; so is a change of unknown effect on such a resource.",
    "",
    "Where the rules come from (each printed with the plan):",
    "",
    "- resource options the program registers: `replaceOnChanges`, `ignoreChanges`, `deleteBeforeReplace`;",
    '- @pulumi/command: its SDK adds `replaceOnChanges: ["triggers[*]"]` to every Command (local/command.js at 1.2.1);',
    "  any other input is an update, which runs `update` (or `create`) and never `delete`",
    "  (pulumi/pulumi-command provider/pkg/provider/local/commandController.go at v1.2.1);",
    "- Kubernetes objects: pulumi-kubernetes' force-new table (provider/pkg/provider/diff.go): `metadata.name` and",
    "  `namespace`; Job `spec.template`, `selector`, `completions`, `parallelism`; StatefulSet `volumeClaimTemplates`,",
    "  `selector`, `serviceName`, `podManagementPolicy`; PVC `spec` (all of it); Service `clusterIP`; ConfigMap and Secret data;",
    "- AWS: the bridged Terraform schema's `ForceNew` of hashicorp/terraform-provider-aws (pulumi-aws 7.48.0's schema marks",
    "  no `willReplaceOnChanges`: its SDK registers no `replaceOnChanges`), read for EC2 instances, key pairs, security",
    "  groups, EBS volumes, FSx for ONTAP file systems and EKS node groups (lab/plan/change/aws.ts). Other AWS types",
    "  (FSx SVMs and volumes, EKS clusters, KMS keys, Elastic IPs, launch templates, …) are **unknown**, never assumed to update;",
    "- a resource whose name carries the changed value (the benchmark collectors' `…-collect-<runId>`) is replaced under",
    "  its new name: Pulumi creates the new one, then deletes the old.",
    "",
    "Limits: the plan compares offline plans, whose fake ids depend on names only; a replaced or created resource's",
    "outputs are taken as changing for the inputs that read them (they are judged like any changed input). An updated",
    "Command's stdout is taken as unchanged (the kubeconfig after a k0s upgrade names the same Elastic IP and CA), except",
    "where pulumi-kubernetes cannot know it: a Kubernetes provider whose kubeconfig comes from a resource the change touches",
    "is unknown at preview and replaced, with every object it manages, unless its `clusterIdentifier` is unchanged",
    "(pulumi-kubernetes DiffConfig; the engine's providerChanged). The k0s and EKS clusters' providers carry one: the",
    "controller's instance id and the install's id, the EKS cluster's ARN and creation time (lab/plan/change/providers.ts).",
    "",
    "A key the upstream tool fixes when the cluster is created is refused before any plan (exit 2), naming the tool's rule:",
    'Pulumi would update it in place, but the running cluster would refuse it or break ("Creation-time keys" below).',
    "",
    "The tables below are one representative change of every key of every stack kind, on a shipped stack of the kind.",
    "",
  ];
  let kind = "";
  for (const i of impacts) {
    if (i.kind !== kind) {
      kind = i.kind;
      out.push(
        "",
        `## ${kind} (stack \`${i.stack}\`)`,
        "",
        "| key | change | what it does to the live stack | `lab plan --change` |",
        "|---|---|---|---|",
      );
    }
    const change = i.value === undefined ? "-" : `\`${cell(i.value)}\`${i.note ? ` (${cell(i.note)})` : ""}`;
    out.push(`| \`${i.key}\` | ${change} | ${cell(effectCell(i))} | ${verdictCell(i)} |`);
  }
  out.push(...fixedKeySections());
  const holding = impacts.filter((i) => (i.plan?.held.length ?? 0) > 0);
  out.push(
    "",
    "## Changes a running cluster holds",
    "",
    "A change that deletes a PersistentVolume or a claim that the running cluster still uses cannot finish",
    "(lab/plan/change/held.ts): pulumi-kubernetes replaces an object of a fixed name by deleting it first, while the",
    "claim bound to a volume and the pods mounting a claim are still there; `kubernetes.io/pv-protection` and",
    "`kubernetes.io/pvc-protection` keep the object, the delete waits its 10 minutes and fails, and the cluster is left",
    "half changed. A claim deleted and created again under its name never binds to its `Retain` volume again (the",
    "volume stays Released with the old claim's uid; the update waits 5 minutes for the claim and fails). A claim that",
    "benchmark Jobs mount is not held (their pods are complete). `lab plan --change` refuses these (exit 1, whatever",
    "`--allow-replace` says) and says what to do instead.",
    "",
    "| kind | key | what holds it | instead |",
    "|---|---|---|---|",
    ...holding.map((i) => {
      const p = i.plan as ChangePlan;
      const more = p.held.length > 1 ? ` (and ${p.held.length - 1} more)` : "";
      return `| ${i.kind} | \`${i.key}\` | ${cell(`${p.held[0].name}: ${p.held[0].why}`)}${more} | ${cell(heldInstead(p.kind, p.stack))} |`;
    }),
  );
  out.push(
    "",
    "## Code changes that act on a live stack",
    "",
    "`lab plan --change` plans config changes; these changes of the lab's code act on a stack deployed before them at its",
    "next `up` (lab/plan/change/code-changes.ts).",
    "",
    "| kind | change | what the next `up` does | source |",
    "|---|---|---|---|",
    ...CODE_CHANGES.map((c) => `| ${c.kind} | ${cell(c.change)} | ${cell(c.effect)} | ${cell(c.source)} |`),
  );
  out.push("", ...IMAGES_MOVED);
  return `${out.join("\n")}\n`;
}

/** The "Creation-time keys" and "One-way keys" sections: the keys `lab plan --change` refuses before any plan. */
function fixedKeySections(): string[] {
  return [
    "",
    "## Creation-time keys",
    "",
    "Fixed by the upstream tool when the stack's cluster is created (lab/plan/change/creation-time.ts, read at the versions",
    "the lab pins). `lab plan --change` refuses a change of any of them on a live stack (exit 2).",
    "",
    ...keyRuleTable(CREATION_TIME_KEYS),
    "",
    "## One-way keys",
    "",
    "Keys a live stack can change one way only: the tool refuses the other way when it applies the change, after a",
    "plan would have called it an update (lab/plan/change/creation-time.ts). `lab plan --change` refuses that way (exit 2).",
    "",
    ...keyRuleTable(ONE_WAY_KEYS),
    "",
    "Keys whose change replaces what holds data (`lab:az`, `lab:deploymentType`, …) are refused by the plan itself",
    "(exit 1 without `--allow-replace`), with the replacing input and its rule.",
  ];
}

/** A table of keys with the upstream rule that fixes them, by kind. */
function keyRuleTable(
  byKind: Readonly<Record<string, readonly { key: string; rule: string; source: string; instead: string }[]>>,
): string[] {
  return [
    "| kind | key | rule | source | instead |",
    "|---|---|---|---|---|",
    ...Object.entries(byKind).flatMap(([k, keys]) =>
      keys.map((f) => `| ${k} | \`${f.key}\` | ${cell(f.rule)} | ${cell(f.source)} | ${cell(f.instead)} |`),
    ),
  ];
}
