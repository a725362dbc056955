import { TYPES as T } from "../../../lab/resource-types";
import { COMPUTE_RULES, ec2NoPublicIpEip } from "../../../lab/policy/compute";
import { evaluatePlanRules } from "../../../lab/policy/evaluate";
import { COMPUTED, PlanResource } from "../../../lab/policy/rule";
import { Case, testRules } from "./cases";

const CASES: readonly Case[] = [
  // ec2-no-public-ip
  { rule: "ec2-no-public-ip", title: "private instance", type: T.instance, inputs: { associatePublicIpAddress: false }, want: [] },
  { rule: "ec2-no-public-ip", title: "instance not asking", type: T.instance, inputs: {}, want: [] },
  {
    rule: "ec2-no-public-ip",
    title: "the bastion, by its lab:role (PUBLIC_IP_ROLES)",
    type: T.instance,
    inputs: { associatePublicIpAddress: true, tags: { "lab:role": "bastion" } },
    want: [],
  },
  {
    rule: "ec2-no-public-ip",
    title: "launch template without a public address",
    type: T.launchTemplate,
    inputs: { networkInterfaces: [{ associatePublicIpAddress: "false" }] },
    want: [],
  },
  {
    rule: "ec2-no-public-ip",
    title: "a worker asking for a public address",
    type: T.instance,
    inputs: { associatePublicIpAddress: true, tags: { "lab:role": "worker" } },
    want: ["associatePublicIpAddress must be false (a private subnet, NAT for egress), got true"],
  },
  {
    rule: "ec2-no-public-ip",
    title: "a public address unknown until deploy",
    type: T.instance,
    inputs: { associatePublicIpAddress: COMPUTED },
    want: ["associatePublicIpAddress must be false (a private subnet, NAT for egress), got <computed>"],
  },
  {
    rule: "ec2-no-public-ip",
    title: "launch template with a public address on its second interface",
    type: T.launchTemplate,
    inputs: { networkInterfaces: [{}, { associatePublicIpAddress: "true" }] },
    want: ['networkInterfaces[1].associatePublicIpAddress must be false, got "true"'],
  },
  // ec2-imdsv2-required
  {
    rule: "ec2-imdsv2-required",
    title: "instance requiring IMDSv2",
    type: T.instance,
    inputs: { metadataOptions: { httpEndpoint: "enabled", httpTokens: "required" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance with the metadata endpoint disabled",
    type: T.instance,
    inputs: { metadataOptions: { httpEndpoint: "disabled" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance from a launch template without options of its own (the template is checked)",
    type: T.instance,
    inputs: { launchTemplate: { id: "lt-1", version: "$Latest" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance allowing IMDSv1",
    type: T.instance,
    inputs: { metadataOptions: { httpTokens: "optional" } },
    want: ['metadataOptions.httpTokens must be "required", got "optional"'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance without metadataOptions",
    type: T.instance,
    inputs: { instanceType: "t3.micro" },
    want: ['metadataOptions.httpTokens must be "required", got nothing'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "httpTokens unknown until deploy fails",
    type: T.instance,
    inputs: { metadataOptions: { httpTokens: COMPUTED } },
    want: ['metadataOptions.httpTokens must be "required", got <computed>'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "metadataOptions unknown until deploy fails",
    type: T.instance,
    inputs: { metadataOptions: COMPUTED },
    want: ['metadataOptions.httpTokens must be "required", got <computed>'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "launch template requiring IMDSv2",
    type: T.launchTemplate,
    inputs: { metadataOptions: { httpTokens: "required" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "launch template without metadataOptions",
    type: T.launchTemplate,
    inputs: {},
    want: ['metadataOptions.httpTokens must be "required", got nothing'],
  },
];

testRules("compute", COMPUTE_RULES, CASES);

describe("ec2-no-public-ip-eip: an Elastic IP goes to this stack's instances of PUBLIC_IP_ROLES only, tied by property dependencies", () => {
  const urn = (type: string, name: string) => `urn:pulumi:ceph-k0s::storage-bench-lab::${type}::${name}`;
  const instance = (name: string, role: string | undefined): PlanResource => ({
    urn: urn(T.instance, name),
    type: T.instance,
    name,
    inputs: { tags: role === undefined ? { Name: name } : { Name: name, "lab:role": role } },
  });
  const association = (inputs: Record<string, unknown>, deps: Record<string, string[]> = {}): PlanResource => ({
    urn: urn(T.eipAssociation, "ceph-bastion"),
    type: T.eipAssociation,
    name: "ceph-bastion",
    inputs: { allocationId: COMPUTED, ...inputs },
    propertyDependencies: deps,
  });
  const bastion = instance("ceph-bastion", "bastion");
  const controller = instance("ceph-controller", "controller");
  const run = (resources: PlanResource[]) => evaluatePlanRules(resources, [ec2NoPublicIpEip]).map((v) => v.message);

  test("the bastion's association (instanceId from the bastion instance) passes", () => {
    expect(run([bastion, controller, association({ instanceId: COMPUTED }, { instanceId: [bastion.urn] })])).toEqual([]);
  });
  test("an association to another role names the instance and its role", () => {
    expect(run([bastion, controller, association({ instanceId: COMPUTED }, { instanceId: [controller.urn] })])).toEqual([
      'ec2-no-public-ip-eip: ceph-bastion: instanceId is instance ceph-controller, whose lab:role is "controller": an Elastic IP goes only to instances tagged lab:role bastion',
    ]);
  });
  test("an untagged instance is refused: no role", () => {
    const node = instance("ceph-worker-1", undefined);
    expect(run([node, association({ instanceId: COMPUTED }, { instanceId: [node.urn] })])).toEqual([
      "ec2-no-public-ip-eip: ceph-bastion: instanceId is instance ceph-worker-1, whose lab:role is nothing: an Elastic IP goes only to instances tagged lab:role bastion",
    ]);
  });
  test("an instance id from outside the stack (a literal, or a dependency that is no instance of it) is refused", () => {
    expect(run([bastion, association({ instanceId: "i-0123456789abcdef0" })])).toEqual([
      'ec2-no-public-ip-eip: ceph-bastion: instanceId "i-0123456789abcdef0" is not an instance of this stack (its value comes from none): an Elastic IP goes only to this stack\'s instances tagged lab:role bastion',
    ]);
    expect(run([bastion, association({ instanceId: COMPUTED }, { instanceId: [urn("pulumi:pulumi:StackReference", "network")] })])).toEqual(
      [
        "ec2-no-public-ip-eip: ceph-bastion: instanceId <computed> is not an instance of this stack (its value comes from none): an Elastic IP goes only to this stack's instances tagged lab:role bastion",
      ],
    );
  });
  test("a network interface is refused, on the association and on the Eip itself", () => {
    expect(run([association({ networkInterfaceId: "eni-0123456789abcdef0" })])).toEqual([
      'ec2-no-public-ip-eip: ceph-bastion: networkInterfaceId attaches an Elastic IP to a network interface ("eni-0123456789abcdef0"): attach it by instanceId to an instance of this stack tagged lab:role bastion',
    ]);
    const eip: PlanResource = { urn: urn(T.eip, "x"), type: T.eip, name: "x", inputs: { domain: "vpc", networkInterface: COMPUTED } };
    expect(run([eip])).toEqual([
      "ec2-no-public-ip-eip: x: networkInterface attaches an Elastic IP to a network interface (<computed>): attach it by instance to an instance of this stack tagged lab:role bastion",
    ]);
  });
  test("an Eip's own instance input is held to the same rule; a NAT gateway's address (no target) is not this rule's", () => {
    const eip = (name: string, inputs: Record<string, unknown>, deps: Record<string, string[]> = {}): PlanResource => ({
      urn: urn(T.eip, name),
      type: T.eip,
      name,
      inputs: { domain: "vpc", ...inputs },
      propertyDependencies: deps,
    });
    expect(run([bastion, controller, eip("b", { instance: COMPUTED }, { instance: [bastion.urn] }), eip("lab-nat-az1", {})])).toEqual([]);
    expect(run([controller, eip("c", { instance: COMPUTED }, { instance: [controller.urn] })])).toEqual([
      'ec2-no-public-ip-eip: c: instance is instance ceph-controller, whose lab:role is "controller": an Elastic IP goes only to instances tagged lab:role bastion',
    ]);
  });
});
