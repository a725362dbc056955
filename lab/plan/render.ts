/** Renders stack plans: a readable tree, the `--json` document, a Mermaid graph. */
import { StackPlan, PlannedResource } from "./run";
import { upstreamNames } from "./sources";

/** The few inputs worth a glance, per resource type (others print type and name only). */
const KEY_PROPS: Readonly<Record<string, readonly string[]>> = {
  "pulumi:providers:aws": ["region"],
  "aws:ec2/vpc:Vpc": ["cidrBlock"],
  "aws:ec2/subnet:Subnet": ["cidrBlock", "availabilityZone", "mapPublicIpOnLaunch"],
  "aws:ec2/route:Route": ["destinationCidrBlock"],
  "aws:ec2/natGateway:NatGateway": ["connectivityType"],
  "aws:ec2/vpcEndpoint:VpcEndpoint": ["serviceName", "vpcEndpointType"],
  "aws:ec2/flowLog:FlowLog": ["trafficType", "logDestinationType"],
  "aws:cloudwatch/logGroup:LogGroup": ["retentionInDays"],
  "aws:ec2/instance:Instance": ["instanceType", "availabilityZone"],
  "aws:ebs/volume:Volume": ["type", "size", "iops", "throughput", "availabilityZone", "encrypted"],
  "aws:ec2/securityGroup:SecurityGroup": ["description"],
  "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule": [
    "ipProtocol",
    "fromPort",
    "toPort",
    "cidrIpv4",
    "referencedSecurityGroupId",
  ],
  "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule": ["ipProtocol", "cidrIpv4"],
  "aws:fsx/ontapFileSystem:OntapFileSystem": [
    "deploymentType",
    "storageCapacity",
    "throughputCapacity",
    "throughputCapacityPerHaPair",
    "haPairs",
    "diskIopsConfiguration",
    "subnetIds",
    "preferredSubnetId",
    "routeTableIds",
  ],
  "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine": ["name", "rootVolumeSecurityStyle"],
  "aws:fsx/ontapVolume:OntapVolume": ["name", "junctionPath", "sizeInMegabytes", "snapshotPolicy"],
  "aws:kms/key:Key": ["enableKeyRotation"],
  "aws:secretsmanager/secret:Secret": ["kmsKeyId"],
  "command:local:Command": ["create"],
};

function short(v: unknown): string {
  const s = (typeof v === "string" ? v : JSON.stringify(v)).replace(/\s+/g, " ");
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function keyProps(r: PlannedResource): string {
  return (KEY_PROPS[r.type] ?? [])
    .filter((k) => r.inputs[k] !== undefined)
    .map((k) => `${k}=${short(r.inputs[k])}`)
    .join(" ");
}

/** `aws:ec2/subnet:Subnet` → `aws:ec2:Subnet`, for the tree. */
function shortType(type: string): string {
  return type.replace(/^([^:]+):([^/:]+)\/[^:]+:(.+)$/, "$1:$2:$3");
}

export function counts(plan: StackPlan): { total: number; components: number; byType: Record<string, number> } {
  const byType: Record<string, number> = {};
  for (const r of plan.resources) byType[r.type] = (byType[r.type] ?? 0) + 1;
  const components = plan.resources.filter((r) => !r.custom).length;
  return { total: plan.resources.length, components, byType };
}

/** The plan as a tree of resources under their parents, then the outputs. */
export function renderTree(plan: StackPlan, source?: string): string {
  const lines: string[] = [];
  const c = counts(plan);
  lines.push(`stack ${plan.stack} (kind ${plan.kind})${source ? ` from ${source}` : ""}`);
  lines.push(
    `  ${c.total} resources (${c.total - c.components} cloud and provider resources, ${c.components} component${c.components === 1 ? "" : "s"})`,
  );
  const children = new Map<string | null, PlannedResource[]>();
  const urns = new Set(plan.resources.map((r) => r.urn));
  for (const r of plan.resources) {
    const p = r.parent && urns.has(r.parent) ? r.parent : null;
    children.set(p, [...(children.get(p) ?? []), r]);
  }
  const walk = (parent: string | null, indent: string) => {
    const kids = [...(children.get(parent) ?? [])].sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
    kids.forEach((r, i) => {
      const last = i === kids.length - 1;
      const props = keyProps(r);
      lines.push(`${indent}${last ? "└─" : "├─"} ${shortType(r.type)} ${r.name}${props ? `  ${props}` : ""}`);
      walk(r.urn, indent + (last ? "   " : "│  "));
    });
  };
  walk(null, "  ");
  lines.push("  outputs:");
  for (const [k, v] of Object.entries(plan.outputs)) lines.push(`    ${k}: ${short(v)}`);
  return lines.join("\n");
}

/** The `--json` document of one stack: exactly the fields README "Set up and check" names. */
export function planJson(plan: StackPlan): object {
  return {
    stack: plan.stack,
    kind: plan.kind,
    config: plan.config,
    resources: plan.resources.map((r) => ({
      urn: r.urn,
      type: r.type,
      name: r.name,
      parent: r.parent,
      inputs: r.inputs,
      dependencies: r.dependencies,
    })),
    outputs: plan.outputs,
  };
}

function mermaidId(s: string): string {
  return s.replace(/[^A-Za-z0-9_]/g, "_");
}

/** A Mermaid flowchart: stacks (with their references) as subgraphs of their resources' dependencies. */
export function renderMermaid(plans: readonly StackPlan[]): string {
  const lines = ["flowchart LR"];
  plans.forEach((plan, si) => {
    const sid = `s${si}_${mermaidId(plan.stack)}`;
    lines.push(`  subgraph ${sid}["stack ${plan.stack} (${plan.kind})"]`);
    const index = new Map(plan.resources.map((r, i) => [r.urn, `${sid}_r${i}`]));
    plan.resources.forEach((r) => lines.push(`    ${index.get(r.urn)}["${shortType(r.type)}<br/>${r.name}"]`));
    lines.push("  end");
    for (const r of plan.resources) {
      for (const d of r.dependencies) if (index.has(d)) lines.push(`  ${index.get(d)} --> ${index.get(r.urn)}`);
      if (r.parent && index.has(r.parent)) lines.push(`  ${index.get(r.parent)} -.- ${index.get(r.urn)}`);
    }
  });
  // A reference points at the latest plan of that name before it: plans come upstream first, and
  // `--all` plans a stack name more than once (shipped, then again in each scenario).
  const latest = new Map<string, string>();
  plans.forEach((plan, i) => {
    const id = `s${i}_${mermaidId(plan.stack)}`;
    for (const up of upstreamNames(plan.config)) {
      if (latest.has(up)) lines.push(`  ${latest.get(up)} ==> ${id}`);
    }
    latest.set(plan.stack, id);
  });
  return lines.join("\n");
}
