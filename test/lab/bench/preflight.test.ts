/** lab/bench/preflight.ts: the programs a run needs, looked up on a PATH of stand-ins, and the one message with the install line. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkOptions, type LocalRequest } from "../../../lab/bench/plan";
import { missingPrograms, missingProgramsMessage, neededPrograms } from "../../../lab/bench/preflight";

const request = (o: Parameters<typeof checkOptions>[0]) => checkOptions(o).request as LocalRequest;

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-preflight-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A PATH directory holding executables named `names` (and a non-executable `ioping`). */
function pathWith(...names: string[]): string {
  const bin = path.join(tmp, "bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const n of names) fs.writeFileSync(path.join(bin, n), "#!/bin/sh\n", { mode: 0o755 });
  fs.writeFileSync(path.join(bin, "ioping"), "not executable", { mode: 0o644 });
  return bin;
}

describe("neededPrograms", () => {
  it("each tool's programs; initdb and pg_ctl for a throwaway server, setpriv as root", () => {
    const names = (o: Parameters<typeof checkOptions>[0], root: boolean) =>
      neededPrograms(request(o), root).map((p) => `${p.name}:${p.pkg}`);
    expect(names({}, true)).toEqual([
      "fio:fio",
      "ioping:ioping",
      "pgbench:postgresql",
      "psql:postgresql",
      "pg_isready:postgresql",
      "initdb:postgresql",
      "pg_ctl:postgresql",
      "setpriv:util-linux",
    ]);
    expect(names({}, false)).not.toContain("setpriv:util-linux");
    expect(names({ pg: "postgresql://u@h/db" }, true)).toEqual([
      "fio:fio",
      "ioping:ioping",
      "pgbench:postgresql",
      "psql:postgresql",
      "pg_isready:postgresql",
    ]);
    expect(names({ tools: "ioping" }, true)).toEqual(["ioping:ioping"]);
  });
});

describe("missingPrograms and the message", () => {
  it("looks on PATH (an executable file), initdb and pg_ctl in the server's directory", () => {
    const bin = pathWith("fio", "psql", "pg_isready");
    const server = path.join(tmp, "server");
    fs.mkdirSync(server);
    fs.writeFileSync(path.join(server, "initdb"), "", { mode: 0o755 });
    const missing = missingPrograms(neededPrograms(request({}), false), bin, server);
    expect(missing.map((p) => p.name)).toEqual(["ioping", "pgbench", "pg_ctl"]);
    expect(missingProgramsMessage(missing, false)).toBe(
      [
        "lab bench local needs programs that are not installed: ioping, pgbench, pg_ctl (PostgreSQL server).",
        "Install them (Debian, Ubuntu): sudo apt-get install -y ioping postgresql",
      ].join("\n"),
    );
  });

  it("nothing installed, as root: every program at once, each package once, no sudo", () => {
    const missing = missingPrograms(neededPrograms(request({}), true), path.join(tmp, "empty"), undefined);
    expect(missingProgramsMessage(missing, true)).toBe(
      [
        "lab bench local needs programs that are not installed: fio, ioping, pgbench, psql, pg_isready, initdb (PostgreSQL server), pg_ctl (PostgreSQL server), setpriv.",
        "Install them (Debian, Ubuntu): apt-get install -y fio ioping postgresql util-linux",
      ].join("\n"),
    );
  });

  it("everything there: nothing missing", () => {
    const bin = pathWith("fio", "pgbench", "psql", "pg_isready", "initdb", "pg_ctl", "setpriv");
    fs.chmodSync(path.join(bin, "ioping"), 0o755);
    expect(missingPrograms(neededPrograms(request({}), true), bin, undefined)).toEqual([]);
  });
});
