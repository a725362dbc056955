/**
 * components/kafka/scripts/prepare-dirs.sh: shellcheck, then its behaviour on temporary directories
 * standing in for the mounted volumes (a stand-in `stat` reports them as mount points; the real
 * `stat` answers everything else), run as Kafka's 1001:0 like the prepare Job (the tests run as
 * root in CI, so they can start it as another user).
 *
 * The script is copied into the test's own world-readable directory first: run as uid 1001 straight
 * from the checkout, it could not be read where the checkout's parents are closed to other users
 * (a clone inside a 0700 `mktemp -d` directory).
 *
 * No NFS mount: this machine's kernel has neither the NFS client nor the server (/proc/filesystems
 * lists no nfs/nfs4/nfsd; no kernel modules to load), so the NFSv4.1 case (the group mapped to
 * nobody by a mismatched ID domain) is reproduced as what the client then shows: a directory owned by
 * uid 1001 whose group is 65534 (nobody), not the expected 0.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Pod } from "kubernetes-models/v1/Pod";
import type { IPod } from "kubernetes-models/v1/Pod";
import { PREPARE_DIRS_SCRIPT } from "../../../components/kafka";
import { prepareJobManifest } from "../../../components/kafka/manifests";
import { resolve } from "../../../components/kafka/rules";
import { restrictedViolations } from "../../helpers/podSecurity";
import { stub } from "../bench/support";

const NOBODY = 65534;
let tmp: string;
let bin: string;
let script: string;
let vols: string[];
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kafka-dirs-"));
  bin = path.join(tmp, "bin");
  fs.mkdirSync(bin);
  script = path.join(tmp, "prepare-dirs.sh");
  fs.copyFileSync(PREPARE_DIRS_SCRIPT, script);
  fs.chmodSync(script, 0o644);
  vols = [path.join(tmp, "v0"), path.join(tmp, "v1")];
  for (const v of vols) fs.mkdirSync(v, { mode: 0o777 });
  for (const v of vols) fs.chmodSync(v, 0o777);
  fs.chmodSync(tmp, 0o755);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A `stat` for which every volume is a mount point: `%d` of `<volume>/..` differs from `%d` of `<volume>`. */
function mountedStat(): void {
  const real = spawnSync("sh", ["-c", "command -v stat"], { encoding: "utf8" }).stdout.trim();
  fs.chmodSync(bin, 0o755);
  stub(bin, "stat", `if [ "$2" = "%d" ]; then case "$4" in */..) echo 1 ;; *) echo 2 ;; esac; else exec ${real} "$@"; fi`);
}
const ID = "3f9a2c41-7d7e-4b43-9a55-0c1d2e3f4a5b";
const ENV = () => ({
  VOLUME_MOUNTS: vols.join(" "),
  BROKER_DIRS: "kafka-brokers-0 kafka-brokers-1 kafka-brokers-2",
  OWNER_UID: "1001",
  DEPLOYMENT_ID: ID,
});
const run = (env: Record<string, string>, args: string[] = [], uid = 1001) => {
  const r = spawnSync("/bin/sh", [script, ...args], {
    env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...env },
    encoding: "utf8",
    uid,
    gid: 0,
  });
  return { status: r.status, stderr: r.stderr };
};
/** A broker directory as another party left it: owner, group, mode. */
function dir(vol: string, name: string, uid: number, gid: number, mode = 0o750): string {
  const p = path.join(vol, name);
  fs.mkdirSync(p);
  fs.chownSync(p, uid, gid);
  fs.chmodSync(p, mode);
  return p;
}
/** What Kafka leaves in a log directory it formatted (Strimzi: `<mount>/kafka-log<node id>`). */
function kafkaLogDir(p: string): string {
  const log = path.join(p, "kafka-log0");
  fs.mkdirSync(log);
  const meta = path.join(log, "meta.properties");
  fs.writeFileSync(meta, "version=1\ncluster.id=old\nnode.id=0\n");
  return meta;
}

