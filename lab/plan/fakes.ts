/**
 * The one place that documents the deterministic fakes of the offline plan. Nothing here talks to
 * a cloud: every value is derived from the resource's name and type, so two plans of the same
 * config print the same ids.
 *
 * - account `123456789012`, partition `aws`, the stack's `aws:region`;
 * - ids: the AWS prefix of the type (`vpc-`, `subnet-`, `rtb-`, `sg-`, `i-`, `vol-`, `fs-`, …)
 *   followed by 17 hex digits of an FNV-1a hash of the resource name;
 * - ARNs: `arn:aws:<service>:<region>:123456789012:<type>/<id>`;
 * - IPv4 addresses: 10.0.x.y from the hash (inside the default VPC CIDR), DNS names under
 *   `<id>.<region>.plan.invalid`; instances launched with `associatePublicIpAddress` get a
 *   public address 203.0.113.x (TEST-NET-3);
 * - time: the first-deploy time of `time.Static` is {@link FAKE_NOW};
 * - generated secrets (random passwords, TLS keys) are fixed placeholders, marked secret anyway;
 * - availability zones: `<region>a` … `<region>f` (zone ids `<r>-az1` …);
 * - `command:local:Command` has no stdout in a plan (unknown, as in a preview): benchmark results
 *   exist only after a real run.
 */
export const FAKE_ACCOUNT = "123456789012";
export const FAKE_NOW = "2026-01-01T00:00:00Z";
/** The value a `secure:` config entry takes in a plan (valid for every password rule of the lab). */
export const SECRET_PLACEHOLDER = "PlanPlaceholder-Secret-0";

/** FNV-1a 32-bit, twice with different seeds, as 16+ hex digits. */
export function fakeHash(text: string, digits = 17): string {
  let out = "";
  for (let seed = 0; out.length < digits; seed++) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, digits);
}

const ID_PREFIX: Readonly<Record<string, string>> = {
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
};

/** `aws:ec2/vpc:Vpc` → service `ec2`, resource `vpc`. */
function arnParts(type: string): { service: string; resource: string } {
  const m = /^aws:([a-zA-Z0-9]+)\/([a-zA-Z0-9]+):/.exec(type);
  return m ? { service: m[1], resource: m[2].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) } : { service: "lab", resource: "resource" };
}

