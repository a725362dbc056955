/**
 * `lab:mysql:MySql`: replicated MySQL 8.4 (source `mysql-0`, replicas cloned with XtraBackup 8.4)
 * on a StorageClass under test, in a namespace under the restricted Pod Security profile. Creates
 * the namespace, its NetworkPolicies (default deny, DNS, replication and the experiment writer's
 * flows: manifests.ts `mysqlNetworkPolicyManifests`), a random root password (@pulumi/random: 32 letters and digits, never empty, a
 * Pulumi secret) in a Secret, the replication account's password (the same kind, its own Secret:
 * replicas connect as `repl` with REPLICATION SLAVE only, never as root), the failover writer's
 * password (the same kind, its own Secret: the writer logs in as `lab_writer`, manifests.ts
 * `WRITER_USER`, never as root), the ConfigMap, both Services, the StatefulSet and its
 * PodDisruptionBudget (manifests.ts). The Kubernetes provider comes from `opts`; `opts.deletedWith`
 * reaches every child; `opts.dependsOn` (the StorageClass) holds for all of them.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import {
  MYSQL_NAME,
  MYSQL_READ_SERVICE,
  mysqlConfigMapManifest,
  mysqlNetworkPolicyManifests,
  restrictedNamespaceManifest,
  mysqlPdbManifest,
  mysqlServiceManifests,
  mysqlStatefulSetManifest,
  REPLICATION_SECRET_NAME,
  ROOT_PASSWORD_KEY,
  ROOT_SECRET_NAME,
  sourceHost,
  WRITER_SECRET_NAME,
  WRITER_USER,
} from "./manifests";
import { MySqlSpec, problems, resolve } from "./rules";
import { readMySqlScripts } from "./scripts";

export type MySqlArgs = MySqlSpec;

/** Length of the generated root password (letters and digits: safe in option files and SQL literals). */
export const ROOT_PASSWORD_LENGTH = 32;

export class MySql extends pulumi.ComponentResource {
  readonly namespace: pulumi.Output<string>;
  /** The source's DNS name (`mysql-0.mysql.<ns>.svc.cluster.local`). */
  readonly sourceHost: pulumi.Output<string>;
  /** The read Service's DNS name. */
  readonly readHost: pulumi.Output<string>;
  readonly statefulSetName: pulumi.Output<string>;
  readonly replicas: pulumi.Output<number>;
  /** The Secret (in `namespace`) and key of the root password. */
  readonly rootPasswordSecret: pulumi.Output<{ name: string; key: string }>;
  /** The generated root password (secret). */
  readonly rootPassword: pulumi.Output<string>;
  /** The failover writer's account (created on the source by the xtrabackup sidecar). */
  readonly writerUser: pulumi.Output<string>;
  /** The Secret (in `namespace`) and key of the writer's password. */
  readonly writerPasswordSecret: pulumi.Output<{ name: string; key: string }>;

  constructor(name: string, args: MySqlArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:mysql:MySql", name, {}, opts);
    throwIfInvalid("lab:mysql:MySql", name, problems(args));
    const r = resolve(args);
    const child = childOptions(this, opts);
    const as = <A>(o: object) => o as unknown as A;

    const ns = new k8s.core.v1.Namespace(`${name}-ns`, as<k8s.core.v1.NamespaceArgs>(restrictedNamespaceManifest(r.namespace)), {
      ...child,
      dependsOn: opts?.dependsOn,
    });
    const inNs = { ...child, dependsOn: [ns] };
    // A random password (letters and digits: safe in option files and SQL literals) in a Secret of its own.
    const passwordSecret = (suffix: string, secretName: string) => {
      const pw = new random.RandomPassword(
        `${name}-${suffix}`,
        { length: ROOT_PASSWORD_LENGTH, special: false, minLower: 1, minUpper: 1, minNumeric: 1 },
        { parent: this },
      );
      const sec = new k8s.core.v1.Secret(
        `${name}-${suffix}`,
        { metadata: { name: secretName, namespace: r.namespace }, type: "Opaque", stringData: { [ROOT_PASSWORD_KEY]: pw.result } },
        inNs,
      );
      return { password: pw, secret: sec };
    };
    const { password, secret } = passwordSecret("root", ROOT_SECRET_NAME);
    const { secret: replicationSecret } = passwordSecret("replication", REPLICATION_SECRET_NAME);
    const { secret: writerSecret } = passwordSecret("writer", WRITER_SECRET_NAME);
    const configMap = new k8s.core.v1.ConfigMap(
      `${name}-config`,
      as<k8s.core.v1.ConfigMapArgs>(mysqlConfigMapManifest(r, readMySqlScripts())),
      inNs,
    );
    const policies = mysqlNetworkPolicyManifests(r).map(
      (p) => new k8s.networking.v1.NetworkPolicy(`${name}-netpol-${p.metadata?.name}`, as<k8s.networking.v1.NetworkPolicyArgs>(p), inNs),
    );
    const services = mysqlServiceManifests(r).map(
      (s) => new k8s.core.v1.Service(`${name}-${s.metadata?.name}`, as<k8s.core.v1.ServiceArgs>(s), inNs),
    );
    const sts = new k8s.apps.v1.StatefulSet(`${name}-servers`, as<k8s.apps.v1.StatefulSetArgs>(mysqlStatefulSetManifest(r)), {
      ...child,
      dependsOn: [ns, secret, replicationSecret, writerSecret, configMap, ...services, ...policies],
      // Pulumi's StatefulSet await waits for every replica to be ready: clone + prepare take time.
      customTimeouts: { create: "30m", update: "30m" },
    });
    new k8s.policy.v1.PodDisruptionBudget(`${name}-pdb`, as<k8s.policy.v1.PodDisruptionBudgetArgs>(mysqlPdbManifest(r)), {
      ...child,
      dependsOn: [sts],
    });

    this.namespace = ns.metadata.name;
    this.sourceHost = pulumi.output(sourceHost(r.namespace));
    this.readHost = pulumi.output(`${MYSQL_READ_SERVICE}.${r.namespace}.svc.cluster.local`);
    this.statefulSetName = pulumi.output(MYSQL_NAME);
    this.replicas = pulumi.output(r.replicas);
    this.rootPasswordSecret = pulumi.output({ name: ROOT_SECRET_NAME, key: ROOT_PASSWORD_KEY });
    this.rootPassword = pulumi.secret(password.result);
    this.writerUser = pulumi.output(WRITER_USER);
    this.writerPasswordSecret = pulumi.output({ name: WRITER_SECRET_NAME, key: ROOT_PASSWORD_KEY });
    this.registerOutputs({
      namespace: this.namespace,
      sourceHost: this.sourceHost,
      readHost: this.readHost,
      statefulSetName: this.statefulSetName,
      replicas: this.replicas,
      rootPasswordSecret: this.rootPasswordSecret,
      rootPassword: this.rootPassword,
      writerUser: this.writerUser,
      writerPasswordSecret: this.writerPasswordSecret,
    });
  }
}
