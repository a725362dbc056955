/**
 * `lab util` (lab/utilization/run.ts, lab/cli/utilization.ts) on a run directory saved with its manifest: the
 * repetitions' windows from the samples, CloudWatch (a fake) asked for the manifest's resources,
 * the node sampler's samples from samples.json, each repetition's limit line, utilization.json.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { GetMetricDataCommandInput } from "@aws-sdk/client-cloudwatch";
import { manifestMetadata, type Manifest } from "../../../core/manifest";
import type { Sample } from "../../../core/sample";
import { writeRunResults } from "../../../lab/results/files";
import { runUtil } from "../../../lab/cli/utilization";
import type { CloudWatchApi } from "../../../lab/utilization/cloudwatch";
import { readUtilizationFile, UTILIZATION_FILE } from "../../../lab/utilization/files";
import type { ManifestFile } from "../../../lab/utilization/manifest";
import { repetitionWindows, utilizeRunDir } from "../../../lab/utilization/run";
import { loadInputs } from "../../../lab/report/load";
import { buildModel } from "../../../lab/report/model";
import { limitNotes } from "../../../lab/report/utilization";

const MANIFEST: Manifest = {
  schema: 1,
  git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
  versions: { K0S_VERSION: "v1.36.3+k0s.2" },
  region: "eu-west-1",
  stacks: {
    nitro: {
      kind: "ceph-k0s",
      configHash: "c".repeat(64),
      azs: ["eu-west-1a"],
      azIds: ["euw1-az1"],
      amiIds: ["ami-1"],
      instanceTypes: ["m5.xlarge"],
      images: [],
    },
  },
  command: "lab results save --stack organization/storage-bench-lab/nitro",
  createdAt: "2026-01-15T11:00:00.000Z",
};
const FILE: ManifestFile = {
  schema: 1,
  manifest: MANIFEST,
  configs: { nitro: { "lab:instanceType": "m5.xlarge" } },
  resources: [
    {
      kind: "ebs",
      resource: "osd-2",
      volumeId: "vol-2",
      volumeType: "gp3",
      iops: 3000,
      throughputMiBps: 125,
      instanceId: "i-2",
      instanceType: "m5.xlarge",
      hypervisor: "nitro",
    },
  ],
};
const REPS = [
  { rep: 1, repStart: "2026-01-15T10:00:00Z", repEnd: "2026-01-15T10:05:00Z" },
  { rep: 2, repStart: "2026-01-15T10:05:10Z", repEnd: "2026-01-15T10:10:10Z" },
];
const tps = (r: (typeof REPS)[number], value: number): Sample => ({
  metric: "pgbench.tps",
  value,
  unit: "txn/s",
  metadata: { tool: "pgbench", scenario: "ceph-nitro", stack: "nitro", runId: "r1", clients: 20, ...r },
});
const busy = (r: (typeof REPS)[number], mean: number): Sample => ({
  metric: "util.node.cpuBusy",
  value: mean,
  unit: "%",
  metadata: {
    tool: "pgbench",
    scenario: "ceph-nitro",
    stack: "nitro",
    runId: "r1",
    clients: 20,
    ...r,
    utilSource: "node-sampler",
    resource: "node",
    max: mean + 10,
    limit: 100,
    limitLabel: "node CPU busy",
  },
});

/** CloudWatch answering osd-2's reads and writes: 2980 IOPS in repetition 1's minutes, 300 in repetition 2's. */
function fake() {
  const gets: GetMetricDataCommandInput[] = [];
  const api: CloudWatchApi = {
    async getMetricData(input) {
      gets.push(input);
      const minutes = (Number(input.EndTime) - Number(input.StartTime)) / 60000;
      const rep1 = Number(input.StartTime) < Date.parse("2026-01-15T10:05:00Z");
      return {
        MetricDataResults: (input.MetricDataQueries ?? []).map((q) => {
          const name = q.MetricStat!.Metric!.MetricName!;
          const perMinute = name === "VolumeReadOps" ? (rep1 ? 2980 * 60 : 300 * 60) : name.endsWith("Check") ? 0 : 0;
          const ts = Array.from({ length: minutes }, (_, i) => new Date(Number(input.StartTime) + i * 60000));
          return { Id: q.Id, Timestamps: ts, Values: ts.map(() => perMinute), StatusCode: "Complete" as const };
        }),
      };
    },
    async listMetrics() {
      throw new Error("no FSx here");
    },
  };
  return { api, gets };
}

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-util-"));
  dir = writeRunResults(root, "nitro", "r1", [tps(REPS[0], 537.2), busy(REPS[0], 52), tps(REPS[1], 540.1), busy(REPS[1], 40)], [], FILE);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("repetitionWindows", () => {
  it("one window per repetition of the benchmark samples, in run order, with the metadata the utilization samples carry", () => {
    const samples = JSON.parse(fs.readFileSync(path.join(dir, "samples.json"), "utf8")) as Sample[];
    const w = repetitionWindows(samples);
    expect(w.map((x) => [x.key, x.start.toISOString(), x.end.toISOString()])).toEqual([
      ["nitro|r1|pgbench|1|2026-01-15T10:00:00Z", "2026-01-15T10:00:00.000Z", "2026-01-15T10:05:00.000Z"],
      ["nitro|r1|pgbench|2|2026-01-15T10:05:10Z", "2026-01-15T10:05:10.000Z", "2026-01-15T10:10:10.000Z"],
    ]);
    expect(w[0].metadata).toEqual({
      tool: "pgbench",
      scenario: "ceph-nitro",
      stack: "nitro",
      runId: "r1",
      ...REPS[0],
      ...manifestMetadata(MANIFEST),
    });
    expect(repetitionWindows([{ ...tps(REPS[0], 1), metadata: { tool: "pgbench", rep: 1 } }])).toEqual([]);
  });
});