export function fakeIp(seed: string): string {
  const h = parseInt(fakeHash(seed, 8), 16);
  return `10.0.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

export interface FakeContext {
  readonly region: string;
}

/** The id and the extra state (beyond the inputs) a mocked resource of `type` reports. */
export function fakeState(
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  ctx: FakeContext,
): { id: string; state: Record<string, unknown> } {
  const hash = fakeHash(`${type}::${name}`);
  const id = ID_PREFIX[type] !== undefined ? `${ID_PREFIX[type]}${hash}` : `${name}-${hash.slice(0, 8)}`;
  const { service, resource } = arnParts(type);
  const state: Record<string, unknown> = {
    arn: `arn:aws:${service}:${ctx.region}:${FAKE_ACCOUNT}:${resource}/${id}`,
  };
  switch (type) {
    case "time:index/static:Static":
      Object.assign(state, { rfc3339: FAKE_NOW, unix: Date.parse(FAKE_NOW) / 1000 });
      break;
    case "random:index/randomPassword:RandomPassword":
      Object.assign(state, { result: SECRET_PLACEHOLDER, bcryptHash: "plan-bcrypt-hash" });
      break;
    case "tls:index/privateKey:PrivateKey":
      Object.assign(state, {
        privateKeyOpenssh: "-----BEGIN OPENSSH PRIVATE KEY-----\nplan-placeholder\n-----END OPENSSH PRIVATE KEY-----\n",
        privateKeyPem: "-----BEGIN PRIVATE KEY-----\nplan-placeholder\n-----END PRIVATE KEY-----\n",
        publicKeyOpenssh: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlan${hash} lab-plan\n`,
      });
      break;
    case "aws:ec2/instance:Instance":
      Object.assign(state, {
        privateIp: fakeIp(name),
        privateDns: `ip-${fakeIp(name).replace(/\./g, "-")}.${ctx.region}.compute.internal`,
      });
      // A public address only where one was asked for, from TEST-NET-3 (RFC 5737, never routed).
      if (inputs.associatePublicIpAddress === true)
        Object.assign(state, { publicIp: `203.0.113.${(parseInt(fakeHash(name, 8), 16) % 254) + 1}` });
      break;
    case "aws:ec2/vpc:Vpc":
      Object.assign(state, { defaultRouteTableId: `rtb-${fakeHash(`${name}-main`)}`, mainRouteTableId: `rtb-${fakeHash(`${name}-main`)}` });
      break;
    case "aws:fsx/ontapFileSystem:OntapFileSystem":
      Object.assign(state, {
        dnsName: `${id}.fsx.${ctx.region}.amazonaws.com`,
        endpoints: [
          {
            // The SDK's (pluralised) names: outputs.fsx.OntapFileSystemEndpoint.
            interclusters: [
              {
                dnsName: `intercluster.${id}.fsx.${ctx.region}.amazonaws.com`,
                ipAddresses: [fakeIp(`${name}-ic1`), fakeIp(`${name}-ic2`)],
              },
            ],
            managements: [{ dnsName: `management.${id}.fsx.${ctx.region}.amazonaws.com`, ipAddresses: ["198.19.255.10"] }],
          },
        ],
      });
      break;
    case "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine":
      Object.assign(state, {
        endpoints: [
          {
            iscsis: [
              {
                dnsName: `iscsi.${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`,
                ipAddresses: [fakeIp(`${name}-iscsi1`), fakeIp(`${name}-iscsi2`)],
              },
            ],
            managements: [
              { dnsName: `${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`, ipAddresses: ["198.19.255.20"] },
            ],
            nfs: [{ dnsName: `${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`, ipAddresses: ["198.19.255.20"] }],
            smbs: [],
          },
        ],
      });
      break;
    default:
      break;
  }
  return { id, state };
}

/** Answers of the invokes the lab makes; any other token is an error (strict mocks). */
export function fakeCall(token: string, inputs: Record<string, unknown>, ctx: FakeContext): Record<string, unknown> {
  switch (token) {
    case "aws:index/getAvailabilityZones:getAvailabilityZones": {
      const letters = ["a", "b", "c", "d", "e", "f"];
      const [geo = "", dir = "", num = ""] = ctx.region.split("-");
      const short = `${geo}${dir.charAt(0)}${num}`; // us-east-1 → use1, as AWS names zone ids
      return {
        id: ctx.region,
        names: letters.map((l) => `${ctx.region}${l}`),
        zoneIds: letters.map((_, i) => `${short}-az${i + 1}`),
        groupNames: [ctx.region],
        state: inputs.state ?? "available",
      };
    }
    case "aws:index/getCallerIdentity:getCallerIdentity":
      return { id: FAKE_ACCOUNT, accountId: FAKE_ACCOUNT, arn: `arn:aws:iam::${FAKE_ACCOUNT}:user/lab-plan`, userId: "AIDAPLAN" };
    case "aws:index/getPartition:getPartition":
      return { id: "aws", partition: "aws", dnsSuffix: "amazonaws.com", reverseDnsPrefix: "com.amazonaws" };
    case "aws:index/getRegion:getRegion":
      return { id: ctx.region, name: ctx.region, region: ctx.region, description: ctx.region, endpoint: `ec2.${ctx.region}.amazonaws.com` };
    case "aws:ec2/getAmi:getAmi":
      return {
        id: `ami-${fakeHash(JSON.stringify(inputs))}`,
        architecture: "x86_64",
        name: "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20261101",
        ownerId: "099720109477",
        rootDeviceName: "/dev/sda1",
      };
    default:
      throw new Error(`unmocked invoke '${token}': the offline plan answers only the invokes listed in lab/plan/fakes.ts (fakeCall)`);
  }
}