describe("prepare-dirs.sh", () => {
  test("passes shellcheck", () => {
    const r = spawnSync("shellcheck", ["-s", "sh", PREPARE_DIRS_SCRIPT], { encoding: "utf8" });
    expect([r.status, r.stdout]).toEqual([0, ""]);
  });

  test("creates each broker's directory on each volume, mode 0750, owned by 1001, marked with the deployment; a second run changes nothing", () => {
    mountedStat();
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 6 created on 2 volume(s)\n" });
    for (const v of vols)
      for (const b of [0, 1, 2]) {
        const p = path.join(v, `kafka-brokers-${b}`);
        const st = fs.lstatSync(p);
        expect([st.isDirectory(), st.mode & 0o7777, st.uid, st.gid]).toEqual([true, 0o750, 1001, 0]);
        expect(fs.readdirSync(p)).toEqual([".lab-deployment"]);
        expect(fs.readFileSync(path.join(p, ".lab-deployment"), "utf8")).toBe(`${ID}\n`);
      }
    fs.writeFileSync(path.join(vols[0], "kafka-brokers-0", "keep"), "data");
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 0 created on 2 volume(s)\n" });
    expect(fs.readFileSync(path.join(vols[0], "kafka-brokers-0", "keep"), "utf8")).toBe("data");
    expect(fs.readdirSync(path.join(vols[0], "kafka-brokers-0")).sort()).toEqual([".lab-deployment", "keep"]);
  });

  test("ownership that works passes though the group is not the expected one (NFSv4.1: gid 0 shown as nobody)", () => {
    mountedStat();
    for (const v of vols) for (const b of [0, 1, 2]) dir(v, `kafka-brokers-${b}`, 1001, NOBODY);
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 0 created on 2 volume(s)\n" });
    expect(run(ENV(), ["--check"])).toEqual({ status: 0, stderr: "" });
    expect(fs.statSync(path.join(vols[1], "kafka-brokers-2")).gid).toBe(NOBODY);
  });

  test("ownership that does not work fails, naming the owner as the client sees it: another uid, or no write for the owner", () => {
    mountedStat();
    dir(vols[0], "kafka-brokers-0", 2000, 0);
    expect(run(ENV())).toEqual({
      status: 1,
      stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 belongs to uid 2000, not 1001 (as this NFS client sees it: 2000:0)\n`,
    });
    fs.rmdirSync(path.join(vols[0], "kafka-brokers-0"));
    dir(vols[0], "kafka-brokers-0", NOBODY, NOBODY, 0o777);
    expect(run(ENV(), ["--check"])).toEqual({
      status: 1,
      stderr:
        `[lab] error: ${vols[0]}/kafka-brokers-0 belongs to uid 65534, not 1001 (as this NFS client sees it: 65534:65534): ` +
        `65534 is NFSv4 ID mapping's "nobody", an owner name the node could not map; check that the SVM sends numeric ids: ` +
        `vserver nfs show -vserver <svm> -fields v4-numeric-ids (docs/kinds/kafka.md, "What it checks")\n`,
    });
    fs.rmdirSync(path.join(vols[0], "kafka-brokers-0"));
    dir(vols[0], "kafka-brokers-0", 1001, NOBODY, 0o550);
    expect(run(ENV())).toEqual({
      status: 1,
      stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 belongs to uid 1001 but uid 1001 cannot create a file in it (mode 550)\n`,
    });
    expect(fs.readdirSync(path.join(vols[0], "kafka-brokers-0"))).toEqual([]);
  });

  test("a directory with an earlier cluster's Kafka data stops it, naming the clean-up; the same deployment's data does not", () => {
    mountedStat();
    const p = dir(vols[1], "kafka-brokers-1", 1001, 0);
    const meta = kafkaLogDir(p);
    const refused = {
      status: 1,
      stderr:
        `[lab] error: ${meta} exists: ${p} holds a Kafka log directory of an earlier cluster, which the new brokers would refuse ` +
        `(Invalid cluster.id); remove the brokers' directories from every data volume or re-create the volumes ` +
        `(docs/kinds/kafka.md, "Re-deploying onto the same file system")\n`,
    };
    expect(run(ENV())).toEqual(refused);
    fs.writeFileSync(path.join(p, ".lab-deployment"), "another-deployment\n");
    expect(run(ENV())).toEqual(refused);
    expect(fs.readFileSync(path.join(p, ".lab-deployment"), "utf8")).toBe("another-deployment\n");
    fs.writeFileSync(path.join(p, ".lab-deployment"), `${ID}\n`);
    // The refused runs created the directories before it (v0 and v1/kafka-brokers-0); this one the last.
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 1 created on 2 volume(s)\n" });
    expect(run(ENV(), ["--check"])).toEqual({ status: 0, stderr: "" });
    fs.writeFileSync(path.join(p, "meta.properties"), "version=1\n");
    expect(run({ ...ENV(), DEPLOYMENT_ID: "next" }, ["--check"]).stderr).toBe(
      `[lab] error: ${p}/meta.properties exists: ${p} holds a Kafka log directory of an earlier cluster, which the new brokers would refuse ` +
        `(Invalid cluster.id); remove the brokers' directories from every data volume or re-create the volumes ` +
        `(docs/kinds/kafka.md, "Re-deploying onto the same file system")\n`,
    );
  });

  test("--check: fails on a missing directory, passes once they exist, creates nothing", () => {
    mountedStat();
    expect(run(ENV(), ["--check"])).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 does not exist\n` });
    expect(fs.readdirSync(vols[0])).toEqual([]);
    expect(run(ENV()).status).toBe(0);
    expect(run(ENV(), ["--check"])).toEqual({ status: 0, stderr: "" });
  });

  test("never on an unmounted volume: its directories would land in the container's own file system", () => {
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]} is not a mount point: the volume is not mounted\n` });
    expect(fs.readdirSync(vols[0])).toEqual([]);
  });

  test("a volume root the ontap Job did not give to Kafka's user (root's, 0755) stops it, naming the root's owner and mode", () => {
    mountedStat();
    fs.chmodSync(vols[1], 0o755);
    const fix =
      "the ontap Job gives each root to Kafka's user, 1001:0 mode 751 (its log: kubectl --namespace <namespace>-storage logs job/kafka-storage-ontap)";
    expect(run(ENV())).toEqual({
      status: 1,
      stderr:
        `mkdir: cannot create directory '${vols[1]}/kafka-brokers-0': Permission denied\n` +
        `[lab] error: cannot create ${vols[1]}/kafka-brokers-0 as 1001:0: the volume root ${vols[1]} is 0:0 mode 755 as this client sees it; ${fix}\n`,
    });
    fs.chownSync(vols[1], NOBODY, NOBODY);
    expect(run(ENV()).stderr).toContain(`the volume root ${vols[1]} is ${NOBODY}:${NOBODY} mode 755 as this client sees it; ${fix}`);
  });

  test("a directory it cannot create on a writable root (a read-only file system): the same message, with the root as it is", () => {
    mountedStat();
    stub(bin, "mkdir", `echo "mkdir: cannot create directory '$4': Read-only file system" >&2; exit 1`);
    expect(run(ENV())).toEqual({
      status: 1,
      stderr:
        `mkdir: cannot create directory '${vols[0]}/kafka-brokers-0': Read-only file system\n` +
        `[lab] error: cannot create ${vols[0]}/kafka-brokers-0 as 1001:0: the volume root ${vols[0]} is 0:0 mode 777 as this client sees it; ` +
        "the ontap Job gives each root to Kafka's user, 1001:0 mode 751 (its log: kubectl --namespace <namespace>-storage logs job/kafka-storage-ontap)\n",
    });
  });

  test("never through a symbolic link, never over a file", () => {
    mountedStat();
    fs.symlinkSync("/etc", path.join(vols[0], "kafka-brokers-0"));
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 is a symbolic link\n` });
    fs.unlinkSync(path.join(vols[0], "kafka-brokers-0"));
    fs.writeFileSync(path.join(vols[0], "kafka-brokers-0"), "");
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 exists and is not a directory\n` });
  });

  test("refuses bad arguments and environment, and another user than OWNER_UID, before touching anything", () => {
    mountedStat();
    expect(run({ ...ENV(), BROKER_DIRS: "../etc" })).toEqual({ status: 1, stderr: "[lab] error: '../etc' is not a directory name\n" });
    expect(run({ ...ENV(), OWNER_UID: "1001:0" })).toEqual({
      status: 1,
      stderr: "[lab] error: OWNER_UID must be a numeric uid, got '1001:0'\n",
    });
    expect(run(ENV(), [], 1002)).toEqual({
      status: 1,
      stderr: "[lab] error: runs as uid 1002, not OWNER_UID 1001: the directories would belong to another user\n",
    });
    expect(run({ ...ENV(), DEPLOYMENT_ID: "" })).toEqual({
      status: 1,
      stderr: "[lab] error: DEPLOYMENT_ID must be letters, digits and '-', got ''\n",
    });
    expect(run({ ...ENV(), DIR_MODE: "750" })).toEqual({
      status: 1,
      stderr: "[lab] error: DIR_MODE must be an octal mode like 0750, got '750'\n",
    });
    expect(run({ ...ENV(), VOLUME_MOUNTS: "" })).toEqual({ status: 1, stderr: "[lab] error: VOLUME_MOUNTS is not set\n" });
    expect(run(ENV(), ["--all"])).toEqual({
      status: 1,
      stderr: "[lab] error: unknown argument '--all' (usage: prepare-dirs.sh [--check])\n",
    });
    expect(fs.readdirSync(vols[0])).toEqual([]);
  });
});

