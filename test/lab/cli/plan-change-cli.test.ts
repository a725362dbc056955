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
      "refused: 7 change(s) would destroy data or may (ceph-osd-1, ceph-osd-2, ceph-osd-3, ceph-controller, ceph-worker-1, ceph-worker-2, ceph-worker-3); re-run with --allow-replace to accept\n",
    );
    expect(r.stdout).toContain(
      "  [1] hashicorp/terraform-provider-aws (bridged by pulumi-aws 7.48.0; ForceNew / RequiresReplace): internal/service/ec2/ebs_volume.go @ 0073593e7d6993ba482409f4dc35438daaa79bb3",
    );
    const allowed = lab("plan", "--stack", "dev", "--change", "lab:az=us-east-1b", "--allow-replace");
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain("--allow-replace: accepted 7 change(s) that destroy data or may (");
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
