/** The runner against a fake Automation API workspace (./fakes.ts): order, parallelism, failures at every stage, results before destroy. */
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EXIT, RunEnv, RunOutcome, RunPlan, runScenario } from "../../../lab/run/runner";
import { saveStackOutputs } from "../../../lab/run/results";
import { cephPlan, FakeOptions, FakeWorkspace, memoryReporter, ORG } from "./fakes";

interface Run {
  out: RunOutcome;
  ws: FakeWorkspace;
  calls: string[];
  lines: string[];
  root: string;
}

async function run(opts: FakeOptions = {}, plan: RunPlan = cephPlan(), env: Partial<RunEnv> = {}): Promise<Run> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-run-"));
  const ws = new FakeWorkspace(opts);
  const rep = memoryReporter();
  const out = await runScenario({
    preflight: async () => ({ problems: [], run: { plan, workspace: ws } }),
    reporter: rep,
    saveResults: (stack, o) => saveStackOutputs(root, stack, o),
    destroyAttempts: 2,
    retryDelayMs: 0,
    progressIntervalMs: 0,
    ...env,
  });
  return { out, ws, calls: ws.short(), lines: rep.lines, root };
}

const ops = (calls: string[], kind: string) => calls.filter((c) => c.startsWith(`${kind} `)).map((c) => c.split(" ")[1]);
const idx = (calls: string[], c: string) => {
  const i = calls.indexOf(c);
  if (i < 0) throw new Error(`no call '${c}' in ${calls.join(" | ")}`);
  return i;
};
/** Every destroy of a stack ends before any destroy of the stacks it depends on starts. */
function expectReverseOrder(calls: string[]) {
  const deps: Record<string, string[]> = { dev: ["network"], nitro: ["network"], compare: ["dev", "nitro"] };
  for (const [s, ups] of Object.entries(deps))
    for (const u of ups)
      if (calls.includes(`destroy-end ${s}`) && calls.includes(`destroy-start ${u}`))
        expect(idx(calls, `destroy-end ${s}`)).toBeLessThan(idx(calls, `destroy-start ${u}`));
}

