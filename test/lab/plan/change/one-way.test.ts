/** One-way keys (lab/plan/change/creation-time.ts ONE_WAY_KEYS): the way the tool refuses is refused before any plan. */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ONE_WAY_KEYS, oneWayProblems } from "../../../../lab/plan/change/creation-time";
import { ROOT } from "../../../helpers/root";

const EBS =
  'EC2 ModifyVolume grows a volume only: "The target volume size must be greater than or equal to the existing size of the volume" [boto/botocore 0e6e2404 botocore/data/ec2/2016-11-15/service-2.json:59984-59986 (ModifyVolumeRequest Size)]; keep the size or grow it; a smaller OSD disk is a new stack';
const K0SCTL =
  'k0sctl apply refuses a release older than the one running ("can\'t perform a downgrade") [k0sproject/k0sctl v0.32.2 phase/validate_facts.go:39-53 (validateDowngrade)]; keep the running release or upgrade; an older one is a new stack';

describe("one-way keys", () => {
  test("a smaller OSD volume is refused, from the default too; a larger or equal one passes", () => {
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: undefined, after: "200" }])).toEqual([
      `'lab:osdVolumeGiB' cannot go from "350" to "200" on a live ceph-k0s stack: ${EBS}`,
    ]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "400", after: undefined }])).toHaveLength(1);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "350", after: "400" }])).toEqual([]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:osdVolumeGiB", before: "350", after: "350" }])).toEqual([]);
  });

  test("an older k0s release is refused, by patch and by k0s build; a newer one passes", () => {
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: undefined, after: "v1.36.3+k0s.1" }])).toEqual([
      `'lab:k0sVersion' cannot go from "v1.36.3+k0s.2" to "v1.36.3+k0s.1" on a live ceph-k0s stack: ${K0SCTL}`,
    ]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.35.9+k0s.9" }])).toHaveLength(1);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.36.4+k0s.0" }])).toEqual([]);
    expect(oneWayProblems("ceph-k0s", [{ key: "lab:k0sVersion", before: "v1.36.3+k0s.2", after: "v1.37.0+k0s.0" }])).toEqual([]);
  });

  test("other kinds and keys: nothing", () => {
    expect(Object.keys(ONE_WAY_KEYS)).toEqual(["ceph-k0s"]);
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
