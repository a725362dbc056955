import {
  nameWords,
  OUTPUT_RULES,
  privateKeyName,
  sensitiveContent,
  sensitiveName,
  stackOutputsNoPasswords,
  stackOutputsNoPrivateKey,
  stackOutputsSecret,
} from "../../../lab/policy/outputs";
import { COMPUTED, SECRET } from "../../../lab/policy/rule";

const KUBECONFIG_YAML = [
  "apiVersion: v1",
  "kind: Config",
  "clusters:",
  "  - name: lab",
  "    cluster: { server: https://203.0.113.77:6443 }",
  "users: []",
].join("\n");
const PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
const wrap = (path: string, what: string) => `output ${path} holds ${what} and is not a secret: export it wrapped in pulumi.secret()`;

interface OutputCase {
  readonly title: string;
  readonly outputs: Record<string, unknown>;
  readonly secretOutputNames?: readonly string[];
  readonly want: readonly string[];
}

const CASES: readonly OutputCase[] = [
  {
    title: "the shipped kinds' outputs: secrets secret, references and public keys plain",
    outputs: {
      kubeconfig: SECRET,
      sshPrivateKey: SECRET,
      mysqlRootPassword: SECRET,
      kmsKeyArn: "arn:aws:kms:us-east-1:123456789012:key/fsx-kms-1",
      credentialsSecretArn: "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-vsadmin-1",
      fsxadminSecretArn: "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-fsxadmin-1",
      tridentRoleName: "fsx-eks-cluster-trident",
      sshPublicKey: "ssh-ed25519 AAAAC3Nza lab",
      mysql: { namespace: "mysql", sourceHost: "mysql-0.mysql", replicas: 3 },
      results: COMPUTED,
    },
    want: [],
  },
  {
    title: "a secret unknown until deploy is a secret (by secretOutputNames)",
    outputs: { kubeconfig: COMPUTED, sshPrivateKey: SECRET },
    secretOutputNames: ["kubeconfig", "sshPrivateKey"],
    want: [],
  },
  {
    title: "a kubeconfig unknown until deploy that is not secret",
    outputs: { kubeconfig: COMPUTED },
    secretOutputNames: [],
    want: [wrap("kubeconfig", "a kubeconfig")],
  },
  {
    title: "plain password, private key, token, credentials",
    outputs: {
      adminPassword: "hunter2",
      sshPrivateKey: "",
      api_token: "t",
      "db-credentials": { user: "u" },
      clientSecret: "s",
    },
    secretOutputNames: [],
    want: [
      wrap("adminPassword", "a password"),
      wrap("sshPrivateKey", "a key"),
      wrap("api_token", "a token"),
      wrap("db-credentials", "credentials"),
      wrap("clientSecret", "a secret"),
    ],
  },
  {
    title: "by content: a kubeconfig or a PEM private key under a harmless name",
    outputs: { clusterAccess: KUBECONFIG_YAML, bastion: { login: PEM }, jsonConfig: JSON.stringify({ kind: "Config", clusters: [] }) },
    want: [wrap("clusterAccess", "a kubeconfig"), wrap("bastion.login", "a private key"), wrap("jsonConfig", "a kubeconfig")],
  },
  {
    title: "a bare key is a name, not a secret: a node group's taint key",
    outputs: { nodeGroups: [{ name: "kafka", taints: [{ key: "storage-bench-lab/node-group", value: "kafka", effect: "NoSchedule" }] }] },
    secretOutputNames: [],
    want: [],
  },
  {
    title: "nested in a plain object or a list",
    outputs: { mysql: { host: "h", rootPassword: "p" }, users: [{ name: "a", password: "b" }] },
    secretOutputNames: [],
    want: [wrap("mysql.rootPassword", "a password"), wrap("users[0].password", "a password")],
  },
];

const noKey = (path: string) =>
  `output ${path} holds a private key: export none, not even as a secret; give the key to what uses it as an input`;

