/** What the benchmark layer's tests share: example run specs, and running a script with stand-in executables. */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { BenchSpec, PostgresTarget } from "../../../components/bench/rules";
import { grantAllows, type AccessGrant, type ApiCall } from "../../../components/lib/rbac";

export const TOOLS_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3";
export const PG: PostgresTarget = {
  host: "pg-rw.db.svc.cluster.local",
  user: "bench",
  database: "bench",
  passwordSecret: { name: "pg-auth", key: "password" },
};
/** fio and ioping (the default tools) on an FSx StorageClass. */
export const BASE: BenchSpec = {
  name: "same-az",
  namespace: "bench",
  runId: "r1",
  zone: "us-east-1a",
  storageClass: "fsx-ontap-san",
  toolsImage: TOOLS_IMAGE,
};
/** Every tool. */
export const ALL: BenchSpec = { ...BASE, tools: ["fio", "ioping", "pgbench"], postgres: PG };

/** Runs `sh <file>` with `env` added to a minimal environment (PATH, TMPDIR). */
export function runScript(file: string, env: Record<string, string>, tmpdir: string, timeout = 30000) {
  const r = spawnSync("/bin/sh", [file], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmpdir, ...env },
    encoding: "utf8",
    timeout,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes an executable POSIX sh script `name` into dir; returns its path. */
export function stub(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** The admin kubeconfig the collector tests hand collect-job.sh (LAB_KUBECONFIG). */
export const ADMIN_KUBECONFIG = "apiVersion: v1\nkind: Config\n# admin\n";
/** What the stand-in answers for the current cluster's server and certificate authority. */
export const STAND_IN_SERVER = "https://ABCDEF.gr7.us-east-1.eks.amazonaws.com";
export const STAND_IN_CA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";
/** The token the stand-in issues (a JWT's shape: three base64url parts). */
export const STAND_IN_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsYWIifQ.c2lnbmF0dXJl";

/** One API request as the stand-in writes it: `<verb> <group or core> <resource> <name or -> <namespace>`. */
export const callKey = (c: ApiCall) =>
  `${c.verb} ${c.apiGroup === "" ? "core" : c.apiGroup} ${c.subresource === undefined ? c.resource : `${c.resource}/${c.subresource}`} ${c.name ?? "-"} ${c.namespace ?? "-"}`;

export interface StandInWorld {
  readonly namespace: string;
  /** The Job the cluster has (answers `get job/<it>`); another name is NotFound-free but still authorized first. */
  readonly job: string;
  /** The Job's pod. */
  readonly pod: string;
  /** What `get job/<job> -o jsonpath=…conditions…` prints. */
  readonly conditions: string;
  /** When set, `get job/…` fails with this on stderr (after authorization). */
  readonly getError?: string;
  /** `get events`' lines (pod, message). */
  readonly events?: ReadonlyArray<readonly [string, string]>;
  /** The Job's log. */
  readonly log: string;
  /** The ServiceAccount's grant: what a token may do. */
  readonly grant: AccessGrant;
  /** Job names the test may ask for besides `job` (to show a refusal). */
  readonly otherJobs?: readonly string[];
  /** How many requests with the token succeed before the server calls it expired (401). */
  readonly tokenLifetimeCalls?: number;
  /** When set, deleting a Secret that exists fails with this on stderr (the API server's answer); deleting none still succeeds. */
  readonly secretDeleteError?: string;
}

/**
 * A stand-in kubectl with identities: the admin kubeconfig (whatever KUBECONFIG holds, unless it
 * holds the issued token) may do anything and is recorded as `admin`; the ServiceAccount token
 * (KUBECONFIG holding `token: <STAND_IN_TOKEN>`) is recorded as `token` and gets, per request the
 * real kubectl makes for the command (components/bench/access.ts lists them from kubectl's
 * source), `Error from server (Forbidden)` unless the grant allows it (components/lib/rbac.ts
 * `grantAllows`, evaluated here for every request the stand-in can be asked for). `config view`
 * is local (recorded as `local`). Every line of `calls()`: `<identity> <args>`, and for the token
 * the mode of its kubeconfig file; `requests()`: the API requests the token made.
 */
export function standInKubectl(dir: string, w: StandInWorld) {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  const calls = path.join(dir, "calls");
  const requests = path.join(dir, "requests");
  const allowed = path.join(dir, "allowed");
  const count = path.join(dir, "token-uses");
  const ns = w.namespace;
  const universe: ApiCall[] = [];
  for (const job of [w.job, ...(w.otherJobs ?? [])])
    universe.push({ verb: "get", apiGroup: "batch", resource: "jobs", name: job, namespace: ns });
  for (const verb of ["list", "watch"] as const) {
    universe.push({ verb, apiGroup: "", resource: "pods", namespace: ns });
    universe.push({ verb, apiGroup: "", resource: "events", namespace: ns });
  }
  universe.push({ verb: "get", apiGroup: "", resource: "pods", subresource: "log", name: w.pod, namespace: ns });
  universe.push({ verb: "create", apiGroup: "", resource: "serviceaccounts", subresource: "token", name: w.grant.name, namespace: ns });
  fs.writeFileSync(
    allowed,
    universe
      .filter((c) => grantAllows(w.grant, c))
      .map(callKey)
      .join("\n") + "\n",
  );
  fs.writeFileSync(path.join(bin, "job.log"), w.log);
  // as `-o go-template=…{{printf "%q" .message}}…` prints them: Go's quoting (as JSON's for these messages)
  const events = (w.events ?? []).map(([p, m]) => `${p}\t${JSON.stringify(m)}\n`).join("");
  fs.writeFileSync(path.join(bin, "events"), events);
  const lifetime = w.tokenLifetimeCalls ?? 1000000;
  stub(
    bin,
    "kubectl",
    [
      `who=admin`,
      `if [ -n "\${KUBECONFIG:-}" ] && grep -qxF '    token: ${STAND_IN_TOKEN}' "$KUBECONFIG"; then who=token; fi`,
      `case "$1 $2" in "config view") printf '%s\\n' "local $*" >> "${calls}";`,
      `  case "$*" in *'.server}') printf '%s' '${STAND_IN_SERVER}' ;; *'certificate-authority-data}') printf '%s' '${STAND_IN_CA}' ;; esac; exit 0 ;; esac`,
      `if [ $who = token ]; then printf '%s\\n' "token $* (kubeconfig mode $(stat -c %a "$KUBECONFIG"))" >> "${calls}"; else printf '%s\\n' "admin $*" >> "${calls}"; fi`,
      // The requests kubectl makes for the command (components/bench/access.ts).
      `if [ "$1 $2" = "create token" ]; then reqs="create core serviceaccounts/token $3 $5"`,
      // kubectl create_token.go "failed to create token: %v" around the API server's NotFound.
      `  if [ $who = admin ] && [ "$3" != '${w.grant.name}' ]; then echo "error: failed to create token: serviceaccounts \\"$3\\" not found" >&2; exit 1; fi`,
      `else`,
      `  ns=$2; shift 2`,
      `  case "$1 $2" in`,
      `    "get job/"*) reqs="get batch jobs \${2#job/} $ns" ;;`,
      `    "logs job/"*) reqs="get batch jobs \${2#job/} $ns|list core pods - $ns|get core pods/log ${w.pod} $ns" ;;`,
      `    "describe job/"*) reqs="get batch jobs \${2#job/} $ns|get batch jobs \${2#job/} $ns|list core events - $ns" ;;`,
      `    "get pods") reqs="list core pods - $ns" ;;`,
      `    "get events") reqs="list core events - $ns" ;;`,
      // kubectl delete sends the DELETE only (RequireObject(false)); create -f - a POST of the manifest read from stdin.
      `    "delete secret") reqs="delete core secrets $3 $ns" ;;`,
      `    "create -f") reqs="create core secrets - $ns"; cat > "${path.join(dir, "created-secret")}" ;;`,
      `    *) echo "stand-in: unknown call $*" >&2; exit 99 ;;`,
      `  esac`,
      `fi`,
      `if [ $who = token ]; then`,
      `  n=$(cat "${count}" 2>/dev/null || echo 0)`,
      `  if [ "$n" -ge ${lifetime} ]; then echo 'error: You must be logged in to the server (Unauthorized)' >&2; echo "unauthorized (expired)" >> "${requests}"; exit 1; fi`,
      `  echo $((n + 1)) > "${count}"`,
      `  oldifs=$IFS; IFS='|'`,
      `  for r in $reqs; do`,
      `    IFS=$oldifs`,
      `    if ! grep -qxF "$r" "${allowed}"; then`,
      `      set -- $r`,
      // kube-apiserver's message (k8s.io/apiserver pkg/endpoints/handlers/responsewriters/errors.go ForbiddenStatusError).
      `      grp=$2; [ "$grp" = core ] && grp=; what=\${3%%/*}\${grp:+.$grp}; [ "$4" = - ] || what="$what \\"$4\\""`,
      `      echo "Error from server (Forbidden): $what is forbidden: User \\"system:serviceaccount:${ns}:${w.grant.name}\\" cannot $1 resource \\"$3\\" in API group \\"$grp\\" in the namespace \\"$5\\"" >&2`,
      `      exit 1`,
      `    fi`,
      `    echo "$r" >> "${requests}"`,
      `  done`,
      `  IFS=$oldifs`,
      `fi`,
      `case "$reqs" in`,
      `  "create core serviceaccounts/token"*) echo 0 > "${count}"; printf '%s' '${STAND_IN_TOKEN}' ;;`,
      w.getError
        ? `  "get batch jobs "*"|"*) ;; "get batch jobs "*) echo '${w.getError}' >&2; exit 1 ;;`
        : `  "get batch jobs "*"|"*) ;; "get batch jobs "*) printf '%s' "${w.conditions}" ;;`,
      `esac`,
      `case "$1 $2" in`,
      w.secretDeleteError
        ? `  "delete secret") if [ -f "${path.join(dir, "secret-present")}" ]; then echo '${w.secretDeleteError}' >&2; exit 1; fi ;;`
        : `  "delete secret") if [ -f "${path.join(dir, "secret-present")}" ]; then rm "${path.join(dir, "secret-present")}"; echo "secret $3 deleted"; fi ;;`,
      `  "create -f") : > "${path.join(dir, "secret-present")}"; echo 'secret/x created' ;;`,
      `  "get pods") printf '${w.pod}\\n' ;;`,
      `  "get events") cat "${path.join(bin, "events")}" ;;`,
      `  "describe job/"*) echo "Events: DeadlineExceeded" ;;`,
      `  "logs job/"*) cat "${path.join(bin, "job.log")}" ;;`,
      `esac`,
    ].join("\n"),
  );
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8").trim().split("\n") : []);
  return {
    env: {
      KUBECTL_BIN: path.join(bin, "kubectl"),
      JOB_NAME: w.job,
      JOB_NAMESPACE: ns,
      WAIT_TIMEOUT_SECONDS: "5",
      POLL_SECONDS: "1",
      COLLECTOR_ACCOUNT: w.grant.name,
      TOKEN_SECONDS: "1200",
      LAB_KUBECONFIG: ADMIN_KUBECONFIG,
    } as Record<string, string>,
    calls: () => read(calls),
    requests: () => read(requests),
    /** The Secret manifest `create -f -` read on its stdin (undefined: none was created). */
    createdSecret: () =>
      fs.existsSync(path.join(dir, "created-secret")) ? fs.readFileSync(path.join(dir, "created-secret"), "utf8") : undefined,
    /** Whether the Secret exists in the stand-in's cluster now. */
    secretPresent: () => fs.existsSync(path.join(dir, "secret-present")),
  };
}

/** How Pulumi's mock runtime hands a secret to `newResource` (the SDK's `specialSigKey` and `specialSecretSig`). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/**
 * What a collector's stdout is when its Job completes with `log`: scripts/collect-job.sh prints
 * the run metadata line of its LAB_RUN_METADATA, then the Job's log (a test in scripts.test.ts
 * holds this to the real script). For mocks that answer collectors the way the provider would.
 */
export function collectorStdout(inputs: { environment?: Record<string, unknown> }, log: string): string {
  // The environment holds a secret (the kubeconfig), so the mocks see it whole as a secret value.
  const env = inputs.environment;
  const plain = (env?.[SECRET_SIG] === SECRET_VALUE ? env.value : env) as Record<string, unknown> | undefined;
  const recorded = plain?.LAB_RUN_METADATA;
  return typeof recorded === "string" && recorded !== "" ? `=== LAB-RUN-METADATA ${recorded} ===\n${log}` : log;
}
