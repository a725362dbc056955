/**
 * The one place that documents the deterministic fakes of the offline plan. Nothing here talks to
 * a cloud: every value is derived from the resource's name and type, so two plans of the same
 * config print the same ids.
 *
 * - account `123456789012`, partition `aws`, the stack's `aws:region`;
 * - ids: the AWS prefix of the type (`vpc-`, `subnet-`, `rtb-`, `sg-`, `i-`, `vol-`, `fs-`, …)
 *   followed by 17 hex digits of an FNV-1a hash of the resource name;
 * - ARNs: `arn:aws:<service>:<region>:123456789012:<type>/<id>` (a customer managed IAM policy's:
 *   `arn:aws:iam::123456789012:policy<path><name>`);
 * - IPv4 addresses: 10.0.x.y from the hash (inside the default VPC CIDR), DNS names under
 *   `<id>.<region>.plan.invalid`; instances launched with `associatePublicIpAddress` get a
 *   public address 203.0.113.x (TEST-NET-3);
 * - time: the first-deploy time of `time.Static` is {@link FAKE_NOW};
 * - generated secrets (random passwords, TLS keys) are fixed placeholders, marked secret anyway;
 * - availability zones: `<region>a` … `<region>f` (zone ids `<r>-az1` …);
 * - `command:local:Command` has no stdout in a plan (unknown, as in a preview): benchmark results
 *   exist only after a real run.
 * - pulumi-eks clusters (`eks:index:Cluster`, one opaque resource under mocks): a kubeconfig for
 *   `aws eks get-token`, the cluster security group (also the node group's with
 *   `skipDefaultSecurityGroups`, as pulumi-eks reports it), an OIDC provider ARN; ECR repositories:
 *   `<account>.dkr.ecr.<region>.amazonaws.com/<name>`; docker-build images pushed with a tag: `ref`
 *   `<tag>@sha256:<64 hex of the name's hash>`; ECR authorization tokens: user `AWS`, the secret
 *   placeholder as password.
 */
import { ID_PREFIXES } from "../resource-types";

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

/** Fake-id prefixes by type token: the `idPrefix` column of the one table of type tokens (lab/resource-types.ts). */
const ID_PREFIX: Readonly<Record<string, string>> = ID_PREFIXES;

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
  /**
   * Whether EC2 offers an instance type in a zone (DescribeInstanceTypeOfferings). Offline it
   * cannot know: every pair is offered unless a caller says otherwise (a test of the refusal).
   */
  readonly offered?: (instanceType: string, zone: string) => boolean;
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
  Object.assign(state, FAKE_STATES[type]?.({ type, name, id, hash, inputs, ctx }) ?? {});
  return { id, state };
}

/** What {@link FAKE_STATES}' answers are made from. */
interface FakeResource {
  readonly type: string;
  readonly name: string;
  readonly id: string;
  readonly hash: string;
  readonly inputs: Record<string, unknown>;
  readonly ctx: FakeContext;
}

