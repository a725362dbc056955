/**
 * The ontap Job: its objects (Kubernetes schemas, restricted Pod Security, the lab's policy) and its
 * script's exact ONTAP REST requests, run with the real python3 against a local HTTP server that
 * answers as ONTAP does (records, 202 with a job, errors).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import * as os from "node:os";
import * as path from "node:path";
import { Job } from "kubernetes-models/batch/v1/Job";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { Secret } from "kubernetes-models/v1/Secret";
import { ONTAP_EXPORTS_SCRIPT } from "../../../components/kafka";
import { exportPolicyName, ontapApiPolicy, ontapCredentialsSecretManifest, ontapJobManifest } from "../../../components/kafka/ontap";
import { resolve } from "../../../components/kafka/rules";
import { prepareJobManifest } from "../../../components/kafka/manifests";
import { brokerPodName } from "../../../components/kafka/storage";
import { evaluatePolicies } from "../../../lab/policy/evaluate";
import { restrictedViolations } from "../../helpers/podSecurity";

const r = resolve({ dataVolumes: ["/kafkafsxN1", "/kafkafsxN2"] });

describe("the ontap Job's objects", () => {
  const job = ontapJobManifest(r, "kafka-storage", {
    host: "management.svm.example",
    svmName: "kafkasvm",
    clientCidrs: "10.0.0.0/18,10.0.64.0/18",
  });
  const spec = job.spec!.template.spec!;

  test("valid, restricted, nothing for the lab's policy; the credentials as read-only files, no service-account token", () => {
    expect(() => new Job(job).validate()).not.toThrow();
    expect(restrictedViolations(spec)).toEqual([]);
    expect(
      evaluatePolicies([
        { urn: "urn:ontap", type: "kubernetes:batch/v1:Job", name: "ontap", inputs: job as unknown as Record<string, unknown> },
      ]),
    ).toEqual([]);
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.volumes).toEqual([
      { name: "scripts", configMap: { name: "kafka-storage-ontap-scripts" } },
      { name: "credentials", secret: { secretName: "ontap-vsadmin", defaultMode: 0o440 } },
    ]);
    expect(spec.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      fsGroup: 65532,
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(exportPolicyName(r)).toBe("lab-kafka-brokers");
    const secret = ontapCredentialsSecretManifest("kafka-storage", "vsadmin", "pw");
    expect(() => new Secret(secret).validate()).not.toThrow();
    expect(secret.stringData).toEqual({ username: "vsadmin", password: "pw" });
  });

  test("its one flow: TCP 443 to each management address", () => {
    const p = ontapApiPolicy("kafka-storage", ["198.19.255.5", "198.19.255.6"]);
    expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(p.spec).toEqual({
      podSelector: { matchLabels: { "app.kubernetes.io/name": "kafka-storage-ontap" } },
      policyTypes: ["Egress"],
      egress: [
        {
          to: [{ ipBlock: { cidr: "198.19.255.5/32" } }, { ipBlock: { cidr: "198.19.255.6/32" } }],
          ports: [{ protocol: "TCP", port: 443 }],
        },
      ],
    });
  });
});

interface Seen {
  method: string;
  url: string;
  auth: string;
  body: unknown;
}
type Answer = { status: number; body: unknown };

/** Runs the script against a server answering `answer(request)`; resolves with its exit, stderr and the requests. */
async function runScript(answer: (s: Seen) => Answer, env: Record<string, string> = {}) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        auth: req.headers.authorization ?? "",
        body: data ? JSON.parse(data) : undefined,
      };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  const creds = fs.mkdtempSync(path.join(os.tmpdir(), "ontap-"));
  fs.writeFileSync(path.join(creds, "username"), "vsadmin\n");
  fs.writeFileSync(path.join(creds, "password"), "s3cret-Pw_1\n");
  const child = spawn("python3", [ONTAP_EXPORTS_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ONTAP_SCHEME: "http",
      ONTAP_HOST: `127.0.0.1:${port}`,
      SVM_NAME: "kafkasvm",
      POLICY_NAME: "lab-kafka-brokers",
      CLIENT_CIDRS: "10.0.0.0/18,10.0.64.0/18",
      JUNCTION_PATHS: "/kafkafsxN1,/kafkafsxN2",
      OWNER_UID: "1001",
      OWNER_GID: "0",
      ROOT_MODE: "0751",
      ANONYMOUS_UID: "65534",
      CREDENTIALS_DIR: creds,
      POLL_SECONDS: "0",
      ...env,
    },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((ok) => child.on("close", ok));
  server.close();
  fs.rmSync(creds, { recursive: true, force: true });
  return { status, stderr, seen };
}

