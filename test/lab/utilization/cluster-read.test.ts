/**
 * The utilization manifest's reads of an eks cluster end to end: the real `kubectl` on the PATH
 * against the experiments' stand-in API server (test/lab/experiment/apiserver.ts), served over TLS,
 * which authenticates bearer tokens, mints ServiceAccount tokens and enforces the eks stack's
 * `lab-utilization` grant (stacks/eks/utilization-access.ts) on every request with one. The admin
 * identity makes exactly one request, the TokenRequest; the four LISTs go out with the token.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AccessGrant } from "../../../components/lib/rbac";
import {
  ACCESS_TOKEN_SECONDS,
  CLUSTER_LISTS,
  listClusterAsReader,
  pulumiCliSource,
  takeManifest,
  type StackSource,
} from "../../../lab/utilization/manifest";
import { utilizationGrant } from "../../../stacks/eks/utilization-access";
import { ADMIN_TOKEN, type ApiRequest } from "../experiment/apiserver";
import { ROOT } from "../../helpers/root";
import { loopbackCertificate } from "../../helpers/tls";
import { CLUSTER } from "./cluster-fixture";

const READER = "system:serviceaccount:kube-system:lab-utilization";
const ACCESS = { namespace: "kube-system", serviceAccount: "lab-utilization" };

let dir: string;
let tls: { key: string; cert: string };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-util-e2e-"));
  // A self-signed certificate for 127.0.0.1: kubectl sends credentials over TLS only.
  tls = loopbackCertificate(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The cluster's objects as the API server lists them: by path, without their kind and apiVersion. */
function listsOf(cluster: typeof CLUSTER) {
  return Object.fromEntries(
    CLUSTER_LISTS.map((l) => [
      l.path,
      {
        kind: l.kind,
        apiVersion: l.apiVersion,
        items: cluster.items
          .filter((i) => i.kind === l.kind)
          .map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => k !== "kind" && k !== "apiVersion"))),
      },
    ]),
  );
}

/** The eks stack's kubeconfig (JSON) for the stand-in: its CA, the admin token. */
function adminKubeconfig(url: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "eks", cluster: { server: url, "certificate-authority-data": Buffer.from(tls.cert).toString("base64") } }],
    users: [{ name: "admin", user: { token: ADMIN_TOKEN } }],
    contexts: [{ name: "eks", context: { cluster: "eks", user: "admin" } }],
    "current-context": "eks",
  });
}

interface Served {
  readonly url: string;
  /** Closes the server; its requests and the tokens it minted. */
  finish(): Promise<{ requests: ApiRequest[]; tokens: Array<{ user: string; expirationSeconds: unknown }> }>;
}

/** The stand-in API server in a child process (./apiserver-child.ts) enforcing `grant`. */
async function serve(grant: AccessGrant): Promise<Served> {
  const options = path.join(dir, "options.json");
  fs.writeFileSync(options, JSON.stringify({ tls, grants: [grant], lists: listsOf(CLUSTER) }));
  const child = spawn(process.execPath, ["-r", "tsx/cjs", path.join(__dirname, "apiserver-child.ts"), options], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: string) => {
      out += d;
      const m = /^URL (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`the API server exited (${code}): ${out}`)));
  });
  return {
    url,
    finish: () =>
      new Promise((resolve, reject) => {
        child.on("exit", () => {
          const line = out.split("\n").find((l) => l.startsWith("RESULT "));
          if (line === undefined) reject(new Error(`the API server printed no result: ${out}`));
          else resolve(JSON.parse(line.slice("RESULT ".length)));
        });
        child.stdin.end();
      }),
  };
}

/** The requests but kubectl's `/version` check (a non-resource URL every user may read). */
const resourceRequests = (requests: readonly ApiRequest[]) =>
  requests
    .filter((r) => r.path !== "/version?timeout=5s")
    .map((r) => ({ method: r.method, path: r.path, user: r.user, ...(r.denied === undefined ? {} : { denied: r.denied }) }));

/** The manifest's read of the stand-in enforcing `grant`, as `access`: what it returned or threw, and what the server saw. */
async function readAs(grant: AccessGrant, access: unknown) {
  const api = await serve(grant);
  let read: unknown;
  let error: string | undefined;
  // Its private directory goes under `dir` (os.tmpdir() reads TMPDIR), to see it removed.
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = path.join(dir, "tmp");
  fs.mkdirSync(process.env.TMPDIR, { recursive: true });
  try {
    read = listClusterAsReader({ kubeconfig: adminKubeconfig(api.url), utilizationAccess: access }, "kubectl", dir);
  } catch (e) {
    error = (e as Error).message;
  } finally {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  }
  const { requests, tokens } = await api.finish();
  return { read, error, requests: resourceRequests(requests), tokens };
}

