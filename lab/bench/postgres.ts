/**
 * The PostgreSQL server pgbench drives outside a cluster: a throwaway cluster (initdb and pg_ctl
 * into a new temporary directory, on a free port, as an unprivileged user when started as root)
 * for `lab bench local` and for the tests of pgbench.sh, or a server the user names with a
 * `postgresql://` URL (`--pg`).
 *
 * External behaviours relied on (PostgreSQL 15 documentation, https://www.postgresql.org/docs/15/):
 * - initdb and pg_ctl refuse to run as root ("initdb: error: cannot be run as root", src/bin/initdb/initdb.c;
 *   "pg_ctl: cannot be run as root", src/bin/pg_ctl/pg_ctl.c), hence `setpriv --reuid=65534
 *   --regid=65534 --clear-groups` (util-linux setpriv(1): set the real and effective user and group
 *   ids, drop the supplementary groups) as `nobody` when the lab runs as root;
 * - `initdb -D <dir> -U <superuser> --auth=trust -E UTF8 --no-sync` (app-initdb.html: `--no-sync`
 *   returns without waiting for the files to reach the disk: fine for a cluster deleted afterwards);
 * - `pg_ctl start -D <data> -l <log> -o "<postgres options>" -w -t <s>` waits until the server
 *   accepts connections, `pg_ctl stop -D <data> -m immediate -w` aborts every server process at once
 *   (app-pg-ctl.html); the postmaster runs in a session of its own (pg_ctl calls setsid(): its process
 *   group and session are its own pid, test/lab/bench/postgres.test.ts checks it), so a Ctrl-C in the terminal never
 *   reaches it and it is stopped explicitly;
 * - `postgres -p <port> -k '' -c listen_addresses=127.0.0.1 -c <name>=<value>` (app-postgres.html;
 *   runtime-config-connection.html: `-k` sets unix_socket_directories, "An empty value specifies
 *   not listening on any Unix-domain sockets"): TCP only, so neither the 107-byte limit of a socket
 *   path nor a space in the directory matters; pg_ctl passes `-o` through the shell, hence the quotes;
 * - the data directory's `postmaster.pid` holds the postmaster's pid on its first line
 *   (storage-file-layout.html), and exists only while a server runs on it;
 * - connection URIs `postgresql://[user[:password]@][host][:port][/dbname][?param=value&…]`, scheme
 *   `postgresql://` or `postgres://`, percent-encoded parts, a `host` parameter naming a Unix socket
 *   directory (libpq-connect.html, 34.1.1.2 "Connection URIs"), and libpq's environment variables
 *   `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSSLMODE` (libpq-envars.html).
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

/** The uid and gid of `nobody` (Debian's base-passwd), who runs the throwaway server when the lab runs as root. */
export const NOBODY = 65534;

/** The superuser initdb creates, and the database pgbench uses, in a throwaway cluster. */
export const THROWAWAY_USER = "postgres";
export const THROWAWAY_DATABASE = "postgres";

/** Where Debian and Ubuntu keep the server binaries: `/usr/lib/postgresql/<major>/bin` (out of PATH). */
export const DEBIAN_PG_LIB = "/usr/lib/postgresql";

/** The newest PostgreSQL server binaries' directory (with initdb), or undefined when there are none. */
export function findServerBin(base = DEBIAN_PG_LIB, pathVar = process.env.PATH ?? ""): string | undefined {
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, "bin", "initdb"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length > 0) return path.join(base, versions[0], "bin");
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir !== "" && fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

