/**
 * The programs `lab bench local` needs, checked before anything starts: every missing one in one
 * message, with the `apt-get install` line that brings them (Debian 12 packages: `fio`, `ioping`;
 * `postgresql`, whose `postgresql-15` holds initdb, pg_ctl and pgbench and depends on
 * `postgresql-client-15` with psql and pg_isready; `util-linux` holds setpriv).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalRequest } from "./plan";
import { usesThrowaway } from "./plan";

/** A program and the Debian package that installs it. */
export interface Program {
  readonly name: string;
  readonly pkg: string;
}

/** The programs a run needs, in the order the message lists them. */
export function neededPrograms(req: LocalRequest, asRoot: boolean): Program[] {
  const out: Program[] = [];
  if (req.tools.includes("fio")) out.push({ name: "fio", pkg: "fio" });
  if (req.tools.includes("ioping")) out.push({ name: "ioping", pkg: "ioping" });
  if (req.tools.includes("pgbench")) {
    for (const name of ["pgbench", "psql", "pg_isready"]) out.push({ name, pkg: "postgresql" });
  }
  if (usesThrowaway(req)) {
    out.push({ name: "initdb", pkg: "postgresql" }, { name: "pg_ctl", pkg: "postgresql" });
    // initdb and pg_ctl refuse root: the throwaway server runs as nobody through setpriv.
    if (asRoot) out.push({ name: "setpriv", pkg: "util-linux" });
  }
  return out;
}

/** An executable file `cmd` in one of `pathVar`'s directories. */
export function onPath(cmd: string, pathVar: string): string | undefined {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === "") continue;
    const f = path.join(dir, cmd);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return f;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The needed programs that are missing: each looked up on `pathVar`, initdb and pg_ctl in the
 * server binaries' directory `serverBin` (Debian keeps them out of PATH) when there is one.
 */
export function missingPrograms(needed: readonly Program[], pathVar: string, serverBin: string | undefined): Program[] {
  return needed.filter((p) => {
    if ((p.name === "initdb" || p.name === "pg_ctl") && serverBin !== undefined) return !fs.existsSync(path.join(serverBin, p.name));
    return onPath(p.name, pathVar) === undefined;
  });
}

/** One message naming every missing program and the install line; `asRoot` drops `sudo`. */
export function missingProgramsMessage(missing: readonly Program[], asRoot: boolean): string {
  const names = missing.map((p) => (p.name === "initdb" || p.name === "pg_ctl" ? `${p.name} (PostgreSQL server)` : p.name));
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  return [
    `lab bench local needs programs that are not installed: ${names.join(", ")}.`,
    `Install them (Debian, Ubuntu): ${asRoot ? "" : "sudo "}apt-get install -y ${pkgs.join(" ")}`,
  ].join("\n");
}
