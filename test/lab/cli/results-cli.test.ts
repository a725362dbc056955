/** `lab results save` and `lab parse` as a user runs them. */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function lab(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin", "lab.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

const sample = (metric: string, value: number) => ({
  metric,
  value,
  unit: "txn/s",
  metadata: { tool: "pgbench", runId: "r7", stack: "dev", rep: 1, instanceType: "m4.xlarge", hypervisor: "xen" },
});

/** A stand-in `pulumi` that prints the given stack outputs (and checks how it was called). */
function fakePulumi(outputs: unknown): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
  fs.writeFileSync(path.join(bin, "outputs.json"), JSON.stringify(outputs));
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/sh\n[ "$*" = "stack output --json --stack org/storage-bench-lab/dev" ] || { echo "unexpected: $*" >&2; exit 3; }\ncat "${bin}/outputs.json"\n`,
    { mode: 0o755 },
  );
  return bin;
}

describe("lab results save", () => {
  test("writes samples.json and raw/ under results/<stack>/<runId>/, then refuses to overwrite the run", () => {
    const bin = fakePulumi({
      results: [sample("pgbench.tps", 374.95)],
      rawOutputs: [{ name: "pgbench-rep1.txt", text: "tps = 374.95\n" }],
      kubeconfig: "[secret]",
    });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "lab-results-"));
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const r = lab(["results", "save", "--stack", "org/storage-bench-lab/dev", "--dir", path.join(work, "results")], env);
    // The stand-in answers only `stack output`: the run's manifest cannot be taken, the results are saved all the same.
    expect(r.stderr).toBe(
      "manifest not taken (pulumi config --json --stack org/storage-bench-lab/dev failed: unexpected: config --json --stack org/storage-bench-lab/dev): results saved without one\n",
    );
    expect(r.status).toBe(0);
    const dir = path.join(work, "results", "dev", "r7");
    expect(r.stdout).toBe(`${dir}\n`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "samples.json"), "utf8"))).toEqual([sample("pgbench.tps", 374.95)]);
    expect(fs.readFileSync(path.join(dir, "raw", "pgbench-rep1.txt"), "utf8")).toBe("tps = 374.95\n");

    const again = lab(["results", "save", "--stack", "org/storage-bench-lab/dev", "--dir", path.join(work, "results")], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      `${dir} already exists: a run's results are written once; set a new lab:runId, or move the old directory away\n`,
    );
  });

  test("a stack without results is an error, and nothing is written", () => {
    const bin = fakePulumi({ vpcId: "vpc-1" });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "lab-results-"));
    const r = lab(["results", "save", "--stack", "org/storage-bench-lab/dev", "--dir", path.join(work, "results")], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "stack org/storage-bench-lab/dev has no 'results' output: it is not a benchmark stack, or it has not been deployed\n",
    );
    expect(fs.existsSync(path.join(work, "results"))).toBe(false);
  });
});

describe("lab parse", () => {
  test("prints the samples of a real fio output as JSON", () => {
    const file = path.join(ROOT, "test", "fixtures", "fio", "seed-gtod-reduce.json");
    const r = lab(["parse", "fio", file]);
    expect(r.status).toBe(0);
    const samples = JSON.parse(r.stdout);
    expect(samples.map((s: { metric: string }) => s.metric)).toEqual([
      "fio.read.iops",
      "fio.read.bandwidth",
      "fio.write.iops",
      "fio.write.bandwidth",
      "fio.error",
    ]);
  });

  test("a truncated file exits 1 with a message naming it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-parse-"));
    const file = path.join(dir, "cut.json");
    fs.writeFileSync(file, fs.readFileSync(path.join(ROOT, "test", "fixtures", "fio", "seed-gtod-reduce.json"), "utf8").slice(0, 400));
    const r = lab(["parse", "fio", file]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.startsWith(`${file}: `)).toBe(true);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });
});
