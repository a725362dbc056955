import { TYPES as T } from "../../../lab/resource-types";
import { NETWORK_RULES } from "../../../lab/policy/network";
import { COMPUTED } from "../../../lab/policy/rule";
import { Case, testRules } from "./cases";

const CASES: readonly Case[] = [
  // sg-no-all-egress-to-internet
  {
    rule: "sg-no-all-egress-to-internet",
    title: "HTTPS to the internet",
    type: T.egressRule,
    inputs: { ipProtocol: "tcp", fromPort: 443, toPort: 443, cidrIpv4: "0.0.0.0/0", description: "https" },
    want: [],
  },
  {
    rule: "sg-no-all-egress-to-internet",
    title: "everything to the VPC",
    type: T.egressRule,
    inputs: { ipProtocol: "-1", cidrIpv4: "10.0.0.0/16", description: "vpc" },
    want: [],
  },
  {
    rule: "sg-no-all-egress-to-internet",
    title: "the k0s nodes' rule, by its description (ALL_EGRESS_EXCEPTIONS)",
    type: T.egressRule,
    inputs: { ipProtocol: "-1", cidrIpv4: "0.0.0.0/0", description: "all egress (packages, images, NTP)" },
    want: [],
  },
  {
    rule: "sg-no-all-egress-to-internet",
    title: "all traffic to 0.0.0.0/0",
    type: T.egressRule,
    inputs: { ipProtocol: "-1", cidrIpv4: "0.0.0.0/0", description: "anything" },
    want: [
      "egress all traffic to 0.0.0.0/0 (cidrIpv4): allow the ports the instances use (HTTPS for images and packages, NTP, DNS) or the VPC's CIDR",
    ],
  },
  {
    rule: "sg-no-all-egress-to-internet",
    title: "all traffic to ::/0 as a security group rule",
    type: T.securityGroupRule,
    inputs: { type: "egress", protocol: "all", ipv6CidrBlocks: ["::/0"], description: "anything" },
    want: [
      "egress all traffic to ::/0 (ipv6CidrBlocks): allow the ports the instances use (HTTPS for images and packages, NTP, DNS) or the VPC's CIDR",
    ],
  },
  {
    rule: "sg-no-all-egress-to-internet",
    title: "inline egress of a security group",
    type: T.securityGroup,
    inputs: { egress: [{ protocol: "-1", cidrBlocks: ["0.0.0.0/0"], description: "x" }] },
    want: [
      "egress[0] all traffic to 0.0.0.0/0 (cidrBlocks): allow the ports the instances use (HTTPS for images and packages, NTP, DNS) or the VPC's CIDR",
    ],
  },
  // sg-no-open-ingress
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from the VPC",
    type: T.ingressRule,
    inputs: { cidrIpv4: "10.0.0.0/16", ipProtocol: "tcp", fromPort: 2049, toPort: 2049 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from another security group",
    type: T.ingressRule,
    inputs: { referencedSecurityGroupId: "sg-1", ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "a CIDR unknown until deploy is not judged",
    type: T.ingressRule,
    inputs: { cidrIpv4: COMPUTED, ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from 0.0.0.0/0",
    type: T.ingressRule,
    inputs: { cidrIpv4: "0.0.0.0/0", ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: [
      "ingress tcp 22 from 0.0.0.0/0 (cidrIpv4) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from ::/0, all traffic",
    type: T.ingressRule,
    inputs: { cidrIpv6: "::/0", ipProtocol: "-1" },
    want: [
      "ingress all traffic from ::/0 (cidrIpv6) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "any prefix length 0 is every address",
    type: T.ingressRule,
    inputs: { cidrIpv4: "10.1.2.3/0", ipProtocol: "udp", fromPort: 2049, toPort: 2049 },
    want: [
      "ingress udp 2049 from 10.1.2.3/0 (cidrIpv4) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "SecurityGroupRule of type ingress, port range, IPv4 and IPv6",
    type: T.securityGroupRule,
    inputs: {
      type: "ingress",
      protocol: "tcp",
      fromPort: 6800,
      toPort: 7300,
      cidrBlocks: ["10.0.0.0/16", "0.0.0.0/0"],
      ipv6CidrBlocks: ["::/0"],
    },
    want: [
      "ingress tcp 6800-7300 from 0.0.0.0/0 (cidrBlocks) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
      "ingress tcp 6800-7300 from ::/0 (ipv6CidrBlocks) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "SecurityGroupRule of type egress to 0.0.0.0/0 is not ingress",
    type: T.securityGroupRule,
    inputs: { type: "egress", protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "inline ingress of a SecurityGroup (egress to 0.0.0.0/0 is fine)",
    type: T.securityGroup,
    inputs: {
      ingress: [
        { protocol: "tcp", fromPort: 443, toPort: 443, cidrBlocks: ["10.0.0.0/8"] },
        { protocol: "icmp", fromPort: -1, toPort: -1, cidrBlocks: ["0.0.0.0/0"] },
      ],
      egress: [{ protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] }],
    },
    want: [
      "ingress[1] icmp from 0.0.0.0/0 (cidrBlocks) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "inline ingress of the VPC's default security group",
    type: T.defaultSecurityGroup,
    inputs: { ingress: [{ protocol: "-1", fromPort: 0, toPort: 0, ipv6CidrBlocks: ["::/0"] }] },
    want: [
      "ingress[0] all traffic from ::/0 (ipv6CidrBlocks) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
    ],
  },
  { rule: "sg-no-open-ingress", title: "a security group without rules", type: T.securityGroup, inputs: { description: "x" }, want: [] },

  // sg-rule-description
  { rule: "sg-rule-description", title: "described egress rule", type: T.egressRule, inputs: { description: "to the VPC" }, want: [] },
  {
    rule: "sg-rule-description",
    title: "a description unknown until deploy is present",
    type: T.ingressRule,
    inputs: { description: COMPUTED },
    want: [],
  },
  {
    rule: "sg-rule-description",
    title: "ingress rule without description",
    type: T.ingressRule,
    inputs: {},
    want: ["description is not set: say what the rule is for (which port, from whom, why)"],
  },
  {
    rule: "sg-rule-description",
    title: "blank description",
    type: T.egressRule,
    inputs: { description: "  " },
    want: ["description is not set: say what the rule is for (which port, from whom, why)"],
  },
  {
    rule: "sg-rule-description",
    title: "SecurityGroupRule",
    type: T.securityGroupRule,
    inputs: { type: "ingress" },
    want: ["description is not set: say what the rule is for (which port, from whom, why)"],
  },
  {
    rule: "sg-rule-description",
    title: "inline rules of a SecurityGroup",
    type: T.securityGroup,
    inputs: { ingress: [{ description: "NFS" }, { protocol: "tcp" }], egress: [{ protocol: "-1" }] },
    want: [
      "ingress[1]: description is not set: say what the rule is for (which port, from whom, why)",
      "egress[0]: description is not set: say what the rule is for (which port, from whom, why)",
    ],
  },

  // subnet-no-public-ip-on-launch
  { rule: "subnet-no-public-ip-on-launch", title: "explicit false", type: T.subnet, inputs: { mapPublicIpOnLaunch: false }, want: [] },
  { rule: "subnet-no-public-ip-on-launch", title: "unset (AWS default: false)", type: T.subnet, inputs: {}, want: [] },
  {
    rule: "subnet-no-public-ip-on-launch",
    title: "true",
    type: T.subnet,
    inputs: { mapPublicIpOnLaunch: true },
    want: ["mapPublicIpOnLaunch must be false, got true"],
  },
  {
    rule: "subnet-no-public-ip-on-launch",
    title: "unknown until deploy fails",
    type: T.subnet,
    inputs: { mapPublicIpOnLaunch: COMPUTED },
    want: ["mapPublicIpOnLaunch must be false, got <computed>"],
  },
];

testRules("network", NETWORK_RULES, CASES);
