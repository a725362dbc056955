import { changedPaths, covers, segments } from "../../../../lab/plan/change/paths";
import { COMMAND_SOURCE, judgeInput, typeRule } from "../../../../lab/plan/change/rules";
import { KUBERNETES_SOURCE } from "../../../../lab/plan/change/kubernetes";

const NONE = { replaceOnChanges: [], ignoreChanges: [] };
const COMMAND_OPTIONS = { replaceOnChanges: ["triggers[*]"], ignoreChanges: [] };

describe("input paths", () => {
  test("segments and coverage: prefixes either way, [*] any index, pulumi-kubernetes' leading dot", () => {
    expect(segments(".spec.template")).toEqual(["spec", "template"]);
    expect(segments("triggers[*]")).toEqual(["triggers", "*"]);
    expect(covers("triggers[*]", "triggers[2]")).toBe(true);
    expect(covers(".spec.template", "spec.template.spec.containers[0].image")).toBe(true);
    expect(covers("spec.selector", "spec")).toBe(true);
    expect(covers(".spec.template", "spec.replicas")).toBe(false);
    expect(covers("environment", "environmentX")).toBe(false);
  });

  test("changed paths: as deep as both sides have the same shape", () => {
    expect(changedPaths({ a: 1, b: { c: [1, 2], d: "x" } }, { a: 1, b: { c: [1, 3], d: "y" } })).toEqual(["b.c[1]", "b.d"]);
    expect(changedPaths({ l: [1, 2] }, { l: [1, 2, 3] })).toEqual(["l"]);
    expect(changedPaths({ a: 1 }, { a: 1, n: true })).toEqual(["n"]);
    expect(changedPaths({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });
});

describe("what one changed input does", () => {
  test("@pulumi/command: a trigger replaces (the SDK's own replaceOnChanges), any other input updates", () => {
    expect(judgeInput("command:local:Command", "triggers[0]", COMMAND_OPTIONS)).toEqual({
      path: "triggers[0]",
      verdict: "replace",
      rule: "replaces (replaceOnChanges: triggers[*], added by the @pulumi/command SDK to every Command)",
      source: COMMAND_SOURCE,
    });
    expect(judgeInput("command:local:Command", "environment.LAB_K0SCTL_CONFIG", COMMAND_OPTIONS)).toEqual({
      path: "environment.LAB_K0SCTL_CONFIG",
      verdict: "update",
      rule: "in place (not a replacing input)",
      source: COMMAND_SOURCE,
    });
  });

  test("ignoreChanges drops a change under its path; replaceOnChanges of the program replaces", () => {
    expect(judgeInput("command:local:Command", "environment.X", { replaceOnChanges: [], ignoreChanges: ["environment"] }).verdict).toBe(
      "ignored",
    );
    expect(
      judgeInput("kubernetes:apps/v1:StatefulSet", "spec.replicas", { replaceOnChanges: ["spec.replicas"], ignoreChanges: [] }),
    ).toMatchObject({
      verdict: "replace",
      rule: "replaces (replaceOnChanges: spec.replicas)",
      source: "the resource's options (the program)",
    });
  });

  test.each([
    ["kubernetes:batch/v1:Job", "spec.template.spec.containers[0].image", "replace", "replaces (force-new .spec.template)"],
    ["kubernetes:batch/v1:Job", "spec.selector.matchLabels.app", "replace", "replaces (force-new .spec.selector)"],
    ["kubernetes:batch/v1:Job", "spec.activeDeadlineSeconds", "update", "in place (not a replacing input)"],
    [
      "kubernetes:apps/v1:StatefulSet",
      "spec.volumeClaimTemplates[0].spec.resources.requests.storage",
      "replace",
      "replaces (force-new .spec.volumeClaimTemplates)",
    ],
    ["kubernetes:apps/v1:StatefulSet", "spec.replicas", "update", "in place (not a replacing input)"],
    ["kubernetes:apps/v1:StatefulSet", "spec.template.spec.containers[0].image", "update", "in place (not a replacing input)"],
    ["kubernetes:core/v1:PersistentVolumeClaim", "spec.resources.requests.storage", "replace", "replaces (force-new .spec)"],
    ["kubernetes:core/v1:Service", "spec.clusterIP", "replace", "replaces (force-new .spec.clusterIP)"],
    ["kubernetes:core/v1:Service", "spec.ports[0].port", "update", "in place (not a replacing input)"],
    ["kubernetes:core/v1:ConfigMap", "data.script", "replace", "replaces (force-new .data)"],
    ["kubernetes:ceph.rook.io/v1:CephCluster", "metadata.name", "replace", "replaces (force-new .metadata.name)"],
    ["kubernetes:ceph.rook.io/v1:CephCluster", "spec.storage.useAllNodes", "update", "in place (not a replacing input)"],
  ])("%s %s: %s", (type, path, verdict, rule) => {
    expect(judgeInput(type, path, NONE)).toEqual({ path, verdict, rule, source: KUBERNETES_SOURCE });
  });

  test.each([
    ["aws:ec2/instance:Instance", "instanceType", "update"],
    ["aws:ec2/instance:Instance", "ami", "replace"],
    ["aws:ec2/instance:Instance", "subnetId", "replace"],
    ["aws:ec2/instance:Instance", "rootBlockDevice.volumeSize", "update"],
    ["aws:ec2/instance:Instance", "rootBlockDevice.encrypted", "replace"],
    ["aws:ebs/volume:Volume", "size", "update"],
    ["aws:ebs/volume:Volume", "availabilityZone", "replace"],
    ["aws:fsx/ontapFileSystem:OntapFileSystem", "throughputCapacity", "update"],
    ["aws:fsx/ontapFileSystem:OntapFileSystem", "deploymentType", "replace"],
    ["eks:index:ManagedNodeGroup", "instanceTypes[0]", "replace"],
    ["eks:index:ManagedNodeGroup", "scalingConfig.desiredSize", "update"],
    // An input the table does not name, and a type it does not know: unknown, never an update.
    ["aws:ec2/instance:Instance", "hostResourceGroupArn", "unknown"],
    ["aws:ec2/instance:Instance", "userData", "update"],
    ["aws:ec2/instance:Instance", "userDataReplaceOnChange", "update"],
    ["aws:fsx/ontapVolume:OntapVolume", "bypassSnaplockEnterpriseRetention", "unknown"],
    // FSx volumes: UpdateVolume resizes in place; the style and a FlexGroup's layout are fixed at creation.
    ["aws:fsx/ontapVolume:OntapVolume", "sizeInMegabytes", "update"],
    ["aws:fsx/ontapVolume:OntapVolume", "storageEfficiencyEnabled", "update"],
    ["aws:fsx/ontapVolume:OntapVolume", "volumeStyle", "replace"],
    ["aws:fsx/ontapVolume:OntapVolume", "aggregateConfiguration.constituentsPerAggregate", "replace"],
    ["aws:fsx/ontapVolume:OntapVolume", "name", "replace"],
  ])("%s %s: %s", (type, path, verdict) => {
    expect(judgeInput(type, path, NONE).verdict).toBe(verdict);
  });

  test("user data replaces an instance only with userDataReplaceOnChange (CustomizeDiff ForceNewIf)", () => {
    expect(judgeInput("aws:ec2/instance:Instance", "userData", NONE, { userDataReplaceOnChange: true })).toEqual({
      path: "userData",
      verdict: "replace",
      rule: "replaces (force-new userData when userDataReplaceOnChange is true)",
      source: typeRule("aws:ec2/instance:Instance")?.source,
    });
    expect(judgeInput("aws:ec2/instance:Instance", "userDataBase64", NONE, { userDataReplaceOnChange: true }).verdict).toBe("replace");
    expect(judgeInput("aws:ec2/instance:Instance", "userData", NONE, { userDataReplaceOnChange: false }).verdict).toBe("update");
    expect(judgeInput("aws:ec2/instance:Instance", "userData", NONE, { userDataReplaceOnChange: "<computed>" }).verdict).toBe("unknown");
  });

  test("every AWS rule names the terraform-provider-aws file it was read in, at a commit", () => {
    for (const t of [
      "aws:ec2/instance:Instance",
      "aws:ebs/volume:Volume",
      "aws:fsx/ontapFileSystem:OntapFileSystem",
      "aws:eks/nodeGroup:NodeGroup",
    ]) {
      expect(typeRule(t)?.source).toMatch(
        /^hashicorp\/terraform-provider-aws .*: internal\/service\/[a-z0-9]+\/[a-z0-9_]+\.go @ [0-9a-f]{40} /,
      );
    }
    expect(judgeInput("aws:kms/key:Key", "description", NONE)).toEqual({
      path: "description",
      verdict: "unknown",
      rule: "unknown: no replacement rule known for aws:kms/key:Key",
      source: "",
    });
  });
});