/** A TCP port nobody listens on at 127.0.0.1 right now (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether the process runs as root (initdb and pg_ctl then run as {@link NOBODY}). */
export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Runs `cmd args` (as `nobody` when `unprivileged`), resolving with stdout; rejects with the command and its stderr. */
function run(cmd: string, args: readonly string[], cwd: string, unprivileged: boolean): Promise<string> {
  const [file, argv] = unprivileged
    ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", cmd, ...args]]
    : [cmd, [...args]];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd, encoding: "utf8", timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(cmd)} ${args.join(" ")} failed: ${(stderr || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}

/** A running throwaway cluster. */
export interface ThrowawayPostgres {
  /** The temporary directory holding everything (data, log): removed by {@link stop}. */
  readonly dir: string;
  readonly data: string;
  readonly host: "127.0.0.1";
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** The server's log file. */
  readonly log: string;
  /** `postgres --version`, e.g. "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)". */
  readonly version: string;
  /** The postmaster's pid. */
  readonly pid: number;
  /** Whether it runs as {@link NOBODY}. */
  readonly unprivileged: boolean;
  /** Stops the server (immediate mode) and removes {@link dir}; safe to call twice. */
  stop(): Promise<void>;
}

export interface ThrowawayOptions {
  /** Directory the cluster's temporary directory is made in. */
  readonly parent: string;
  /** Its name's prefix (mkdtemp adds six characters). @default "lab-pg-" */
  readonly prefix?: string;
  /** Server settings, `-c name=value` each, values without spaces (e.g. `{ fsync: "off" }` for tests); PostgreSQL's defaults otherwise. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Server binaries. @default {@link findServerBin} */
  readonly bin?: string;
  /** Run as {@link NOBODY}. @default {@link runsAsRoot} */
  readonly unprivileged?: boolean;
}

/** The pid in `<data>/postmaster.pid`, or undefined when no server runs on `data`. */
export function postmasterPid(data: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process with this pid runs: it exists (signal 0: kill(2) checks without sending) and is
 * no zombie (state `Z` in /proc/<pid>/stat, proc(5)): a postmaster pg_ctl detached is reparented,
 * and a parent that does not reap (a container's init) keeps its exit as a zombie.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * initdb + `pg_ctl start` into a new temporary directory below `parent`, on a free port (another
 * one when a race took it), listening on 127.0.0.1 with trust authentication. Everything it made
 * is removed again when it fails.
 */
export async function startThrowawayPostgres(opts: ThrowawayOptions): Promise<ThrowawayPostgres> {
  const bin = opts.bin ?? findServerBin();
  if (bin === undefined) throw new Error("no PostgreSQL server binaries (initdb, pg_ctl): install the Debian package postgresql");
  const unprivileged = opts.unprivileged ?? runsAsRoot();
  const dir = fs.mkdtempSync(path.join(opts.parent, opts.prefix ?? "lab-pg-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      const pid = postmasterPid(data);
      if (pid !== undefined) {
        try {
          await run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"], dir, unprivileged);
        } catch (e) {
          // pg_ctl could not stop it: SIGQUIT is immediate shutdown (server-shutdown.html).
          if (processAlive(pid)) process.kill(pid, "SIGQUIT");
          throw e;
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    if (unprivileged) {
      fs.chownSync(dir, NOBODY, NOBODY);
      // nobody must reach the directory: every directory above it needs search permission for others.
      const reach = spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "test", "-w", dir]);
      if (reach.status !== 0) {
        throw new Error(
          `the throwaway PostgreSQL runs as nobody (uid ${NOBODY}: initdb and pg_ctl refuse root) and cannot write to ${dir}: give every directory above it search permission for others, or pick another directory`,
        );
      }
    }
    await run(path.join(bin, "initdb"), ["-D", data, "-U", THROWAWAY_USER, "--auth=trust", "-E", "UTF8", "--no-sync"], dir, unprivileged);
    const version = (await run(path.join(bin, "postgres"), ["--version"], dir, unprivileged)).trim();
    const settings = Object.entries({ listen_addresses: "127.0.0.1", ...(opts.settings ?? {}) })
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(" ");
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await run(
          path.join(bin, "pg_ctl"),
          ["-D", data, "-l", log, "-o", `-p ${port} -k '' ${settings}`, "-w", "-t", "60", "start"],
          dir,
          unprivileged,
        );
        break;
      } catch (e) {
        const taken = fs.existsSync(log) && /could not bind|Address already in use/.test(fs.readFileSync(log, "utf8"));
        if (!taken || attempt === 3) throw e;
      }
    }
    const pid = postmasterPid(data);
    if (pid === undefined) throw new Error(`pg_ctl started no server on ${data}`);
    return {
      dir,
      data,
      host: "127.0.0.1",
      port,
      user: THROWAWAY_USER,
      database: THROWAWAY_DATABASE,
      log,
      version,
      pid,
      unprivileged,
      stop,
    };
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
}

/** A server named by `--pg`: libpq's connection variables. */
export interface PgConnection {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly password?: string;
  readonly sslmode?: string;
}

/** The query parameters `--pg` accepts (libpq-connect.html, "Parameter Key Words"). */
export const PG_URL_PARAMETERS = ["host", "sslmode"] as const;
/** libpq's `sslmode` values (libpq-ssl.html, table "SSL Mode Descriptions"). */
export const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] as const;

/** The URL with its password replaced by `***`, for messages. */
export function redactPgUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*:)[^@/?#]*@/, "$1***@");
}

