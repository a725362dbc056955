/**
 * `lab:postgres:Postgres`: a single PostgreSQL server (StatefulSet) whose data lives on a
 * StorageClass under test, for pgbench. Creates its namespace (restricted Pod Security profile),
 * its NetworkPolicies (default deny, DNS, pgbench to the server only), a generated password
 * (@pulumi/random, a secret) in a Secret, a headless Service and the
 * StatefulSet (manifests.ts). Pulumi's StatefulSet await waits for the pod's `pg_isready`
 * readiness probe. The Kubernetes provider comes from `opts`; `opts.deletedWith` reaches every child.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { childOptions } from "../lib/child";
import { throwIfInvalid } from "../lib/args";
import {
  namespaceManifest,
  postgresNetworkPolicyManifests,
  PASSWORD_KEY,
  PASSWORD_SECRET_NAME,
  postgresConnection,
  PostgresSpec,
  POSTGRES_NAME,
  serviceManifest,
  statefulSetManifest,
} from "./manifests";
import { PostgresArgs, problems, resolve } from "./rules";

export { POSTGRES_DEFAULTS } from "./rules";
export type { PostgresArgs } from "./rules";

export class Postgres extends pulumi.ComponentResource {
  readonly namespace: pulumi.Output<string>;
  /** The Service's cluster DNS name. */
  readonly host: pulumi.Output<string>;
  readonly port: pulumi.Output<number>;
  readonly user: pulumi.Output<string>;
  readonly database: pulumi.Output<string>;
  /** The Secret (in `namespace`) and its key holding the password. */
  readonly passwordSecret: pulumi.Output<{ name: string; key: string }>;
  /** The generated password (secret). */
  readonly password: pulumi.Output<string>;

  constructor(name: string, args: PostgresArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:postgres:Postgres", name, {}, opts);
    throwIfInvalid("lab:postgres:Postgres", name, problems(args));
    const child = childOptions(this, opts);
    const spec: PostgresSpec = { ...resolve(args), name: POSTGRES_NAME, passwordSecretName: PASSWORD_SECRET_NAME };
    const { namespace } = spec;

    // Every other child follows the namespace, so the component's dependsOn (the StorageClass) holds for all of them.
    const ns = new k8s.core.v1.Namespace(`${name}-ns`, namespaceManifest(namespace) as k8s.core.v1.NamespaceArgs, {
      ...child,
      dependsOn: opts?.dependsOn,
    });
    const password = new random.RandomPassword(`${name}-password`, { length: 32, special: false }, { parent: this });
    const secret = new k8s.core.v1.Secret(
      `${name}-credentials`,
      {
        metadata: { name: spec.passwordSecretName, namespace: ns.metadata.name },
        type: "Opaque",
        stringData: { [PASSWORD_KEY]: password.result },
      },
      child,
    );
    const policies = postgresNetworkPolicyManifests(spec).map(
      (p) =>
        new k8s.networking.v1.NetworkPolicy(`${name}-netpol-${p.metadata?.name}`, p as unknown as k8s.networking.v1.NetworkPolicyArgs, {
          ...child,
          dependsOn: [ns],
        }),
    );
    const svc = new k8s.core.v1.Service(`${name}-svc`, serviceManifest(spec) as k8s.core.v1.ServiceArgs, { ...child, dependsOn: [ns] });
    new k8s.apps.v1.StatefulSet(`${name}-server`, statefulSetManifest(spec) as unknown as k8s.apps.v1.StatefulSetArgs, {
      ...child,
      dependsOn: [ns, secret, svc, ...policies],
      customTimeouts: { create: "20m", update: "20m" },
    });

    const conn = postgresConnection(namespace);
    this.namespace = ns.metadata.name;
    this.host = pulumi.output(conn.host);
    this.port = pulumi.output(conn.port);
    this.user = pulumi.output(conn.user);
    this.database = pulumi.output(conn.database);
    this.passwordSecret = pulumi.output(conn.passwordSecret);
    this.password = pulumi.secret(password.result);
    this.registerOutputs({
      namespace: this.namespace,
      host: this.host,
      port: this.port,
      user: this.user,
      database: this.database,
      passwordSecret: this.passwordSecret,
      password: this.password,
    });
  }
}