const RULE = {
  clients: [{ match: "10.0.0.0/18" }, { match: "10.0.64.0/18" }],
  protocols: ["nfs4"],
  ro_rule: ["sys"],
  rw_rule: ["sys"],
  superuser: ["none"],
  anonymous_user: "65534",
  allow_suid: false,
};
const NAS = { nas: { export_policy: { name: "lab-kafka-brokers" }, uid: 1001, gid: 0, unix_permissions: 751 } };
const AUTH = `Basic ${Buffer.from("vsadmin:s3cret-Pw_1").toString("base64")}`;
const vol = (url: string) => (url.includes("kafkafsxN1") ? { uuid: "u-1", name: "kafkafsxN1" } : { uuid: "u-2", name: "kafkafsxN2" });

describe("ontap-exports.py against an ONTAP REST API", () => {
  test("a new policy: created with the node subnets, NFSv4, root squashed; each volume given it and Kafka's root (a 202 followed to its job's end)", async () => {
    let polls = 0;
    const { status, stderr, seen } = await runScript((s) => {
      if (s.url.startsWith("/api/protocols/nfs/export-policies?")) return { status: 200, body: { records: [], num_records: 0 } };
      if (s.method === "POST") return { status: 201, body: {} };
      if (s.url.startsWith("/api/storage/volumes?")) return { status: 200, body: { records: [vol(s.url)], num_records: 1 } };
      if (s.url.startsWith("/api/storage/volumes/u-1")) return { status: 202, body: { job: { uuid: "j-1" } } };
      if (s.url.startsWith("/api/storage/volumes/u-2")) return { status: 200, body: {} };
      if (s.url.startsWith("/api/cluster/jobs/j-1")) return { status: 200, body: { state: ++polls < 2 ? "running" : "success" } };
      return { status: 404, body: { error: { message: "unexpected" } } };
    });
    expect([status, stderr]).toEqual([
      0,
      "[lab] export policy lab-kafka-brokers on SVM kafkasvm: created (clients 10.0.0.0/18, 10.0.64.0/18)\n" +
        "[lab] volume kafkafsxN1 (/kafkafsxN1): export policy lab-kafka-brokers, root 1001:0 mode 0751\n" +
        "[lab] volume kafkafsxN2 (/kafkafsxN2): export policy lab-kafka-brokers, root 1001:0 mode 0751\n",
    ]);
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ["GET", "/api/protocols/nfs/export-policies?svm.name=kafkasvm&name=lab-kafka-brokers&fields=id", undefined],
      ["POST", "/api/protocols/nfs/export-policies", { name: "lab-kafka-brokers", svm: { name: "kafkasvm" }, rules: [RULE] }],
      ["GET", "/api/storage/volumes?svm.name=kafkasvm&nas.path=%2FkafkafsxN1&fields=uuid%2Cname", undefined],
      ["PATCH", "/api/storage/volumes/u-1?return_timeout=120", NAS],
      ["GET", "/api/cluster/jobs/j-1?fields=state%2Cmessage", undefined],
      ["GET", "/api/cluster/jobs/j-1?fields=state%2Cmessage", undefined],
      ["GET", "/api/storage/volumes?svm.name=kafkasvm&nas.path=%2FkafkafsxN2&fields=uuid%2Cname", undefined],
      ["PATCH", "/api/storage/volumes/u-2?return_timeout=120", NAS],
    ]);
    expect(new Set(seen.map((s) => s.auth))).toEqual(new Set([AUTH]));
  });

  test("an existing policy: its rules replaced (PATCH by id), not a second policy", async () => {
    const { status, seen } = await runScript((s) => {
      if (s.url.startsWith("/api/protocols/nfs/export-policies?"))
        return { status: 200, body: { records: [{ id: 42, name: "lab-kafka-brokers" }] } };
      if (s.url.startsWith("/api/storage/volumes?")) return { status: 200, body: { records: [vol(s.url)] } };
      return { status: 200, body: {} };
    });
    expect(status).toBe(0);
    expect(seen.filter((s) => s.url.startsWith("/api/protocols")).map((s) => [s.method, s.url, s.body])).toEqual([
      ["GET", "/api/protocols/nfs/export-policies?svm.name=kafkasvm&name=lab-kafka-brokers&fields=id", undefined],
      ["PATCH", "/api/protocols/nfs/export-policies/42", { rules: [RULE] }],
    ]);
  });

  test("refused credentials, a missing volume, a failed job: exit 1 naming what and where, nothing after", async () => {
    const denied = await runScript(() => ({ status: 401, body: { error: { message: "not authorized", code: "6" } } }));
    expect([denied.status, denied.stderr]).toEqual([
      1,
      "[lab] error: GET /protocols/nfs/export-policies: 401 Unauthorized: the SVM refused the vsadmin credentials of the fsx-ontap stack's secret (credentialsSecretArn)\n",
    ]);
    expect(denied.seen).toHaveLength(1);
    const missing = await runScript((s) =>
      s.url.startsWith("/api/storage/volumes?") ? { status: 200, body: { records: [] } } : { status: 200, body: { records: [] } },
    );
    expect([missing.status, missing.stderr.split("\n").slice(-2)[0]]).toEqual([
      1,
      "[lab] error: SVM kafkasvm has 0 volumes at junction path /kafkafsxN1, expected 1",
    ]);
    const failed = await runScript((s) => {
      if (s.url.startsWith("/api/storage/volumes?")) return { status: 200, body: { records: [vol(s.url)] } };
      if (s.url.startsWith("/api/storage/volumes/")) return { status: 202, body: { job: { uuid: "j-9" } } };
      if (s.url.startsWith("/api/cluster/jobs/")) return { status: 200, body: { state: "failure", message: "Export policy not found" } };
      return { status: 200, body: { records: [] } };
    });
    expect([failed.status, failed.stderr.split("\n").slice(-2)[0]]).toEqual([
      1,
      "[lab] error: volume kafkafsxN1 (/kafkafsxN1): ONTAP job j-9 failed: Export policy not found",
    ]);
    const rejected = await runScript(() => ({ status: 400, body: { error: { message: "Invalid clientmatch", code: "1704039" } } }));
    expect(rejected.stderr).toBe("[lab] error: GET /protocols/nfs/export-policies: HTTP 400: Invalid clientmatch\n");
  });

  test("a bad ROOT_MODE or a missing variable stops it before any request", async () => {
    const bad = await runScript(() => ({ status: 500, body: {} }), { ROOT_MODE: "750" });
    expect([bad.status, bad.stderr, bad.seen]).toEqual([1, "[lab] error: ROOT_MODE must be an octal mode like 0751, got '750'\n", []]);
    const unset = await runScript(() => ({ status: 500, body: {} }), { SVM_NAME: "" });
    expect([unset.status, unset.stderr, unset.seen]).toEqual([1, "[lab] error: SVM_NAME is not set\n", []]);
  });
});

