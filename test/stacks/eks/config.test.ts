/** Config of the `eks` kind: types here, rules the components' (EksCluster, Trident), named by `lab:` keys. */
import { EMPTY_RULE, parseConfig } from "../../../stacks/lib/config/load";
import { checkEks, clusterNameFor, eksArgs, eksSchema, imagesOf, installsTrident, tridentArgs } from "../../../stacks/eks/config";
import { problemsOf } from "../../helpers/config";

const base = {
  "aws:region": "us-east-1",
  "lab:kind": "eks",
  "lab:owner": "alice",
  "lab:networkStack": "organization/storage-bench-lab/network",
};
const parse = (extra: Record<string, string> = {}, stack = "fsx-eks-cluster") =>
  parseConfig("eks", eksSchema, { ...base, ...extra }, (c) => checkEks(c, stack));

const KEYS =
  "aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:clusterName, lab:kubernetesVersion, lab:adminCidrs, lab:adminCidrMinPrefix, lab:adminRoleArns, lab:instanceType, lab:nodeCount, lab:nodeRootVolumeGiB, lab:logRetentionDays, lab:permissionsBoundaryArn, lab:nodeGroups, lab:trident, lab:tridentInstall, lab:tridentAddonVersion, lab:tridentNodePrep, lab:images";

