/**
 * `lab:k0s:K0sCluster`: a k0s Kubernetes cluster on EC2, installed by k0sctl from the machine
 * running `pulumi up`.
 *
 * - 1 controller + N workers, all of `instanceType` (a type of instance-types.ts, at least
 *   rules.ts MIN_NODE; EBS-optimized where the type can be), in one private subnet (one AZ), on
 *   Canonical's Ubuntu 24.04 LTS (amd64, HVM: boots on Xen and Nitro); IMDSv2 required with a hop
 *   limit of 1 (pods cannot reach the instance metadata), encrypted gp3 root volumes. Worker n
 *   carries the node label `storage-bench-lab/worker=n` (placement.ts).
 * - Arguments checked first, every problem at once (rules.ts), defaults from K0S_CLUSTER_DEFAULTS.
 * - One encrypted gp3 data volume per worker for a Ceph OSD, size/IOPS/throughput explicit,
 *   attached as /dev/xvdf: /dev/xvdf on Xen, /dev/nvme1n1 on Nitro.
 * - A small bastion in the public subnet of the same AZ, the only host with a public address:
 *   SSH (k0sctl's `ssh.bastion`) and the Kubernetes API port (forwarded to the controller by
 *   socat) open to `adminCidrs` only. Nodes accept SSH from the bastion only.
 * - SSH trust (ssh.ts): two generated ED25519 client keys, the nodes' (their EC2 key pair) and the
 *   bastion's (authorized on the bastion for tunnels to the nodes' SSH ports only; the bastion has
 *   no EC2 key pair); a generated ED25519 host key per instance, installed by cloud-init, and the
 *   known_hosts k0sctl verifies every connection against, read-only. No private key leaves the
 *   state: k0sctl gets them through its Command's environment (secrets), nothing exports them.
 *   `sshPublicKey`, when given, is the operator's own key, authorized on the nodes and (restricted
 *   the same way) on the bastion; the `sshKnownHosts` output lets `ssh -J` verify the hosts too.
 * - Kubernetes Secrets encrypted at rest (encryption.ts): a generated 32-byte secretbox key
 *   (random.RandomBytes, a secret), the EncryptionConfiguration uploaded by k0sctl to the controller
 *   (0600, owned by kube-apiserver) and the API server flag in the k0s config. Its address is an
 *   Elastic IP of its own (associated, not owned by the instance): a stop/start or a new bastion
 *   keeps it, so the k0sctl config, the API certificate's SANs and the kubeconfig's server stay
 *   the same (a changed server in the kubeconfig of a Kubernetes provider would plan a
 *   replacement of every object it manages).
 * - Security groups from ports.ts: the ports k0s documents, the CNI's (Calico VXLAN and WireGuard,
 *   or kube-router BGP), Ceph's when it runs on the host network, the pod and service networks; no
 *   ingress from 0.0.0.0/0.
 * - `k0sctl apply` as a local.Command (the config through its environment; `k0sctl reset` on
 *   delete) and `k0sctl kubeconfig` as a second one whose stdout is a secret. Neither has
 *   `triggers`: a changed config is an *update* that re-applies (see the comment at the command).
 *   k0sctl must be on the deploying machine's PATH: the command fails first thing, saying how to
 *   install it, when it is not.
 */
import * as aws from "@pulumi/aws";
import * as command from "@pulumi/command";
import * as pulumi from "@pulumi/pulumi";
import { DeployTimeError } from "../lib/deploy-error";
import * as random from "@pulumi/random";
import * as tls from "@pulumi/tls";
import { UBUNTU_AMI } from "../versions";
import { throwIfInvalid } from "../lib/args";
import { HostKey, renderBastionCloudInit, renderNodeCloudInit } from "./cloud-init";
import { renderEncryptionConfig, SECRETBOX_KEY_BYTES } from "./encryption";
import { ebsOptimizedArg, hypervisorOf, Hypervisor } from "./instance-types";
import { apiUrl, k0sctlCommand, renderK0sctlConfig } from "./k0sctl";
import { Group, ingressRules, POD_CIDR, SERVICE_CIDR, Source } from "./ports";
import { K0sClusterDefaulted, K0sClusterSpec, problems, resolve } from "./rules";
import { renderKnownHosts } from "./ssh";

