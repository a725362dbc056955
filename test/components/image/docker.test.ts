/**
 * components/image/rules.ts `dockerDaemon` (is there a Docker daemon that answers and can build the
 * image's platform?) through the real Engine API client of components/image/docker.ts against a
 * stand-in daemon: a local HTTP server on a unix socket that answers `GET /_ping`, `/version` and
 * `/info` as the Docker Engine API does (the fields the check reads, with the Engine API's names),
 * and a socket nobody listens on. `dockerEndpoint`: how the Docker client picks the daemon.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { engineGet, LOCAL_DOCKER_PROBE } from "../../../components/image/docker";
import {
  DockerProbe,
  dockerDaemon,
  dockerEndpoint,
  INSTALL_DOCKER,
  NO_DOCKER_RULE,
  cannotBuildRule,
} from "../../../components/image/rules";

interface Daemon {
  os?: string;
  arch?: string;
  operatingSystem?: string;
  pingStatus?: number;
}

let dir: string;
const servers: http.Server[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-docker-"));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in Docker daemon on a unix socket; the requests it saw. */
async function daemon(name: string, d: Daemon): Promise<{ socket: string; seen: string[] }> {
  const socket = path.join(dir, `${name}.sock`);
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const json = (o: object) => {
      res.writeHead(200, { "Content-Type": "application/json", "Api-Version": "1.51" });
      res.end(JSON.stringify(o));
    };
    if (req.url === "/_ping") {
      res.writeHead(d.pingStatus ?? 200, { "Content-Type": "text/plain; charset=utf-8", "Api-Version": "1.51" });
      res.end(d.pingStatus && d.pingStatus !== 200 ? "Internal Server Error" : "OK");
    } else if (req.url === "/version")
      json({
        Version: "28.5.1",
        ApiVersion: "1.51",
        MinAPIVersion: "1.24",
        Os: d.os ?? "linux",
        Arch: d.arch ?? "amd64",
        KernelVersion: "6.12.48",
      });
    else if (req.url === "/info")
      json({ OperatingSystem: d.operatingSystem ?? "Debian GNU/Linux 13 (trixie)", OSType: d.os ?? "linux", Architecture: "x86_64" });
    else {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end('{"message":"page not found"}');
    }
  });
  await new Promise<void>((r) => server.listen(socket, r));
  servers.push(server);
  return { socket, seen };
}

const probe = (over: Partial<DockerProbe> = {}, files: Record<string, string> = {}): DockerProbe => ({
  ...LOCAL_DOCKER_PROBE,
  env: {},
  homeDir: "/home/alice",
  os: "linux",
  arch: "x64",
  exists: (f) => Object.prototype.hasOwnProperty.call(files, f),
  readFile: (f) => files[f],
  ...over,
});

