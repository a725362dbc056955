/**
 * Policy rules of a stack's outputs: an output that holds a password, a key, a token, credentials
 * or a kubeconfig is a Pulumi secret, so that the state file and `pulumi stack output` show it
 * only when asked with `--show-secrets`. Pure (see ./rule.ts for how rules read values).
 *
 * Only `lab plan --policy` runs these (lab/policy/evaluate.ts `evaluateStackOutputs`): a
 * CrossGuard pack cannot, since @pulumi/policy hands stack policies every property with its
 * secrets unwrapped into plain values (@pulumi/policy 1.x server.js, `validateStack`:
 * `deserializeProperties(…, false)`), so whether an output is a secret cannot be seen there.
 */
import { SECRET } from "../plan/markers";
import { controls, defineStackRule, isObj, mirrors } from "./rule";

/** Words of a name that say what secret it holds (`mysqlRootPassword` → password). */
const SENSITIVE_WORDS: Readonly<Record<string, string>> = {
  password: "a password",
  passwd: "a password",
  passphrase: "a passphrase",
  token: "a token",
  secret: "a secret",
  credential: "credentials",
  credentials: "credentials",
  kubeconfig: "a kubeconfig",
};

/**
 * Words that make a following `key` key material (`sshPrivateKey`, `apiKey`, `accessKey`): a bare
 * `key` is as often a name (a taint's or a label's key, a map key) as a secret, and a public key is
 * none.
 */
const KEY_QUALIFIERS = new Set(["private", "secret", "access", "api", "signing", "encryption", "master"]);

/**
 * Last words of a name that make it a reference to a secret, not the secret (`kmsKeyArn`,
 * `fsxadminSecretArn`, `rootPasswordSecretRef`: a Kubernetes Secret's name and key).
 */
const REFERENCE_WORDS = new Set(["arn", "arns", "id", "ids", "name", "names", "path", "url", "uri", "version", "ref", "refs"]);

/** The words of a name: camelCase, snake_case and kebab-case split, lowercased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** What secret a name says its value holds, or undefined (a bare or public key and a reference hold none). */
export function sensitiveName(name: string): string | undefined {
  const words = nameWords(name);
  if (words.length === 0 || REFERENCE_WORDS.has(words[words.length - 1])) return undefined;
  for (let i = 0; i < words.length; i++) {
    const what = SENSITIVE_WORDS[words[i]];
    if (what !== undefined) return what;
    if (words[i] === "key" && i > 0 && KEY_QUALIFIERS.has(words[i - 1])) return "a key";
  }
  return undefined;
}

/** What secret a value shows it holds by its content, or undefined: a PEM private key, a kubeconfig. */
export function sensitiveContent(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(value)) return "a private key";
  const kubeconfig = /(^|\n)\s*kind:\s*"?Config"?\s*(\n|$)/.test(value) || /"kind"\s*:\s*"Config"/.test(value);
  if (kubeconfig && /clusters/.test(value)) return "a kubeconfig";
  return undefined;
}

/**
 * The places under an output's `value` (itself at `path`, named `name`) that `judge` finds
 * something in, looking at most 4 levels down: a place judged (a finding, or `null`: nothing here
 * and nothing to look into) is not looked into; `undefined` looks into its items or fields, each
 * judged by its own key's name (an array's items by the array's).
 */
function outputPlaces<T>(
  path: string,
  name: string,
  value: unknown,
  judge: (name: string, value: unknown) => T | null | undefined,
  depth = 0,
): Array<{ path: string; found: T }> {
  const found = judge(name, value);
  if (found === null) return [];
  if (found !== undefined) return [{ path, found }];
  if (depth >= 4) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => outputPlaces(`${path}[${i}]`, name, v, judge, depth + 1));
  if (isObj(value)) return Object.entries(value).flatMap(([k, v]) => outputPlaces(`${path}.${k}`, k, v, judge, depth + 1));
  return [];
}

/** Every place under `value` (itself at `path`) that holds a secret, with what it holds. */
function sensitivePlaces(path: string, name: string, value: unknown): Array<{ path: string; what: string }> {
  return outputPlaces(path, name, value, (n, v) => {
    if (v === SECRET) return null;
    // An ARN names a secret; it is not one.
    if (typeof v === "string" && v.startsWith("arn:")) return null;
    return sensitiveName(n) ?? sensitiveContent(v);
  }).map(({ path: p, found }) => ({ path: p, what: found }));
}