test("one TokenRequest as admin, then the four lists as lab-utilization: the cluster's objects with their kinds", async () => {
  const r = await readAs(utilizationGrant, ACCESS);
  expect(r.error).toBeUndefined();
  expect(r.read).toEqual({ apiVersion: "v1", kind: "List", items: CLUSTER.items });
  expect(r.requests).toEqual([
    { method: "POST", path: "/api/v1/namespaces/kube-system/serviceaccounts/lab-utilization/token", user: "admin" },
    ...CLUSTER_LISTS.map((l) => ({ method: "GET", path: l.path, user: READER })),
  ]);
  expect(r.tokens).toEqual([{ user: READER, expirationSeconds: ACCESS_TOKEN_SECONDS }]);
  expect(ACCESS_TOKEN_SECONDS).toBe(600);
  // The private directory of the kubeconfigs is gone.
  expect(fs.readdirSync(path.join(dir, "tmp"))).toEqual([]);
});

test("the API server enforces the grant: without volumeattachments the read stops at that list, Forbidden for lab-utilization", async () => {
  const narrower: AccessGrant = {
    ...utilizationGrant,
    cluster: [utilizationGrant.cluster![0], { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["list"] }],
  };
  const r = await readAs(narrower, ACCESS);
  expect(r.error).toBe(
    `kubectl --kubeconfig <token kubeconfig> get --raw /apis/storage.k8s.io/v1/volumeattachments failed: Error from server (Forbidden): volumeattachments is forbidden: User "${READER}" cannot list resource "volumeattachments" in API group "storage.k8s.io" at the cluster scope`,
  );
  expect(r.requests.map((q) => q.denied)).toEqual([
    undefined,
    undefined,
    undefined,
    `${READER} cannot list volumeattachments.storage.k8s.io`,
  ]);
});

test("a ServiceAccount the cluster does not have: the token request fails, named, and nothing is listed", async () => {
  const r = await readAs(utilizationGrant, { namespace: "kube-system", serviceAccount: "lab-other" });
  expect(r.error).toBe(
    `cannot get a token of ServiceAccount kube-system/lab-other (the stack's utilizationAccess): kubectl --kubeconfig <kubeconfig> create --raw /api/v1/namespaces/kube-system/serviceaccounts/lab-other/token -f <token request> failed: Error from server (NotFound): serviceaccounts "lab-other" not found`,
  );
  expect(r.requests.map((q) => q.path)).toEqual(["/api/v1/namespaces/kube-system/serviceaccounts/lab-other/token"]);
});

test("`lab results save`'s manifest of an eks stack: the Pulumi CLI's outputs (a stand-in on disk), the real kubectl, the cluster's volumes and nodes sampled", async () => {
  const api = await serve(utilizationGrant);
  const outputs = { kubeconfig: adminKubeconfig(api.url), utilizationAccess: ACCESS, clusterName: "lab" };
  fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify(outputs));
  const pulumi = path.join(dir, "pulumi");
  fs.writeFileSync(
    pulumi,
    [
      "#!/bin/sh",
      `case "$1 $2" in`,
      `  "config --json") printf '%s' '{"lab:kind":{"value":"eks","secret":false},"aws:region":{"value":"us-east-1","secret":false}}' ;;`,
      `  "stack export") printf '%s' '{"version":3,"deployment":{"resources":[]}}' ;;`,
      `  "stack output") [ "$*" = "stack output --json --show-secrets --stack org/p/eks" ] && cat "${dir}/outputs.json" ;;`,
      `esac`,
    ].join("\n"),
    { mode: 0o755 },
  );
  const source: StackSource = pulumiCliSource(dir, pulumi, "kubectl");
  // takeManifest never throws for the cluster (a failed read is a note), so the server is closed after.
  const manifest = takeManifest("org/p/eks", source, {
    root: dir,
    git: { commit: "0".repeat(40), dirty: false },
    now: new Date("2026-01-15T10:00:00Z"),
    command: "lab results save",
  });
  const served = await api.finish();
  expect(manifest.notes).toBeUndefined();
  expect(manifest.resources.map((r) => r.resource)).toEqual(["node-i-0123456789abcdef0", "node-i-0fedcba9876543210", "pv-bench-fio-gp3"]);
  expect(new Set(resourceRequests(served.requests).map((r) => r.user))).toEqual(new Set(["admin", READER]));
  expect(
    resourceRequests(served.requests)
      .filter((r) => r.user === "admin")
      .map((r) => r.method),
  ).toEqual(["POST"]);
});
