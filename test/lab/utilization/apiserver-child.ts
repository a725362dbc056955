/**
 * The stand-in API server (test/lab/experiment/apiserver.ts) in a process of its own, for
 * ./cluster-read.test.ts: the manifest's reads run `kubectl` synchronously (lab/utilization/manifest.ts),
 * which would block a server in the test's own process. Run with Node's tsx hook.
 *
 * argv: <options file>: JSON `{ tls: {key, cert}, grants: AccessGrant[], lists }` (./apiserver.ts
 * `ServeOptions`). Prints `URL <url>` once it listens; when its stdin closes, prints
 * `RESULT <json>` (the requests and the tokens minted) and exits.
 */
import * as fs from "node:fs";
import type { AccessGrant } from "../../../components/lib/rbac";
import { serveKubernetes, type ServeOptions } from "../experiment/apiserver";
import { World } from "../experiment/sim";

async function main(): Promise<void> {
  const options = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as ServeOptions & { grants: AccessGrant[] };
  const api = await serveKubernetes(new World(), Date.now, options.grants, { tls: options.tls, lists: options.lists });
  process.stdout.write(`URL ${api.url}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    process.stdout.write(`RESULT ${JSON.stringify({ requests: api.requests, tokens: api.tokens })}\n`);
    void api.close().then(() => process.exit(0));
  });
}

void main();