export { K0S_CLUSTER_DEFAULTS } from "./rules";
export { WORKER_LABEL, workerSelector } from "./placement";

/** The device name the OSD volumes are attached as (API name); see components/rook/manifests.ts. */
export const OSD_DEVICE_NAME = "/dev/xvdf";

/**
 * Arguments of {@link K0sCluster}: the plain ones, documented (with their defaults) in ./rules.ts,
 * and the network the nodes live in, as Outputs of whatever made it.
 */
export interface K0sClusterArgs extends Omit<K0sClusterSpec, "az"> {
  /** The VPC. */
  readonly vpcId: pulumi.Input<string>;
  /** The private subnet the controller and the workers live in (its zone is `az`). */
  readonly privateSubnetId: pulumi.Input<string>;
  /** The public subnet of the same zone, for the bastion. */
  readonly publicSubnetId: pulumi.Input<string>;
  /**
   * The availability zone of both subnets, where the OSD volumes are created (e.g. "us-east-1a").
   * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-regions-availability-zones.html
   */
  readonly az: pulumi.Input<string>;
}

/** The arguments with every default applied (rules.ts `resolve`). */
type Resolved = K0sClusterArgs & K0sClusterDefaulted;

/** The OSD volume's size, IOPS and throughput, as given (or defaulted). */
type OsdVolume = { sizeGiB: number; iops: number; throughputMiBps: number };

/** One host key per instance; nothing replaces them (no inputs change), so a replaced instance keeps its key. */
function hostKey(name: string, role: string, opts: pulumi.CustomResourceOptions): tls.PrivateKey {
  return new tls.PrivateKey(`${name}-${role}-host-key`, { algorithm: "ED25519" }, opts);
}

/** A host key's two halves, as cloud-init.ts renders them. */
function hostKeyOf(k: tls.PrivateKey): pulumi.Output<HostKey> {
  return pulumi
    .all([k.privateKeyOpenssh, k.publicKeyOpenssh])
    .apply(([privateKeyOpenssh, publicKeyOpenssh]) => ({ privateKeyOpenssh, publicKeyOpenssh }));
}

/** The encrypted gp3 root volume of every instance (the bastion's smaller). */
function rootBlockDevice(volumeSize: number) {
  return { volumeType: "gp3", volumeSize, encrypted: true, deleteOnTermination: true };
}

// IMDSv2 only; hop limit 1 keeps containers (one hop further) away from the metadata service.
const METADATA_OPTIONS = { httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 1 };

/**
 * The newest Ubuntu 24.04 LTS image's id (versions.ts `UBUNTU_AMI`), read through `opts`' provider.
 * During a preview an unconfigured provider answers invokes with {} (pulumi/pulumi
 * sdk/go/common/resource/plugin/provider_plugin.go, Invoke): say so instead of an instance without an AMI.
 */
function ubuntuAmiId(opts: pulumi.InvokeOutputOptions): pulumi.Output<string> {
  const ami = aws.ec2.getAmiOutput(
    {
      owners: [UBUNTU_AMI.owner],
      mostRecent: true,
      filters: [
        { name: "name", values: [UBUNTU_AMI.namePattern] },
        { name: "architecture", values: [UBUNTU_AMI.architecture] },
        { name: "virtualization-type", values: ["hvm"] },
        { name: "root-device-type", values: ["ebs"] },
      ],
    },
    opts,
  );
  return ami.apply((a) => {
    if (typeof a.id !== "string" || a.id === "") {
      throw new DeployTimeError([
        `invoke aws:ec2/getAmi:getAmi returned no image id (got ${JSON.stringify(a)}): ` +
          "the AWS provider it went through is not configured (at preview: a provider input is not known yet)",
      ]);
    }
    return a.id;
  });
}