/** stack-outputs-no-private-key: no output holds a private key, secret or not. */
const NO_KEY_CASES: readonly OutputCase[] = [
  {
    title: "the ceph-k0s outputs now: known_hosts (public host keys), addresses, a secret kubeconfig",
    outputs: {
      kubeconfig: SECRET,
      bastionPublicIp: "203.0.113.5",
      nodePrivateIps: ["10.0.1.10"],
      sshKnownHosts: "203.0.113.5 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHost\n",
      osdVolume: { sizeGiB: 100 },
    },
    secretOutputNames: ["kubeconfig"],
    want: [],
  },
  {
    title: "an empty private key output (the old ceph-k0s with lab:sshPublicKey) holds none",
    outputs: { sshPrivateKey: "" },
    want: [],
  },
  {
    title: "the old ceph-k0s output: a private key as a secret is still one",
    outputs: { sshPrivateKey: SECRET, kubeconfig: SECRET },
    secretOutputNames: ["sshPrivateKey", "kubeconfig"],
    want: [noKey("sshPrivateKey")],
  },
  {
    title: "by content under another name, and nested",
    outputs: { bastion: { login: PEM }, keys: [{ privateKeyPem: COMPUTED }] },
    want: [noKey("bastion.login"), noKey("keys[0].privateKeyPem")],
  },
];

describe("policy rules: outputs", () => {
  test.each(CASES.map((c) => [c.title, c] as const))("stack-outputs-secret: %s", (_, c) => {
    expect(stackOutputsSecret.checkOutputs(c.outputs, c.secretOutputNames)).toEqual(c.want);
  });

  test("the area's rules, mandatory, with a compliant and a non-compliant case", () => {
    expect(OUTPUT_RULES.map((r) => [r.name, r.enforcementLevel])).toEqual([
      ["stack-outputs-secret", "mandatory"],
      ["stack-outputs-no-passwords", "mandatory"],
      ["stack-outputs-no-private-key", "mandatory"],
    ]);
    expect(CASES.some((c) => c.want.length === 0) && CASES.some((c) => c.want.length > 0)).toBe(true);
    expect(NO_KEY_CASES.some((c) => c.want.length === 0) && NO_KEY_CASES.some((c) => c.want.length > 0)).toBe(true);
  });

  test.each(NO_KEY_CASES.map((c) => [c.title, c] as const))("stack-outputs-no-private-key: %s", (_, c) => {
    expect(stackOutputsNoPrivateKey.checkOutputs(c.outputs, c.secretOutputNames)).toEqual(c.want);
  });

  test("private key names", () => {
    expect(
      [
        "sshPrivateKey",
        "private_key_pem",
        "nodePrivateKeys",
        "privateKeyArn",
        "sshPublicKey",
        "privateIp",
        "nodePrivateIps",
        "keyPrivate",
      ].map(privateKeyName),
    ).toEqual([true, true, true, false, false, false, false, false]);
  });

  test("names: words, what they hold, references and public keys", () => {
    expect(nameWords("mysqlRootPassword")).toEqual(["mysql", "root", "password"]);
    expect(nameWords("db_admin-Secret")).toEqual(["db", "admin", "secret"]);
    expect(
      [
        "sshPrivateKey",
        "mysqlRootPassword",
        "kubeconfig",
        "apiKey",
        "kmsKeyArn",
        "sshPublicKey",
        "keyPairName",
        "fsxadminSecretArn",
        "rootPasswordSecretRef",
        "rootPasswordSecret",
        "storageClass",
        "key",
        "",
      ].map(sensitiveName),
    ).toEqual([
      "a key",
      "a password",
      "a kubeconfig",
      "a key",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      "a password",
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("content: PEM private keys and kubeconfigs, not public keys or other YAML", () => {
    expect([PEM, KUBECONFIG_YAML, "ssh-ed25519 AAAA lab", "kind: ConfigMap\nclusters: 1", 42].map(sensitiveContent)).toEqual([
      "a private key",
      "a kubeconfig",
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("stack-outputs-no-passwords", () => {
  test("compliant: references to where a password is kept", () => {
    expect(
      stackOutputsNoPasswords.checkOutputs(
        { mysql: { rootPasswordSecretRef: { name: "mysql-root", key: "password" } }, fsxadminSecretArn: "arn:aws:secretsmanager:x" },
        [],
      ),
    ).toEqual([]);
  });
  test("non-compliant: a password output, secret or not, at any depth", () => {
    expect(
      stackOutputsNoPasswords.checkOutputs({ mysqlRootPassword: "[secret]", db: { adminPassphrase: "x" } }, ["mysqlRootPassword"]),
    ).toEqual([
      "output mysqlRootPassword holds a password: export a reference to where it is kept (a Secret's name and key, an ARN) instead",
      "output db.adminPassphrase holds a password: export a reference to where it is kept (a Secret's name and key, an ARN) instead",
    ]);
  });
});
