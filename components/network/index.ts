/**
 * `lab:network:Network`: the VPC every lab builds on.
 *
 * One public and one private subnet per availability zone (layout in cidr.ts), an internet
 * gateway, NAT gateways (one per AZ, or a single one), **one private route table per AZ** (each
 * routing to its own AZ's NAT gateway, so an AZ outage takes only its own egress down and FSx
 * ONTAP Multi-AZ can place its floating IPs in every table), an S3 gateway endpoint on the
 * private route tables, the default security group emptied of rules, and optional flow logs.
 *
 * Tags: the lab's common tags come from the AWS provider's `defaultTags` (pass the provider in
 * `opts`); this component adds only `Name` and the EKS subnet-role tags.
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { DeployTimeError } from "../lib/deploy-error";
import { throwIfInvalid } from "../lib/args";
import { RoleGuardrailArgs, roleGuardrails } from "../lib/iam";
import { subnetLayout } from "./cidr";
import { chooseZones, NetworkSpec, problems, resolve } from "./rules";
import { logGroupKeyPolicy } from "../lib/logs";

/** Arguments of {@link Network}: plain values, documented (with defaults) in ./rules.ts. */
export type NetworkArgs = NetworkSpec;

export class Network extends pulumi.ComponentResource {
  readonly vpcId: pulumi.Output<string>;
  readonly vpcCidr: pulumi.Output<string>;
  /** Availability zone names, in subnet order. */
  readonly azs: pulumi.Output<string[]>;
  /** Their zone ids (the same physical zone in every account), in subnet order. */
  readonly azIds: pulumi.Output<string[]>;
  readonly publicSubnetIds: pulumi.Output<string[]>;
  readonly privateSubnetIds: pulumi.Output<string[]>;
  /** The private subnets' CIDRs, in subnet order: where the EKS nodes and (VPC CNI) their pods have addresses. */
  readonly privateSubnetCidrs: pulumi.Output<string[]>;
  /** One a zone, in zone order. */
  readonly privateRouteTableIds: pulumi.Output<string[]>;
  readonly natGatewayIds: pulumi.Output<string[]>;

  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:network:Network", name, {}, opts);
    throwIfInvalid("lab:network:Network", name, problems(args));
    const r = resolve(args);
    const { vpcCidr, azCount } = r;
    const layout = subnetLayout(vpcCidr, azCount);
    const natMode = r.natGateways;
    const parent = { parent: this };
    const nameTag = (role: string) => ({ Name: `${name}-${role}` });

    const zones = availableZones(args, r, parent);
    const azs: pulumi.Output<string[]> = zones.apply((z) => z.names);

    const vpc = new aws.ec2.Vpc(
      `${name}-vpc`,
      { cidrBlock: vpcCidr, enableDnsHostnames: true, enableDnsSupport: true, tags: nameTag("vpc") },
      parent,
    );
    // Take every rule away from the default security group: nothing should rely on it.
    new aws.ec2.DefaultSecurityGroup(`${name}-default-sg`, { vpcId: vpc.id, tags: nameTag("default-sg") }, parent);

    const igw = new aws.ec2.InternetGateway(`${name}-igw`, { vpcId: vpc.id, tags: nameTag("igw") }, parent);
    const publicRt = new aws.ec2.RouteTable(`${name}-public-rt`, { vpcId: vpc.id, tags: nameTag("public-rt") }, parent);
    new aws.ec2.Route(
      `${name}-public-default`,
      { routeTableId: publicRt.id, destinationCidrBlock: "0.0.0.0/0", gatewayId: igw.id },
      parent,
    );

    const zoneIdx = [...Array(azCount).keys()];
    const az = (i: number) => azs.apply((a) => a[i]);
    const suffix = (i: number) => `az${i + 1}`;

    const publicSubnets = zoneIdx.map((i) => {
      const s = new aws.ec2.Subnet(
        `${name}-public-${suffix(i)}`,
        {
          vpcId: vpc.id,
          cidrBlock: layout.publicCidrs[i],
          availabilityZone: az(i),
          mapPublicIpOnLaunch: false,
          tags: { ...nameTag(`public-${suffix(i)}`), "kubernetes.io/role/elb": "1" },
        },
        parent,
      );
      new aws.ec2.RouteTableAssociation(`${name}-public-${suffix(i)}`, { subnetId: s.id, routeTableId: publicRt.id }, parent);
      return s;
    });