/** Where an ingress rule of ports.ts comes from, as the sources of SecurityGroupIngressRules (one per admin CIDR). */
function ingressSources(
  from: Source,
  adminCidrs: readonly string[],
  groups: Record<Group, aws.ec2.SecurityGroup>,
): { suffix: string; source: { cidrIpv4?: string; referencedSecurityGroupId?: pulumi.Input<string> } }[] {
  return from === "admin"
    ? adminCidrs.map((cidr, i) => ({ suffix: `-${i + 1}`, source: { cidrIpv4: cidr } }))
    : from === "podCidr"
      ? [{ suffix: "", source: { cidrIpv4: POD_CIDR } }]
      : from === "serviceCidr"
        ? [{ suffix: "", source: { cidrIpv4: SERVICE_CIDR } }]
        : [{ suffix: "", source: { referencedSecurityGroupId: groups[from].id } }];
}

export class K0sCluster extends pulumi.ComponentResource {
  /** The admin kubeconfig (secret), its server the bastion's API forward. */
  readonly kubeconfig: pulumi.Output<string>;
  /** The instance type of the nodes. */
  readonly instanceType: pulumi.Output<string>;
  /** `xen` or `nitro`, from instance-types.ts. */
  readonly hypervisor: pulumi.Output<Hypervisor>;
  /** The AMI the nodes run (Ubuntu 24.04 LTS, resolved when the nodes were created). */
  readonly amiId: pulumi.Output<string>;
  /** Private addresses: the controller first, then the workers. */
  readonly nodePrivateIps: pulumi.Output<string[]>;
  /** The bastion's Elastic IP (SSH jump host, Kubernetes API forward): stable for the stack's lifetime. */
  readonly bastionPublicIp: pulumi.Output<string>;
  /**
   * The hosts' SSH host keys as a known_hosts file (the bastion's public address, then the nodes'
   * private ones): public keys, for `ssh -o UserKnownHostsFile=<file> -J ubuntu@<bastion> ubuntu@<node>`.
   */
  readonly sshKnownHosts: pulumi.Output<string>;
  /** The OSD volumes as created: size, IOPS, throughput (recorded with every result). */
  readonly osdVolume: pulumi.Output<{ sizeGiB: number; iops: number; throughputMiBps: number; type: "gp3"; deviceName: string }>;
  /** The `k0sctl apply` command: the cluster's own lifetime (use as `deletedWith` for objects inside it). */
  readonly installation: command.local.Command;
  /**
   * What tells this cluster from another: the controller instance's id and the `k0sctl apply`
   * command's id (pulumi-command gives each Command a new unique id when it is created). For the
   * Kubernetes provider's `clusterIdentifier`: the kubeconfig comes from a Command whose stdout is
   * unknown at preview whenever an input of it changed (a k0s upgrade, a new worker), and
   * pulumi-kubernetes 4.34 then replaces the provider, and with it every object in the cluster,
   * unless `clusterIdentifier` is set and unchanged (provider/pkg/provider/provider.go DiffConfig:
   * "we ignore replacements when the identifier is unchanged"). Both ids change only when the
   * cluster is really new: a replaced controller, or a re-run install (k0sctl reset, then apply).
   */
  readonly clusterIdentifier: pulumi.Output<string>;