/**
 * The Secret volume as the kubelet lays it out for `pod`: its files owned by root, in a timestamped
 * directory that `..data` points to, each name a symbolic link into it (pkg/volume/util/atomic_writer.go);
 * the mode the volume's `defaultMode`; with the pod's `fsGroup`, the group that and 0440 ORed into
 * every file of the read-only volume (pkg/volume/volume_linux.go `roMask`), without it root's group.
 */
function kubeletSecretVolume(pod: IPodSpec, volume: string, files: Record<string, string>): string {
  const v = pod.volumes!.find((x) => x.name === volume)!;
  const fsGroup = pod.securityContext?.fsGroup;
  const mode = (v.secret!.defaultMode ?? 0o644) | (fsGroup === undefined ? 0 : 0o440);
  const group = fsGroup ?? 0;
  const top = fs.mkdtempSync(path.join(os.tmpdir(), "secret-vol-"));
  fs.chmodSync(top, 0o755);
  const dir = path.join(top, "credentials");
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o1777);
  const ts = path.join(dir, "..2026_12_02_18_00_00.000000001");
  fs.mkdirSync(ts);
  fs.chownSync(ts, 0, group);
  fs.chmodSync(ts, 0o755 | (fsGroup === undefined ? 0 : 0o2000));
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(ts, name), text);
    fs.chownSync(path.join(ts, name), 0, group);
    fs.chmodSync(path.join(ts, name), mode);
    fs.symlinkSync(`..data/${name}`, path.join(dir, name));
  }
  fs.symlinkSync(path.basename(ts), path.join(dir, "..data"));
  return dir;
}

