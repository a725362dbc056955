/**
 * Bad input to every `lab` command, as a user runs it (`node bin/lab.js …`, two at a time): exit
 * status 2, the problem in the one format naming the argument or key (or commander's own usage
 * error), nothing on stdout, no stack frame. The stack configs' bad inputs are ./bad-inputs.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliResult, lab, pool } from "./cli";

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bad-commands-"));
const NOWHERE = path.join(TMP, "nowhere");
/** A plain file where the commands expect a directory, and a directory where they expect a file. */
const FILE = path.join(TMP, "a-file");
fs.writeFileSync(FILE, "not a directory\n");
const OUT_RULE = "a directory this user can write into or create";
const WORK_RULE = "an existing directory this user can write into";
const RUN_ID_RULE = "a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2)";

/** [command line, the whole of stderr (exact), or its first line when `first`]. */
const CASES: ReadonlyArray<{ args: string[]; stderr: string; first?: true }> = [
  { args: ["plan"], stderr: "lab plan needs exactly one of --stack S, --config FILE, --scenario X, --all\n" },
  { args: ["plan", "--scenario", "nope"], stderr: "no scenario 'nope': the scenarios are fsx-eks, kafka-fsx, ceph-nitro\n" },
  {
    args: ["plan", "--config", `${NOWHERE}.yaml`],
    stderr: `${NOWHERE}.yaml: 'config' must be a readable Pulumi stack config file (Pulumi.<stack>.yaml; no such file), got "${NOWHERE}.yaml"\n`,
  },
  {
    args: ["run", "no-such-scenario", "--dry-run"],
    stderr: `'scenario' must be one of fsx-eks, kafka-fsx, ceph-nitro, got "no-such-scenario"\n`,
  },
  {
    args: ["run", "ceph-nitro", "--dry-run", "--set", "dev.lab:az=us-east-1c"],
    stderr:
      "stack dev: 'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got \"us-east-1c\"\n" +
      "stack compare: not planned further: its upstream dev has problems\n",
  },
  {
    args: ["run", "ceph-nitro", "--dry-run", "--set", "nitro.lab:networkStack=org/storage-bench-lab/nowhere", "--set", "nitro.lab:reps=0"],
    stderr:
      "stack nitro: 'lab:networkStack' must be the name of a stack planned before it or shipped as Pulumi.<stack>.yaml (no stack named 'nowhere'), got \"org/storage-bench-lab/nowhere\"\n" +
      "stack nitro: 'lab:reps' must be an integer from 1 to 20, got 0\n" +
      "stack compare: not planned further: its upstream nitro has problems\n",
  },
  {
    args: ["run", "ceph-nitro", "--dry-run", "--run-id", "BAD_ID"],
    stderr: `'--run-id' must be ${RUN_ID_RULE}, got "BAD_ID"\n`,
    first: true,
  },
  { args: ["parse", "fio", NOWHERE], stderr: `'file' must be a readable file (no such file or directory), got "${NOWHERE}"\n` },
  { args: ["parse", "fio", TMP], stderr: `'file' must be a readable file (it is a directory), got "${TMP}"\n` },
  {
    args: ["parse", "nope", TMP],
    stderr: `'tool' must be one of fio, ioping, pgbench, omb, got "nope"\n'file' must be a readable file (it is a directory), got "${TMP}"\n`,
  },
  {
    args: ["plan", "--config", TMP],
    stderr: `${TMP}: 'config' must be a readable Pulumi stack config file (Pulumi.<stack>.yaml; it is a directory), got "${TMP}"\n`,
  },
  { args: ["report", NOWHERE], stderr: `'<dir>' must be a readable directory (no such file or directory), got "${NOWHERE}"\n` },
  {
    args: ["report", FILE, TMP, "--out", FILE],
    stderr: `'<dir>' must be a readable directory (it is a file), got "${FILE}"\n'--out' must be ${OUT_RULE} (it is a file), got "${FILE}"\n`,
  },
  {
    args: ["report", TMP, "--out", `${FILE}/report`],
    stderr: `'--out' must be ${OUT_RULE} (a part of it is a file, not a directory), got "${FILE}/report"\n`,
  },
  { args: ["bench", "local", "--dir", FILE], stderr: `'--dir' must be ${WORK_RULE} (it is a file), got "${FILE}"\n` },
  { args: ["results", "save", "--stack", "dev", "--dir", FILE], stderr: `'--dir' must be ${OUT_RULE} (it is a file), got "${FILE}"\n` },
  {
    args: ["experiment", "mysql-failover", "--stack", "dev", "--results", FILE],
    stderr: `'--results' must be ${OUT_RULE} (it is a file), got "${FILE}"\n`,
  },
  { args: ["report", TMP, "--format", "pdf"], stderr: `'--format' must be a comma-separated list of md, html, svg, got "pdf"\n` },
  {
    args: ["util", NOWHERE, FILE, "--no-cloudwatch"],
    stderr: `'<dir>' must be ${WORK_RULE} (no such file or directory), got "${NOWHERE}"\n'<dir>' must be ${WORK_RULE} (it is a file), got "${FILE}"\n`,
  },
  { args: ["experiment", "nope", "--stack", "x"], stderr: "unknown experiment 'nope': one of mysql-failover, fsx-failover\n" },
  { args: ["bench", "local", "--reps", "0"], stderr: "'--reps' must be an integer from 1 to 20, got 0\n" },
  { args: ["results", "save"], stderr: "error: required option '--stack <name>' not specified\n", first: true },
  { args: ["janitor", "--bogus"], stderr: "error: unknown option '--bogus'\n", first: true },
];

let results: CliResult[];
beforeAll(async () => {
  results = await pool(CASES.map((c) => () => lab(c.args)));
}, 600_000);
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

describe("bad input to every command: exit 2, the problem named, no stack frame", () => {
  test("every command of the CLI has a case", () => {
    const commands = new Set(CASES.map((c) => c.args[0]));
    expect([...commands].sort()).toEqual(["bench", "experiment", "janitor", "parse", "plan", "report", "results", "run", "util"]);
  });

  test.each(CASES.map((c, i) => [c.args.join(" "), i] as const))("lab %s", (_, i) => {
    const r = results[i];
    const c = CASES[i];
    const stderr = c.first ? `${r.stderr.split("\n")[0]}\n` : r.stderr;
    expect({ status: r.status, stdout: r.stdout, stderr }).toEqual({ status: 2, stdout: "", stderr: c.stderr });
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