  /** The cluster's steps, in the order their resources are registered (the order is part of the plan). */
  constructor(name: string, args: K0sClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:k0s:K0sCluster", name, {}, opts);
    throwIfInvalid("lab:k0s:K0sCluster", name, problems(args));
    const r = resolve(args);
    const volume = { sizeGiB: r.osdVolumeGiB, iops: r.osdVolumeIops, throughputMiBps: r.osdVolumeThroughputMiBps };

    const keys = this.clientKeys(name);
    const encryptionConfig = this.secretsEncryption(name);
    const amiId = ubuntuAmiId({ parent: this });
    const { groups, rules } = this.securityGroups(name, r);
    const nodes = this.nodes(name, r, { amiId, groups, keyName: keys.keyPair.keyName });
    const nodeIps = pulumi.all([nodes.controller, ...nodes.workers].map((i) => i.privateIp));
    const bastion = this.bastion(name, r, { amiId, groups, nodeIps, bastionKey: keys.bastionKey });
    const attachments = this.osdVolumes(name, r, nodes.workers, volume);
    const knownHosts = pulumi
      .all([bastion.publicIp, bastion.hostKey.publicKeyOpenssh, nodeIps, pulumi.all(nodes.hostKeys.map((k) => k.publicKeyOpenssh))])
      .apply(([bastionIp, bastionPub, ips, pubs]) =>
        // The bastion by its public address (k0sctl's first hop), the nodes by their private ones.
        renderKnownHosts([{ address: bastionIp, publicKey: bastionPub }, ...ips.map((address, i) => ({ address, publicKey: pubs[i] }))]),
      );
    const environment = {
      LAB_K0SCTL_CONFIG: this.k0sctlConfig(name, r, nodes, bastion.publicIp),
      LAB_SSH_NODE_KEY: pulumi.secret(keys.nodeKey.privateKeyOpenssh),
      LAB_SSH_BASTION_KEY: pulumi.secret(keys.bastionKey.privateKeyOpenssh),
      LAB_SSH_KNOWN_HOSTS: knownHosts,
      LAB_ENCRYPTION_CONFIG: encryptionConfig,
    };
    // The install waits for every rule of the SSH path (admin → bastion → nodes, egress), and on destroy its
    // `k0sctl reset` runs before any of them is deleted: Pulumi deletes a resource's dependents first.
    const installed = this.install(name, environment, bastion.publicIp, [...attachments, bastion.association, ...rules]);

    this.installation = installed.apply;
    this.clusterIdentifier = pulumi.interpolate`k0s/${nodes.controller.id}/${installed.apply.id}`;
    this.kubeconfig = pulumi.secret(installed.kubeconfig.stdout);
    this.instanceType = pulumi.output(r.instanceType);
    this.hypervisor = pulumi.output(hypervisorOf(r.instanceType) as Hypervisor);
    this.amiId = nodes.controller.ami;
    this.nodePrivateIps = nodeIps;
    this.bastionPublicIp = bastion.publicIp;
    this.sshKnownHosts = knownHosts;
    this.osdVolume = pulumi.output({ ...volume, type: "gp3" as const, deviceName: OSD_DEVICE_NAME });
    this.registerOutputs({
      kubeconfig: this.kubeconfig,
      instanceType: this.instanceType,
      hypervisor: this.hypervisor,
      amiId: this.amiId,
      nodePrivateIps: this.nodePrivateIps,
      bastionPublicIp: this.bastionPublicIp,
      sshKnownHosts: this.sshKnownHosts,
      osdVolume: this.osdVolume,
      clusterIdentifier: this.clusterIdentifier,
    });
  }

  /**
   * Client keys, both generated and kept (secret) in the state: the nodes' (their EC2 key pair;
   * the logical name of the lab's one key before the bastion had its own) and the bastion's.
   */
  private clientKeys(name: string) {
    const parent = { parent: this };
    const nodeKey = new tls.PrivateKey(`${name}-ssh`, { algorithm: "ED25519" }, parent);
    const bastionKey = new tls.PrivateKey(`${name}-bastion-ssh`, { algorithm: "ED25519" }, parent);
    const keyPair = new aws.ec2.KeyPair(
      `${name}-ssh`,
      { publicKey: nodeKey.publicKeyOpenssh.apply((k) => k.trim()), tags: { Name: `${name}-ssh` } },
      parent,
    );
    return { nodeKey, bastionKey, keyPair };
  }

  /**
   * The Secrets encryption key (encryption.ts): 32 random bytes, a secret output of random.RandomBytes,
   * and the EncryptionConfiguration holding it (a secret). No input of the key ever changes, so it is
   * never replaced: a new key would leave every Secret in etcd unreadable. Rotating is adding a key
   * (docs/security.md).
   */
  private secretsEncryption(name: string): pulumi.Output<string> {
    const secretsKey = new random.RandomBytes(`${name}-secrets-key`, { length: SECRETBOX_KEY_BYTES }, { parent: this });
    return pulumi.secret(secretsKey.base64.apply((secret) => renderEncryptionConfig([{ name: "key-1", secret }])));
  }