/** The state a mocked resource reports beyond its inputs and its `arn`, by type (an `arn` here replaces the generic one). */
const FAKE_STATES: Readonly<Record<string, (r: FakeResource) => Record<string, unknown>>> = {
  "time:index/static:Static": () => ({ rfc3339: FAKE_NOW, unix: Date.parse(FAKE_NOW) / 1000 }),
  "random:index/randomPassword:RandomPassword": () => ({ result: SECRET_PLACEHOLDER, bcryptHash: "plan-bcrypt-hash" }),
  "random:index/randomBytes:RandomBytes": ({ name, inputs }) => {
    // `length` bytes derived from the name (a plan stand-in, never a key), as base64 and hex like the provider's.
    const length = typeof inputs.length === "number" ? inputs.length : 32;
    const bytes = Buffer.alloc(length);
    for (let i = 0; i < length; i++)
      bytes[i] = parseInt(fakeHash(`${name}-${Math.floor(i / 4)}`, 8).slice((i % 4) * 2, (i % 4) * 2 + 2), 16);
    return { base64: bytes.toString("base64"), hex: bytes.toString("hex") };
  },
  "tls:index/privateKey:PrivateKey": ({ hash }) => ({
    privateKeyOpenssh: "-----BEGIN OPENSSH PRIVATE KEY-----\nplan-placeholder\n-----END OPENSSH PRIVATE KEY-----\n",
    privateKeyPem: "-----BEGIN PRIVATE KEY-----\nplan-placeholder\n-----END PRIVATE KEY-----\n",
    publicKeyOpenssh: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlan${hash} lab-plan\n`,
  }),
  // A customer managed policy: IAM is global (no region) and names it by path and name
  // (`arn:aws:iam::<account>:policy<path><name>`, Service Authorization Reference, IAM resource type `policy`).
  "aws:iam/policy:Policy": ({ id, inputs }) => ({
    arn: `arn:aws:iam::${FAKE_ACCOUNT}:policy${typeof inputs.path === "string" ? inputs.path : "/"}${typeof inputs.name === "string" ? inputs.name : id}`,
  }),
  "aws:ec2/instance:Instance": ({ name, inputs, ctx }) => ({
    privateIp: fakeIp(name),
    privateDns: `ip-${fakeIp(name).replace(/\./g, "-")}.${ctx.region}.compute.internal`,
    // A public address only where one was asked for, from TEST-NET-3 (RFC 5737, never routed).
    ...(inputs.associatePublicIpAddress === true ? { publicIp: `203.0.113.${(parseInt(fakeHash(name, 8), 16) % 254) + 1}` } : {}),
  }),
  // An Elastic IP's address (TEST-NET-3 like an instance's) and its allocation id (the resource's id).
  "aws:ec2/eip:Eip": ({ name, id }) => ({
    publicIp: `203.0.113.${(parseInt(fakeHash(`${name}-eip`, 8), 16) % 254) + 1}`,
    allocationId: id,
  }),
  "aws:ec2/vpc:Vpc": ({ name }) => ({
    defaultRouteTableId: `rtb-${fakeHash(`${name}-main`)}`,
    mainRouteTableId: `rtb-${fakeHash(`${name}-main`)}`,
  }),
  "aws:fsx/ontapFileSystem:OntapFileSystem": ({ name, id, ctx }) => ({
    // FSx's own resource type names (Service Authorization Reference, "Resource types defined by Amazon FSx").
    arn: `arn:aws:fsx:${ctx.region}:${FAKE_ACCOUNT}:file-system/${id}`,
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
  }),
  "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine": ({ name, id, inputs, ctx }) => ({
    endpoints: [
      {
        iscsis: [
          {
            dnsName: `iscsi.${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`,
            ipAddresses: [fakeIp(`${name}-iscsi1`), fakeIp(`${name}-iscsi2`)],
          },
        ],
        managements: [{ dnsName: `${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`, ipAddresses: ["198.19.255.20"] }],
        nfs: [{ dnsName: `${id}.${inputs.fileSystemId ?? "fs"}.fsx.${ctx.region}.amazonaws.com`, ipAddresses: ["198.19.255.20"] }],
        smbs: [],
      },
    ],
  }),
  "eks:index:Cluster": fakeEksCluster,
  "aws:ecr/repository:Repository": ({ id, inputs, ctx }) => ({
    repositoryUrl: `${FAKE_ACCOUNT}.dkr.ecr.${ctx.region}.amazonaws.com/${inputs.name ?? id}`,
    registryId: FAKE_ACCOUNT,
    arn: `arn:aws:ecr:${ctx.region}:${FAKE_ACCOUNT}:repository/${inputs.name ?? id}`,
  }),
  "docker-build:index:Image": ({ type, name, inputs }) => {
    const tags = Array.isArray(inputs.tags) ? (inputs.tags as unknown[]).map(String) : [];
    const digest = `sha256:${fakeHash(`${type}::${name}`, 64)}`;
    return { digest, ref: tags.length > 0 ? `${tags[0]}@${digest}` : "" };
  },
  "kubernetes:core/v1:Namespace": ({ type, name, inputs }) => {
    // The API server gives every object a uid (RFC 4122 form); the kafka stack names a deployment by its namespace's.
    const h = fakeHash(`${type}::${name}::uid`, 32);
    const uid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    return { metadata: { ...((inputs.metadata as Record<string, unknown> | undefined) ?? {}), uid } };
  },
};

/** An EKS cluster (pulumi-eks' component): its kubeconfig, security groups and OIDC issuer. */
function fakeEksCluster({ name, inputs, ctx }: FakeResource): Record<string, unknown> {
  const clusterName = String(inputs.name ?? name);
  const clusterSg = `sg-${fakeHash(`${name}-cluster-sg`)}`;
  const issuer = `oidc.eks.${ctx.region}.amazonaws.com/id/${fakeHash(`${name}-oidc`, 32).toUpperCase()}`;
  const kubeconfig = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name: clusterName,
        cluster: {
          server: `https://${fakeHash(`${name}-endpoint`, 32).toUpperCase()}.gr7.${ctx.region}.eks.amazonaws.com`,
          "certificate-authority-data": "cGxhbi1wbGFjZWhvbGRlcg==",
        },
      },
    ],
    contexts: [{ name: clusterName, context: { cluster: clusterName, user: clusterName } }],
    "current-context": clusterName,
    users: [
      {
        name: clusterName,
        user: {
          exec: {
            apiVersion: "client.authentication.k8s.io/v1beta1",
            command: "aws",
            args: ["eks", "get-token", "--cluster-name", clusterName, "--region", ctx.region, "--output", "json"],
          },
        },
      },
    ],
  };
  return {
    kubeconfig,
    kubeconfigJson: JSON.stringify(kubeconfig),
    clusterSecurityGroupId: clusterSg,
    nodeSecurityGroupId: inputs.skipDefaultSecurityGroups === true ? clusterSg : `sg-${fakeHash(`${name}-node-sg`)}`,
    oidcProviderArn: inputs.createOidcProvider === true ? `arn:aws:iam::${FAKE_ACCOUNT}:oidc-provider/${issuer}` : "",
    oidcProviderUrl: `https://${issuer}`,
    oidcIssuer: issuer,
    // The aws.eks.Cluster inside: EKS's Service range when none is given (the lab's VPC is in
    // 10.0.0.0/8, so EKS picks 172.20.0.0/16: Amazon EKS API, KubernetesNetworkConfigRequest.serviceIpv4Cidr).
    eksCluster: {
      arn: `arn:aws:eks:${ctx.region}:${FAKE_ACCOUNT}:cluster/${String(inputs.name ?? name)}`,
      createdAt: "2026-01-01T00:00:00Z",
      kubernetesNetworkConfig: { ipFamily: "ipv4", serviceIpv4Cidr: String(inputs.kubernetesServiceIpAddressRange ?? "172.20.0.0/16") },
    },
  };
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
    case "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings": {
      // Offline, every type asked for is offered in every zone asked for: the plan cannot know EC2's offerings.
      const filters = Array.isArray(inputs.filters) ? (inputs.filters as { name?: string; values?: string[] }[]) : [];
      const values = (name: string) => filters.find((f) => f.name === name)?.values ?? [];
      const pairs = values("instance-type")
        .flatMap((t) => values("location").map((l) => [t, l] as const))
        .filter(([t, l]) => ctx.offered?.(t, l) ?? true);
      return {
        id: ctx.region,
        instanceTypes: pairs.map(([t]) => t),
        locations: pairs.map(([, l]) => l),
        locationTypes: pairs.map(() => String(inputs.locationType ?? "availability-zone")),
        region: ctx.region,
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
    case "aws:ecr/getAuthorizationToken:getAuthorizationToken": {
      const registryId = String(inputs.registryId ?? FAKE_ACCOUNT);
      return {
        id: ctx.region,
        registryId,
        userName: "AWS",
        password: SECRET_PLACEHOLDER,
        authorizationToken: Buffer.from(`AWS:${SECRET_PLACEHOLDER}`).toString("base64"),
        proxyEndpoint: `https://${registryId}.dkr.ecr.${ctx.region}.amazonaws.com`,
        expiresAt: FAKE_NOW,
      };
    }
    case "aws:secretsmanager/getSecretVersion:getSecretVersion": {
      // The fsx-ontap stack's vsadmin secret as components/fsx-ontap writes it (JSON username, password).
      const secretId = String(inputs.secretId ?? "");
      return {
        id: `${secretId}|AWSCURRENT`,
        arn: secretId,
        secretId,
        versionId: fakeHash(`${secretId}::version`, 32),
        versionStage: "AWSCURRENT",
        versionStages: ["AWSCURRENT"],
        secretString: JSON.stringify({ username: "vsadmin", password: SECRET_PLACEHOLDER }),
        secretBinary: "",
        createdDate: FAKE_NOW,
      };
    }
    default:
      throw new Error(`unmocked invoke '${token}': the offline plan answers only the invokes listed in lab/plan/fakes.ts (fakeCall)`);
  }
}
