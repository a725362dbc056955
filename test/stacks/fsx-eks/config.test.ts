/** Config of the `fsx-eks` kind: types here; the rules are Trident's, MySQL's (keys `lab:mysql*`) and BenchmarkRun's. */
import { parseConfig } from "../../../stacks/lib/config/load";
import { backendArgs, BENCH_NAMESPACE, benchArgs, checkFsxEks, fsxEksSchema, mysqlArgs } from "../../../stacks/fsx-eks/config";
import { problemsOf } from "../../helpers/config";

const base = {
  "aws:region": "us-east-1",
  "lab:kind": "fsx-eks",
  "lab:owner": "alice",
  "lab:networkStack": "organization/storage-bench-lab/network",
  "lab:fsxOntapStack": "organization/storage-bench-lab/fsx-eks-ontap",
  "lab:eksStack": "organization/storage-bench-lab/fsx-eks-cluster",
};
const parse = (extra: Record<string, string> = {}) => parseConfig("fsx-eks", fsxEksSchema, { ...base, ...extra }, checkFsxEks);

describe("fsx-eks config", () => {
  test("no defaults of its own; the arguments each component gets", () => {
    const c = parse();
    expect(c).toEqual({
      region: "us-east-1",
      kind: "fsx-eks",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
      networkStack: "organization/storage-bench-lab/network",
      fsxOntapStack: "organization/storage-bench-lab/fsx-eks-ontap",
      eksStack: "organization/storage-bench-lab/fsx-eks-cluster",
    });
    expect(backendArgs(c)).toEqual({ sanBackend: undefined, reclaimPolicy: undefined });
    expect(mysqlArgs(c)).toEqual({ storageClass: "fsx-ontap-nas", replicas: undefined, volumeGiB: undefined });
    expect(benchArgs(c)).toEqual({ namespace: "bench", runId: "r1", reps: undefined, pvcSizeGiB: undefined, toolsImage: undefined });
    expect(BENCH_NAMESPACE).toBe("bench");
  });

  test("typed values; a pinned tools image passes", () => {
    const c = parse({
      "lab:sanBackend": "true",
      "lab:reclaimPolicy": "Retain",
      "lab:mysqlReplicas": "2",
      "lab:reps": "5",
      "lab:toolsImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/tools:fio-3.33-ioping-1.3",
    });
    expect(c).toMatchObject({ sanBackend: true, reclaimPolicy: "Retain", mysqlReplicas: 2, reps: 5 });
  });

  test("every component's problem at once, named by the keys the user typed", () => {
    expect(
      problemsOf(() =>
        parse({
          "lab:reclaimPolicy": "Recycle",
          "lab:mysqlReplicas": "9",
          "lab:mysqlVolumeGiB": "0",
          "lab:toolsImage": "fio:latest",
          "lab:reps": "0",
        }),
      ),
    ).toEqual([
      `'lab:reclaimPolicy' must be one of Delete, Retain, got "Recycle"`,
      "'lab:mysqlReplicas' must be an integer from 1 to 5 (mysql-0 the source, the others replicas), got 9",
      "'lab:mysqlVolumeGiB' must be an integer from 1 to 16384 (GiB), got 0",
      `'lab:toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "fio:latest"`,
      "'lab:reps' must be an integer from 1 to 20, got 0",
    ]);
  });

  test("the benchmark volume must hold each run's fio file (seed 8G, latency 12G at 512 MB/s)", () => {
    expect(problemsOf(() => parse({ "lab:pvcSizeGiB": "5" }))).toEqual([
      "'lab:pvcSizeGiB' must be at least 9 so that the fio file (8G) fills at most 90% of it, got 5",
      "'lab:pvcSizeGiB' must be at least 14 so that the fio file (12G) fills at most 90% of it, got 5",
    ]);
  });

  test("an unset tools image is no problem (the stack builds one); the upstream stacks are required", () => {
    expect(problemsOf(() => parse(), true)).toEqual([]);
    expect(
      problemsOf(() =>
        parseConfig("fsx-eks", fsxEksSchema, { "aws:region": "us-east-1", "lab:kind": "fsx-eks", "lab:owner": "a" }, checkFsxEks),
      ),
    ).toEqual([
      "'lab:networkStack' must be the name of the network stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got nothing",
      "'lab:fsxOntapStack' must be the name of the fsx-ontap stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got nothing",
      "'lab:eksStack' must be the name of the eks stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got nothing",
    ]);
  });
});