    const nats = (natMode === "perAz" ? zoneIdx : [0]).map((i) => {
      const eip = new aws.ec2.Eip(
        `${name}-nat-${suffix(i)}`,
        { domain: "vpc", tags: nameTag(`nat-${suffix(i)}`) },
        { ...parent, dependsOn: [igw] },
      );
      return new aws.ec2.NatGateway(
        `${name}-nat-${suffix(i)}`,
        { allocationId: eip.id, subnetId: publicSubnets[i].id, connectivityType: "public", tags: nameTag(`nat-${suffix(i)}`) },
        parent,
      );
    });

    const privateSubnets: aws.ec2.Subnet[] = [];
    const privateRts: aws.ec2.RouteTable[] = [];
    for (const i of zoneIdx) {
      const s = new aws.ec2.Subnet(
        `${name}-private-${suffix(i)}`,
        {
          vpcId: vpc.id,
          cidrBlock: layout.privateCidrs[i],
          availabilityZone: az(i),
          mapPublicIpOnLaunch: false,
          tags: { ...nameTag(`private-${suffix(i)}`), "kubernetes.io/role/internal-elb": "1" },
        },
        parent,
      );
      const rt = new aws.ec2.RouteTable(
        `${name}-private-${suffix(i)}`,
        { vpcId: vpc.id, tags: nameTag(`private-rt-${suffix(i)}`) },
        parent,
      );
      new aws.ec2.Route(
        `${name}-private-${suffix(i)}-default`,
        { routeTableId: rt.id, destinationCidrBlock: "0.0.0.0/0", natGatewayId: nats[natMode === "perAz" ? i : 0].id },
        parent,
      );
      new aws.ec2.RouteTableAssociation(`${name}-private-${suffix(i)}`, { subnetId: s.id, routeTableId: rt.id }, parent);
      privateSubnets.push(s);
      privateRts.push(rt);
    }

    new aws.ec2.VpcEndpoint(
      `${name}-s3`,
      {
        vpcId: vpc.id,
        serviceName: `com.amazonaws.${args.region}.s3`,
        vpcEndpointType: "Gateway",
        routeTableIds: privateRts.map((rt) => rt.id),
        tags: nameTag("s3"),
      },
      parent,
    );

    if (r.flowLogs) this.flowLogs(name, vpc, r.flowLogsRetentionDays, args.region, args);