  /** The three security groups (all egress each) and their ingress rules (ports.ts). */
  private securityGroups(name: string, r: Resolved): { groups: Record<Group, aws.ec2.SecurityGroup>; rules: pulumi.Resource[] } {
    const parent = { parent: this };
    const groups = {} as Record<Group, aws.ec2.SecurityGroup>;
    const rules: pulumi.Resource[] = [];
    const purpose: Record<Group, string> = {
      bastion: "bastion: SSH and Kubernetes API from the admin CIDRs",
      controller: "k0s controller",
      worker: "k0s workers and Ceph daemons",
    };
    for (const g of ["bastion", "controller", "worker"] as const) {
      groups[g] = new aws.ec2.SecurityGroup(
        `${name}-${g}`,
        { vpcId: r.vpcId, description: `${name} ${purpose[g]}`, tags: { Name: `${name}-${g}` } },
        parent,
      );
      rules.push(
        new aws.vpc.SecurityGroupEgressRule(
          `${name}-${g}-egress`,
          { securityGroupId: groups[g].id, ipProtocol: "-1", cidrIpv4: "0.0.0.0/0", description: "all egress (packages, images, NTP)" },
          parent,
        ),
      );
    }
    for (const rule of ingressRules(r)) {
      const ports = rule.protocol === "-1" ? {} : { fromPort: rule.fromPort, toPort: rule.toPort };
      const base = { securityGroupId: groups[rule.to].id, ipProtocol: rule.protocol, description: rule.description, ...ports };
      for (const s of ingressSources(rule.from, r.adminCidrs, groups))
        rules.push(new aws.vpc.SecurityGroupIngressRule(`${name}-${rule.to}-${rule.key}${s.suffix}`, { ...base, ...s.source }, parent));
    }
    return { groups, rules };
  }

  /** Options of every instance: a newer Ubuntu image later must not replace running nodes, the AMI is read once, at creation. */
  private instanceOptions(): pulumi.CustomResourceOptions {
    return { parent: this, ignoreChanges: ["ami"] };
  }

  /** The controller, then the workers, each after its host key, in the private subnet. */
  private nodes(
    name: string,
    r: Resolved,
    on: { amiId: pulumi.Output<string>; groups: Record<Group, aws.ec2.SecurityGroup>; keyName: pulumi.Output<string> },
  ) {
    const hostKeys: tls.PrivateKey[] = [];
    const node = (role: string, sourceDestCheck: boolean) => {
      const key = hostKey(name, role, { parent: this });
      hostKeys.push(key);
      return new aws.ec2.Instance(
        `${name}-${role}`,
        {
          ami: on.amiId,
          instanceType: r.instanceType,
          subnetId: r.privateSubnetId,
          vpcSecurityGroupIds: [on.groups[role === "controller" ? "controller" : "worker"].id],
          keyName: on.keyName,
          associatePublicIpAddress: false,
          sourceDestCheck,
          // Only where the type can be EBS-optimized (instance-types.ts): asking on t2, m3.large… fails RunInstances.
          ebsOptimized: ebsOptimizedArg(r.instanceType),
          // Detailed (one-minute) CloudWatch monitoring: the benchmark nodes' CPUUtilization for each repetition (lab/utilization/cloudwatch.ts).
          monitoring: true,
          metadataOptions: METADATA_OPTIONS,
          rootBlockDevice: rootBlockDevice(r.rootVolumeGiB),
          // Secret (it holds the host's private key). cloud-init runs it once per instance, so a changed
          // document replaces the instance (user_data_replace_on_change, terraform-provider-aws
          // internal/service/ec2/ec2_instance.go: ForceNewIf) instead of a stop/start that would not run it.
          userData: pulumi.secret(
            hostKeyOf(key).apply((k) =>
              renderNodeCloudInit({
                hostKey: k,
                controller: role === "controller",
                operatorKey: r.sshPublicKey,
                // The controller runs no pods (no CNI): only workers need the module.
                wireguard: r.wireguard && role !== "controller",
                hugepages2Mi: r.hugepages2Mi,
              }),
            ),
          ),
          userDataReplaceOnChange: true,
          tags: { Name: `${name}-${role}`, "lab:role": role === "controller" ? "controller" : "worker" },
        },
        this.instanceOptions(),
      );
    };
    const controller = node("controller", true);
    // kube-router routes pod traffic without encapsulation: packets leave a worker with a pod source address.
    const workers = Array.from({ length: r.workerCount }, (_, i) => node(`worker-${i + 1}`, r.cni !== "kuberouter"));
    return { controller, workers, hostKeys };
  }