/**
 * Runs the script as the Job's container runs: `runAsUser`, `runAsGroup`, and the pod's `fsGroup`
 * as a supplementary group (the runtime adds it: CRI `SupplementalGroups`), reading the credentials
 * from `credentials`; the ONTAP answer to its first call is a 401, so reading them is all it does.
 */
function runAsJob(pod: IPodSpec, credentials: string) {
  const sc = pod.securityContext!;
  const groups = [sc.runAsGroup!, ...(sc.fsGroup === undefined ? [] : [sc.fsGroup])];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ontap-script-"));
  fs.chmodSync(dir, 0o755);
  const script = path.join(dir, "ontap-exports.py");
  fs.copyFileSync(ONTAP_EXPORTS_SCRIPT, script);
  fs.chmodSync(script, 0o644);
  const r = spawnSync(
    "setpriv",
    [`--reuid=${sc.runAsUser}`, `--regid=${sc.runAsGroup}`, `--groups=${groups.join(",")}`, "/usr/bin/python3", script],
    {
      encoding: "utf8",
      env: {
        PATH: "/usr/bin:/bin",
        ONTAP_SCHEME: "http",
        ONTAP_HOST: "127.0.0.1:9",
        SVM_NAME: "kafkasvm",
        POLICY_NAME: "lab-kafka-brokers",
        CLIENT_CIDRS: "10.0.0.0/18",
        JUNCTION_PATHS: "/kafkafsxN1",
        OWNER_UID: "1001",
        OWNER_GID: "0",
        ROOT_MODE: "0751",
        ANONYMOUS_UID: "65534",
        CREDENTIALS_DIR: credentials,
        PYTHONDONTWRITEBYTECODE: "1",
      },
    },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: r.status, stderr: r.stderr };
}

describe("the ontap Job reads its credentials as its own user, from files as the kubelet writes them", () => {
  const pod = ontapJobManifest(r, "kafka-storage", { host: "h", svmName: "kafkasvm", clientCidrs: "10.0.0.0/18" }).spec!.template.spec!;
  const FILES = { username: "vsadmin", password: "s3cret-Pw_1" };
  let dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs) fs.rmSync(path.dirname(d), { recursive: true, force: true });
    dirs = [];
  });
  const volume = (p: IPodSpec) => {
    const d = kubeletSecretVolume(p, "credentials", FILES);
    dirs.push(d);
    return d;
  };

  test("the tests run as root (they lay files out as the kubelet does and start the script as another user)", () => {
    expect(process.getuid!()).toBe(0);
  });

  test("the rendered pod (fsGroup 65532, 0440): root:65532 0440 files; read as uid 65532, it goes on to call ONTAP", () => {
    const dir = volume(pod);
    const st = fs.statSync(path.join(dir, "password"));
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([0, 65532, 0o440]);
    const { status, stderr } = runAsJob(pod, dir);
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^\[lab\] error: GET \/protocols\/nfs\/export-policies: cannot reach the SVM's management endpoint http:\/\/127\.0\.0\.1:9\/api: /,
    );
  });

  test("the earlier pod (no fsGroup, 0400): root:root 0400, and the script stops naming the file, its owner and mode, not a traceback", () => {
    const { fsGroup: _, ...withoutFsGroup } = pod.securityContext!;
    const old: IPodSpec = {
      ...pod,
      securityContext: withoutFsGroup,
      volumes: [pod.volumes![0], { name: "credentials", secret: { secretName: "ontap-vsadmin", defaultMode: 0o400 } }],
    };
    const dir = volume(old);
    const { status, stderr } = runAsJob(old, dir);
    expect([status, stderr]).toEqual([
      1,
      `[lab] error: cannot read ${dir}/username as uid 65532 (groups 65532): Permission denied; the file is 0:0 mode 0400: ` +
        "the kubelet writes a Secret's files as root's, readable by the Job's user only through the pod's fsGroup and a " +
        "group-readable defaultMode (components/kafka/ontap.ts, ONTAP_CREDENTIALS_MODE)\n",
    ]);
  });
});