    this.vpcId = vpc.id;
    this.vpcCidr = vpc.cidrBlock;
    this.azs = azs;
    this.azIds = zones.apply((z) => z.ids);
    this.publicSubnetIds = pulumi.all(publicSubnets.map((s) => s.id));
    this.privateSubnetIds = pulumi.all(privateSubnets.map((s) => s.id));
    this.privateSubnetCidrs = pulumi.all(privateSubnets.map((s) => s.cidrBlock.apply((c) => c ?? "")));
    this.privateRouteTableIds = pulumi.all(privateRts.map((rt) => rt.id));
    this.natGatewayIds = pulumi.all(nats.map((n) => n.id));
    this.registerOutputs({
      vpcId: this.vpcId,
      vpcCidr: this.vpcCidr,
      azs: this.azs,
      azIds: this.azIds,
      publicSubnetIds: this.publicSubnetIds,
      privateSubnetIds: this.privateSubnetIds,
      privateSubnetCidrs: this.privateSubnetCidrs,
      privateRouteTableIds: this.privateRouteTableIds,
      natGatewayIds: this.natGatewayIds,
    });
  }

  /**
   * Flow logs (ALL traffic) to a log group encrypted with a KMS key of its own, through a role that
   * may write to that group only.
   *
   * The key's policy is CloudWatch Logs' (CloudWatch Logs User Guide, "Encrypt log data in
   * CloudWatch Logs using AWS KMS", step 2): the account administers the key, and the regional
   * Logs service principal may use it for log groups whose ARN matches
   * `kms:EncryptionContext:aws:logs:arn`. The group is named from a prefix (`namePrefix`, a unique
   * suffix added on create) so that the condition can name it before it exists: the key must
   * exist before the group that it encrypts.
   */
  private flowLogs(name: string, vpc: aws.ec2.Vpc, retentionDays: number, region: string, guardrails: RoleGuardrailArgs): void {
    const parent = { parent: this };
    const groupPrefix = `${name}-flow-logs-`;
    const account = aws.getCallerIdentityOutput({}, parent).accountId;
    const partition = aws.getPartitionOutput({}, parent).partition;
    const key = new aws.kms.Key(
      `${name}-flow-logs`,
      {
        description: `VPC flow logs of ${name}: encryption of its CloudWatch Logs log group`,
        enableKeyRotation: true,
        deletionWindowInDays: 7,
        // The shared log-group key policy (components/lib/logs.ts), for the groups of this prefix.
        policy: pulumi.all([account, partition]).apply(([acct, part]) =>
          JSON.stringify(
            logGroupKeyPolicy({
              partition: part,
              account: acct,
              region,
              logGroupPattern: `${groupPrefix}*`,
              sid: "CloudWatchLogsEncryptsTheFlowLogGroup",
            }),
          ),
        ),
        tags: { Name: `${name}-flow-logs` },
      },
      parent,
    );
    const group = new aws.cloudwatch.LogGroup(
      `${name}-flow-logs`,
      { namePrefix: groupPrefix, retentionInDays: retentionDays, kmsKeyId: key.arn, tags: { Name: `${name}-flow-logs` } },
      parent,
    );
    const role = new aws.iam.Role(
      `${name}-flow-logs`,
      {
        ...roleGuardrails(guardrails),
        // Confused-deputy guard (VPC User Guide, "Flow logs" > "IAM role for publishing flow logs to
        // CloudWatch Logs": aws:SourceAccount and aws:SourceArn on the trust policy): only this
        // account's flow logs in this region may assume the role.
        assumeRolePolicy: pulumi.all([account, partition]).apply(([acct, part]) =>
          JSON.stringify({
            Version: "2012-10-17",
            Statement: [
              {
                Effect: "Allow",
                Principal: { Service: "vpc-flow-logs.amazonaws.com" },
                Action: "sts:AssumeRole",
                Condition: {
                  StringEquals: { "aws:SourceAccount": acct },
                  ArnLike: { "aws:SourceArn": `arn:${part}:ec2:${region}:${acct}:vpc-flow-log/*` },
                },
              },
            ],
          }),
        ),
      },
      parent,
    );
    const policy = new aws.iam.RolePolicy(
      `${name}-flow-logs`,
      {
        role: role.id,
        policy: group.arn.apply((arn) =>
          JSON.stringify({
            Version: "2012-10-17",
            Statement: [
              {
                Effect: "Allow",
                Action: ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
                Resource: [arn, `${arn}:*`],
              },
            ],
          }),
        ),
      },
      parent,
    );
    new aws.ec2.FlowLog(
      `${name}-flow-logs`,
      {
        vpcId: vpc.id,
        trafficType: "ALL",
        logDestinationType: "cloud-watch-logs",
        logDestination: group.arn,
        iamRoleArn: role.arn,
        tags: { Name: `${name}-flow-logs` },
      },
      // Created after the role's policy: a flow log created first can stay in "Access error"
      // (terraform-aws-modules/terraform-aws-vpc#1264).
      { ...parent, dependsOn: [policy] },
    );
  }
}

/**
 * The zones the network spans, by id (chooseZones in ./rules.ts): the names map to other ids in
 * every account, and EKS refuses some ids; given names are checked the same way.
 */
function availableZones(args: NetworkArgs, r: ReturnType<typeof resolve>, parent: pulumi.ResourceOptions) {
  return aws
    .getAvailabilityZonesOutput({ state: "available", filters: [{ name: "opt-in-status", values: ["opt-in-not-required"] }] }, parent)
    .apply((z) => {
      // During a preview an unconfigured provider answers invokes with {} (pulumi/pulumi
      // sdk/go/common/resource/plugin/provider_plugin.go, Invoke): say so instead of a TypeError.
      if (!Array.isArray(z.names) || !Array.isArray(z.zoneIds)) {
        throw new DeployTimeError([
          `invoke aws:index/getAvailabilityZones:getAvailabilityZones returned no zone names (got ${JSON.stringify(z)}): ` +
            "the AWS provider it went through is not configured (at preview: a provider input is not known yet)",
        ]);
      }
      return chooseZones(args.region, { names: z.names, zoneIds: z.zoneIds }, r.azCount, r.azs);
    });
}
