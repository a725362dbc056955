/**
 * Sample sets for the report tests, built from the real tool outputs in test/fixtures/ parsed by
 * core/parsers. The fixtures are one run each; a set of repetitions takes each repetition's value
 * from one fixture and the metadata of the first (plus the run's), so that the values are real
 * tool output and the rows are repetitions of one measurement by construction.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseToolOutput, type ToolName } from "../../../core/parsers";
import type { MetadataValue, Sample } from "../../../core/sample";
import type { InputFile } from "../../../lab/report/model";

export const FIXTURES = path.resolve(__dirname, "..", "..", "fixtures");

/** The samples of one fixture, as core/parsers reads it. */
export function parseFixture(tool: ToolName, file: string): Sample[] {
  return parseToolOutput(tool, fs.readFileSync(path.join(FIXTURES, file), "utf8"), file);
}

/** The value of `metric` in a fixture. */
export function fixtureValue(tool: ToolName, file: string, metric: string): number {
  const s = parseFixture(tool, file).find((x) => x.metric === metric);
  if (s === undefined) throw new Error(`${file} has no ${metric}`);
  return s.value;
}

/**
 * Repetitions 1..n of every metric `metadataFile` has: repetition i takes its values from
 * `valueFiles[i]` (metrics and directions a file lacks are left out of that repetition) and the
 * metadata of `metadataFile`, with `run` merged over it.
 */
export function repetitions(
  tool: ToolName,
  metadataFile: string,
  valueFiles: readonly string[],
  run: Readonly<Record<string, MetadataValue>>,
): Sample[] {
  const base = parseFixture(tool, metadataFile);
  const out: Sample[] = [];
  valueFiles.forEach((f, i) => {
    const samples = parseFixture(tool, f);
    for (const b of base) {
      const s = samples.find((x) => x.metric === b.metric && x.metadata.direction === b.metadata.direction);
      if (s !== undefined) out.push({ ...b, value: s.value, metadata: { ...b.metadata, ...run, rep: i + 1 } });
    }
  });
  return out;
}

/** The pgbench TPC-B outputs of pgbench 15 (real runs); the pre-14 file is constructed and left out. */
export const PGBENCH_TPCB = ["pgbench/tpcb-15.txt", "pgbench/serializable-failures-15.txt", "pgbench/retries-t-15.txt"];

/** Ceph on Nitro: dev (m4.xlarge, Xen) three repetitions, nitro (m5.xlarge, Nitro) two. */
export function cephSet(): InputFile[] {
  const ceph = { scenario: "ceph-nitro" };
  return [
    {
      file: "results/dev/r1/samples.json",
      samples: repetitions("pgbench", PGBENCH_TPCB[0], PGBENCH_TPCB, {
        ...ceph,
        stack: "dev",
        runId: "r1",
        instanceType: "m4.xlarge",
        hypervisor: "xen",
      }),
    },
    {
      file: "results/nitro/r1/samples.json",
      samples: repetitions("pgbench", PGBENCH_TPCB[0], ["pgbench/tpcb-15.txt", "pgbench/retries-t-15.txt"], {
        ...ceph,
        stack: "nitro",
        runId: "r1",
        instanceType: "m5.xlarge",
        hypervisor: "nitro",
      }),
    },
  ];
}

/** The seed workload's fio JSON: the metadata of every fio repetition below. */
export const FIO_SEED = "fio/seed-gtod-reduce.json";
/** Values of three real fio runs each (JSON, json+ and normal output). */
export const FIO_SAME = ["fio/seed-gtod-reduce.json", "fio/suite-stonewall.jsonplus.json", "fio/latency-qd1-randread.json"];
export const FIO_CROSS = ["fio/seed-gtod-reduce.txt", "fio/psync-note-noise.json", "fio/suite-stonewall.txt"];

/** FSx on EKS: the seed workload in the file system's zone and in the other zone, three repetitions each. */
export function fsxSet(): InputFile[] {
  const fsx = { scenario: "fsx-eks", stack: "fsx-eks", storageClass: "fsx-ontap-nas" };
  return [
    {
      file: "results/fsx-eks/same/samples.json",
      samples: repetitions("fio", FIO_SEED, FIO_SAME, { ...fsx, runId: "same", zoneRelation: "same", zone: "us-east-1a" }),
    },
    {
      file: "results/fsx-eks/cross/samples.json",
      samples: repetitions("fio", FIO_SEED, FIO_CROSS, { ...fsx, runId: "cross", zoneRelation: "cross", zone: "us-east-1b" }),
    },
  ];
}

/** Writes input files under `root` in the results layout (samples.json + raw/), returns the root. */
export function writeInputs(root: string, inputs: readonly InputFile[]): string {
  for (const f of inputs) {
    const dir = path.join(root, path.dirname(f.file));
    fs.mkdirSync(path.join(dir, "raw"), { recursive: true });
    fs.writeFileSync(path.join(dir, "samples.json"), `${JSON.stringify(f.samples, null, 2)}\n`);
  }
  return root;
}

/** Kafka on FSx: RF1 and RF3 with the kafka-throughput driver, one OMB result each (the fixtures). */
export function kafkaSet(): InputFile[] {
  const kafka = (rf: number) => ({
    scenario: "kafka-fsx",
    stack: "kafka",
    runId: `rf${rf}`,
    replicationFactor: rf,
    driverConfig: "kafka-throughput",
  });
  return [
    {
      file: "results/kafka/rf1/samples.json",
      samples: repetitions("omb", "omb/kafka-throughput-1kb.json", ["omb/kafka-throughput-1kb.json"], kafka(1)),
    },
    {
      file: "results/kafka/rf3/samples.json",
      samples: repetitions("omb", "omb/kafka-throughput-1kb.json", ["omb/kafka-sync-1kb-legacy.json"], kafka(3)),
    },
  ];
}

/** A named local run (lab bench local --name): ioping repetitions from `files`, with the host's file system. */
export function localRun(
  name: string,
  fileSystem: string,
  files: readonly string[],
  extra: Readonly<Record<string, MetadataValue>> = {},
): Sample[] {
  return repetitions("ioping", "ioping/ioping-J.json", files, {
    scenario: "local",
    stack: name,
    runId: "r1",
    fileSystem,
    fileSystemDevice: fileSystem === "tmpfs" ? "tmpfs" : "/dev/vda",
    ...extra,
  });
}

/** Two named local runs (lab bench local --name ext4 / --name tmpfs): ioping, three repetitions each. */
export function localSet(): InputFile[] {
  return [
    {
      file: "results/local/ext4/r1/samples.json",
      samples: localRun("ext4", "ext4", ["ioping/ioping-J.json", "ioping/ioping-periodic-J.json", "ioping/ioping.txt"]),
    },
    {
      file: "results/local/tmpfs/r1/samples.json",
      samples: localRun("tmpfs", "tmpfs", ["ioping/ioping-quiet-1201.txt", "ioping/ioping.txt", "ioping/ioping-J.json"]),
    },
  ];
}

/** The FSx set's same-zone run on the gp3 baseline StorageClass: beside it, no FSx figure. */
export function gp3Set(): InputFile[] {
  const [same] = fsxSet();
  return [
    {
      file: "results/fsx-eks/gp3/samples.json",
      samples: same.samples.map((s) => ({ ...s, metadata: { ...s.metadata, storageClass: "gp3", runId: "gp3" } })),
    },
  ];
}