  /**
   * The bastion (after its host key) in the public subnet, and its stable public address: an
   * Elastic IP allocated on its own and associated with the instance. An instance's auto-assigned
   * public address changes at every stop/start; this one stays for the stack's lifetime, and
   * survives a replacement of the bastion too (the association is what follows the instance).
   * aws_eip / aws_eip_association: hashicorp/terraform-provider-aws internal/service/ec2/ec2_eip.go,
   * ec2_eip_association.go (the resources @pulumi/aws bridges).
   */
  private bastion(
    name: string,
    r: Resolved,
    on: {
      amiId: pulumi.Output<string>;
      groups: Record<Group, aws.ec2.SecurityGroup>;
      nodeIps: pulumi.Output<string[]>;
      bastionKey: tls.PrivateKey;
    },
  ) {
    const parent = { parent: this };
    const bastionHostKey = hostKey(name, "bastion", parent);
    const instance = new aws.ec2.Instance(
      `${name}-bastion`,
      {
        ami: on.amiId,
        instanceType: r.bastionInstanceType,
        subnetId: r.publicSubnetId,
        vpcSecurityGroupIds: [on.groups.bastion.id],
        // No EC2 key pair: the bastion's only authorized keys are cloud-init's restricted ones.
        associatePublicIpAddress: true,
        metadataOptions: METADATA_OPTIONS,
        rootBlockDevice: rootBlockDevice(8),
        // A new node (or a replaced one, with a new address) changes the tunnels the keys may open:
        // the bastion is replaced (stateless; the Elastic IP follows it, allowReassociation).
        userData: pulumi.secret(
          pulumi.all([on.nodeIps, hostKeyOf(bastionHostKey), on.bastionKey.publicKeyOpenssh]).apply(([ips, hk, bk]) =>
            renderBastionCloudInit({
              controllerPrivateIp: ips[0],
              nodePrivateIps: ips,
              hostKey: hk,
              bastionKey: bk,
              operatorKey: r.sshPublicKey,
            }),
          ),
        ),
        userDataReplaceOnChange: true,
        tags: { Name: `${name}-bastion`, "lab:role": "bastion" },
      },
      this.instanceOptions(),
    );
    const address = new aws.ec2.Eip(`${name}-bastion`, { domain: "vpc", tags: { Name: `${name}-bastion`, "lab:role": "bastion" } }, parent);
    const association = new aws.ec2.EipAssociation(
      `${name}-bastion`,
      // allowReassociation: a replaced bastion takes the address over before the old association is
      // deleted (create before delete); allow_reassociation is sent only when set (terraform-provider-aws
      // ec2_eip_association.go), and it is force-new, so it is set from the start.
      { allocationId: address.allocationId, instanceId: instance.id, allowReassociation: true },
      parent,
    );
    return { hostKey: bastionHostKey, publicIp: address.publicIp, association };
  }

