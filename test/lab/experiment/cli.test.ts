/**
 * `lab experiment`'s own checks before anything is touched (exit 2 and one clear message): an
 * unknown experiment, a bad run id, a stack whose outputs lack what the experiments read. And the
 * command as commander defines it. (The runs themselves: ./e2e.test.ts.)
 */
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { defineExperimentCommand, experimentAction } from "../../../lab/cli/experiment";
import { removeTmpDirs, tmpDir } from "./support";

afterAll(removeTmpDirs);

function capture() {
  let out = "";
  let err = "";
  return { io: { out: (s: string) => (out += s), err: (s: string) => (err += s) }, get: () => ({ out, err }) };
}

/** A `pulumi` that prints `outputs` as `pulumi stack output --json --show-secrets` would. */
function fakePulumi(outputs: unknown): string {
  const dir = tmpDir("lab-pulumi-");
  fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify(outputs));
  const bin = path.join(dir, "pulumi");
  fs.writeFileSync(bin, `#!/bin/sh\ncat "${dir}/outputs.json"\n`, { mode: 0o755 });
  return bin;
}

test("an unknown experiment: exit 2", async () => {
  const c = capture();
  expect(await experimentAction("disk-failover", { stack: "s" }, "/", "/", new Date(), c.io)).toBe(2);
  expect(c.get()).toEqual({ out: "", err: "unknown experiment 'disk-failover': one of mysql-failover, fsx-failover\n" });
});

test("a run id that is not a lab:runId: exit 2 with the rule", async () => {
  const c = capture();
  expect(await experimentAction("mysql-failover", { stack: "s", runId: "R_1" }, "/", "/", new Date(), c.io)).toBe(2);
  expect(c.get().err).toBe(
    "'--run-id' must be a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2), got \"R_1\"\n",
  );
});

test("the default run id is r<yymmdd>-<hhmmss> (UTC) of the start, and a stack without the outputs is refused listing them, exit 2", async () => {
  const c = capture();
  const pulumi = fakePulumi({ storageClasses: ["fsx-ontap-nas"], toolsImage: "x/y:1" });
  expect(
    await experimentAction(
      "fsx-failover",
      { stack: "org/storage-bench-lab/fsx-eks", pulumi },
      "/",
      "/",
      new Date(Date.UTC(2026, 0, 15, 10, 0, 0)),
      c.io,
    ),
  ).toBe(2);
  expect(c.get().err).toBe(
    [
      "stack org/storage-bench-lab/fsx-eks lacks what the failover experiments read (lab/experiment/outputs.ts; deploy it with stacks/fsx-eks exporting them):",
      "  output 'kubeconfig' is missing",
      "  output 'region' is missing",
      "  output 'fileSystemId' is missing",
      "  output 'mysql' is missing",
      "  output 'experimentAccess' is missing",
      "",
    ].join("\n"),
  );
});

test("the command: `lab experiment <name> --stack <s> [--run-id <id>] [--results <dir>]`", () => {
  const program = new Command("lab");
  const cmd = defineExperimentCommand(program, "/project");
  expect(cmd.name()).toBe("experiment");
  expect(cmd.registeredArguments.map((a) => [a.name(), a.required])).toEqual([["name", true]]);
  expect(cmd.options.map((o) => [o.flags, o.mandatory, o.defaultValue])).toEqual([
    ["--stack <name>", true, undefined],
    ["--run-id <id>", false, undefined],
    ["--results <dir>", false, "results"],
  ]);
});