const LAB_OWN = controls([]);

export const stackOutputsSecret = defineStackRule({
  name: "stack-outputs-secret",
  description:
    "Every stack output that holds a password, a key, a token, credentials or a kubeconfig (by its name, or by its " +
    "content: a PEM private key, a kubeconfig) is a Pulumi secret; an ARN or an id of a secret is not one. Runs in " +
    "`lab plan --policy` only: a CrossGuard pack sees stack outputs with their secrets unwrapped. " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  checkOutputs(outputs, secretOutputNames) {
    const out: string[] = [];
    for (const [name, value] of Object.entries(outputs)) {
      if (value === SECRET || (secretOutputNames ?? []).includes(name)) continue;
      for (const place of sensitivePlaces(name, name, value))
        out.push(`output ${place.path} holds ${place.what} and is not a secret: export it wrapped in pulumi.secret()`);
    }
    return out;
  },
});

/** Every place under `value` whose name says it holds a password or a passphrase, secret or not. */
function passwordPlaces(path: string, name: string, value: unknown): string[] {
  return outputPlaces(path, name, value, (n, v) => {
    const what = sensitiveName(n);
    if (what === "a password" || what === "a passphrase") return true;
    return v === SECRET ? null : undefined;
  }).map((x) => x.path);
}

export const stackOutputsNoPasswords = defineStackRule({
  name: "stack-outputs-no-passwords",
  description:
    "No stack output holds a password or a passphrase, even as a secret: `pulumi stack output --show-secrets` and every " +
    "reader of the stack (StackReferences, the Automation API) would get it. Export where it is kept instead (a " +
    "Kubernetes Secret's name and key, a Secrets Manager ARN), and let what needs it read it there with its own access " +
    "(the failover writer's pod reads MySQL's root password through `secretKeyRef`). " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  checkOutputs(outputs) {
    return Object.entries(outputs).flatMap(([name, value]) =>
      passwordPlaces(name, name, value).map(
        (path) => `output ${path} holds a password: export a reference to where it is kept (a Secret's name and key, an ARN) instead`,
      ),
    );
  },
});

/** True for a name that says it holds a private key (`sshPrivateKey`, `private_key_pem`, `nodePrivateKeys`); a reference (`privateKeyArn`) holds none. */
export function privateKeyName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0 || REFERENCE_WORDS.has(words[words.length - 1])) return false;
  return words.some((w, i) => w === "private" && (words[i + 1] === "key" || words[i + 1] === "keys"));
}

/** Every place under `value` (itself at `path`) that holds a private key, by its name or its content. */
function privateKeyPlaces(path: string, name: string, value: unknown): string[] {
  return outputPlaces(path, name, value, (n, v) => {
    if (privateKeyName(n)) return v === "" ? null : true;
    return sensitiveContent(v) === "a private key" ? true : undefined;
  }).map((x) => x.path);
}

export const stackOutputsNoPrivateKey = defineStackRule({
  name: "stack-outputs-no-private-key",
  description:
    "No stack output holds a private key, not even as a secret: an output is read by `pulumi stack output " +
    "--show-secrets`, by every downstream StackReference and by whoever can decrypt the state's outputs, while a key " +
    "is needed only by the resource that uses it (give it there as an input: k0sctl gets the cluster's SSH keys through " +
    "its Command's environment). Judged by the output's name (`…PrivateKey…`, an empty value passes) and, when not a " +
    "secret, by its content (a PEM private key). Runs in `lab plan --policy` only, like stack-outputs-secret. " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  checkOutputs(outputs) {
    return Object.entries(outputs).flatMap(([name, value]) =>
      privateKeyPlaces(name, name, value).map(
        (place) => `output ${place} holds a private key: export none, not even as a secret; give the key to what uses it as an input`,
      ),
    );
  },
});

/** The stack outputs area's rules. */
export const OUTPUT_RULES = [stackOutputsSecret, stackOutputsNoPasswords, stackOutputsNoPrivateKey] as const;
