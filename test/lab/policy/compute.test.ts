import { TYPES as T } from "../../../lab/resource-types";
import { COMPUTE_RULES } from "../../../lab/policy/compute";
import { COMPUTED } from "../../../lab/policy/rule";
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
