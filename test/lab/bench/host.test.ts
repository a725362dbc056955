/** lab/bench/host.ts: mountinfo and cpuinfo read as proc(5) describes them, checked against util-linux's findmnt, lscpu and nproc on this machine. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { formatBytes, freeBytes, hostMetadata, mountOf, parseCpuinfo, parseMountinfo } from "../../../lab/bench/host";

// proc(5)'s own example line, a stacked mount, and a mount point with a space (octal escape \040).
const MOUNTINFO = [
  "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue",
  "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw",
  "40 22 0:35 / /home rw,relatime shared:20 - xfs /dev/sdb1 rw",
  "41 40 0:36 / /home rw,relatime - tmpfs tmpfs rw",
  "42 22 8:3 / /media/my\\040disk rw shared:30 - vfat /dev/sdc1 rw",
].join("\n");

describe("parseMountinfo and mountOf", () => {
  const mounts = parseMountinfo(MOUNTINFO);

  it("reads the mount point, the type and the source after the separator, escapes undone", () => {
    expect(mounts).toEqual([
      { mountPoint: "/mnt2", fsType: "ext3", source: "/dev/root" },
      { mountPoint: "/", fsType: "ext4", source: "/dev/sda2" },
      { mountPoint: "/home", fsType: "xfs", source: "/dev/sdb1" },
      { mountPoint: "/home", fsType: "tmpfs", source: "tmpfs" },
      { mountPoint: "/media/my disk", fsType: "vfat", source: "/dev/sdc1" },
    ]);
  });

  it("the longest mount point above the path wins; of stacked mounts the last one", () => {
    expect(mountOf(mounts, "/var/lib").source).toBe("/dev/sda2");
    expect(mountOf(mounts, "/home/ann/x").fsType).toBe("tmpfs");
    expect(mountOf(mounts, "/homework").source).toBe("/dev/sda2");
    expect(mountOf(mounts, "/media/my disk/a").source).toBe("/dev/sdc1");
  });

  it("a line without the separator is an error naming it", () => {
    expect(() => parseMountinfo("22 1 8:2 / / rw")).toThrow("/proc/self/mountinfo: unexpected line: 22 1 8:2 / / rw");
  });
});

describe("parseCpuinfo", () => {
  it("x86: the model name and one processor a logical CPU; arm64 has no model name", () => {
    const x86 = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Processor\n";
    expect(parseCpuinfo(x86)).toEqual({ cpuModel: "Intel(R) Xeon(R) Processor", cpuCores: 2 });
    expect(parseCpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n")).toEqual({ cpuModel: "unknown", cpuCores: 1 });
  });
});

describe("on this machine", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-host-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("hostMetadata agrees with findmnt -T, lscpu, nproc --all and uname -r", () => {
    const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8" }).trim();
    const [fsType, source] = run("findmnt", ["-n", "-o", "FSTYPE,SOURCE", "-T", dir]).split(/\s+/);
    const model = /^Model name:\s*(.*)$/m.exec(run("lscpu", []))?.[1];
    expect(hostMetadata(dir)).toEqual({
      cpuModel: model,
      cpuCores: Number(run("nproc", ["--all"])),
      kernel: run("uname", ["-r"]),
      fileSystem: fsType,
      fileSystemDevice: source,
    });
  });

  it("freeBytes is df's available space (--output=avail)", () => {
    const avail = Number(execFileSync("df", ["--output=avail", "-B1", dir], { encoding: "utf8" }).trim().split("\n")[1]);
    // Others write to the same disk meanwhile: within 64 MiB.
    expect(Math.abs(freeBytes(dir) - avail)).toBeLessThan(64 * 2 ** 20);
  });
});

describe("formatBytes", () => {
  it("binary units, at most one decimal", () => {
    expect([0, 512, 1536, 64 * 2 ** 20, 1.125 * 2 ** 30, 10 * 2 ** 30, 3 * 2 ** 40].map(formatBytes)).toEqual([
      "0 B",
      "512 B",
      "1.5 KiB",
      "64 MiB",
      "1.1 GiB",
      "10 GiB",
      "3 TiB",
    ]);
  });
});
