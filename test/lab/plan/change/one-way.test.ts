/** One-way keys (lab/plan/change/creation-time.ts ONE_WAY_KEYS): the way the tool refuses is refused before any plan. */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ONE_WAY_KEYS, oneWayProblems } from "../../../../lab/plan/change/creation-time";
import { ROOT } from "../../../helpers/root";

const EBS = "EC2 ModifyVolume only grows a volume; keep the size or grow it; a smaller OSD disk is a new stack";
const K0S_INSTEAD = "keep the running release, or upgrade to a later patch or the next minor (one minor per change)";
const DOWNGRADE = `k0sctl refuses a downgrade [k0sproject/k0sctl v0.32.2 phase/validate_facts.go:39-53 (validateDowngrade)]; ${K0S_INSTEAD}`;

describe("one-way keys", () => {
  test("a smaller OSD volume is refused, from the default too; a larger or equal one passes", () => {
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: undefined, after: "200" }])).toEqual([
      `'lab:osdVolumeGiB' cannot go from "350" to "200" on a live ceph-k0s stack: ${EBS}`,
    ]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "400", after: undefined }])).toHaveLength(1);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "350", after: "400" }])).toEqual([]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "350", after: "350" }])).toEqual([]);
  });

  test("an older k0s release is refused, by patch and by k0s build; a later patch or the next minor passes; two minors at once is refused", () => {
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: undefined, after: "v1.36.3+k0s.1" }])).toEqual([
      `'lab:k0sVersion' cannot go from "v1.36.3+k0s.2" to "v1.36.3+k0s.1" on a live ceph-k0s stack: ${DOWNGRADE}`,
    ]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.34.2+k0s.0", after: "v1.36.3+k0s.2" }])).toEqual([
      `'lab:k0sVersion' cannot go from "v1.34.2+k0s.0" to "v1.36.3+k0s.2" on a live ceph-k0s stack: k0s upgrades one minor at a time (v1.34 → v1.35 first) [k0sproject/k0s v1.36.3+k0s.2 docs/version-skew-policy.md:38-39]; ${K0S_INSTEAD}`,
    ]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.35.9+k0s.9" }])).toHaveLength(1);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.36.4+k0s.0" }])).toEqual([]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.37.0+k0s.0" }])).toEqual([]);
  });

  test("FSx storage: a first-generation file system only grows, by at least 10 %; a second-generation one is not judged", () => {
    const gen1 = { "lab:deploymentType": "MULTI_AZ_1" };
    expect(oneWayProblems("fsx-ontap", [{ key: "lab:storageCapacityGiB", before: "1024", after: "1000" }], gen1)).toEqual([
      `'lab:storageCapacityGiB' cannot go from "1024" to "1000" on a live fsx-ontap stack: a first-generation file system (MULTI_AZ_1) only grows; grow it by at least 10 %; a smaller first-generation file system is a new stack`,
    ]);
    expect(oneWayProblems("fsx-ontap", [{ key: "lab:storageCapacityGiB", before: "1024", after: "1100" }], {})).toEqual([
      `'lab:storageCapacityGiB' cannot go from "1024" to "1100" on a live fsx-ontap stack: an increase is at least 10 % (1127 GiB from 1024); grow it by at least 10 %; a smaller first-generation file system is a new stack`,
    ]);
    expect(oneWayProblems("fsx-ontap", [{ key: "lab:storageCapacityGiB", before: "1024", after: "2048" }], gen1)).toEqual([]);
    expect(
      oneWayProblems("fsx-ontap", [{ key: "lab:storageCapacityGiB", before: "2048", after: "1024" }], {
        "lab:deploymentType": "MULTI_AZ_2",
      }),
    ).toEqual([]);
  });

  test("other kinds and keys: nothing", () => {
    expect(Object.keys(ONE_WAY_KEYS)).toEqual(["ceph-k0s", "fsx-ontap"]);
    expect(oneWayProblems("kafka", [{ key: "lab:osdVolumeGiB", before: "350", after: "1" }])).toEqual([]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:reps", before: "5", after: "1" }])).toEqual([]);
  });

  test("lab plan --stack dev --change lab:osdVolumeGiB=200: exit 2, the rule, no plan", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "bin/lab.js"), "plan", "--stack", "dev", "--change", "lab:osdVolumeGiB=200"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: "" });
    expect(r.stderr).toContain(`'lab:osdVolumeGiB' cannot go from "350" to "200" on a live ceph-k0s stack: ${EBS}`);
  }, 60000);
});
