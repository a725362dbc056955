/**
 * What the Pulumi CLI said when a command of the Automation API failed: its own `error:` lines and
 * the resource diagnostics, not the wrapper's `code: <n>` first line.
 *
 * Facts (node_modules/@pulumi/pulumi/automation, 3.248):
 * - `CommandError.message` is `CommandResult.toString()`: `code: <n>\n stdout: …\n stderr: …\n err?: …`
 *   (cmd.js `CommandResult.toString`); the `commandResult` property carries `stdout`, `stderr`,
 *   `code` and `err` (errors.js `CommandError`).
 * - cmd.js `exec` awaits an execa process that rejects on a non-zero exit; its catch wraps that
 *   rejection as `new CommandResult("", error.message, -2, error)`: so every failure reads `code: -2`,
 *   `stderr` holds execa's message (`Command failed with exit code 255: pulumi up …` then the CLI's
 *   stderr and stdout), and `err` is execa's error with the CLI's own `stderr` and `stdout`.
 *   Newer SDKs may fill `stdout`/`stderr`/`code` directly: both shapes are read.
 * - The CLI prints its own failures as `error: <message>` lines on stderr (pulumi/pulumi
 *   sdk/go/common/util/cmdutil `Exit`/`ExitError`: "error: " prefix); an update whose resources
 *   failed prints a `Diagnostics:` section on stdout, each resource as `  <type> (<name>):` followed
 *   by its indented `error:` lines, and a generic `error: update failed` under the stack resource
 *   (pkg/backend/display/diagnostics.go).
 */

/** The texts a failed command left: the CLI's stderr and stdout, as many shapes of the error carry them. */
function texts(e: unknown): string[] {
  const out: string[] = [];
  const push = (v: unknown) => {
    if (typeof v === "string" && v.trim() !== "") out.push(v);
  };
  const r = (e as { commandResult?: { stdout?: unknown; stderr?: unknown; err?: { stdout?: unknown; stderr?: unknown } } })?.commandResult;
  if (r) {
    push(r.err?.stderr);
    push(r.err?.stdout);
    push(r.stderr);
    push(r.stdout);
  } else push(e instanceof Error ? e.message : String(e));
  return out;
}

const GENERIC = /^error: (update failed|destroy failed|preview failed)$/;

/**
 * The CLI's error lines, in order, without repeats: `error: …` lines (stderr) and each
 * `Diagnostics:` error as `<type> (<name>): error: …` (stdout). Empty when the CLI printed none.
 */
export function pulumiErrorLines(e: unknown): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (l: string) => {
    if (!seen.has(l)) {
      seen.add(l);
      out.push(l);
    }
  };
  for (const text of texts(e)) {
    let resource: string | undefined;
    let inDiagnostics = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/\s+$/, "");
      if (/^Diagnostics:$/.test(line.trim())) {
        inDiagnostics = true;
        continue;
      }
      if (inDiagnostics && /^\S/.test(line) && !/^Diagnostics:/.test(line)) inDiagnostics = false;
      const head = /^ {2}(\S+ \(.+\)):$/.exec(line);
      if (inDiagnostics && head) {
        resource = head[1];
        continue;
      }
      const err = /^\s*(error: .+)$/.exec(line);
      if (!err) continue;
      const msg = err[1].trim();
      if (inDiagnostics && resource) add(`${resource}: ${msg}`);
      else add(msg);
    }
  }
  const specific = out.filter((l) => !GENERIC.test(l.replace(/^.*?: (?=error: )/, "")));
  return specific.length > 0 ? specific : out;
}

/** One line for a failure: the CLI's error lines joined by "; ", or the error's first line when the CLI printed none. */
export function pulumiError(e: unknown): string {
  const lines = pulumiErrorLines(e);
  if (lines.length > 0) return lines.join("; ");
  const t = texts(e)[0] ?? String(e);
  const first = t
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "" && !/^code: -?\d+$/.test(l));
  return first ?? t.trim();
}
