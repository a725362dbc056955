/**
 * Kubernetes Secrets encrypted at rest in the k0s cluster's etcd. Pure.
 *
 * k0s runs kube-apiserver as a host process under k0s' supervision and passes it
 * `spec.api.extraArgs` of the ClusterConfig (k0sproject/k0s v1.36.3+k0s.2 docs/configuration.md,
 * `spec.api` "extraArgs: Map of key-values (strings) for any extra arguments to pass down to
 * Kubernetes API server process"; pkg/component/controller/apiserver.go copies them into the
 * process' arguments). k0s ships no encryption setting of its own: its CIS notes leave
 * `--encryption-provider-config` "for the users to decide" (docs/cis_benchmark.md, checks 1.2.33
 * and 1.2.34). So the lab sets the flag to a file on the controller, an `EncryptionConfiguration`
 * (apiserver.config.k8s.io/v1; kubernetes.io/docs/tasks/administer-cluster/encrypt-data/).
 *
 * The file is delivered by k0sctl (`spec.hosts[*].files`, k0sctl v0.32.2 README "files": `src`,
 * `dst`, `perm`, `dirPerm`, `user`), from a 0600 temporary file k0sctl.sh writes for the call, to a
 * directory of its own: k0sctl chmods the destination's directory to `dirPerm` (phase/uploadfiles.go
 * `ensureDir`), which must not touch /etc/k0s. It is owned by `kube-apiserver`, the user k0s runs
 * the API server as (pkg/constant/constant.go `ApiserverUser`; apiserver.go looks its uid up), which
 * the controller's cloud-init creates before k0sctl first connects (cloud-init.ts): k0sctl uploads
 * files before it installs k0s (action/apply.go: `UploadFiles` before `InstallControllers`), and k0s
 * reuses an existing user (pkg/install/users_linux.go `EnsureControllerUsers`).
 *
 * Every `k0sctl apply` uploads the file again when it changed (uploadfiles.go: "file already exists
 * and hasn't been changed, skipping upload"), and the API server re-reads it by itself
 * (`--encryption-provider-config-automatic-reload`, kube-apiserver reference): a key added later
 * reaches a live cluster without a restart.
 *
 * Keys. `secretbox` (XSalsa20-Poly1305, a 32-byte key, base64) is the provider: one of the three
 * CIS 1.2.34 / Checkov CKV_K8S_104 accept (aescbc, kms, secretbox) and, unlike aesgcm, without a
 * write count after which the key must be rotated (encrypt-data page, "Providers"). The first key
 * encrypts, every key decrypts; `identity` comes last so Secrets written before encryption was on
 * (a live cluster getting this change) stay readable. A key must never be dropped while Secrets
 * encrypted with it exist, or they can no longer be read: {@link encryptionKeysProblems} refuses a
 * list without keys, duplicates or short keys, and the component never replaces its key (see
 * docs/security.md, "Rotating the Secrets key", for adding one).
 */
import YAML from "yaml";
import { argProblem, ArgProblem, formatArgProblem } from "../../core/errors";

/** Where the API server reads its encryption config on the controller (a directory of its own, 0700). */
export const ENCRYPTION_CONFIG_DIR = "/etc/storage-bench-lab";
export const ENCRYPTION_CONFIG_PATH = `${ENCRYPTION_CONFIG_DIR}/encryption-config.yaml`;
/** The user k0s runs kube-apiserver as (k0s pkg/constant/constant.go `ApiserverUser`), the file's owner. */
export const API_SERVER_USER = "kube-apiserver";
/** The file's and its directory's modes, as k0sctl reads them (octal strings: YAML 1.2 reads 0600 as decimal). */
export const ENCRYPTION_CONFIG_PERM = "0600";
export const ENCRYPTION_CONFIG_DIR_PERM = "0700";
/** The provider that encrypts. */
export const ENCRYPTION_PROVIDER = "secretbox";
/** secretbox's key length in bytes. */
export const SECRETBOX_KEY_BYTES = 32;
/** The API server arguments that turn encryption at rest on (k0s `spec.api.extraArgs`, values are strings). */
export const ENCRYPTION_EXTRA_ARGS: Readonly<Record<string, string>> = {
  "encryption-provider-config": ENCRYPTION_CONFIG_PATH,
  "encryption-provider-config-automatic-reload": "true",
};

/** One key: its name in the config and its secret (base64 of {@link SECRETBOX_KEY_BYTES} bytes). */
export interface EncryptionKey {
  readonly name: string;
  readonly secret: string;
}

const KEY_NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

/** True for the base64 of exactly {@link SECRETBOX_KEY_BYTES} bytes. */
export function isSecretboxKey(v: unknown): v is string {
  return typeof v === "string" && BASE64_RE.test(v) && v.length % 4 === 0 && Buffer.from(v, "base64").length === SECRETBOX_KEY_BYTES;
}

/** Every problem of a key list; the secret's value is never shown. */
export function encryptionKeysProblems(keys: readonly EncryptionKey[]): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (keys.length === 0) out.push(argProblem("keys", "at least one key (the first encrypts, every key decrypts)", keys));
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (typeof k.name !== "string" || !KEY_NAME_RE.test(k.name))
      out.push(argProblem(`keys[${i}].name`, "a lowercase name (e.g. key-1)", k.name));
    else if (seen.has(k.name)) out.push(argProblem(`keys[${i}].name`, "a name no other key has", k.name));
    else seen.add(k.name);
    if (!isSecretboxKey(k.secret)) out.push(argProblem(`keys[${i}].secret`, `the base64 of ${SECRETBOX_KEY_BYTES} bytes`, "(not shown)"));
  });
  return out;
}

/** The EncryptionConfiguration object: Secrets through secretbox with `keys` (first encrypts), then identity. */
export function encryptionConfig(keys: readonly EncryptionKey[]): Record<string, unknown> {
  const problems = encryptionKeysProblems(keys);
  if (problems.length > 0) throw new Error(`invalid encryption keys:\n${problems.map((p) => formatArgProblem(p)).join("\n")}`);
  return {
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "EncryptionConfiguration",
    resources: [
      {
        resources: ["secrets"],
        providers: [{ [ENCRYPTION_PROVIDER]: { keys: keys.map((k) => ({ name: k.name, secret: k.secret })) } }, { identity: {} }],
      },
    ],
  };
}

/** The file the API server reads. */
export function renderEncryptionConfig(keys: readonly EncryptionKey[]): string {
  return YAML.stringify(encryptionConfig(keys), { lineWidth: 0 });
}