describe("utilizeRunDir", () => {
  it("asks CloudWatch in the manifest's region for its resources, and writes each repetition's limit line", async () => {
    const cw = fake();
    const regions: string[] = [];
    const r = await utilizeRunDir(dir, { cloudwatch: (region) => (regions.push(region), cw.api), now: new Date("2026-01-16T09:00:00Z") });
    expect(regions).toEqual(["eu-west-1"]);
    expect(cw.gets.map((g) => [g.StartTime, g.EndTime])).toEqual([
      [new Date("2026-01-15T10:00:00Z"), new Date("2026-01-15T10:05:00Z")],
      [new Date("2026-01-15T10:06:00Z"), new Date("2026-01-15T10:10:00Z")],
    ]);
    expect([...r.limits.values()].map((v) => v?.line)).toEqual([
      "gp3 IOPS 2980/3000 (99 %) on osd-2",
      "no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: node CPU busy 40/100 % (40 %) on node)",
    ]);
    const content = readUtilizationFile(dir)!;
    expect(content).toEqual(r.content);
    expect(content.createdAt).toBe("2026-01-16T09:00:00.000Z");
    expect(content.cloudwatch).toEqual({ getMetricDataCalls: 2, metricsRequested: 12, listMetricsCalls: 0 });
    const limits = content.samples.filter((s) => s.metric === "util.limit");
    expect(limits.map((s) => [s.metadata.rep, s.value, s.metadata.limitLine, s.metadata.limitBound])).toEqual([
      [1, (100 * 2980) / 3000, "gp3 IOPS 2980/3000 (99 %) on osd-2", true],
      [
        2,
        40,
        "no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: node CPU busy 40/100 % (40 %) on node)",
        false,
      ],
    ]);
    // Every sample written carries the manifest.
    for (const s of content.samples) expect(s.metadata).toMatchObject(manifestMetadata(MANIFEST));
    expect(content.samples.filter((s) => s.metric === "util.osd-2.iops").map((s) => s.value)).toEqual([2980, 300]);
  });

  it("is written once: a second run refuses, --replace writes it again", async () => {
    await utilizeRunDir(dir, { cloudwatch: () => fake().api });
    await expect(utilizeRunDir(dir, { cloudwatch: () => fake().api })).rejects.toThrow(
      `${path.join(dir, UTILIZATION_FILE)} already exists: lab util --replace writes it again`,
    );
    await expect(utilizeRunDir(dir, { cloudwatch: () => fake().api, replace: true })).resolves.toBeDefined();
  });

  it("without CloudWatch, the node sampler's samples give the limit lines, which say the manifest's resources were not judged", async () => {
    const r = await utilizeRunDir(dir);
    expect(r.content.cloudwatch).toBeNull();
    expect([...r.limits.values()].map((v) => v?.line)).toEqual([
      "not judged: CloudWatch not asked (--no-cloudwatch): the limits of osd-2 were not looked at (highest sampled: node CPU busy 52/100 % (52 %) on node)",
      "not judged: CloudWatch not asked (--no-cloudwatch): the limits of osd-2 were not looked at (highest sampled: node CPU busy 40/100 % (40 %) on node)",
    ]);
  });

  it("one source of verdicts: lab report shows the limit lines lab util judged, and judges a run lab util never saw the same way, never more confidently", async () => {
    // the report's limit notes, row by row, of the run directory as it is on disk
    const reportLines = () =>
      buildModel(loadInputs([dir]))
        .experiments.flatMap((e) => (e.limits ?? []).flatMap((t) => limitNotes(t)))
        .filter((l) => l.startsWith("Limit, "));
    const notAsked = [
      "not judged: CloudWatch not asked (--no-cloudwatch): the limits of osd-2 were not looked at (highest sampled: node CPU busy 52/100 % (52 %) on node)",
      "not judged: CloudWatch not asked (--no-cloudwatch): the limits of osd-2 were not looked at (highest sampled: node CPU busy 40/100 % (40 %) on node)",
    ];
    const row = (lines: readonly string[]) => [`Limit, nitro: nitro/r1 rep 1: ${lines[0]}; nitro/r1 rep 2: ${lines[1]}`];
    // never through lab util: the node sampler's samples, the manifest's osd-2 not looked at (not "likely client-bound")
    expect(reportLines()).toEqual(row(notAsked));
    // lab util --no-cloudwatch: the same text in both
    const without = await utilizeRunDir(dir);
    expect([...without.limits.values()].map((v) => v?.line)).toEqual(notAsked);
    expect(reportLines()).toEqual(row(notAsked));
    // lab util with CloudWatch: the report prints what it judged, word for word
    const judged = await utilizeRunDir(dir, { cloudwatch: () => fake().api, replace: true });
    const lines = [...judged.limits.values()].map((v) => v!.line);
    expect(lines[0]).toMatch(/^gp3 IOPS 2980\/3000 \(99 %\) on osd-2/);
    expect(reportLines()).toEqual(row(lines));
  });

  it("says what is missing: repetition windows, or the manifest CloudWatch needs", async () => {
    const old = writeRunResults(
      root,
      "dev",
      "r0",
      [{ metric: "pgbench.tps", value: 1, unit: "txn/s", metadata: { tool: "pgbench", rep: 1 } }],
      [],
    );
    await expect(utilizeRunDir(old)).rejects.toThrow(
      `${old}: no sample records its repetition's window (repStart/repEnd): these results were collected before the scripts recorded it`,
    );
    const bare = writeRunResults(root, "dev", "r1", [tps(REPS[0], 1)], []);
    await expect(utilizeRunDir(bare, { cloudwatch: () => fake().api })).rejects.toThrow(
      `${bare}: no manifest.json, so no resources to ask CloudWatch about: save the run with its manifest`,
    );
  });
});

describe("runUtil (lab util)", () => {
  it("prints each repetition's limit line and what CloudWatch was asked", async () => {
    const text = await runUtil({
      dirs: [path.relative(root, dir)],
      cwd: root,
      api: () => fake().api,
      now: new Date("2026-01-16T09:00:00Z"),
    });
    expect(text).toBe(
      [
        "nitro/r1/utilization.json: 2 repetition(s), 26 sample(s)",
        "  limit line: the sampled resource closest to its configured limit; at ≥ 70 % it is named as the bound (a heuristic threshold, not a measured saturation point)",
        "  pgbench rep 1 (2026-01-15T10:00:00.000Z–2026-01-15T10:05:00.000Z): gp3 IOPS 2980/3000 (99 %) on osd-2",
        "  pgbench rep 2 (2026-01-15T10:05:10.000Z–2026-01-15T10:10:10.000Z): no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: node CPU busy 40/100 % (40 %) on node)",
        "CloudWatch: 2 GetMetricData call(s), 12 metric(s) requested (about $0.0001 at $0.01 per 1,000)",
        "",
      ].join("\n"),
    );
  });
});