describe("eks config", () => {
  test("no defaults of its own: the components' apply; the cluster is named after the stack", () => {
    const c = parse();
    expect(c).toEqual({
      region: "us-east-1",
      kind: "eks",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
      networkStack: "organization/storage-bench-lab/network",
    });
    expect(eksArgs(c, "fsx-eks-cluster")).toEqual({
      clusterName: "fsx-eks-cluster",
      kubernetesVersion: undefined,
      adminCidrs: undefined,
      adminRoleArns: undefined,
      instanceType: undefined,
      nodeCount: undefined,
      nodeRootVolumeGiB: undefined,
      logRetentionDays: undefined,
      nodeGroups: undefined,
    });
    expect(tridentArgs(c)).toEqual({ tridentInstall: undefined, tridentAddonVersion: undefined, tridentNodePrep: undefined });
    expect(installsTrident(c)).toBe(true);
    expect(imagesOf(c)).toEqual([]);
  });

  test("lab:images: the images to build, typed from Pulumi's string", () => {
    expect(imagesOf(parse({ "lab:images": '["tools","omb"]' }))).toEqual(["tools", "omb"]);
    expect(imagesOf(parse({ "lab:images": "[]" }))).toEqual([]);
  });

  test("typed values from Pulumi's strings", () => {
    const c = parse({
      "lab:adminCidrs": '["198.51.100.7/32"]',
      "lab:adminRoleArns": '["arn:aws:iam::123456789012:role/admins"]',
      "lab:nodeCount": "4",
      "lab:tridentInstall": "addon",
      "lab:tridentAddonVersion": "v25.6.2-eksbuild.1",
      "lab:kubernetesVersion": "1.35",
      "lab:tridentNodePrep": "[]",
    });
    expect(c).toMatchObject({
      adminCidrs: ["198.51.100.7/32"],
      adminRoleArns: ["arn:aws:iam::123456789012:role/admins"],
      nodeCount: 4,
      tridentInstall: "addon",
      tridentAddonVersion: "v25.6.2-eksbuild.1",
      kubernetesVersion: "1.35",
      tridentNodePrep: [],
    });
  });

  test.each<[string, Record<string, string>, string[]]>([
    [
      "0.0.0.0/0 refused, named by the key the user typed",
      { "lab:adminCidrs": '["0.0.0.0/0"]' },
      [
        `'lab:adminCidrs[0]' must be an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only, got "0.0.0.0/0"`,
      ],
    ],
    [
      "the add-on needs its version",
      { "lab:tridentInstall": "addon" },
      [
        "'lab:tridentAddonVersion' must be an EKS add-on version of netapp_trident-operator offered for the cluster's Kubernetes version (e.g. v25.6.2-eksbuild.1; aws eks describe-addon-versions --addon-name netapp_trident-operator) when 'lab:tridentInstall' is addon, got nothing",
      ],
    ],
    [
      "a Kubernetes version without add-on pins",
      { "lab:kubernetesVersion": "1.33" },
      [`'lab:kubernetesVersion' must be a Kubernetes version with pinned add-on versions in components/versions.ts (1.35), got "1.33"`],
    ],
    ["node count", { "lab:nodeCount": "1" }, ["'lab:nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1"]],
    ["a type error is the field's own", { "lab:nodeCount": "three" }, [`'lab:nodeCount' must be a whole number, got "three"`]],
    [
      "a bad cluster name",
      { "lab:clusterName": "-eks" },
      [`'lab:clusterName' must be an EKS cluster name of 1 to 56 letters, digits, '-' or '_', starting with a letter or digit, got "-eks"`],
    ],
    [
      "an unknown key, with a suggestion",
      { "lab:adminCidr": '["198.51.100.7/32"]' },
      [`'lab:adminCidr' must be a key of kind eks (did you mean 'lab:adminCidrs'?); its keys are ${KEYS}, got "[\\"198.51.100.7/32\\"]"`],
    ],
    [
      "a node group's field named by the key and index the user typed",
      {
        "lab:nodeGroups":
          '[{"name":"system","instanceType":"m5.large","nodeCount":3},{"name":"brokers","instanceType":"i3en.2xlarge","nodeCount":1,"dedicated":true}]',
      },
      ["'lab:nodeGroups[1].nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1"],
    ],
    [
      "a node group's type error is the field's own",
      { "lab:nodeGroups": '[{"name":"system","instanceType":"m5.large","nodeCount":"3"}]' },
      [`'lab:nodeGroups[0].nodeCount' must be a whole number, got "3"`],
    ],
    [
      "nodeGroups with the single group's keys",
      { "lab:nodeGroups": '[{"name":"system","instanceType":"m5.large","nodeCount":3}]', "lab:nodeCount": "3" },
      ["'lab:nodeCount' must be unset when 'lab:nodeGroups' is given (each group has its own), got 3"],
    ],
    [
      "no Trident: its install keys must go",
      {
        "lab:trident": "false",
        "lab:tridentInstall": "helm",
        "lab:tridentAddonVersion": "v25.6.2-eksbuild.1",
        "lab:tridentNodePrep": '["iscsi"]',
      },
      [
        `'lab:tridentInstall' must be unset when 'lab:trident' is false (no Trident is installed), got "helm"`,
        `'lab:tridentAddonVersion' must be unset when 'lab:trident' is false (no Trident is installed), got "v25.6.2-eksbuild.1"`,
        `'lab:tridentNodePrep' must be unset when 'lab:trident' is false (no Trident is installed), got ["iscsi"]`,
      ],
    ],
    [
      "tridentNodePrep: a protocol Trident's chart does not prepare",
      { "lab:tridentNodePrep": '["nfs"]' },
      [`'lab:tridentNodePrep' must be a list of distinct protocols among iscsi (e.g. ["iscsi"]), got ["nfs"]`],
    ],
    ["lab:trident is a boolean", { "lab:trident": "no" }, [`'lab:trident' must be true or false, got "no"`]],
    [
      "images: known ones, each once, all problems at once",
      { "lab:images": '["tools","fio","tools","omb","omb"]', "lab:nodeCount": "1" },
      [
        "'lab:nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1",
        `'lab:images[1]' must be one of tools, omb (a list of images to build for the stacks on this cluster, each once: tools (fio and ioping, for fsx-eks) or omb (OpenMessaging Benchmark, for kafka), e.g. [tools]), got "fio"`,
        `'lab:images[2]' must be another image than entry 0 (each is built once), got "tools"`,
        `'lab:images[4]' must be another image than entry 3 (each is built once), got "omb"`,
      ],
    ],
    ["images is a list", { "lab:images": '"tools"' }, [`'lab:images' must be a list (JSON, e.g. ["a","b"]), got "tools"`]],
    ["the network stack is required", { "lab:networkStack": "" }, [`'lab:networkStack' must be ${EMPTY_RULE}, got ""`]],
  ])("%s", (_n, extra, expected) => {
    expect(problemsOf(() => parse(extra))).toEqual(expected);
  });

  test("node groups and the Trident switch, typed from Pulumi's strings, passed to the component as they are", () => {
    const c = parse({
      "lab:nodeGroups":
        '[{"name":"system","instanceType":"m5.large","nodeCount":3},{"name":"clients","instanceType":"c5n.2xlarge","nodeCount":4,"dedicated":true,"labels":{"example.com/tier":"load"}}]',
      "lab:trident": "false",
    });
    expect(eksArgs(c, "kafka-cluster").nodeGroups).toEqual([
      { name: "system", instanceType: "m5.large", nodeCount: 3 },
      { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, dedicated: true, labels: { "example.com/tier": "load" } },
    ]);
    expect(installsTrident(c)).toBe(false);
  });

  test("cluster names from stack names: EKS characters only, at most 56, never empty", () => {
    expect(clusterNameFor("fsx-eks-cluster")).toBe("fsx-eks-cluster");
    expect(clusterNameFor("team.lab/eks")).toBe("team-lab-eks");
    expect(clusterNameFor("__x")).toBe("x");
    expect(clusterNameFor("e".repeat(80))).toBe("e".repeat(56));
    expect(clusterNameFor("...")).toBe("lab-eks");
    // A derived name passes the component's rule for any stack name.
    expect(problemsOf(() => parse({}, "My.Stack_Name-with-a-very-long-suffix-that-goes-on-and-on-and-on"), true)).toEqual([]);
  });
});