/**
 * A broker PV's mount as the squashed root walks it: the NFSv4 client mounts the server's root and
 * looks up each component of `<junction>/<broker pod>` (fs/nfs/nfs4super.c `do_nfs4_mount`,
 * `mount_subtree`), each lookup needing search permission for the caller, which the server answers
 * for the anonymous user (fs/nfs/dir.c `nfs_permission`, ACCESS). No NFS here (no client or server in
 * this kernel), so the same lookups run locally as that uid through directories laid out with the
 * owners and modes the lab renders: the SVM root as ONTAP creates it (root's, 0755), the volume root
 * from the ontap Job's OWNER_UID/OWNER_GID/ROOT_MODE, the broker's directory from the prepare Job's
 * DIR_MODE, owned by Kafka's user who creates it.
 */
describe("a broker's directory is reachable by the anonymous user the kubelet's root is squashed to", () => {
  const envOf = (job: ReturnType<typeof ontapJobManifest>) =>
    Object.fromEntries(job.spec!.template.spec!.containers[0].env!.map((e) => [e.name, e.value!]));
  const ontap = envOf(ontapJobManifest(r, "kafka-storage", { host: "h", svmName: "kafkasvm", clientCidrs: "10.0.0.0/18" }));
  const prepare = envOf(prepareJobManifest(r, "0b5c6d8e-1f2a-4b3c-8d9e-0a1b2c3d4e5f"));
  const anonymous = Number(ontap.ANONYMOUS_UID);
  let svmRoot = "";
  afterEach(() => {
    if (svmRoot) fs.rmSync(svmRoot, { recursive: true, force: true });
    svmRoot = "";
  });

  /** The SVM's namespace with one volume at `junction` (root mode `rootMode`) and one broker's directory in it. */
  function layout(rootMode: string): string {
    svmRoot = fs.mkdtempSync(path.join(os.tmpdir(), "svm-root-"));
    fs.chmodSync(svmRoot, 0o755);
    const volumeRoot = path.join(svmRoot, r.dataVolumes[0].slice(1));
    fs.mkdirSync(volumeRoot);
    fs.chownSync(volumeRoot, Number(ontap.OWNER_UID), Number(ontap.OWNER_GID));
    fs.chmodSync(volumeRoot, parseInt(rootMode, 8));
    const broker = path.join(volumeRoot, brokerPodName(r, r.brokerIds[0]));
    fs.mkdirSync(broker);
    fs.chownSync(broker, Number(prepare.OWNER_UID), Number(ontap.OWNER_GID));
    fs.chmodSync(broker, parseInt(prepare.DIR_MODE, 8));
    return broker;
  }
  /** Looks `target` up as `uid` (group the same, no others), then lists its parent: each result's errno name or "ok". */
  function walkAs(uid: number, target: string): string {
    const py =
      "import os,sys\nfor f in (os.stat, os.listdir):\n  try: f(sys.argv[2 if f is os.stat else 1]); print('ok')\n  except OSError as e: print(os.strerror(e.errno))";
    const res = spawnSync(
      "setpriv",
      [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "/usr/bin/python3", "-c", py, path.dirname(target), target],
      {
        encoding: "utf8",
      },
    );
    expect(res.stderr).toBe("");
    return res.stdout;
  }

  test("the rendered modes: the volume root 1001:0 0751 and the broker's directory 1001:0 0750", () => {
    expect([ontap.OWNER_UID, ontap.OWNER_GID, ontap.ROOT_MODE, prepare.DIR_MODE, anonymous]).toEqual(["1001", "0", "0751", "0750", 65534]);
  });

  test("0751: uid 65534 reaches the broker's directory (the mount's walk) but cannot list the volume root", () => {
    expect(walkAs(anonymous, layout(ontap.ROOT_MODE))).toBe("ok\nPermission denied\n");
  });

  test("0750 (the earlier mode): the walk itself is refused, the mount would be 'access denied by server'", () => {
    expect(walkAs(anonymous, layout("0750"))).toBe("Permission denied\nPermission denied\n");
  });
});
