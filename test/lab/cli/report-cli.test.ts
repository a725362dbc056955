/** `lab report`: runReport, the function the CLI calls, on results directories laid out as `lab results save` writes them. */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ToolOutputError } from "../../../core/errors";
import { manifestMetadata, type Manifest } from "../../../core/manifest";
import type { Sample } from "../../../core/sample";
import { UsageError } from "../../../lab/cli/errors";
import { cliProgram } from "../../../lab/cli/main";
import { DEFAULT_REPORT_DIR, parseFormats, runReport } from "../../../lab/cli/report";
import { renderMarkdown } from "../../../lab/report/markdown";
import { cephSet, fsxSet, writeInputs } from "../report/samples";

const ROOT = path.resolve(__dirname, "..", "..", "..");

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "lab-report-cli-"));
  writeInputs(work, [...cephSet(), ...fsxSet()]);
});
afterEach(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const CHARTS = [
  "ceph-nitro--pgbench.latency.mean.svg",
  "ceph-nitro--pgbench.tps.svg",
  "ceph-nitro--ratios.svg",
  "fsx-eks--fio.read.bandwidth.svg",
  "fsx-eks--fio.read.iops.svg",
  "fsx-eks--fio.write.bandwidth.svg",
  "fsx-eks--fio.write.iops.svg",
  "fsx-eks--ratios.svg",
];

// 12 + 8 pgbench samples (dev, nitro), 13 + 13 fio samples (same, cross zone); 4 pgbench and 5 fio
// metrics with 2 rows each; Nitro / Xen for TPS and latency, cross / same for 4 fio metrics, none
// showing a difference (3 / 3 and 2 / 3 repetitions whose ranges overlap); published: 2 + 2 IOPS,
// 1 + 1 bandwidth (the Ceph figures have no publication a reader can open).
const SUMMARY = [
  "46 samples from 4 files (4 runs of 3 stacks): 2 experiments, 9 metric tables, 18 rows.",
  "6 ratios, 0 showing a difference; headline: Nitro / Xen pgbench.tps: no difference shown (1.734, 0.4052–3.431, min–max of the 2 × 3 repetition ratios; n < 8 a side: not a confidence interval; published 1.433).",
  // 6 FSx figures, and the Ceph TPS and mean latency of both sides (the six published runs' means).
  "10 published figures beside ours; nothing left incomparable.",
];

describe("lab report", () => {
  it("writes report.md, report.html and one SVG per comparison, and prints where and a three-line summary", async () => {
    const r = await runReport({ dirs: ["results"], cwd: work });
    const out = path.join(work, "results", "report");
    expect(r.outDir).toBe(out);
    expect(r.text).toBe(["Wrote results/report: report.md, report.html, 8 charts in charts/", ...SUMMARY, ""].join("\n"));
    expect(fs.readdirSync(out).sort()).toEqual(["charts", "report.html", "report.md"]);
    expect(fs.readdirSync(path.join(out, "charts")).sort()).toEqual(CHARTS);
    expect(r.files.map((f) => path.relative(out, f)).sort()).toEqual(
      ["report.html", "report.md", ...CHARTS.map((c) => `charts/${c}`)].sort(),
    );
    const md = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(md).toBe(renderMarkdown(r.model, { charts: true }));
    expect(md).toContain("- `results/dev/r1/samples.json`: 12 samples");
    for (const c of CHARTS) expect(md).toContain(`](charts/${c})`);
    const html = fs.readFileSync(path.join(out, "report.html"), "utf8");
    for (const c of CHARTS) expect(html).toContain(fs.readFileSync(path.join(out, "charts", c), "utf8"));
  });

  it("--format md writes the Markdown alone, without chart links; --format svg,html no Markdown", async () => {
    const md = await runReport({ dirs: ["results"], out: "only-md", format: "md", cwd: work });
    expect(md.text.split("\n")[0]).toBe("Wrote only-md: report.md");
    expect(fs.readdirSync(path.join(work, "only-md"))).toEqual(["report.md"]);
    expect(fs.readFileSync(path.join(work, "only-md", "report.md"), "utf8")).not.toContain("charts/");
    const other = await runReport({ dirs: ["results"], out: "pictures", format: "svg,html", cwd: work });
    expect(other.text.split("\n")[0]).toBe("Wrote pictures: report.html, 8 charts in charts/");
    expect(fs.readdirSync(path.join(work, "pictures")).sort()).toEqual(["charts", "report.html"]);
  });

  it("an earlier report's charts do not linger in charts/", async () => {
    const charts = path.join(work, "results", "report", "charts");
    fs.mkdirSync(charts, { recursive: true });
    fs.writeFileSync(path.join(charts, "runs--old.metric.svg"), "<svg/>");
    fs.writeFileSync(path.join(charts, "notes.txt"), "mine");
    await runReport({ dirs: ["results"], cwd: work });
    expect(fs.readdirSync(charts).sort()).toEqual([...CHARTS, "notes.txt"].sort());
  });

  it("--baseline STACK adds no ratio a built-in comparison gives already, and must name a stack that was read", async () => {
    const r = await runReport({ dirs: ["results"], out: "b", baseline: "dev", cwd: work });
    expect(r.model.baseline).toBe("dev");
    expect(r.text.split("\n").slice(1, 4)).toEqual(SUMMARY);
    await expect(runReport({ dirs: ["results"], baseline: "nope", cwd: work })).rejects.toThrow(
      new UsageError(`'--baseline' must be a stack or named local run of the samples read (dev, fsx-eks, nitro), got "nope"`),
    );
  });

  it("usage errors name what is wrong", async () => {
    await expect(runReport({ dirs: ["results"], format: "md,pdf", cwd: work })).rejects.toThrow(
      new UsageError(`'--format' must be a comma-separated list of md, html, svg, got "md,pdf"`),
    );
    await expect(runReport({ dirs: [], cwd: work })).rejects.toThrow(
      new UsageError("lab report needs at least one directory of results (e.g. results/)"),
    );
    await expect(runReport({ dirs: ["nope"], cwd: work })).rejects.toThrow(
      new UsageError(`'<dir>' must be a readable directory (no such file or directory), got "nope"`),
    );
    fs.mkdirSync(path.join(work, "empty"));
    await expect(runReport({ dirs: ["empty"], cwd: work })).rejects.toThrow(
      new UsageError(`no samples.json below ${path.join(work, "empty")}: \`lab results save\` writes results/<stack>/<runId>/samples.json`),
    );
    expect([...parseFormats("html, md")]).toEqual(["html", "md"]);
    expect(fs.existsSync(path.join(work, "results", "report"))).toBe(false);
  });

  it("a malformed samples.json is an error naming the file, and nothing is written", async () => {
    const file = path.join(work, "results", "nitro", "r1", "samples.json");
    // Cut short after its first character, as by a full disk.
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").slice(0, 1));
    await expect(runReport({ dirs: ["results"], cwd: work })).rejects.toThrow(
      new ToolOutputError(file, "not JSON (Unexpected end of JSON input)"),
    );
    expect(fs.existsSync(path.join(work, "results", "report"))).toBe(false);
  });

  it("runs as the CLI runs it: under tsx, from the working directory, paths as typed", () => {
    const script = `require("tsx/cjs"); require(${JSON.stringify(path.join(ROOT, "lab", "cli", "report.ts"))}).runReport({ dirs: ["results/"], out: "out" }).then((r) => process.stdout.write(r.text), (e) => { process.stderr.write(e.message + "\\n"); process.exit(1); });`;
    const r = spawnSync(process.execPath, ["-e", script], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, NODE_PATH: path.join(ROOT, "node_modules") },
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(["Wrote out: report.md, report.html, 8 charts in charts/", ...SUMMARY, ""].join("\n"));
    expect(fs.readFileSync(path.join(work, "out", "report.md"), "utf8")).toContain("- `results/dev/r1/samples.json`: 12 samples");
  });
});

describe("lab report as a user runs it, in a checkout", () => {
  const git = (...args: string[]) => spawnSync("git", ["-C", work, ...args], { encoding: "utf8" });
  const lab = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, "bin", "lab.js"), ...args], { cwd: work, encoding: "utf8" });
  beforeEach(() => {
    // a clone: the project's .gitignore committed, the saved runs in results/
    fs.copyFileSync(path.join(ROOT, ".gitignore"), path.join(work, ".gitignore"));
    expect(git("init", "-q").status).toBe(0);
    expect(git("add", ".gitignore").status).toBe(0);
    expect(git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "clone").status).toBe(0);
  });

  it("writes under the ignored results/ by default: git status stays empty, so later runs are not dirty", () => {
    expect(
      cliProgram()
        .commands.find((c) => c.name() === "report")
        ?.options.find((o) => o.long === "--out")?.defaultValue,
    ).toBe(DEFAULT_REPORT_DIR);
    const r = lab("report", "results/");
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout.split("\n")[0]).toBe("Wrote results/report: report.md, report.html, 8 charts in charts/");
    expect(fs.existsSync(path.join(work, "results", "report", "report.html"))).toBe(true);
    expect(git("status", "--short", "--untracked-files=all").stdout).toBe("");
    // and a second report over the same runs (its own output below results/ now) reads the same samples
    const again = lab("report", "results/");
    expect([again.status, again.stdout]).toEqual([0, r.stdout]);
  });

  it("runs with different manifests: refused with exit 2 (docs/cli.md: refused before anything ran), nothing written", () => {
    // as lab results save writes a run with its manifest: in every sample's metadata (lab/results/files.ts)
    const stamp = (run: string, commit: string) => {
      const file = path.join(work, "results", run, "samples.json");
      const m: Manifest = {
        schema: 1,
        git: { commit, dirty: false },
        versions: {},
        region: "eu-west-1",
        stacks: {},
        command: "lab run ceph-nitro",
        createdAt: "2026-12-03T00:00:00.000Z",
      };
      const samples = (JSON.parse(fs.readFileSync(file, "utf8")) as Sample[]).map((x) => ({
        ...x,
        metadata: { ...x.metadata, ...manifestMetadata(m) },
      }));
      fs.writeFileSync(file, JSON.stringify(samples));
    };
    stamp("dev/r1", "a".repeat(40));
    stamp("nitro/r1", "b".repeat(40));
    const r = lab("report", "results/");
    expect(r.status).toBe(2);
    expect(r.stderr.split("\n").slice(0, 2)).toEqual([
      "refusing to put runs with different manifests side by side (lab report --force puts them together and lists the differences):",
      "  nitro/r1 differs from dev/r1 (experiment ceph-nitro): git.commit bbbbbbbbbbbb vs aaaaaaaaaaaa",
    ]);
    expect(fs.existsSync(path.join(work, "results", "report"))).toBe(false);
    expect(lab("report", "results/", "--force").status).toBe(0);
  });
});
