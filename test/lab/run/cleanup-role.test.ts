/**
 * `lab run --cleanup-role-arn`: the cleanup identity (lab janitor, docs/ci.md) gets each EKS
 * cluster's admin access entry, so its destroy can delete the clusters' Kubernetes objects; the
 * other kinds are untouched; a bad ARN is one problem under the option's name.
 */
import * as path from "node:path";
import { withCleanupRole } from "../../../lab/run/admin";
import { prepareOffline } from "../../../lab/run/prepare";
import { ROOT } from "../../helpers/root";
import { removeTmpDirs, tmpDir } from "../experiment/support";

const ARN = "arn:aws:iam::111122223333:role/lab-cleanup";
const now = new Date(Date.UTC(2026, 0, 15));
afterAll(removeTmpDirs);

describe("withCleanupRole", () => {
  test("added to lab:adminRoleArns of an eks stack, after the roles given, once", () => {
    expect(withCleanupRole({ "lab:kind": "eks" }, ARN)["lab:adminRoleArns"]).toBe(JSON.stringify([ARN]));
    const given = { "lab:kind": "eks", "lab:adminRoleArns": JSON.stringify(["arn:aws:iam::111122223333:role/ops"]) };
    expect(withCleanupRole(given, ARN)["lab:adminRoleArns"]).toBe(JSON.stringify(["arn:aws:iam::111122223333:role/ops", ARN]));
    const twice = { "lab:kind": "eks", "lab:adminRoleArns": JSON.stringify([ARN]) };
    expect(withCleanupRole(twice, ARN)["lab:adminRoleArns"]).toBe(JSON.stringify([ARN]));
  });
  test("a kind without the key, or a value that is not a list (the stack's rule refuses it), as it is", () => {
    expect(withCleanupRole({ "lab:kind": "ceph-k0s" }, ARN)).toEqual({ "lab:kind": "ceph-k0s" });
    expect(withCleanupRole({ "lab:kind": "eks", "lab:adminRoleArns": "ops" }, ARN)).toEqual({
      "lab:kind": "eks",
      "lab:adminRoleArns": "ops",
    });
  });
});

describe("lab run --cleanup-role-arn, planned", () => {
  test("the fsx-eks cluster gets a cluster-admin access entry for the role; the other stacks no key", async () => {
    const resultsRoot = path.join(tmpDir("lab-run-cleanup-"), "results");
    const prep = await prepareOffline("fsx-eks", { runId: "r7", adminCidr: "100.64.7.9/32", cleanupRoleArn: ARN }, ROOT, resultsRoot, now);
    expect(prep.problems).toEqual([]);
    const withKey = prep.specs.filter((s) => s.config["lab:adminRoleArns"] !== undefined).map((s) => s.name);
    expect(withKey).toEqual(["fsx-eks-cluster"]);
    const cluster = prep.plans.get("fsx-eks-cluster")!.resources.find((r) => r.type === "eks:index:Cluster")!;
    expect(cluster.inputs.accessEntries).toEqual({
      "admin-1": {
        principalArn: ARN,
        accessPolicies: {
          admin: { policyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", accessScope: { type: "cluster" } },
        },
      },
    });
  }, 120_000);

  test("a bad ARN: one problem naming the option, the rule and the value", async () => {
    const resultsRoot = path.join(tmpDir("lab-run-cleanup-"), "results");
    const prep = await prepareOffline(
      "fsx-eks",
      { runId: "r7", adminCidr: "100.64.7.9/32", cleanupRoleArn: "arn:aws:iam::111122223333:user/x" },
      ROOT,
      resultsRoot,
      now,
    );
    expect(prep.problems).toEqual([
      `'--cleanup-role-arn' must be an IAM role ARN (arn:aws:iam::<account>:role/<name>), got "arn:aws:iam::111122223333:user/x"`,
    ]);
  }, 120_000);
});