/**
 * docs/kinds/kafka.md, "Re-deploying onto the same file system": the wipe and adopt pods as a user
 * makes them, the page's jq program run by the real jq over the prepare Job as the lab renders it;
 * the pod's command then run as the pod's user over volumes laid out as a live cluster left them
 * (`/volumes/` rewritten to this test's directory, the only change), and prepare-dirs.sh, run after
 * it as the re-created Job runs it, accepts what is left.
 */
describe("the page's wipe and adopt pods (docs/kinds/kafka.md)", () => {
  const page = fs.readFileSync(path.join(__dirname, "..", "..", "..", "docs", "kinds", "kafka.md"), "utf8");
  const pods = [...page.matchAll(/<!-- test\/docs\/kafka-storage-commands[^>]*-->\n\s*```sh\n\s*(.+)\n\s*```/g)].map((m) => m[1]);
  const jqOf = (cmd: string) => {
    const m = /^kubectl -n kafka-storage get job kafka-storage-prepare -o json \| jq '([^']+)' \| kubectl apply -f -$/.exec(cmd);
    if (!m) throw new Error(`not the expected command shape: ${cmd}`);
    return m[1];
  };
  /** The pod the page's command makes from the prepare Job of a two-volume, three-broker cluster. */
  const podOf = (cmd: string) => {
    const job = prepareJobManifest(resolve({ dataVolumes: ["/kafkafsxN1", "/kafkafsxN2"], brokers: 3 }), ID);
    const r = spawnSync("jq", [jqOf(cmd)], { input: JSON.stringify(job), encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    return { job, pod: JSON.parse(r.stdout) as IPod };
  };
  /** Runs the pod's command as its user, over this test's volumes. */
  const runPod = (pod: IPod) => {
    const c = pod.spec!.containers[0];
    const sh = (c.command ?? [])[2].replaceAll("/volumes/", `${tmp}/volumes/`);
    const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? ""]));
    return spawnSync("/bin/sh", ["-c", sh], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      uid: 1001,
      gid: 0,
      encoding: "utf8",
    });
  };
  let live: string[];
  beforeEach(() => {
    const root = path.join(tmp, "volumes");
    fs.mkdirSync(root, { mode: 0o755 });
    fs.chmodSync(root, 0o755);
    live = [0, 1].map((i) => path.join(root, String(i)));
    for (const v of live) {
      fs.mkdirSync(v);
      fs.chownSync(v, 1001, 0);
      fs.chmodSync(v, 0o751);
      for (const b of [0, 1, 2]) {
        const d = dir(v, `kafka-brokers-${b}`, 1001, 0);
        const meta = kafkaLogDir(d);
        fs.chownSync(path.dirname(meta), 1001, 0);
        fs.chownSync(meta, 1001, 0);
      }
    }
    mountedStat();
  });
  const check = (args: string[]) => run({ ...ENV(), VOLUME_MOUNTS: live.join(" ") }, args);

  test("the page has the two pods, each the prepare Job's pod spec (restricted, uid 1001, the same volumes) with another command", () => {
    expect(pods).toHaveLength(2);
    for (const cmd of pods) {
      const { job, pod } = podOf(cmd);
      expect(new Pod(pod).validate()).toBeUndefined();
      expect(restrictedViolations(pod.spec!)).toEqual([]);
      expect(pod.metadata?.namespace).toBe("kafka-storage");
      expect(pod.spec?.securityContext?.runAsUser).toBe(1001);
      expect(pod.spec?.volumes).toEqual(job.spec?.template.spec?.volumes);
      expect(pod.spec?.containers[0].volumeMounts).toEqual(job.spec?.template.spec?.containers[0].volumeMounts);
    }
    expect(pods.map((c) => podOf(c).pod.metadata?.name)).toEqual(["kafka-storage-wipe", "kafka-storage-adopt"]);
  });

  test("before either: the re-created Job refuses the directories (a Kafka log directory, no marker of this deployment)", () => {
    expect(check(["--check"]).status).toBe(1);
  });

  test("wipe: every broker directory goes; the Job then creates them anew", () => {
    const r = runPod(podOf(pods[0]).pod);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    for (const v of live) expect(fs.readdirSync(v)).toEqual([]);
    expect(check([]).status).toBe(0);
  });

  test("adopt: every broker directory gets this deployment's id (the Job's DEPLOYMENT_ID) and its data stays; the Job accepts it", () => {
    const r = runPod(podOf(pods[1]).pod);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    for (const v of live)
      for (const b of [0, 1, 2]) {
        expect(fs.readFileSync(path.join(v, `kafka-brokers-${b}`, ".lab-deployment"), "utf8")).toBe(`${ID}\n`);
        expect(fs.existsSync(path.join(v, `kafka-brokers-${b}`, "kafka-log0", "meta.properties"))).toBe(true);
      }
    expect(check(["--check"])).toEqual({ status: 0, stderr: "" });
  });
});
