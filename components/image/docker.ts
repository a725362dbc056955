/**
 * This machine as components/image/rules.ts `dockerDaemon` looks at it: the environment, the home
 * directory, the file system, the CPU, and the Docker Engine API over HTTP (a unix socket or plain
 * TCP: node:http `socketPath`). The stacks check it before they build an image, `lab run` in its
 * preflight.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import { DockerProbe } from "./rules";

/** How long one Engine API request may take. */
export const DOCKER_API_TIMEOUT_MS = 5_000;

/** GET `path` from the Engine API at `host` (`unix:///…` or `tcp://host:port`). */
export function engineGet(host: string, path: string, timeoutMs = DOCKER_API_TIMEOUT_MS): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let target: http.RequestOptions;
    if (host.startsWith("unix://")) target = { socketPath: host.slice("unix://".length) };
    else {
      const u = new URL(host.replace(/^tcp:/, "http:"));
      target = { host: u.hostname, port: u.port === "" ? 2375 : Number(u.port) };
    }
    const req = http.request({ ...target, path, method: "GET", headers: { Host: "docker" }, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    req.end();
  });
}

export const LOCAL_DOCKER_PROBE: DockerProbe = {
  env: process.env,
  homeDir: os.homedir(),
  os: process.platform,
  arch: process.arch,
  exists: (f) => fs.existsSync(f),
  readFile: (f) => {
    try {
      return fs.readFileSync(f, "utf8");
    } catch {
      return undefined;
    }
  },
  get: (host, path) => engineGet(host, path),
};
