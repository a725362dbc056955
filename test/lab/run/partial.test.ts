/** Partial results from a failed stack's state: completed collectors of the run only, secret stdout read, malformed blocks an error. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";
import { completedCollectors, partialResults } from "../../../lab/run/partial";

const pgbench = fs.readFileSync(path.resolve(__dirname, "..", "..", "fixtures", "pgbench", "tpcb-15.txt"), "utf8");
const block = (rep: number) =>
  `=== LAB-RESULT-BEGIN tool=pgbench rep=${rep} version=15.18 ===\n${pgbench}=== LAB-RESULT-END tool=pgbench rep=${rep} ===\n`;
const res = (name: string, stdout: unknown, type = "command:local:Command") => ({
  urn: `urn:pulumi:dev::storage-bench-lab::${type}::${name}`,
  type,
  outputs: { stdout },
});
const dep = (...resources: unknown[]) => ({ version: 3, deployment: { resources } }) as unknown as Deployment;

describe("partial results", () => {
  test("the run's completed collectors, a secret stdout read from its plaintext; other runs, other types and empty ones left out", () => {
    const d = dep(
      res("dev-pgbench-collect-r1", block(1)),
      res("dev-fio-collect-r1", {
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        plaintext: JSON.stringify(block(2)),
      }),
      res("dev-pgbench-collect-r0", block(1)),
      res("dev-ioping-collect-r1", ""),
      res("dev-pgbench-collect-r1", block(1), "kubernetes:batch/v1:Job"),
    );
    expect(completedCollectors(d, "r1").map((c) => c.name)).toEqual(["dev-pgbench-collect-r1", "dev-fio-collect-r1"]);
    const { samples, raws } = partialResults("dev", "r1", completedCollectors(d, "r1"));
    expect(raws.map((r) => r.name)).toEqual(["dev-pgbench-rep1.txt", "dev-fio-pgbench-rep2.txt"]);
    const t = samples.filter((x) => x.metric === "pgbench.tps");
    expect(t.map((x) => [x.value, x.metadata.rep, x.metadata.collector, x.metadata.partial, x.metadata.toolVersion])).toEqual([
      // the parser's version line wins over the marker's (components/bench/collect.ts)
      [1644.801001, 1, "dev-pgbench-collect-r1", true, "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"],
      [1644.801001, 2, "dev-fio-collect-r1", true, "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"],
    ]);
  });

  test("a truncated block is an error naming the collector, never a partial sample set", () => {
    const d = dep(res("dev-pgbench-collect-r1", block(1).split("=== LAB-RESULT-END")[0]));
    expect(() => partialResults("dev", "r1", completedCollectors(d, "r1"))).toThrow(/state\/dev-pgbench-collect-r1/);
  });
});