describe("dockerDaemon against a stand-in Engine API on a unix socket", () => {
  test("an amd64 Linux daemon: it answers and builds linux/amd64 natively; the client asked /_ping, /version, /info", async () => {
    const d = await daemon("amd64", {});
    const c = await dockerDaemon(probe({ env: { DOCKER_HOST: `unix://${d.socket}` } }));
    expect(c).toEqual({ ok: true, endpoint: { host: `unix://${d.socket}`, via: "DOCKER_HOST" }, daemonPlatform: "linux/amd64" });
    expect(d.seen).toEqual(["GET /_ping", "GET /version", "GET /info"]);
  });

  test("an arm64 Linux daemon on this machine: refused without a QEMU binfmt handler for x86_64, saying what to install", async () => {
    const d = await daemon("arm64", { arch: "arm64" });
    const p = probe({ env: { DOCKER_HOST: `unix://${d.socket}` }, arch: "arm64" });
    expect(await dockerDaemon(p)).toEqual({
      ok: false,
      endpoint: { host: `unix://${d.socket}`, via: "DOCKER_HOST" },
      problem: `the Docker daemon at unix://${d.socket} (DOCKER_HOST) runs linux/arm64 (this machine is linux/arm64) and cannot build linux/amd64: no enabled binfmt_misc handler for amd64 (/proc/sys/fs/binfmt_misc/qemu-x86_64 or /proc/sys/fs/binfmt_misc/rosetta): install QEMU's (docker run --privileged --rm tonistiigi/binfmt --install amd64, or apt-get install qemu-user-static binfmt-support), or give the image instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka) and remove it from lab:images`,
    });
    // A registered but disabled handler does not count; an enabled one does (the kernel's format: "enabled" first).
    const disabled = { "/proc/sys/fs/binfmt_misc/qemu-x86_64": "disabled\ninterpreter /usr/bin/qemu-x86_64-static\nflags: F\n" };
    expect((await dockerDaemon({ ...p, readFile: (f) => disabled[f as keyof typeof disabled] })).ok).toBe(false);
    const enabled = { "/proc/sys/fs/binfmt_misc/qemu-x86_64": "enabled\ninterpreter /usr/bin/qemu-x86_64-static\nflags: F\noffset 0\n" };
    expect(await dockerDaemon({ ...p, readFile: (f) => enabled[f as keyof typeof enabled] })).toEqual({
      ok: true,
      endpoint: { host: `unix://${d.socket}`, via: "DOCKER_HOST" },
      daemonPlatform: "linux/arm64",
      note: "linux/amd64 under emulation (binfmt_misc qemu-x86_64)",
    });
  });

  test("Docker Desktop on an arm64 Mac: its own emulation builds amd64", async () => {
    const d = await daemon("desktop", { arch: "arm64", operatingSystem: "Docker Desktop" });
    expect(await dockerDaemon(probe({ env: { DOCKER_HOST: `unix://${d.socket}` }, os: "darwin", arch: "arm64" }))).toMatchObject({
      ok: true,
      daemonPlatform: "linux/arm64",
      note: "Docker Desktop builds linux/amd64 under its own emulation",
    });
  });

  test("a Windows daemon cannot build a Linux image", async () => {
    const d = await daemon("windows", { os: "windows" });
    expect(await dockerDaemon(probe({ env: { DOCKER_HOST: `unix://${d.socket}` } }))).toMatchObject({
      ok: false,
      problem: `the Docker daemon at unix://${d.socket} (DOCKER_HOST) runs windows/amd64 and cannot build linux/amd64: use a Linux daemon, or give the image instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka) and remove it from lab:images`,
    });
  });

  test("a daemon whose /_ping fails", async () => {
    const d = await daemon("sick", { pingStatus: 500 });
    expect(await dockerDaemon(probe({ env: { DOCKER_HOST: `unix://${d.socket}` } }))).toMatchObject({
      ok: false,
      problem: `the Docker daemon at unix://${d.socket} (DOCKER_HOST) answered GET /_ping with 500 "Internal Server Error", not 200 "OK": ${INSTALL_DOCKER}`,
    });
  });

  test("a socket file nobody listens on (a stopped daemon) and a missing socket: does not answer, with the socket's error", async () => {
    const stale = path.join(dir, "stale.sock");
    const s = http.createServer();
    await new Promise<void>((r) => s.listen(stale, r));
    await new Promise((r) => s.close(r));
    fs.writeFileSync(stale, ""); // the file stays behind, as a dead daemon's socket does
    const r = await dockerDaemon(probe({}, { "/var/run/docker.sock": "" }));
    expect(r).toMatchObject({ ok: false, endpoint: { host: "unix:///var/run/docker.sock", via: "default socket" } });
    expect((r as { problem: string }).problem).toMatch(
      /^the Docker daemon at unix:\/\/\/var\/run\/docker\.sock \(default socket\) does not answer \(connect (ENOENT|ECONNREFUSED) \/var\/run\/docker\.sock\): start it \(e\.g\. sudo systemctl start docker\), or install and start Docker Engine/,
    );
    const r2 = await dockerDaemon(probe({ env: { DOCKER_HOST: `unix://${stale}` } }));
    expect((r2 as { problem: string }).problem).toMatch(
      new RegExp(`does not answer \\(connect (ECONNREFUSED|ENOTSOCK) ${stale.replace(/[.]/g, "\\.")}\\)`),
    );
  });

  test("permission denied on the socket: join the docker group", async () => {
    const p = probe({
      env: { DOCKER_HOST: "unix:///var/run/docker.sock" },
      get: () => Promise.reject(Object.assign(new Error("connect EACCES /var/run/docker.sock"), { code: "EACCES" })),
    });
    expect(await dockerDaemon(p)).toMatchObject({
      ok: false,
      problem: `the Docker daemon at unix:///var/run/docker.sock (DOCKER_HOST) refuses this user (connect EACCES /var/run/docker.sock): add the user to the docker group (sudo usermod -aG docker "$USER", then log in again), or ${INSTALL_DOCKER}`,
    });
  });

  test("no daemon at all; endpoints it cannot probe are noted, not refused", async () => {
    expect(await dockerDaemon(probe())).toEqual({
      ok: false,
      problem: `no Docker daemon on this machine (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): ${INSTALL_DOCKER}`,
    });
    expect(await dockerDaemon(probe({ env: { DOCKER_HOST: "ssh://builder@10.0.0.5" } }))).toMatchObject({
      ok: true,
      note: "the Docker daemon at ssh://builder@10.0.0.5 (DOCKER_HOST) was not probed (only unix:// and plain tcp:// endpoints are); the build will tell",
    });
    expect(cannotBuildRule("x")).toBe("empty when this machine cannot build the images: x");
  });

  test("engineGet over TCP as well", async () => {
    const server = http.createServer((_q, res) => res.end("OK"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    const port = (server.address() as { port: number }).port;
    expect(await engineGet(`tcp://127.0.0.1:${port}`, "/_ping")).toEqual({ status: 200, body: "OK" });
  });
});

describe("dockerEndpoint: how the Docker client picks the daemon", () => {
  const meta = (name: string) => `/home/alice/.docker/contexts/meta/${createHash("sha256").update(name).digest("hex")}/meta.json`;
  test.each<[string, Partial<DockerProbe>, Record<string, string>, ReturnType<typeof dockerEndpoint>]>([
    ["DOCKER_HOST wins", { env: { DOCKER_HOST: "tcp://10.0.0.5:2376" } }, {}, { host: "tcp://10.0.0.5:2376", via: "DOCKER_HOST" }],
    [
      "a selected docker context: its endpoint from the context store",
      {},
      {
        "/home/alice/.docker/config.json": '{"currentContext":"colima"}',
        [meta("colima")]:
          '{"Name":"colima","Metadata":{},"Endpoints":{"docker":{"Host":"unix:///home/alice/.colima/default/docker.sock","SkipTLSVerify":false}}}',
      },
      { host: "unix:///home/alice/.colima/default/docker.sock", via: "docker context colima" },
    ],
    [
      "DOCKER_CONFIG moves the config; a context without its metadata says so",
      { env: { DOCKER_CONFIG: "/etc/dock" } },
      { "/etc/dock/config.json": '{"currentContext":"remote"}' },
      {
        host: `(context remote: no endpoint in /etc/dock/contexts/meta/${createHash("sha256").update("remote").digest("hex")}/meta.json)`,
        via: "docker context remote",
      },
    ],
    [
      "DOCKER_CONTEXT overrides the config's current context",
      { env: { DOCKER_CONTEXT: "colima" } },
      {
        "/home/alice/.docker/config.json": '{"currentContext":"default"}',
        [meta("colima")]: '{"Name":"colima","Endpoints":{"docker":{"Host":"unix:///home/alice/.colima/default/docker.sock"}}}',
        "/var/run/docker.sock": "",
      },
      { host: "unix:///home/alice/.colima/default/docker.sock", via: "docker context colima" },
    ],
    [
      "the default context falls through to the socket",
      {},
      { "/home/alice/.docker/config.json": '{"currentContext":"default"}', "/var/run/docker.sock": "" },
      { host: "unix:///var/run/docker.sock", via: "default socket" },
    ],
    [
      "Docker Desktop's user socket",
      {},
      { "/home/alice/.docker/run/docker.sock": "" },
      { host: "unix:///home/alice/.docker/run/docker.sock", via: "default socket" },
    ],
    ["a malformed config.json is not a context", {}, { "/home/alice/.docker/config.json": "{" }, undefined],
    ["nothing at all", {}, {}, undefined],
  ])("%s", (_n, over, files, expected) => {
    expect(dockerEndpoint(probe(over, files))).toEqual(expected);
  });

  test("a selected context without an endpoint fails the daemon check, naming the context", async () => {
    const check = await dockerDaemon(probe({ env: { DOCKER_CONTEXT: "gone" } }, {}));
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.problem).toBe(
      `docker context gone has no Docker endpoint in /home/alice/.docker/contexts/meta/${createHash("sha256").update("gone").digest("hex")}/meta.json: select another one (docker context use default), or ${INSTALL_DOCKER}`,
    );
  });

  test("the rule lab:images is reported with tells what to do; INSTALL_DOCKER says how to do without Docker", () => {
    expect(NO_DOCKER_RULE).toBe(
      "empty when this machine has no Docker daemon to build the images (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build them elsewhere, push them and give their references to the stacks that run them instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka)",
    );
    expect(INSTALL_DOCKER).toBe(
      "install and start Docker Engine (https://docs.docker.com/engine/install/), or build the image elsewhere, push it, remove it from the eks stack's lab:images and set its reference as lab:toolsImage (fsx-eks) or lab:ombImage (kafka)",
    );
  });
});
