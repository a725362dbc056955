/**
 * The Kafka's await (components/bench/scripts/collect-job.sh with KAFKA_NAME, the kafka stack's
 * `kafka-kafka-await` command) end to end: the script with the real `kubectl` on the PATH against a
 * stand-in Kubernetes API server over TLS (kubectl sends a bearer token to https servers only). The
 * server serves legacy discovery (/api, /apis, the group versions: kubectl falls back to it when the
 * answer is not aggregated discovery), mints the collector's token through the TokenRequest API for
 * the admin token only, and authorizes every request with the collector's token against the grant
 * the stack creates (components/bench/access.ts `kafkaAwaitGrant`, evaluated by components/lib/rbac.ts
 * `grantAllows` on the request's attributes as kube-apiserver derives them), 403 otherwise.
 *
 * The cluster it stands for: Strimzi's Kafka `kafka` in namespace `kafka`, whose status the test
 * scripts per look, the Strimzi-labelled broker pods, and FailedMount events as the kubelet's nfs
 * volume plugin records them (a multi-line mount-utils error).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { collectorAccountName, kafkaAwaitGrant } from "../../../components/bench/access";
import { grantAllows, type AccessGrant } from "../../../components/lib/rbac";
import { kafkaMountFix } from "../../../components/kafka/ontap";
import { requestCall, status } from "../../lab/experiment/apiserver";
import { ROOT } from "../../helpers/root";
import { loopbackCertificate } from "../../helpers/tls";

const SCRIPT = path.join(ROOT, "components", "bench", "scripts", "collect-job.sh");
const NS = "kafka";
const ACCOUNT = collectorAccountName("kafka-kafka");
const ADMIN = "admin-token";
const MINTED = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrYWZrYS1rYWZrYS1jb2xsZWN0In0.c2ln";
const FIX = kafkaMountFix({ clusterName: "kafka", namespace: NS }, "kafka-storage", "kafkasvm", ["10.0.0.0/18", "10.0.64.0/18"]);

/** The kubelet's event for a static nfs volume the SVM refused (k8s.io/mount-utils doMount, nfs-utils mount_error). */
const REFUSED = [
  'MountVolume.SetUp failed for volume "kafka-data-0-kafka-brokers-0" : mount failed: exit status 32',
  "Mounting command: mount",
  "Mounting arguments: -t nfs -o nconnect=16,nfsvers=4.1 10.0.1.5:/kafkafsxN1/kafka-brokers-0 /var/lib/kubelet/pods/9f1e/volumes/kubernetes.io~nfs/kafka-data-0-kafka-brokers-0",
  "Output: mount.nfs: access denied by server while mounting 10.0.1.5:/kafkafsxN1/kafka-brokers-0",
].join("\n");
const TIMED_OUT = [
  'MountVolume.SetUp failed for volume "kafka-data-1-kafka-brokers-0" : mount failed: exit status 32',
  "Output: mount.nfs: Connection timed out",
].join("\n");

interface Look {
  readonly generation: number;
  readonly observedGeneration?: number;
  readonly ready?: "True" | "False";
  readonly notReady?: { readonly reason: string; readonly message: string };
}

interface Cluster {
  /** The Kafka's status at each look (the last one repeats). */
  readonly looks: readonly Look[];
  readonly events?: ReadonlyArray<{ readonly pod: string; readonly message: string }>;
  readonly grant?: AccessGrant;
}

interface Served {
  readonly url: string;
  /** `<who> <METHOD> <path>` of every request; `denied` appended when RBAC refused it. */
  readonly requests: string[];
  close(): Promise<void>;
}