describe("runScenario", () => {
  test("success: up in dependency order, dev and nitro in parallel, results saved before the first destroy, all destroyed in reverse", async () => {
    const r = await run({ upMs: { dev: 60, nitro: 60 } });
    expect(r.out.status).toBe("succeeded");
    expect(r.out.exitCode).toBe(EXIT.ok);
    const c = r.calls;
    expect(ops(c, "up-start")).toEqual(["network", "dev", "nitro", "compare"]);
    // real parallelism: both independent stacks start before either finishes
    expect(idx(c, "up-start nitro")).toBeLessThan(idx(c, "up-end dev"));
    expect(idx(c, "up-start dev")).toBeLessThan(idx(c, "up-end nitro"));
    // network first, compare last
    expect(idx(c, "up-end network")).toBeLessThan(idx(c, "up-start dev"));
    expect(idx(c, "up-end dev")).toBeLessThan(idx(c, "up-start compare"));
    expect(idx(c, "up-end nitro")).toBeLessThan(idx(c, "up-start compare"));
    expect(ops(c, "destroy-start")[0]).toBe("compare");
    expect(ops(c, "destroy-start")[3]).toBe("network");
    expectReverseOrder(c);
    expect(r.out.destroyed).toEqual(expect.arrayContaining(["compare", "dev", "nitro", "network"]));
    expect(r.out.destroyed[0]).toBe("compare");
    expect(r.out.destroyed[3]).toBe("network");
    expect(r.out.saved).toEqual([path.join(r.root, "dev", "r1"), path.join(r.root, "nitro", "r1")]);
    expect(JSON.parse(fs.readFileSync(path.join(r.root, "dev", "r1", "samples.json"), "utf8"))[0].value).toBe(500);
    expect(r.out.left).toEqual([]);
    expect(r.out.report[0]).toBe("== run ceph-nitro r1: succeeded, every stack destroyed");
    expect(r.out.report.slice(1)).toEqual([
      "created: network, dev, nitro, compare",
      `destroyed: ${r.out.destroyed.join(", ")}`,
      `results: ${path.join(r.root, "dev", "r1")}, ${path.join(r.root, "nitro", "r1")}`,
      "left: nothing",
    ]);
  });

  test("results are on disk before the first destroy is called", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-run-"));
    const seen: string[][] = [];
    const ws = new FakeWorkspace({
      onDestroyStart: () => seen.push(["dev", "nitro"].filter((s) => fs.existsSync(path.join(root, s, "r1", "samples.json")))),
    });
    const out = await runScenario({
      preflight: async () => ({ problems: [], run: { plan: cephPlan(), workspace: ws } }),
      reporter: memoryReporter(),
      saveResults: (stack, o) => saveStackOutputs(root, stack, o),
      retryDelayMs: 0,
    });
    expect(out.status).toBe("succeeded");
    expect(seen[0]).toEqual(["dev", "nitro"]);
    expect(seen).toHaveLength(4);
  });

  test("progress: one line per stack and operation with state, resources done/total and elapsed time", async () => {
    let t = 0;
    const r = await run({}, cephPlan(), { clock: () => (t += 1000) });
    const net = r.lines.filter((l) => / network /.test(l));
    expect(net).toEqual([
      // the clock ticks 1 s per read: the run starts at the first read, the up at the second
      "+00:00:01 up      network      started    0/3 resources  0s",
      "+00:00:02 up      network      running    1/3 resources  1s",
      "+00:00:03 up      network      running    2/3 resources  2s",
      "+00:00:04 up      network      running    3/3 resources  3s",
      "+00:00:05 up      network      done       3/3 resources  4s",
      expect.stringMatching(/^\+00:00:\d\d destroy network {6}started {4}0\/3 resources {2}0s$/),
      expect.stringMatching(/^\+00:00:\d\d destroy network {6}running {4}1\/3 resources {2}1s$/),
      expect.stringMatching(/^\+00:00:\d\d destroy network {6}running {4}2\/3 resources {2}2s$/),
      expect.stringMatching(/^\+00:00:\d\d destroy network {6}running {4}3\/3 resources {2}3s$/),
      expect.stringMatching(/^\+00:00:\d\d destroy network {6}done {7}3\/3 resources {2}4s$/),
    ]);
  });

  test("a failure at preflight creates nothing: exit 2, every problem listed", async () => {
    const ws = new FakeWorkspace();
    const rep = memoryReporter();
    const out = await runScenario({
      preflight: async () => ({
        problems: ["Pulumi CLI: not on the PATH: install it (https://www.pulumi.com/docs/install/)", "kubectl: not on the PATH"],
      }),
      reporter: rep,
      saveResults: () => undefined,
    });
    expect(out.exitCode).toBe(EXIT.preflight);
    expect(out.stage).toBe("preflight");
    expect(ws.calls).toEqual([]);
    expect(out.created).toEqual([]);
    expect(rep.lines).toEqual([
      "preflight failed (nothing was created):",
      "  Pulumi CLI: not on the PATH: install it (https://www.pulumi.com/docs/install/)",
      "  kubectl: not on the PATH",
    ]);
  });

  test.each([
    ["network", ["network"]],
    ["dev", ["network", "dev", "nitro"]],
    ["nitro", ["network", "dev", "nitro"]],
    ["compare", ["network", "dev", "nitro", "compare"]],
  ])(
    "a failure at up %s destroys exactly what was created, in reverse order, exit 1 naming the stage",
    async (failing, createdExpected) => {
      const r = await run({ failUp: { [failing]: "all" }, upMs: { dev: 40, nitro: 40 } });
      expect(r.out.status).toBe("failed");
      expect(r.out.exitCode).toBe(EXIT.failed);
      expect(r.out.stage).toBe(`up ${failing}`);
      expect([...r.out.created].sort()).toEqual([...createdExpected].sort());
      expect([...r.out.destroyed].sort()).toEqual([...createdExpected].sort());
      expect(ops(r.ws.calls, "select").sort()).toEqual(createdExpected.map((s) => `${ORG}${s}`).sort());
      expect(ops(r.calls, "destroy-start").sort()).toEqual([...createdExpected].sort());
      expectReverseOrder(r.calls);
      expect(r.out.report[0]).toBe(
        `== run ceph-nitro r1: failed at up ${failing}: up of ${failing} failed: error: creating EC2 Instance: InsufficientInstanceCapacity`,
      );
      expect(r.out.left).toEqual([]);
    },
  );

  test("a failure at up dev cancels nitro's running up (its signal aborts) before cleaning up", async () => {
    const r = await run({ failUp: { dev: "all" }, upMs: { dev: 10, nitro: 5000 } });
    expect(r.calls).toContain("up-canceled nitro");
    expect(r.out.stage).toBe("up dev");
    expect(ops(r.calls, "destroy-start").sort()).toEqual(["dev", "network", "nitro"]);
  });

  test("results of the stacks that finished are saved before the destroys after a failure", async () => {
    const r = await run({ failUp: { compare: "all" } });
    expect(r.out.saved).toEqual([path.join(r.root, "dev", "r1"), path.join(r.root, "nitro", "r1")]);
    expect(r.out.stage).toBe("up compare");
  });

  test("a failure at a step (rerun dev) destroys everything, exit 1 naming the step; the run before it is saved", async () => {
    const plan = cephPlan({ steps: [{ kind: "rerun", stacks: ["dev", "nitro"], times: 2 }] });
    const r = await run({ failUp: { dev: 2 } }, plan);
    expect(r.out.stage).toBe("step 1 rerun dev (lab:runId r1-2)");
    expect(r.out.exitCode).toBe(EXIT.failed);
    expect([...r.out.destroyed].sort()).toEqual(["compare", "dev", "network", "nitro"]);
    expectReverseOrder(r.calls);
    expect(r.out.saved).toContain(path.join(r.root, "dev", "r1"));
  });

  test("a rerun step re-runs with lab:runId <id>-k and saves every repetition", async () => {
    const plan = cephPlan({ steps: [{ kind: "rerun", stacks: ["dev", "nitro"], times: 2 }] });
    const r = await run({}, plan);
    expect(r.out.status).toBe("succeeded");
    expect([...r.out.saved].sort()).toEqual(
      ["dev/r1", "dev/r1-2", "dev/r1-3", "nitro/r1", "nitro/r1-2", "nitro/r1-3"].map((d) => path.join(r.root, d)),
    );
    expect(r.calls.filter((c) => c === `config ${ORG}dev lab:runId`.replace(ORG, ""))).toHaveLength(2);
    expect(r.ws.configs.get(`${ORG}dev`)!["lab:runId"]).toBe("r1-3");
  });

  test("a failure at results save destroys everything, exit 1 naming the stack", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-run-"));
    const r = await run({}, cephPlan(), {
      saveResults: (stack, o) => {
        if (stack === "nitro") throw new Error("results/nitro/r1 already exists");
        return saveStackOutputs(root, stack, o);
      },
    });
    expect(r.out.stage).toBe("results save nitro");
    expect(r.out.exitCode).toBe(EXIT.failed);
    expect(r.out.report[0]).toBe("== run ceph-nitro r1: failed at results save nitro: results/nitro/r1 already exists");
    expect([...r.out.destroyed].sort()).toEqual(["compare", "dev", "network", "nitro"]);
    expect(fs.existsSync(path.join(root, "dev", "r1", "samples.json"))).toBe(true);
  });

  test("a benchmark stack that exported no results fails the run (exit 1) naming it and its outputs; the other's results are saved and reported", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-run-"));
    const reported: string[][] = [];
    const r = await run({ withoutResults: ["nitro"] }, cephPlan(), {
      saveResults: (stack, o) => saveStackOutputs(root, stack, o),
      afterResults: async (saved, status) => {
        reported.push([status, ...saved]);
        return ["report: results/runs/ceph-nitro-r1/report/report.html (and report.md)"];
      },
    });
    const why = "stack nitro (lab:kind ceph-k0s) exported no 'results': its benchmarks saved nothing (its outputs: expiresAt, kubeconfig)";
    expect([r.out.status, r.out.exitCode, r.out.stage, r.out.error]).toEqual(["failed", EXIT.failed, "results nitro", why]);
    expect(r.out.report[0]).toBe(`== run ceph-nitro r1: failed at results nitro: ${why}`);
    expect(r.out.saved).toEqual([path.join(root, "dev", "r1")]);
    expect(reported).toEqual([["partial", path.join(root, "dev", "r1")]]);
    expect(r.out.report).toContain("report: results/runs/ceph-nitro-r1/report/report.html (and report.md)");
    expect([...r.out.destroyed].sort()).toEqual(["compare", "dev", "network", "nitro"]);
    // both: one failure naming both stacks
    const both = await run({ withoutResults: ["dev", "nitro"] });
    expect(both.out.stage).toBe("results dev, nitro");
    expect(both.out.error).toBe(`${why.replace("nitro", "dev")}; ${why}`);
  });

  test.each([
    ["compare", ["compare", "dev", "nitro", "network"]],
    ["dev", ["dev", "network"]],
    ["nitro", ["nitro", "network"]],
    ["network", ["network"]],
  ])(
    "a destroy of %s that keeps failing is retried, then reported with the stacks left and the commands; exit 3",
    async (failing, leftExpected) => {
      const r = await run({ failDestroy: { [failing]: Infinity } });
      expect(r.out.stage).toBe(`destroy ${failing}`);
      expect(r.out.exitCode).toBe(EXIT.left);
      expect(r.calls.filter((c) => c === `destroy-failed ${failing}`)).toHaveLength(2);
      // everything not blocked by the failed stack is destroyed, still in reverse order
      expect([...r.out.destroyed].sort()).toEqual(["compare", "dev", "network", "nitro"].filter((s) => !leftExpected.includes(s)).sort());
      expectReverseOrder(r.calls);
      expect(r.out.left.map((l) => l.stack).sort()).toEqual([...leftExpected].sort());
      expect(r.out.left.find((l) => l.stack === failing)!.why).toBe(
        `destroy failed 2 time(s): destroy of ${failing} failed: DependencyViolation`,
      );
      const finish = r.out.report.slice(r.out.report.indexOf("finish with, in /project:") + 1);
      expect(finish.sort()).toEqual(leftExpected.map((s) => `  pulumi destroy --yes --remove --stack ${ORG}${s}`).sort());
      expect(r.out.report[0]).toBe(`== run ceph-nitro r1: failed at destroy ${failing}: destroy of ${failing} failed: DependencyViolation`);
    },
  );

  test("a destroy that fails once is retried and succeeds", async () => {
    const r = await run({ failDestroy: { nitro: 1 } });
    expect(r.out.status).toBe("succeeded");
    expect(r.calls.filter((c) => c.startsWith("destroy-start nitro"))).toHaveLength(2);
    expect(r.lines.some((l) => /destroy nitro {8}retrying .*attempt 1\/2: destroy of nitro failed: DependencyViolation$/.test(l))).toBe(
      true,
    );
  });

  test("--keep: nothing destroyed on success, the kept stacks and their destroy commands reported", async () => {
    const r = await run({}, cephPlan({ keep: true }));
    expect(r.out.status).toBe("kept");
    expect(r.out.exitCode).toBe(EXIT.ok);
    expect(ops(r.calls, "destroy-start")).toEqual([]);
    expect(r.out.report.slice(-5)).toEqual([
      "finish with, in /project:",
      `  pulumi destroy --yes --remove --stack ${ORG}compare`,
      `  pulumi destroy --yes --remove --stack ${ORG}nitro`,
      `  pulumi destroy --yes --remove --stack ${ORG}dev`,
      `  pulumi destroy --yes --remove --stack ${ORG}network`,
    ]);
  });

  test("--keep does not keep anything after a failure", async () => {
    const r = await run({ failUp: { nitro: "all" } }, cephPlan({ keep: true }));
    expect(r.out.status).toBe("failed");
    expect([...r.out.destroyed].sort()).toEqual(["dev", "network", "nitro"]);
  });

  test("first Ctrl-C (in process): running ups cancelled, results saved, everything created destroyed, exit 130", async () => {
    const interrupts = new EventEmitter();
    const r = await run(
      { upMs: { dev: 5000, nitro: 5000 }, onUpStart: (s) => s === "nitro" && setTimeout(() => interrupts.emit("cancel"), 20) },
      cephPlan(),
      {
        interrupts,
      },
    );
    expect(r.out.status).toBe("interrupted");
    expect(r.out.exitCode).toBe(EXIT.interrupted);
    expect(r.out.stage).toBe("interrupted (Ctrl-C) during up dev, up nitro");
    expect(r.calls).toEqual(expect.arrayContaining(["up-canceled dev", "up-canceled nitro"]));
    expect([...r.out.destroyed].sort()).toEqual(["dev", "network", "nitro"]);
    expectReverseOrder(r.calls);
  });

  test("first Ctrl-C from a terminal (forwardInterrupt false): the runner sends no second SIGINT to the running CLI", async () => {
    const interrupts = new EventEmitter();
    const r = await run(
      { upMs: { dev: 150, nitro: 150 }, onUpStart: (s) => s === "nitro" && setTimeout(() => interrupts.emit("cancel"), 10) },
      cephPlan(),
      {
        interrupts,
        forwardInterrupt: false,
      },
    );
    // the fake CLI was not signalled: its ups ran to the end (the terminal's SIGINT is the real CLI's business)
    expect(r.calls).not.toContain("up-canceled dev");
    expect(r.calls).toEqual(expect.arrayContaining(["up-end dev", "up-end nitro"]));
    expect(ops(r.calls, "up-start")).not.toContain("compare");
    expect(r.out.status).toBe("interrupted");
    expect([...r.out.destroyed].sort()).toEqual(["dev", "network", "nitro"]);
  });
});
