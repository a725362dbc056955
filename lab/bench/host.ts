/**
 * What `lab bench local` records about the machine it measured, in every sample's metadata, and
 * how much room the directory under test has.
 *
 * Sources (Linux, proc(5) and statfs(2)):
 * - `/proc/cpuinfo`: one block per logical CPU, each with a `processor : <n>` line and, on x86, a
 *   `model name : <text>` line;
 * - the kernel release: `os.release()`, uname(2)'s `release` (what `uname -r` prints);
 * - `/proc/self/mountinfo`, one mount a line: `<mount id> <parent id> <major:minor> <root> <mount
 *   point> <mount options> [optional fields…] - <fs type> <mount source> <super options>`, with
 *   space, tab, newline and backslash in paths written as octal escapes (`\040`…); the mount that
 *   holds a path is the one with the longest mount point that is the path or a parent of it, the
 *   last such line when mounts are stacked on one mount point;
 * - free space: statfs(2) `f_bavail × f_bsize`, the blocks an unprivileged user may still fill
 *   (`fs.statfsSync`: `bavail`, `bsize`).
 */
import * as fs from "node:fs";
import * as os from "node:os";

/** Host metadata every local sample carries. */
export interface HostMetadata {
  /** `model name` of /proc/cpuinfo, or "unknown" (e.g. on arm64, which has none). */
  readonly cpuModel: string;
  /** Logical CPUs (`processor` entries of /proc/cpuinfo). */
  readonly cpuCores: number;
  /** The kernel release (`uname -r`). */
  readonly kernel: string;
  /** File system type of the directory under test (`ext4`, `xfs`, `tmpfs`, …). */
  readonly fileSystem: string;
  /**
   * The mount source of that file system (`/dev/nvme0n1p2`, `tmpfs`, …). Not `device`: the node
   * sampler's disk samples name a whole disk (`nvme0n1`) so.
   */
  readonly fileSystemDevice: string;
}

/** A mount of /proc/self/mountinfo. */
export interface Mount {
  readonly mountPoint: string;
  readonly fsType: string;
  readonly source: string;
}

/** Undoes mountinfo's octal escapes (`\040` is a space). */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** The mounts of a mountinfo text, in its order. */
export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const fields = line.split(" ");
    const sep = fields.indexOf("-", 6);
    if (sep < 0 || fields.length < sep + 3) throw new Error(`/proc/self/mountinfo: unexpected line: ${line}`);
    mounts.push({ mountPoint: unescape(fields[4]), fsType: unescape(fields[sep + 1]), source: unescape(fields[sep + 2]) });
  }
  return mounts;
}

/** The mount holding the absolute, symlink-free path `target`. */
export function mountOf(mounts: readonly Mount[], target: string): Mount {
  let best: Mount | undefined;
  for (const m of mounts) {
    const inside = m.mountPoint === "/" || target === m.mountPoint || target.startsWith(`${m.mountPoint}/`);
    if (inside && (best === undefined || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  if (best === undefined) throw new Error(`no mount holds ${target}`);
  return best;
}

/** `model name` and the count of `processor` lines of a /proc/cpuinfo text. */
export function parseCpuinfo(text: string): { cpuModel: string; cpuCores: number } {
  const lines = text.split("\n");
  const model = lines.find((l) => /^model name\s*:/.test(l));
  return {
    cpuModel: model === undefined ? "unknown" : model.slice(model.indexOf(":") + 1).trim(),
    cpuCores: lines.filter((l) => /^processor\s*:/.test(l)).length,
  };
}

/** The host metadata of this machine for the directory `dir`. */
export function hostMetadata(dir: string): HostMetadata {
  const cpu = parseCpuinfo(fs.readFileSync("/proc/cpuinfo", "utf8"));
  const mount = mountOf(parseMountinfo(fs.readFileSync("/proc/self/mountinfo", "utf8")), fs.realpathSync(dir));
  return { ...cpu, kernel: os.release(), fileSystem: mount.fsType, fileSystemDevice: mount.source };
}

/** Bytes an unprivileged user may still write on the file system of `dir`. */
export function freeBytes(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

/** `1536 MiB` → "1.5 GiB": binary units, at most one decimal. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : Number(v.toFixed(1))} ${units[i]}`;
}
