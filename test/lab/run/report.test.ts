/** The lines a run closes with: the report's path first, then the headline ratios it holds, beside the published ones. */
import { buildModel } from "../../../lab/report/model";
import { HEADLINE_RATIOS, runReportLines } from "../../../lab/run/report";
import { cephSet, fsxSet } from "../report/samples";

describe("runReportLines", () => {
  test("Nitro / Xen TPS from ceph-nitro's results, with its interval, beside the published runs' ratio", () => {
    const lines = runReportLines("/r/runs/ceph-nitro-r1/report", buildModel(cephSet()), "complete");
    expect(lines[0]).toBe("report: /r/runs/ceph-nitro-r1/report/report.html (and report.md)");
    expect(lines[1]).toBe("headline ratios (ours, interval; published):");
    // 537.24 / 374.95: the means of koor-tech/experiment-ceph-on-nitro's six raw outputs (lab/report/published.ts).
    expect(lines.slice(2)).toEqual([
      expect.stringMatching(
        /^ {2}Nitro \/ Xen pgbench\.tps \[[^\]]+\]: ours \d+\.\d+, \S+–\S+ \(min–max of the 2 × 3 repetition ratios; n < 8 a side: not a confidence interval\); published 1\.433$/,
      ),
    ]);
  });

  test("cross-zone / same-zone from fsx-eks results, beside the published ratios of the AWS post", () => {
    const lines = runReportLines("/r/runs/fsx-eks-r1/report", buildModel(fsxSet()), "complete");
    expect(lines.find((l) => l.includes("fio.read.iops"))).toMatch(/; published 0\.8907$/); // 33.4K / 37.5K read IOPS
    expect(lines.find((l) => l.includes("fio.write.iops"))).toMatch(/; published 0\.888$/); // 11.1K / 12.5K write IOPS
  });

  test("after a failure it says the report covers what was saved; no headline ratio is said so", () => {
    expect(runReportLines("/r/x/report", buildModel([]), "partial")).toEqual([
      "report: /r/x/report/report.html (and report.md), over the results saved before the failure",
      "headline ratios: none in these results (no table has both sides of Nitro / Xen, cross-zone / same-zone or RF3 / RF1)",
    ]);
  });

  test("the headline set: Nitro/Xen TPS, cross/same IOPS and latency, RF3/RF1 throughput", () => {
    expect(HEADLINE_RATIOS.map((h) => `${h.comparison} ${h.metric}`)).toEqual([
      "hypervisor pgbench.tps",
      "zone fio.read.iops",
      "zone fio.write.iops",
      "zone ioping.latency.mean",
      "replication omb.throughput",
    ]);
  });
});
