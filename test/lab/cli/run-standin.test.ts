/**
 * `lab run` whole (lab/cli/run.ts `runAction`: the real scenarios planned offline, preflight, the
 * runner) on the real Automation API against the stand-in CLIs (test/lab/run/standin.ts):
 * placeholder administrator addresses refused, `--admin-cidr auto` from a local checkip, `--set
 * '*.key=v'` only where the kind has the key, no Docker daemon, partial results with their
 * manifest, and nothing written into the project.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { runAction } from "../../../lab/cli/run";
import { INSTALL_DOCKER } from "../../../components/image/rules";
import { gitState } from "../../../lab/utilization/manifest";
import { standinPerTest, tps } from "../run/standin";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const NOW = new Date("2030-01-02T12:00:00Z");
const pulumiFiles = () => fs.readdirSync(ROOT).filter((f) => /^Pulumi\..+\.yaml$/.test(f));

const run = standinPerTest();

const OK = { dev: { outputs: { results: [tps(374.95)] } }, nitro: { outputs: { results: [tps(537.24)] } } };

/** A checkip stand-in on 127.0.0.1 answering `body`; its URL. */
async function checkip(body: string, status = 200): Promise<{ url: string; close: () => void; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(status, { "content-type": "text/plain" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
    hits: () => hits,
  };
}

describe("lab run (runAction) against the stand-in Pulumi CLI", () => {
  test("the shipped placeholder address is refused before anything is created: exit 2, one line per stack that has lab:adminCidrs", async () => {
    const s = run.start({ stacks: OK });
    const code = await runAction("ceph-nitro", { runId: "p1" }, ROOT, s.dir, NOW);
    expect(code).toBe(2);
    const rule = (st: string) =>
      `  stack ${st}: 'lab:adminCidrs' must be your own address ranges, not the documentation range 198.51.100.0/24 (RFC 5737: a placeholder nobody connects from, so the cluster would be closed to you), got "198.51.100.7/32": run with --admin-cidr <your address>/32, or --admin-cidr auto`;
    expect(run.printed().split("\n")).toEqual(
      expect.arrayContaining(["preflight failed (nothing was created):", rule("dev"), rule("nitro")]),
    );
    expect(run.printed()).not.toContain("stack network:");
    expect(s.trace()).toEqual([]);
  });

  test("--admin-cidr with a documentation address is refused as an option", async () => {
    const s = run.start({ stacks: OK });
    const code = await runAction("ceph-nitro", { runId: "p2", adminCidr: "203.0.113.7/32" }, ROOT, s.dir, NOW);
    expect(code).toBe(2);
    expect(run.printed()).toContain(
      "  '--admin-cidr' must be not in the documentation range 203.0.113.0/24 (RFC 5737): your own address, or auto, got \"203.0.113.7/32\"",
    );
  });

  test("--admin-cidr auto: the address checkip answers, on the stacks that have the key; --set '*.key' only where the kind has it; results saved; no file in the project", async () => {
    const ip = await checkip("100.64.7.9\n");
    const s = run.start({ stacks: OK }, { LAB_CHECKIP_URL: ip.url });
    const before = pulumiFiles();
    const tree = gitState(ROOT);
    try {
      const code = await runAction(
        "ceph-nitro",
        { runId: "a1", adminCidr: "auto", keep: true, set: ["*.lab:instanceType=m5.xlarge"] },
        ROOT,
        s.dir,
        NOW,
      );
      expect(run.printed()).toContain("admin address: 100.64.7.9/32 (this machine's public address, --admin-cidr auto)");
      expect(code).toBe(0);
    } finally {
      ip.close();
    }
    expect(ip.hits()).toBe(1);
    const work = path.join(s.workRoot, "ceph-nitro-a1");
    const cfg = (st: string) => fs.readFileSync(path.join(work, `Pulumi.u-a1-${st}.yaml`), "utf8");
    expect(cfg("dev")).toContain('  lab:adminCidrs: "[\\"100.64.7.9/32\\"]"');
    expect(cfg("nitro")).toContain('  lab:adminCidrs: "[\\"100.64.7.9/32\\"]"');
    expect(cfg("nitro")).toContain('  lab:instanceType: "m5.xlarge"');
    expect(cfg("dev")).toContain('  lab:instanceType: "m5.xlarge"');
    expect(cfg("network")).not.toContain("lab:adminCidrs");
    expect(cfg("network")).not.toContain("lab:instanceType");
    expect(pulumiFiles()).toEqual(before);
    const manifest = JSON.parse(fs.readFileSync(path.join(s.dir, "results", "dev", "a1", "manifest.json"), "utf8"));
    expect(manifest.manifest.stacks.dev.kind).toBe("ceph-k0s");
    expect(manifest.partial).toBeUndefined();
    // the run wrote nothing into the tracked tree: its manifest has the tree's own state
    expect(manifest.manifest.git).toEqual(tree);
  });

  test("a run whose stacks are all destroyed removes its work directory (the link to the project unlinked, never followed); --keep keeps it", async () => {
    const s = run.start({ stacks: OK });
    const code = await runAction("ceph-nitro", { runId: "w1", adminCidr: "100.64.7.9/32" }, ROOT, s.dir, NOW);
    expect(code).toBe(0);
    const work = path.join(s.workRoot, "ceph-nitro-w1");
    expect(fs.existsSync(work)).toBe(false);
    expect(run.printed()).toContain(`work directory removed: ${work} (no stack of the run is left)`);
    // the project the link pointed at is whole
    expect(fs.existsSync(path.join(ROOT, "Pulumi.yaml"))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, "stacks", "index.ts"))).toBe(true);
    const kept = await runAction("ceph-nitro", { runId: "w2", adminCidr: "100.64.7.9/32", keep: true }, ROOT, s.dir, NOW);
    expect(kept).toBe(0);
    expect(fs.existsSync(path.join(s.workRoot, "ceph-nitro-w2", "Pulumi.u-w2-dev.yaml"))).toBe(true);
  });

  test("--admin-cidr auto when checkip answers something else: exit 2 naming the answer", async () => {
    const ip = await checkip("<html>rate limited</html>");
    const s = run.start({ stacks: OK }, { LAB_CHECKIP_URL: ip.url });
    try {
      expect(await runAction("ceph-nitro", { runId: "a2", adminCidr: "auto" }, ROOT, s.dir, NOW)).toBe(2);
    } finally {
      ip.close();
    }
    expect(run.printed()).toContain(
      `  --admin-cidr auto: ${ip.url} answered "<html>rate limited</html>", not an IPv4 address: give --admin-cidr <your address>/32`,
    );
    expect(s.trace()).toEqual([]);
  });

  test("a self-managed backend without PULUMI_CONFIG_PASSPHRASE(_FILE): exit 2 before any stack exists", async () => {
    const s = run.start({ stacks: OK }, { PULUMI_CONFIG_PASSPHRASE: undefined });
    const code = await runAction("ceph-nitro", { runId: "k1", adminCidr: "100.64.7.9/32" }, ROOT, s.dir, NOW);
    expect(code).toBe(2);
    expect(run.printed()).toContain(
      `  Pulumi backend: file://${s.state} is self-managed: its stacks' secrets are encrypted with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE`,
    );
    expect(s.trace().filter((t) => t.cmd === "stack init" || t.cmd === "stack select")).toEqual([]);
  });

  test("no Docker daemon for a stack that builds an image: exit 2 before any stack exists", async () => {
    const s = run.start({ stacks: {} });
    const noDocker = {
      env: {},
      homeDir: s.dir,
      os: "linux",
      arch: "x64",
      exists: () => false,
      readFile: () => undefined,
      get: () => Promise.reject(new Error("no daemon")),
    };
    const code = await runAction("fsx-eks", { runId: "d1", adminCidr: "100.64.7.9/32" }, ROOT, s.dir, NOW, { dockerProbe: noDocker });
    expect(code).toBe(2);
    expect(run.printed()).toContain(
      `  Docker, needed by fsx-eks-cluster (eks) to build the images of lab:images (or give them instead: lab:toolsImage, lab:ombImage): no Docker daemon on this machine (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): ${INSTALL_DOCKER}`,
    );
    expect(s.trace().filter((t) => t.cmd.startsWith("stack"))).toEqual([]);
  });

  test("a failed up with completed collectors: partial results and a manifest marked partial, before the destroy", async () => {
    const pgbench = fs.readFileSync(path.join(ROOT, "test", "fixtures", "pgbench", "tpcb-15.txt"), "utf8");
    const collector = {
      urn: "urn:pulumi:u-f1-dev::storage-bench-lab::command:local:Command::dev-pgbench-collect-$runId",
      type: "command:local:Command",
      custom: true,
      outputs: {
        stdout: `=== LAB-RESULT-BEGIN tool=pgbench rep=1 version=15.18 ===\n${pgbench}=== LAB-RESULT-END tool=pgbench rep=1 ===\n`,
      },
    };
    const s = run.start({
      stacks: {
        ...OK,
        dev: {
          failUp: { stdout: "kubernetes:batch/v1:Job (dev-pgbench-r1-2):\n    error: Job failed: BackoffLimitExceeded" },
          stateResources: [collector],
        },
      },
    });
    const code = await runAction("ceph-nitro", { runId: "f1", adminCidr: "100.64.7.9/32" }, ROOT, s.dir, NOW);
    expect(code).toBe(1);
    expect(run.printed()).toContain(
      "== run ceph-nitro f1: failed at up dev: kubernetes:batch/v1:Job (dev-pgbench-r1-2): error: Job failed: BackoffLimitExceeded",
    );
    const dir = path.join(s.dir, "results", "dev", "f1");
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
    expect(manifest.partial).toEqual({
      reason: "the stack's up failed: only the collectors that had completed",
      collectors: ["dev-pgbench-collect-f1"],
    });
    const samples = JSON.parse(fs.readFileSync(path.join(dir, "samples.json"), "utf8"));
    expect(samples.find((x: { metric: string }) => x.metric === "pgbench.tps").value).toBe(1644.801001);
    // saved before the first destroy started
    const savedLine = run
      .printed()
      .split("\n")
      .findIndex((l) => l.includes("PARTIAL (its up failed)"));
    const firstDestroy = run
      .printed()
      .split("\n")
      .findIndex((l) => / destroy /.test(l));
    expect(savedLine).toBeGreaterThan(-1);
    expect(savedLine).toBeLessThan(firstDestroy);
  });
});
