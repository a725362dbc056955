/** What the benchmark layer's tests share: example run specs, and running a script with stand-in executables. */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { BenchSpec, PostgresTarget } from "../../../components/bench/rules";

export const TOOLS_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3";
export const PG: PostgresTarget = {
  host: "pg-rw.db.svc.cluster.local",
  user: "bench",
  database: "bench",
  passwordSecret: { name: "pg-auth", key: "password" },
};
/** fio and ioping (the default tools) on an FSx StorageClass. */
export const BASE: BenchSpec = {
  name: "same-az",
  namespace: "bench",
  runId: "r1",
  zone: "us-east-1a",
  storageClass: "fsx-ontap-san",
  toolsImage: TOOLS_IMAGE,
};
/** Every tool. */
export const ALL: BenchSpec = { ...BASE, tools: ["fio", "ioping", "pgbench"], postgres: PG };

/** Runs `sh <file>` with `env` added to a minimal environment (PATH, TMPDIR). */
export function runScript(file: string, env: Record<string, string>, tmpdir: string, timeout = 30000) {
  const r = spawnSync("/bin/sh", [file], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmpdir, ...env },
    encoding: "utf8",
    timeout,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes an executable POSIX sh script `name` into dir; returns its path. */
export function stub(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}
