/**
 * pgbench text output → samples (docs/samples.md).
 *
 * Reads the summary pgbench prints after a run, in both layouts:
 *
 * - PostgreSQL 14 and later: a `pgbench (15.18 ...)` banner, then `tps = X (without initial
 *   connection time)`; since 15 also `maximum number of tries` and `number of failed
 *   transactions`, and `latency average = X ms (including failures)` when some failed.
 * - before 14: no banner, `tps = X (including connections establishing)` followed by
 *   `tps = X (excluding connections establishing)`; 9.x wrote `latency average: X ms`.
 *
 * | metric                   | unit  | line                                                      |
 * |--------------------------|-------|-----------------------------------------------------------|
 * | `pgbench.tps`            | txn/s | `tps = X (without initial connection time)`, before 14 `(excluding connections establishing)`; under `-C` `(including reconnection times)`, the only figure pgbench prints then |
 * | `pgbench.latency.mean`   | ms    | `latency average = X ms`                                  |
 * | `pgbench.latency.stddev` | ms    | `latency stddev = X ms` (printed with -P, -R or -L only)  |
 * | `pgbench.transactions`   | count | `number of transactions actually processed: N[/M]`        |
 * | `pgbench.failed`         | count | `number of failed transactions: N (x%)` (pgbench 15+)     |
 * | `pgbench.statement.latency`  | ms    | each line of the per-statement block (`-r`, `--report-latencies`) |
 * | `pgbench.statement.failures` | count | its failures column (pgbench 15+)                      |
 * | `pgbench.statement.retries`  | count | its retries column (pgbench 15+ with `--max-tries` > 1)  |
 *
 * The per-statement block, in the layouts pgbench prints it (one statement a line, the average
 * latency first, then the counts the header names, then the statement as the script has it):
 * - 15 and later: `statement latencies in milliseconds and failures:` (one count), or
 *   `statement latencies in milliseconds, failures and retries:` (two) when `--max-tries` > 1;
 * - 14: `statement latencies in milliseconds:`, the latency alone (the layout of the published
 *   Ceph runs, koor-tech/experiment-ceph-on-nitro results/*.pgbench.output);
 * - 9.6 to 13: the same, or ` - statement latencies in milliseconds:` under `script statistics:`;
 *   9.5 and older wrote six decimals.
 * Each statement sample carries `statement` (its text) and `statementIndex` (1-based, script
 * order), and `script` (1-based) when the run had more than one script. A header with no
 * statement line under it is an error: the block was cut off.
 *
 * Only what the output states is emitted: pgbench before 15 has no failure accounting (a
 * failing client aborts), so its output yields no `pgbench.failed` sample rather than a 0 it
 * never reported; likewise no stddev sample when pgbench printed none.
 *
 * Metadata: `tool`, `toolVersion` ("pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)", the
 * form `pgbench --version` prints; only from 14, which prints the banner), `serverVersion` when
 * it differs from the client's, `transactionType` ("<builtin: TPC-B (sort of)>" or the script),
 * `scale`, `queryMode`, `clients`, `threads`, `maxTries` (15+), `durationSeconds` (-T) or
 * `transactionsPerClient` (-t), `tpsMeasure` (the parenthesised tps qualifier), and on the
 * latency sample `latencyIncludesFailures` when pgbench says so.
 */
import { ToolOutputError } from "../errors";
import type { Sample, SampleMetadata } from "../sample";
import { normaliseText, requireNonEmpty } from "./common";

/** The tps qualifiers pgbench prints, in the order of preference for `pgbench.tps`. */
const TPS_MEASURES = ["without initial connection time", "excluding connections establishing", "including reconnection times"] as const;

const LINES = {
  banner: /^pgbench \((.*)\)$/,
  transactionType: /^transaction type: (.+)$/,
  scale: /^scaling factor: (\d+)$/,
  queryMode: /^query mode: (\S+)$/,
  clients: /^number of clients: (\d+)$/,
  threads: /^number of threads: (\d+)$/,
  maxTries: /^maximum number of tries: (\d+)$/,
  duration: /^duration: (\d+) s$/,
  perClient: /^number of transactions per client: (\d+)$/,
  processed: /^number of transactions actually processed: (\d+)(?:\/\d+)?$/,
  failed: /^number of failed transactions: (\d+) \(/,
  latencyMean: /^latency average(?: =|:) (\d+(?:\.\d+)?) ms( \(including failures\))?$/,
  latencyStddev: /^latency stddev(?: =|:) (\d+(?:\.\d+)?) ms$/,
  tps: /^tps = (\d+(?:\.\d+)?) \(([^)]*)\)$/,
} as const;

/** Per-statement block headers → the counts after the latency on each line. */
const STATEMENT_HEADER = /^(?: - )?statement latencies in milliseconds( and failures|, failures and retries)?:$/;
const STATEMENT_LINE = /^\s+(\d+\.\d+)((?:\s+\d+)*)\s+(\S.*)$/;

interface StatementBlock {
  readonly counts: readonly ("failures" | "retries")[];
  readonly statements: { latency: number; counts: number[]; text: string }[];
}

