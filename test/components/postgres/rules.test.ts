/** Postgres rules: defaults in one table (the published 1 CPU / 4 GiB, 64 GiB), every problem at once. */
import { formatArgProblem } from "../../../core/errors";
import { hugepages2MiCount, POSTGRES_DEFAULTS, PostgresArgs, problems, resolve } from "../../../components/postgres/rules";
import { Postgres } from "../../../components/postgres";
import { POSTGRES_IMAGE } from "../../../components/versions";
import { minimalMocks } from "../../helpers/mocks";

const lines = (args: PostgresArgs) => problems(args).map((p) => formatArgProblem(p));

test("defaults, in one table", () => {
  expect(POSTGRES_DEFAULTS).toEqual({
    namespace: "bench",
    volumeGiB: 64,
    cpu: "1",
    memory: "4Gi",
    hugepages2Mi: "64Mi",
    image: POSTGRES_IMAGE,
    nodeSelector: {},
    user: "postgres",
    database: "pgbench",
    port: 5432,
  });
  expect(resolve({ storageClass: "rook-ceph-block" })).toEqual({
    namespace: "bench",
    storageClass: "rook-ceph-block",
    volumeGiB: 64,
    cpu: "1",
    memory: "4Gi",
    hugepages2Mi: "64Mi",
    image: POSTGRES_IMAGE,
    nodeSelector: {},
  });
  expect(problems({ storageClass: "rook-ceph-block", nodeSelector: { "storage-bench-lab/worker": "1" } })).toEqual([]);
});

test("every problem at once, in argument order", () => {
  expect(
    lines({
      namespace: "Bench",
      storageClass: "",
      volumeGiB: 0,
      cpu: "one",
      memory: "4 GiB",
      hugepages2Mi: "3Mi",
      image: "docker.io/library/postgres:latest",
      nodeSelector: { "storage-bench-lab/worker": "1", "-bad": "x", ok: "not valid!" },
    }),
  ).toEqual([
    `'namespace' must be a namespace name, an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got "Bench"`,
    `'storageClass' must be a StorageClass name, a DNS subdomain: lowercase labels joined by '.', at most 253 characters, got ""`,
    "'volumeGiB' must be a whole number of GiB, at least 1, got 0",
    `'cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "one"`,
    `'memory' must be a Kubernetes memory quantity (e.g. "4Gi"), got "4 GiB"`,
    `'hugepages2Mi' must be a Kubernetes memory quantity of whole 2 MiB pages (e.g. "64Mi"), or "0" for none, got "3Mi"`,
    `'image' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "docker.io/library/postgres:latest"`,
    `'nodeSelector.-bad' must be a label: a key [prefix/]name and a value of at most 63 letters, digits, '-', '_' or '.', got "x"`,
    `'nodeSelector.ok' must be a label: a key [prefix/]name and a value of at most 63 letters, digits, '-', '_' or '.', got "not valid!"`,
  ]);
  expect(lines({ storageClass: "rook-ceph-block", nodeSelector: ["a"] as never })).toEqual([
    `'nodeSelector' must be an object of node labels (e.g. {"storage-bench-lab/worker": "1"}), got ["a"]`,
  ]);
});

test("huge pages: whole 2 MiB pages or none", () => {
  expect(hugepages2MiCount("64Mi")).toBe(32);
  expect(hugepages2MiCount("0")).toBe(0);
  expect(hugepages2MiCount("1Gi")).toBe(512);
  expect(problems({ storageClass: "rook-ceph-block", hugepages2Mi: "0" })).toEqual([]);
  expect(lines({ storageClass: "rook-ceph-block", hugepages2Mi: "64M" })).toEqual([
    `'hugepages2Mi' must be a Kubernetes memory quantity of whole 2 MiB pages (e.g. "64Mi"), or "0" for none, got "64M"`,
  ]);
});

describe("the component starts with its rules", () => {
  beforeAll(minimalMocks);

  test("bad arguments: one InputPropertiesError", () => {
    expect(() => new Postgres("pg", { storageClass: "rook-ceph-block", volumeGiB: -1, memory: "lots" })).toThrow(
      [
        "invalid arguments of lab:postgres:Postgres 'pg':",
        "'volumeGiB' must be a whole number of GiB, at least 1, got -1",
        `'memory' must be a Kubernetes memory quantity (e.g. "4Gi"), got "lots"`,
      ].join("\n"),
    );
  });
});