/** The rule `--pg` must follow. */
export const PG_URL_RULE = "a PostgreSQL URL postgresql://[user[:password]@]host[:port]/database[?sslmode=…] (or ?host=<socket directory>)";

/**
 * `--pg`'s URL as libpq's variables: user and database default as libpq's do (the user: this
 * machine's user name; the database: the user name), the port to 5432. Returns a problem's rule
 * instead when the URL is not one `lab bench local` can use (no host, several hosts, a parameter
 * other than {@link PG_URL_PARAMETERS}).
 */
export function parsePgUrl(url: string, localUser = os.userInfo().username): PgConnection | { problem: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: PG_URL_RULE };
  }
  if (u.protocol !== "postgresql:" && u.protocol !== "postgres:") return { problem: PG_URL_RULE };
  const params = [...u.searchParams.keys()];
  const unknown = params.filter((k) => !(PG_URL_PARAMETERS as readonly string[]).includes(k));
  if (unknown.length > 0)
    return { problem: `${PG_URL_RULE}, with no parameter but ${PG_URL_PARAMETERS.join(" and ")} (not ${unknown.join(", ")})` };
  const sslmode = u.searchParams.get("sslmode") ?? undefined;
  if (sslmode !== undefined && !(SSL_MODES as readonly string[]).includes(sslmode)) {
    return { problem: `${PG_URL_RULE}, sslmode one of ${SSL_MODES.join(", ")}` };
  }
  const host = u.searchParams.get("host") ?? decodeURIComponent(u.hostname).replace(/^\[(.*)\]$/, "$1");
  if (host === "" || host.includes(",")) return { problem: `${PG_URL_RULE}, with one host` };
  const user = u.username === "" ? localUser : decodeURIComponent(u.username);
  const database = u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : user;
  if (/\s/.test(host) || /\s/.test(user) || /\s/.test(database) || database.includes("/")) return { problem: PG_URL_RULE };
  return {
    host,
    port: u.port === "" ? 5432 : Number(u.port),
    user,
    database,
    ...(u.password === "" ? {} : { password: decodeURIComponent(u.password) }),
    ...(sslmode === undefined ? {} : { sslmode }),
  };
}

/** libpq's variables for a connection beyond the ones pgbench.sh gets from the run's settings: the password and sslmode. */
export function pgSecretEnv(c: PgConnection): Record<string, string> {
  return { ...(c.password === undefined ? {} : { PGPASSWORD: c.password }), ...(c.sslmode === undefined ? {} : { PGSSLMODE: c.sslmode }) };
}

/** What `--pg`'s server says about itself, or why it cannot be reached. */
export interface PgServerFacts {
  readonly maxConnections: number;
  readonly serverVersion: string;
}

/**
 * Connects to `c` with psql (`-X -A -t -q`: no psqlrc, unaligned tuples only, quiet; `-v
 * ON_ERROR_STOP=1`), 10 s connect timeout, and reads `max_connections` and `server_version`.
 * Rejects with psql's own error.
 */
export function pgServerFacts(c: PgConnection, psql = "psql"): Promise<PgServerFacts> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...(process.env.HOME === undefined ? {} : { HOME: process.env.HOME }),
    PGHOST: c.host,
    PGPORT: String(c.port),
    PGUSER: c.user,
    PGDATABASE: c.database,
    PGCONNECT_TIMEOUT: "10",
    ...pgSecretEnv(c),
  };
  return new Promise((resolve, reject) => {
    execFile(
      psql,
      ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", "show max_connections", "-c", "show server_version"],
      { env, encoding: "utf8", timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error((stderr || err.message).trim()));
        const [max, version] = stdout.trim().split("\n");
        if (!/^[0-9]+$/.test(max ?? "") || version === undefined)
          return reject(new Error(`psql printed no max_connections and server_version: ${stdout.trim()}`));
        resolve({ maxConnections: Number(max), serverVersion: version.trim() });
      },
    );
  });
}