let dir: string;
let tls: { key: string; cert: string };
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-kafka-await-"));
  tls = loopbackCertificate(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const DISCOVERY: Record<string, unknown> = {
  "/api": { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "127.0.0.1" }] },
  "/apis": {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: [
      {
        name: "kafka.strimzi.io",
        versions: [{ groupVersion: "kafka.strimzi.io/v1", version: "v1" }],
        preferredVersion: { groupVersion: "kafka.strimzi.io/v1", version: "v1" },
      },
    ],
  },
  "/api/v1": {
    kind: "APIResourceList",
    groupVersion: "v1",
    resources: [
      { name: "pods", singularName: "pod", namespaced: true, kind: "Pod", verbs: ["get", "list", "watch"], shortNames: ["po"] },
      { name: "events", singularName: "event", namespaced: true, kind: "Event", verbs: ["get", "list", "watch"], shortNames: ["ev"] },
      {
        name: "serviceaccounts",
        singularName: "serviceaccount",
        namespaced: true,
        kind: "ServiceAccount",
        verbs: ["get", "list"],
        shortNames: ["sa"],
      },
      {
        name: "serviceaccounts/token",
        singularName: "",
        namespaced: true,
        group: "authentication.k8s.io",
        version: "v1",
        kind: "TokenRequest",
        verbs: ["create"],
      },
    ],
  },
  "/apis/kafka.strimzi.io/v1": {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: "kafka.strimzi.io/v1",
    resources: [
      {
        name: "kafkas",
        singularName: "kafka",
        namespaced: true,
        kind: "Kafka",
        verbs: ["get", "list", "watch"],
        shortNames: ["k"],
        categories: ["strimzi"],
      },
    ],
  },
};

