import * as aws from "@pulumi/aws";
import * as command from "@pulumi/command";
import * as dockerBuild from "@pulumi/docker-build";
import * as eks from "@pulumi/eks";
import * as k8s from "@pulumi/kubernetes";
import { costOf, ID_PREFIXES, isTypeToken, RESOURCE_TYPES, resourceType, TYPE_FAMILIES, TYPES } from "../../lab/resource-types";

/** The SDK class a token names: `aws:ec2/vpc:Vpc` → aws.ec2.Vpc, `kubernetes:apps/v1:Deployment` → k8s.apps.v1.Deployment. */
function sdkToken(token: string): string | undefined {
  if (token === "pulumi:providers:aws") return `pulumi:providers:${(aws.Provider as unknown as { __pulumiType: string }).__pulumiType}`;
  if (token === "docker-build:index:Image") return (dockerBuild.Image as unknown as { __pulumiType: string }).__pulumiType;
  if (token === "command:local:Command") return (command.local.Command as unknown as { __pulumiType: string }).__pulumiType;
  if (token === "command:remote:Command") return (command.remote.Command as unknown as { __pulumiType: string }).__pulumiType;
  const component = /^eks:index:([A-Za-z0-9]+)$/.exec(token);
  if (component) return (eks as unknown as Record<string, { __pulumiType?: string } | undefined>)[component[1]]?.__pulumiType;
  const m = /^(aws|kubernetes):([A-Za-z0-9.]+)\/([A-Za-z0-9]+)?:?([A-Za-z0-9]+)$/.exec(token);
  if (!m) return undefined;
  const [, pkg, mod, sub, cls] = m;
  const root = (pkg === "aws" ? aws : k8s) as unknown as Record<string, Record<string, unknown>>;
  // Kubernetes API groups are SDK modules by their first label: networking.k8s.io → k8s.networking, rbac.authorization.k8s.io → k8s.rbac.
  const ns = pkg === "aws" ? root[mod] : (root[mod.split(".")[0]] as Record<string, unknown>)?.[sub as string];
  return ((ns as Record<string, { __pulumiType?: string }> | undefined)?.[cls] ?? {}).__pulumiType;
}

describe("the one table of resource type tokens", () => {
  test("every token is the token of a real SDK class (@pulumi/aws 7, @pulumi/kubernetes 4, @pulumi/eks 4, @pulumi/docker-build, @pulumi/command)", () => {
    const wrong = Object.keys(RESOURCE_TYPES).filter((t) => sdkToken(t) !== t);
    expect(wrong).toEqual([]);
    expect(Object.keys(RESOURCE_TYPES).length).toBe(78);
  });

  test("short names are unique, and TYPES maps each to its token", () => {
    const names = Object.values(RESOURCE_TYPES).map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(TYPES).sort()).toEqual([...names].sort());
    for (const [token, info] of Object.entries(RESOURCE_TYPES)) expect((TYPES as Record<string, string>)[info.name]).toBe(token);
    expect([TYPES.instance, TYPES.ebsVolume, TYPES.awsProvider, TYPES.cronJob]).toEqual([
      "aws:ec2/instance:Instance",
      "aws:ebs/volume:Volume",
      "pulumi:providers:aws",
      "kubernetes:batch/v1:CronJob",
    ]);
  });

  test("the priced types are the thirteen the estimate prices", () => {
    const priced = Object.entries(RESOURCE_TYPES)
      .filter(([, i]) => i.cost === "priced")
      .map(([t]) => t);
    expect(priced).toEqual([
      "aws:ec2/natGateway:NatGateway",
      "aws:ec2/eip:Eip",
      "aws:ec2/vpcEndpoint:VpcEndpoint",
      "aws:ec2/instance:Instance",
      "aws:ebs/volume:Volume",
      "aws:fsx/ontapFileSystem:OntapFileSystem",
      "aws:kms/key:Key",
      "aws:secretsmanager/secret:Secret",
      "aws:eks/cluster:Cluster",
      "aws:eks/nodeGroup:NodeGroup",
      "eks:index:Cluster",
      "eks:index:ManagedNodeGroup",
      "kubernetes:core/v1:PersistentVolumeClaim",
    ]);
  });

  test("the fake-id prefixes of the offline plan", () => {
    expect(ID_PREFIXES).toEqual({
      "aws:ec2/vpc:Vpc": "vpc-",
      "aws:ec2/subnet:Subnet": "subnet-",
      "aws:ec2/routeTable:RouteTable": "rtb-",
      "aws:ec2/internetGateway:InternetGateway": "igw-",
      "aws:ec2/natGateway:NatGateway": "nat-",
      "aws:ec2/eip:Eip": "eipalloc-",
      "aws:ec2/securityGroup:SecurityGroup": "sg-",
      "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup": "sg-",
      "aws:ec2/vpcEndpoint:VpcEndpoint": "vpce-",
      "aws:ec2/flowLog:FlowLog": "fl-",
      "aws:ec2/instance:Instance": "i-",
      "aws:ec2/keyPair:KeyPair": "key-",
      "aws:ebs/volume:Volume": "vol-",
      "aws:ec2/launchTemplate:LaunchTemplate": "lt-",
      "aws:ec2/placementGroup:PlacementGroup": "pg-",
      "aws:fsx/ontapFileSystem:OntapFileSystem": "fs-",
      "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine": "svm-",
      "aws:fsx/ontapVolume:OntapVolume": "fsvol-",
      "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule": "sgr-",
      "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule": "sgr-",
    });
  });

  test("costOf: a token's own entry, else its longest family, else unknown", () => {
    expect(
      [
        "aws:ec2/instance:Instance",
        "aws:ec2/flowLog:FlowLog",
        "aws:ec2/route:Route",
        "pulumi:providers:aws",
        "pulumi:pulumi:StackReference",
        "lab:network:Network",
        "kubernetes:helm.sh/v3:Release",
        "aws:iam/role:Role",
        "aws:s3/bucketV2:BucketV2",
        "eks:index:Cluster",
        "eks:index:NodeGroupV2",
        "awsx:ec2:Vpc",
        "aws:rds/instance:Instance",
        "gcp:compute/instance:Instance",
        "aws:ec2/vpc:VpcX",
        "constructor",
      ].map(costOf),
    ).toEqual([
      "priced",
      "usage-billed",
      "free",
      "free",
      "free",
      "free",
      "free",
      "free",
      "usage-billed",
      "priced",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(Object.values(TYPE_FAMILIES).every((c) => c === "free" || c === "usage-billed")).toBe(true);
  });

  test("resourceType and isTypeToken know exactly the table's tokens", () => {
    expect(resourceType("aws:ebs/volume:Volume")).toEqual({ name: "ebsVolume", cost: "priced", idPrefix: "vol-" });
    expect(resourceType("aws:kms/key:Key")).toEqual({ name: "kmsKey", cost: "priced" });
    expect([resourceType("aws:iam/instanceProfile:InstanceProfile"), resourceType("toString"), resourceType("")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([isTypeToken("kubernetes:batch/v1:Job"), isTypeToken("kubernetes:batch/v1:job"), isTypeToken("hasOwnProperty")]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
