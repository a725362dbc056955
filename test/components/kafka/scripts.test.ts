/**
 * components/kafka/scripts/prepare-dirs.sh: shellcheck, then its behaviour on temporary directories
 * standing in for the mounted volumes (a stand-in `stat` reports them as mount points; the real
 * `stat` answers everything else), run as Kafka's 1001:0 like the prepare Job (the tests run as
 * root in CI, so they can start it as another user).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PREPARE_DIRS_SCRIPT } from "../../../components/kafka";
import { stub } from "../bench/support";

let tmp: string;
let bin: string;
let vols: string[];
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kafka-dirs-"));
  bin = path.join(tmp, "bin");
  fs.mkdirSync(bin);
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
const ENV = () => ({ VOLUME_MOUNTS: vols.join(" "), BROKER_DIRS: "kafka-brokers-0 kafka-brokers-1 kafka-brokers-2", OWNER: "1001:0" });
const run = (env: Record<string, string>, args: string[] = []) => {
  const r = spawnSync("/bin/sh", [PREPARE_DIRS_SCRIPT, ...args], {
    env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...env },
    encoding: "utf8",
    uid: 1001,
    gid: 0,
  });
  return { status: r.status, stderr: r.stderr };
};

describe("prepare-dirs.sh", () => {
  test("passes shellcheck", () => {
    const r = spawnSync("shellcheck", ["-s", "sh", PREPARE_DIRS_SCRIPT], { encoding: "utf8" });
    expect([r.status, r.stdout]).toEqual([0, ""]);
  });

  test("creates each broker's directory on each volume, mode 0750, owned by 1001:0; a second run changes nothing", () => {
    mountedStat();
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 6 created on 2 volume(s)\n" });
    for (const v of vols)
      for (const b of [0, 1, 2]) {
        const st = fs.lstatSync(path.join(v, `kafka-brokers-${b}`));
        expect([st.isDirectory(), st.mode & 0o7777, st.uid, st.gid]).toEqual([true, 0o750, 1001, 0]);
      }
    fs.writeFileSync(path.join(vols[0], "kafka-brokers-0", "keep"), "data");
    expect(run(ENV())).toEqual({ status: 0, stderr: "[lab] broker directories ready: 0 created on 2 volume(s)\n" });
    expect(fs.readFileSync(path.join(vols[0], "kafka-brokers-0", "keep"), "utf8")).toBe("data");
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

  test("a volume root it cannot write to stops it, saying so", () => {
    mountedStat();
    fs.chmodSync(vols[1], 0o755);
    expect(run(ENV())).toEqual({
      status: 1,
      stderr:
        `mkdir: cannot create directory '${vols[1]}/kafka-brokers-0': Permission denied\n` +
        `[lab] error: cannot create ${vols[1]}/kafka-brokers-0: is ${vols[1]} writable by 1001:0?\n`,
    });
  });

  test("never through a symbolic link, never over a file, never a directory of someone else", () => {
    mountedStat();
    fs.symlinkSync("/etc", path.join(vols[0], "kafka-brokers-0"));
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 is a symbolic link\n` });
    fs.unlinkSync(path.join(vols[0], "kafka-brokers-0"));
    fs.writeFileSync(path.join(vols[0], "kafka-brokers-0"), "");
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 exists and is not a directory\n` });
    fs.unlinkSync(path.join(vols[0], "kafka-brokers-0"));
    fs.mkdirSync(path.join(vols[0], "kafka-brokers-0"));
    fs.chownSync(path.join(vols[0], "kafka-brokers-0"), 2000, 2000);
    expect(run(ENV())).toEqual({ status: 1, stderr: `[lab] error: ${vols[0]}/kafka-brokers-0 belongs to 2000:2000, not 1001:0\n` });
  });

  test("refuses bad arguments and environment before touching anything", () => {
    mountedStat();
    expect(run({ ...ENV(), BROKER_DIRS: "../etc" })).toEqual({ status: 1, stderr: "[lab] error: '../etc' is not a directory name\n" });
    expect(run({ ...ENV(), OWNER: "kafka" })).toEqual({ status: 1, stderr: "[lab] error: OWNER must be <uid>:<gid>, got 'kafka'\n" });
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
