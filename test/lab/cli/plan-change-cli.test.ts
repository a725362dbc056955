/** `lab plan --change` as a user runs it: a child process, its stdout and exit status. */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const lab = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "bin", "lab.js"), ...args], { cwd: ROOT, encoding: "utf8" });

jest.setTimeout(120_000);

describe("lab plan --change (CLI)", () => {
  test("another zone replaces the nodes and their volumes: refused (exit 1) unless --allow-replace (exit 0)", () => {
    const r = lab("plan", "--stack", "dev", "--change", "lab:az=us-east-1b");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "REPLACED: aws:ebs/volume:Volume ceph-osd-1\n    availabilityZone: replaces (force-new availabilityZone) [1]\n    destroys: the EBS volume and every byte on it\n",
    );
    expect(r.stdout).toContain(
      // A new controller is a new cluster: everything in it is replaced with its provider, Ceph and the Postgres namespace too.
      // pg-server: the Postgres StatefulSet deletes its claims with it (whenDeleted: Delete).
      "refused: 12 change(s) would destroy data or may (ceph-osd-1, ceph-osd-2, ceph-osd-3, ceph-controller, ceph-worker-1, ceph-worker-2, ceph-worker-3, rook-ns, rook-cluster, rook-pool, pg-ns, pg-server); re-run with --allow-replace to accept\n",
    );
    expect(r.stdout).toContain(
      "  [1] hashicorp/terraform-provider-aws (bridged by pulumi-aws 7.48.0; ForceNew / RequiresReplace): internal/service/ec2/ebs_volume.go @ 0073593e7d6993ba482409f4dc35438daaa79bb3",
    );
    // The new cluster would run the benchmark again under run id r1: refused even with --allow-replace ...
    const sameRun = lab("plan", "--stack", "dev", "--change", "lab:az=us-east-1b", "--allow-replace");
    expect(sameRun.status).toBe(1);
    expect(sameRun.stdout).toContain("--allow-replace: accepted 12 change(s) that destroy data or may (");
    expect(sameRun.stdout).toContain(
      "refused: 1 benchmark(s) would run again under run id(s) that ran (pgbench-pgbench-collect-r1); set a new lab:runId with this change",
    );
    // ... and accepted with a new run id.
    const allowed = lab("plan", "--stack", "dev", "--change", "lab:az=us-east-1b", "--change", "lab:runId=r2", "--allow-replace");
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain("runs its benchmark: pgbench-pgbench-collect-r2: a new run id, so its samples are new\n");
  });

  test("a Kafka change whose claims the running brokers hold: refused (exit 1) even with --allow-replace, with what to do instead", () => {
    const r = lab("plan", "--stack", "kafka", "--change", "lab:brokerVolumeGiB=1024", "--allow-replace");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "cannot finish: kafka-pvc-data-0-kafka-brokers-0: replacing claim kafka/data-0-kafka-brokers-0 deletes it while the broker pods of " +
        "KafkaNodePool brokers (cluster kafka) mount it: kubernetes.io/pvc-protection keeps a claim until no pod uses it (complete pods too), " +
        "so the delete waits 10 minutes and fails, the claim left Terminating [",
    );
    expect(r.stdout).toMatch(
      /\nrefused: 24 deletion\(s\) cannot finish on the running cluster \(kafka-storage-root-pvc-0, .*\); instead, destroy the stack and deploy it again with the new value \(`pulumi destroy --stack kafka`, then `pulumi up --stack kafka`\), clearing the brokers' directories in between: .* \(--allow-replace does not accept this\)\n/,
    );
  });

  test("a key k0s fixes at creation: exit 2 before any plan, naming k0s's rule and its source", () => {
    const r = lab("plan", "--stack", "dev", "--change", "lab:cni=kuberouter", "--change", "lab:wireguard=false");
    expect([r.status, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(
      `'lab:cni' cannot change on a live ceph-k0s stack ("calico" -> "kuberouter"): k0s fixes the CNI provider (network.provider) when the ` +
        'cluster is initialised: its controller refuses another one ("cannot change CNI provider from kuberouter to calico") and only a full ' +
        "redeployment changes it [k0sproject/k0s v1.36.3+k0s.2 pkg/component/controller/calico.go:360 and kuberouter.go:105; docs/networking.md:25; " +
        "docs/dynamic-configuration.md:54-65 (network.provider among the non-changeable options)]; plan the new setup as a new stack " +
        "(`lab plan --config`) and deploy it beside this one\n",
    );
  });

  test("usage errors exit 2 with the message: no --stack, a bad pair, a config error of the new value", () => {
    const noStack = lab("plan", "--change", "lab:runId=r2");
    expect([noStack.status, noStack.stderr]).toEqual([
      2,
      "lab plan --change and --change-config need --stack S (the deployed stack to change)\n",
    ]);
    const bad = lab("plan", "--stack", "dev", "--change", "runId");
    expect([bad.status, bad.stderr]).toEqual([2, `'--change' must be KEY=VALUE (e.g. lab:runId=r2), got "runId"\n`]);
    const invalid = lab("plan", "--stack", "dev", "--change", "lab:workerCount=2");
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain("'lab:workerCount' must be at least 3");
  });
});
