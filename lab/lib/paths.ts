/**
 * The CLI's path arguments checked before any work starts: each names its option, the value the user
 * typed and the rule, all problems at once (exit 2, as every usage error). Without this a path of
 * the wrong kind ends in a bare system error (EISDIR, ENOTDIR, EACCES) from deep inside a command,
 * sometimes after minutes of benchmarking.
 *
 * Kinds and what each needs (stat follows symbolic links: a link to a directory is a directory):
 * - `file`: an existing file, readable;
 * - `dir`: an existing directory, readable and searchable (r-x);
 * - `work-dir`: an existing directory to work in, writable and searchable (-wx);
 * - `out-dir`: a directory to write into: an existing one writable and searchable (-wx), or one
 *   `mkdir -p` can create: its nearest existing ancestor is a directory writable and searchable.
 * Permissions are the kernel's own answer, access(2) for the real user: root's CAP_DAC_OVERRIDE
 * passes the mode bits, but not a read-only file system (EROFS), an immutable file (EPERM) or a
 * root-squashed NFS export. A dangling symbolic link is not a directory `mkdir -p` can make.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export type PathKind = "file" | "dir" | "work-dir" | "out-dir";

export interface PathArg {
  /** What the user typed it as: `--out`, `--dir`, `<file>`. */
  readonly option: string;
  readonly value: string;
  readonly kind: PathKind;
  /** Resolves a relative value. @default process.cwd() */
  readonly base?: string;
}

const RULES: Readonly<Record<PathKind, string>> = {
  file: "a readable file",
  dir: "a readable directory",
  "work-dir": "an existing directory this user can write into",
  "out-dir": "a directory this user can write into or create",
};

/** stat(2), or its error code (no `instanceof Error`: Node's errors come from another realm under Jest). */
function statOf(p: string): fs.Stats | { readonly code: string } {
  try {
    return fs.statSync(p);
  } catch (e) {
    return { code: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
}

function isDanglingLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function can(p: string, mode: number): string | undefined {
  try {
    fs.accessSync(p, mode);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
}

function what(s: fs.Stats): string {
  return s.isDirectory() ? "a directory" : s.isFile() ? "a file" : s.isFIFO() ? "a FIFO" : s.isSocket() ? "a socket" : "a device";
}

/** Why `value` does not satisfy its kind, or undefined. */
export function pathWhy(value: string, kind: PathKind, base = process.cwd()): string | undefined {
  if (value === "") return "it is empty";
  const abs = path.resolve(base, value);
  const s = statOf(abs);
  if ("code" in s) {
    if (s.code === "ENOTDIR") return "a part of it is a file, not a directory";
    if (s.code !== "ENOENT") return s.code;
    if (kind !== "out-dir") return "no such file or directory";
    // A link to nothing: mkdir -p would fail with EEXIST on the link itself.
    if (isDanglingLink(abs)) return "it is a symbolic link to nothing";
    // Created with mkdir -p: the nearest existing ancestor must take new entries.
    let up = path.dirname(abs);
    for (;;) {
      const a = statOf(up);
      if (!("code" in a)) {
        if (!a.isDirectory()) return `${up} is ${what(a)}, not a directory`;
        const denied = can(up, fs.constants.W_OK | fs.constants.X_OK);
        return denied ? `it does not exist and ${up} cannot take it (${denied})` : undefined;
      }
      if (a.code !== "ENOENT") return `${up}: ${a.code}`;
      up = path.dirname(up);
    }
  }
  if (kind === "file") {
    if (!s.isFile()) return `it is ${what(s)}`;
    const denied = can(abs, fs.constants.R_OK);
    return denied ? `it cannot be read (${denied})` : undefined;
  }
  if (!s.isDirectory()) return `it is ${what(s)}`;
  const mode = kind === "dir" ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.W_OK | fs.constants.X_OK;
  // (work-dir and out-dir alike: the directory takes new entries)
  const denied = can(abs, mode);
  return denied ? `it cannot be ${kind === "dir" ? "read" : "written"} (${denied})` : undefined;
}

/** One line per path argument that is not what its option needs (`'--out' must be …, got "x"`). */
export function pathProblems(args: readonly PathArg[]): string[] {
  return args.flatMap((a) => {
    const why = pathWhy(a.value, a.kind, a.base);
    return why === undefined ? [] : [`'${a.option}' must be ${RULES[a.kind]} (${why}), got ${JSON.stringify(a.value)}`];
  });
}