  /** One encrypted gp3 OSD volume per worker, attached as {@link OSD_DEVICE_NAME}; the attachments. */
  private osdVolumes(name: string, r: Resolved, workers: aws.ec2.Instance[], volume: OsdVolume): aws.ec2.VolumeAttachment[] {
    const parent = { parent: this };
    return workers.map((w, i) => {
      const vol = new aws.ebs.Volume(
        `${name}-osd-${i + 1}`,
        {
          availabilityZone: r.az,
          type: "gp3",
          size: volume.sizeGiB,
          iops: volume.iops,
          throughput: volume.throughputMiBps,
          encrypted: true,
          tags: { Name: `${name}-osd-${i + 1}`, "lab:role": "ceph-osd" },
        },
        parent,
      );
      // Stop the worker before detaching, so a destroy never pulls a live OSD's disk away.
      return new aws.ec2.VolumeAttachment(
        `${name}-osd-${i + 1}`,
        { instanceId: w.id, volumeId: vol.id, deviceName: OSD_DEVICE_NAME, stopInstanceBeforeDetaching: true },
        parent,
      );
    });
  }

  /** k0sctl's config (k0sctl.ts) for these nodes, reached through the bastion's address. */
  private k0sctlConfig(
    name: string,
    r: Resolved,
    nodes: { controller: aws.ec2.Instance; workers: aws.ec2.Instance[] },
    bastionIp: pulumi.Output<string>,
  ): pulumi.Output<string> {
    return pulumi
      .all([nodes.controller.privateIp, pulumi.all(nodes.workers.map((w) => w.privateIp)), bastionIp, r.az])
      .apply(([controllerIp, workerIps, bastionAddress, zone]) =>
        renderK0sctlConfig({
          clusterName: name,
          k0sVersion: r.k0sVersion,
          controllerAddress: controllerIp,
          workerAddresses: workerIps,
          bastionAddress,
          cni: r.cni,
          wireguard: r.wireguard,
          zone,
          instanceType: r.instanceType,
        }),
      );
  }

  /**
   * `k0sctl apply` (after `after`: the OSD attachments and the bastion's address) and `k0sctl
   * kubeconfig`, both reading their config and keys from `environment`.
   *
   * No `triggers` on either command. The SDK registers every Command with
   * `replaceOnChanges: ["triggers[*]"]` (@pulumi/command 1.2.1 local/command.js; the provider tags
   * `triggers` `provider:"replaceOnChanges"`, pulumi/pulumi-command provider/pkg/provider/common/inputs.go
   * at v1.2.1; pulumi/pulumi-command#855), so a changed trigger *replaces* the command: the new
   * one is created (apply), then the old one deleted, and its `delete` (`k0sctl reset --force`)
   * would uninstall k0s from the live nodes, Ceph and every volume on them with it.
   * Any other changed input (here: the config in `environment`) is an *update*: the provider's
   * Update runs `update` (or `create` when there is none) and never `delete`
   * (provider/pkg/provider/local/commandController.go at v1.2.1, `Update`). `k0sctl apply` is
   * idempotent and converges a running cluster to the config (a new k0s version upgrades it,
   * a new worker joins), so `update` is `apply` again.
   * On destroy, `delete` reads the config of the last create or update from the state.
   */
  private install(
    name: string,
    environment: Record<string, pulumi.Input<string>>,
    bastionIp: pulumi.Output<string>,
    after: pulumi.Resource[],
  ) {
    const parent = { parent: this };
    const apply = new command.local.Command(
      `${name}-k0sctl-apply`,
      {
        create: k0sctlCommand("apply"),
        update: k0sctlCommand("apply"),
        delete: k0sctlCommand("reset"),
        environment,
      },
      { ...parent, dependsOn: after, customTimeouts: { create: "40m", update: "40m", delete: "20m" } },
    );
    // Re-read after every apply that changed the config (its environment changes with it).
    const kubeconfig = new command.local.Command(
      `${name}-kubeconfig`,
      {
        create: k0sctlCommand("kubeconfig"),
        update: k0sctlCommand("kubeconfig"),
        environment: { ...environment, LAB_API_URL: bastionIp.apply(apiUrl) },
        logging: "stderr",
      },
      { ...parent, dependsOn: [apply], additionalSecretOutputs: ["stdout"] },
    );
    return { apply, kubeconfig };
  }
}