type LineKey = keyof typeof LINES;

/**
 * Parses pgbench's text output (stdout, or stdout and stderr together) into samples; throws a
 * {@link ToolOutputError} naming `file` and what is missing otherwise.
 */
export function parsePgbench(text: string, file: string): Sample[] {
  const body = normaliseText(text);
  requireNonEmpty(body, file, "pgbench output");
  const found = new Map<LineKey, RegExpExecArray>();
  const tps = new Map<string, number>();
  let runs = 0;

  const blocks: StatementBlock[] = [];
  let block: StatementBlock | undefined;
  for (const raw of body.split("\n")) {
    const line = raw.trimEnd();
    const header = STATEMENT_HEADER.exec(line);
    if (header) {
      block = {
        counts: header[1] === undefined ? [] : header[1] === " and failures" ? ["failures"] : ["failures", "retries"],
        statements: [],
      };
      blocks.push(block);
      continue;
    }
    if (block) {
      const st = STATEMENT_LINE.exec(raw);
      const counts = st
        ? st[2]
            .trim()
            .split(/\s+/)
            .filter((x) => x !== "")
            .map(Number)
        : [];
      if (st && counts.length === block.counts.length) {
        block.statements.push({ latency: Number(st[1]), counts, text: st[3] });
        continue;
      }
      block = undefined;
    }
    for (const key of Object.keys(LINES) as LineKey[]) {
      const m = LINES[key].exec(line);
      if (!m) continue;
      if (key === "transactionType") runs++;
      if (key === "tps") tps.set(m[2], Number(m[1]));
      else if (!found.has(key)) found.set(key, m);
      break;
    }
  }

  if (runs === 0) throw new ToolOutputError(file, "not pgbench output: no 'transaction type:' line");
  if (runs > 1) throw new ToolOutputError(file, `holds ${runs} pgbench runs ('transaction type:' lines); give one run a file`);
  const measure = TPS_MEASURES.find((m) => tps.has(m));
  const required: [LineKey, string][] = [
    ["scale", "'scaling factor:'"],
    ["queryMode", "'query mode:'"],
    ["clients", "'number of clients:'"],
    ["threads", "'number of threads:'"],
    ["processed", "'number of transactions actually processed:'"],
  ];
  const missing = required.filter(([key]) => !found.has(key)).map(([, line]) => line);
  if (measure === undefined) {
    missing.push("'tps = X (without initial connection time)' (before 14: '(excluding connections establishing)')");
  }
  if (missing.length > 0) {
    throw new ToolOutputError(file, `pgbench output is incomplete: missing ${missing.join(", ")} line${missing.length > 1 ? "s" : ""}`);
  }

  const get = (key: LineKey): string => (found.get(key) as RegExpExecArray)[1];
  const meta: SampleMetadata = { tool: "pgbench" };
  const banner = found.get("banner");
  if (banner) {
    const inner = banner[1];
    const server = inner.lastIndexOf(", server ");
    meta.toolVersion = `pgbench (PostgreSQL) ${server >= 0 ? inner.slice(0, server) : inner}`;
    if (server >= 0) meta.serverVersion = inner.slice(server + ", server ".length);
  }
  meta.transactionType = get("transactionType");
  meta.scale = Number(get("scale"));
  meta.queryMode = get("queryMode");
  meta.clients = Number(get("clients"));
  meta.threads = Number(get("threads"));
  if (found.has("maxTries")) meta.maxTries = Number(get("maxTries"));
  if (found.has("duration")) meta.durationSeconds = Number(get("duration"));
  if (found.has("perClient")) meta.transactionsPerClient = Number(get("perClient"));
  meta.tpsMeasure = measure as string;

  const samples: Sample[] = [];
  const add = (metric: string, value: number, unit: string, extra: Partial<SampleMetadata> = {}): void => {
    samples.push({ metric, value, unit, metadata: { ...meta, ...extra } as SampleMetadata });
  };
  add("pgbench.tps", tps.get(measure as string) as number, "txn/s");
  const latency = found.get("latencyMean");
  if (latency) add("pgbench.latency.mean", Number(latency[1]), "ms", latency[2] ? { latencyIncludesFailures: true } : {});
  if (found.has("latencyStddev")) add("pgbench.latency.stddev", Number(get("latencyStddev")), "ms");
  add("pgbench.transactions", Number(get("processed")), "count");
  if (found.has("failed")) add("pgbench.failed", Number(get("failed")), "count");
  blocks.forEach((b, i) => {
    if (b.statements.length === 0)
      throw new ToolOutputError(
        file,
        "pgbench output is incomplete: a 'statement latencies in milliseconds' header with no statement line under it",
      );
    b.statements.forEach((st, j) => {
      const at = { statement: st.text, statementIndex: j + 1, ...(blocks.length > 1 ? { script: i + 1 } : {}) };
      add("pgbench.statement.latency", st.latency, "ms", at);
      b.counts.forEach((what, k) => add(`pgbench.statement.${what}`, st.counts[k], "count", at));
    });
  });
  return samples;
}