/** Serves the cluster over TLS on 127.0.0.1 (see the module comment). */
async function serve(c: Cluster): Promise<Served> {
  const grant = c.grant ?? kafkaAwaitGrant(ACCOUNT, NS, "kafka");
  const requests: string[] = [];
  let looks = 0;
  const kafka = () => {
    const l = c.looks[Math.min(looks++, c.looks.length - 1)];
    return {
      apiVersion: "kafka.strimzi.io/v1",
      kind: "Kafka",
      metadata: { name: "kafka", namespace: NS, generation: l.generation, uid: "6c1d", creationTimestamp: "2026-12-03T09:00:00Z" },
      status: {
        ...(l.observedGeneration === undefined ? {} : { observedGeneration: l.observedGeneration }),
        conditions: [
          ...(l.ready === undefined ? [] : [{ type: "Ready", status: l.ready, lastTransitionTime: "2026-12-03T09:10:00Z" }]),
          ...(l.notReady === undefined
            ? []
            : [{ type: "NotReady", status: "True", ...l.notReady, lastTransitionTime: "2026-12-03T09:05:00Z" }]),
        ],
      },
    };
  };
  const pods = ["kafka-controllers-3", "kafka-brokers-0", "kafka-brokers-1", "kafka-brokers-2"].map((name) => ({
    metadata: { name, namespace: NS, labels: { "strimzi.io/cluster": "kafka" }, creationTimestamp: "2026-12-03T09:01:00Z" },
    status: { phase: name === "kafka-controllers-3" ? "Running" : "Pending" },
  }));
  const server = https.createServer(tls, (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    const json = (code: number, doc: unknown) => {
      res.writeHead(code, { "content-type": "application/json" });
      res.end(JSON.stringify(doc));
    };
    req.resume();
    req.on("end", () => {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const who = bearer === ADMIN ? "admin" : bearer === MINTED ? "collector" : "anonymous";
      const line = `${who} ${req.method} ${url.pathname}${url.search}`;
      if (who === "anonymous") {
        requests.push(`${line} denied`);
        return json(401, status(401, "Unauthorized", "Unauthorized"));
      }
      // discovery: every authenticated user (ClusterRole system:discovery)
      if (req.method === "GET" && url.pathname in DISCOVERY) {
        requests.push(line);
        return json(200, DISCOVERY[url.pathname]);
      }
      const call = requestCall(req.method ?? "GET", url.pathname, url.searchParams.get("watch") === "true");
      if (who === "collector" && !grantAllows(grant, call)) {
        requests.push(`${line} denied`);
        const what = `${call.resource}${call.apiGroup === "" ? "" : `.${call.apiGroup}`}${call.name === undefined ? "" : ` "${call.name}"`}`;
        return json(
          403,
          status(
            403,
            "Forbidden",
            `${what} is forbidden: User "system:serviceaccount:${NS}:${ACCOUNT}" cannot ${call.verb} resource "${call.resource}" in API group "${call.apiGroup}" in the namespace "${NS}"`,
          ),
        );
      }
      requests.push(line);
      if (req.method === "POST" && url.pathname === `/api/v1/namespaces/${NS}/serviceaccounts/${ACCOUNT}/token`) {
        if (who !== "admin") return json(403, status(403, "Forbidden", "only the admin mints tokens here"));
        return json(201, {
          kind: "TokenRequest",
          apiVersion: "authentication.k8s.io/v1",
          status: { token: MINTED, expirationTimestamp: "2026-12-03T10:00:00Z" },
        });
      }
      if (req.method === "GET" && url.pathname === `/apis/kafka.strimzi.io/v1/namespaces/${NS}/kafkas/kafka`) return json(200, kafka());
      if (req.method === "GET" && url.pathname.startsWith(`/apis/kafka.strimzi.io/v1/namespaces/${NS}/kafkas/`))
        return json(404, status(404, "NotFound", `kafkas.kafka.strimzi.io "${url.pathname.split("/").pop()}" not found`));
      if (req.method === "GET" && url.pathname === `/api/v1/namespaces/${NS}/pods`) {
        const selector = url.searchParams.get("labelSelector");
        return json(200, { kind: "PodList", apiVersion: "v1", metadata: {}, items: selector === "strimzi.io/cluster=kafka" ? pods : [] });
      }
      if (req.method === "GET" && url.pathname === `/api/v1/namespaces/${NS}/events`) {
        const failedMount = url.searchParams.get("fieldSelector") === "reason=FailedMount";
        const items = failedMount
          ? (c.events ?? []).map((e, i) => ({
              metadata: { name: `${e.pod}.${i}`, namespace: NS },
              involvedObject: { kind: "Pod", namespace: NS, name: e.pod },
              reason: "FailedMount",
              type: "Warning",
              message: e.message,
            }))
          : [];
        return json(200, { kind: "EventList", apiVersion: "v1", metadata: {}, items });
      }
      return json(404, status(404, "NotFound", `the server could not find the requested resource (${url.pathname})`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The kafka stack's admin kubeconfig for the stand-in (as EKS's: server, CA, the admin's token). */
function adminKubeconfig(url: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: eks",
    "  cluster:",
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(tls.cert).toString("base64")}`,
    "users:",
    "- name: admin",
    "  user:",
    `    token: ${ADMIN}`,
    "contexts:",
    "- name: eks",
    "  context:",
    "    cluster: eks",
    "    user: admin",
    "current-context: eks",
  ].join("\n");
}

/** Runs the script as the stack's command does (the same environment keys), with the real kubectl; stderr without timestamps. */
async function awaitKafka(
  s: Served,
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string[]; ms: number }> {
  const home = fs.mkdtempSync(path.join(dir, "home-"));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", [SCRIPT], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home, // kubectl's discovery cache, per run
        TMPDIR: home,
        KAFKA_NAME: "kafka",
        JOB_NAMESPACE: NS,
        WAIT_TIMEOUT_SECONDS: "8",
        POLL_SECONDS: "1",
        MOUNT_FIX: FIX,
        COLLECTOR_ACCOUNT: ACCOUNT,
        TOKEN_SECONDS: "2400",
        LAB_KUBECONFIG: adminKubeconfig(s.url),
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) =>
      resolve({
        status,
        stdout,
        stderr: stderr.split("\n").map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /, "")),
        ms: Date.now() - started,
      }),
    );
  });
}

const FIX_LINES = FIX.split("\n").map((l) => `[lab] error: ${l}`);

describe("the Kafka's await, with the real kubectl against a stand-in API server", () => {
  it("waits through NotReady and a Ready of the spec before (observedGeneration behind), done at Ready for the current spec; every read with the collector's token", async () => {
    const s = await serve({
      looks: [
        { generation: 2, notReady: { reason: "ReconciliationInProgress", message: "Pods kafka-brokers-0 not ready" } },
        { generation: 2, observedGeneration: 1, ready: "True" }, // the spec before the update
        { generation: 2, observedGeneration: 2, ready: "True" },
      ],
      events: [{ pod: "kafka-brokers-0", message: TIMED_OUT }],
    });
    try {
      const r = await awaitKafka(s);
      expect([r.status, r.stdout]).toEqual([0, ""]);
      expect(r.stderr).toEqual([
        "[lab] waiting up to 8s for kafka/kafka in namespace kafka",
        "[lab] kafka/kafka NotReady (Strimzi retries): ReconciliationInProgress: Pods kafka-brokers-0 not ready",
        `[lab] FailedMount of pod kafka-brokers-0 (the kubelet retries): ${JSON.stringify(TIMED_OUT)}`,
        "[lab] kafka/kafka Ready",
        "",
      ]);
      const apiCalls = s.requests.filter((l) => !/ GET \/(api|apis)(\/v1|\/kafka\.strimzi\.io\/v1)?(\?|$)/.test(l));
      // the admin identity asks for the token and nothing else (kubectl create token reads the
      // server's version first: /version, public to every user); nothing the grant lacks was asked for
      expect(apiCalls.filter((l) => l.startsWith("admin "))).toEqual([
        "admin GET /version?timeout=5s",
        `admin POST /api/v1/namespaces/kafka/serviceaccounts/${ACCOUNT}/token`,
      ]);
      expect(s.requests.filter((l) => l.endsWith(" denied"))).toEqual([]);
      expect(apiCalls.filter((l) => l.includes("/kafkas/kafka"))).toEqual(
        Array(3).fill("collector GET /apis/kafka.strimzi.io/v1/namespaces/kafka/kafkas/kafka"),
      );
    } finally {
      await s.close();
    }
  }, 60000);

  it("a broker mount the SVM refused: its event and the fix at the next look, exit 1, long before the timeout", async () => {
    const s = await serve({
      looks: [{ generation: 1, notReady: { reason: "ReconciliationInProgress", message: "Pods kafka-brokers-0 not ready" } }],
      events: [
        { pod: "kafka-brokers-0", message: TIMED_OUT },
        { pod: "kafka-storage-prepare-x7k2p", message: REFUSED }, // not one of this Kafka's pods
        { pod: "kafka-brokers-0", message: REFUSED },
      ],
    });
    try {
      const r = await awaitKafka(s, { WAIT_TIMEOUT_SECONDS: "600" });
      expect([r.status, r.stdout]).toEqual([1, ""]);
      expect(r.ms).toBeLessThan(20000);
      expect(r.stderr).toEqual([
        "[lab] waiting up to 600s for kafka/kafka in namespace kafka",
        "[lab] kafka/kafka NotReady (Strimzi retries): ReconciliationInProgress: Pods kafka-brokers-0 not ready",
        `[lab] FailedMount of pod kafka-brokers-0 (the kubelet retries): ${JSON.stringify(TIMED_OUT)}`,
        `[lab] error: pod kafka-brokers-0 of kafka/kafka cannot mount a volume, the NFS server refused it: ${JSON.stringify(REFUSED)}`,
        ...FIX_LINES,
        "",
      ]);
      expect(s.requests.filter((l) => l.endsWith(" denied"))).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60000);

  it("never Ready: at the timeout the Kafka's description and its pods, exit 1", async () => {
    const s = await serve({
      looks: [{ generation: 1, notReady: { reason: "ReconciliationInProgress", message: "Pods kafka-brokers-0 not ready" } }],
    });
    try {
      const r = await awaitKafka(s, { WAIT_TIMEOUT_SECONDS: "2" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("[lab] kafka/kafka in namespace kafka did not finish within 2s");
      expect(r.stderr).toContain("[lab] pods of kafka/kafka:");
      const out = r.stderr.join("\n");
      expect(out).toMatch(/^Name:\s+kafka$/m); // kubectl describe's generic describer
      expect(out).toContain("kafka-brokers-2");
      expect(s.requests.filter((l) => l.endsWith(" denied"))).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60000);

  it("a grant for another Kafka: refused by the server, says so and exits 1 at once", async () => {
    const s = await serve({ looks: [{ generation: 1 }], grant: kafkaAwaitGrant(ACCOUNT, NS, "other") });
    try {
      const r = await awaitKafka(s, { WAIT_TIMEOUT_SECONDS: "600" });
      expect(r.status).toBe(1);
      expect(r.stderr[1]).toBe(
        `[lab] error: serviceaccount ${ACCOUNT} in namespace kafka may not read kafka/kafka (Error from server (Forbidden): kafkas.kafka.strimzi.io "kafka" is forbidden: User "system:serviceaccount:kafka:${ACCOUNT}" cannot get resource "kafkas" in API group "kafka.strimzi.io" in the namespace "kafka"): its Role lists the Kafka by name`,
      );
    } finally {
      await s.close();
    }
  }, 60000);
});
