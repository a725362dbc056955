/**
 * What the failover experiments read from a deployed `fsx-eks` stack: the output contract, as a
 * zod schema, and its reader (`pulumi stack output --json --show-secrets --stack <stack>`, the
 * Pulumi CLI's own JSON of every output with secrets in clear; the same command lab/cli/results.ts
 * runs without `--show-secrets`).
 *
 * The stack must export (stacks/fsx-eks/index.ts):
 *
 * | output | what | why |
 * |---|---|---|
 * | `kubeconfig` (secret) | the eks stack's kubeconfig, passed through | one call as admin: a token of the experiment's ServiceAccount |
 * | `experimentAccess.<experiment>` | `{namespace, serviceAccount}` (stacks/fsx-eks/experiment-access.ts) | every other call, with that token (./kube.ts) |
 * | `region` | `aws:region` | the FSx API's region |
 * | `fileSystemId` | the fsx-ontap stack's `fileSystemId` | the lever and the watch |
 * | `mysql.namespace`, `mysql.sourceHost` | (already exported) | where the writer runs, what it writes to |
 * | `mysql.statefulSetName` | MySql `statefulSetName` | `<name>-0` is the source to move |
 * | `mysql.writerPasswordSecretRef` | MySql `writerPasswordSecret` (`{name, key}`) | the writer (MySQL account `lab_writer`, not root) reads its password from it, never from here |
 * | `mysql.storageClass` | the class of MySQL's volumes | samples' metadata |
 * | `storageClasses` | (already exported) | the fio volume's class (`fsx-ontap-nas`) must be one |
 * | `toolsImage` | (already exported) | the fio Job's image |
 */
import { execFile } from "node:child_process";
import { z } from "zod";
import { isPinnedImage, PINNED_IMAGE_RULE } from "../../core/images";

const text = z.string().min(1);
const dnsLabel = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, "a DNS-1123 label");

/** The outputs of an fsx-eks stack the experiments read. Other outputs are ignored. */
export const experimentOutputsSchema = z.object({
  kubeconfig: text,
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "an AWS region name"),
  fileSystemId: z.string().regex(/^fs-[0-9a-f]{8,17}$/, "an FSx file system id (fs-…)"),
  mysql: z.object({
    namespace: dnsLabel,
    sourceHost: text,
    statefulSetName: dnsLabel,
    writerPasswordSecretRef: z.object({ name: text, key: text }),
    storageClass: text,
  }),
  storageClasses: z.array(text).min(1),
  experimentAccess: z.object({
    "mysql-failover": z.object({ namespace: dnsLabel, serviceAccount: dnsLabel }),
    "fsx-failover": z.object({ namespace: dnsLabel, serviceAccount: dnsLabel }),
  }),
  toolsImage: z.string().refine((v) => isPinnedImage(v), PINNED_IMAGE_RULE),
});

export type ExperimentOutputs = z.output<typeof experimentOutputsSchema>;

/** The stack's outputs are missing or malformed: every problem, one per line. */
export class StackOutputsError extends Error {
  readonly problems: readonly string[];
  constructor(stack: string, problems: readonly string[]) {
    super(
      `stack ${stack} lacks what the failover experiments read (lab/experiment/outputs.ts; deploy it with stacks/fsx-eks exporting them):\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
    this.name = "StackOutputsError";
    this.problems = problems;
  }
}

/** Checks `raw` (the parsed JSON of `pulumi stack output --json --show-secrets`) against the contract; every problem at once. */
export function parseExperimentOutputs(stack: string, raw: unknown): ExperimentOutputs {
  const r = experimentOutputsSchema.safeParse(raw);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const where = i.path.length > 0 ? i.path.join(".") : "(the outputs)";
    const missing = i.code === "invalid_type" && /received undefined/.test(i.message);
    return missing ? `output '${where}' is missing` : `output '${where}': ${i.message}`;
  });
  throw new StackOutputsError(stack, problems);
}

/** Runs a program and resolves to its stdout; the rejection carries its stderr. */
export type RunProgram = (file: string, args: readonly string[], opts: { cwd: string; timeoutMs: number }) => Promise<string>;

export const runProgram: RunProgram = (file, args, opts) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { cwd: opts.cwd, timeout: opts.timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stderr }));
        else resolve(stdout);
      },
    );
  });

/** Reads and checks a deployed stack's outputs with the Pulumi CLI (`pulumi` on the PATH unless given). */
export async function readExperimentOutputs(
  stack: string,
  opts: { cwd: string; pulumi?: string; run?: RunProgram; timeoutMs?: number },
): Promise<ExperimentOutputs> {
  const pulumi = opts.pulumi ?? "pulumi";
  const args = ["stack", "output", "--json", "--show-secrets", "--stack", stack];
  let stdout: string;
  try {
    stdout = await (opts.run ?? runProgram)(pulumi, args, { cwd: opts.cwd, timeoutMs: opts.timeoutMs ?? 120_000 });
  } catch (e) {
    const err = e as { code?: string; stderr?: string; message: string; killed?: boolean };
    if (err.code === "ENOENT") throw new Error(`the Pulumi CLI (${pulumi}) is not on the PATH (https://www.pulumi.com/docs/install/)`);
    if (err.killed) throw new Error(`pulumi stack output --stack ${stack} did not answer within ${(opts.timeoutMs ?? 120_000) / 1000}s`);
    throw new Error(`pulumi stack output --stack ${stack} failed: ${(err.stderr || err.message).trim()}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch {
    throw new Error(`pulumi stack output --stack ${stack} did not print JSON`);
  }
  return parseExperimentOutputs(stack, raw);
}
