/** A run's work directory: Pulumi.yaml with main under the link to the project, created once, refused when something else is in the way. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { createRunWorkDir, runProjectFile, workRoot } from "../../../lab/run/workdir";

const ROOT = path.resolve(__dirname, "..", "..", "..");

describe("run work directory", () => {
  test("the project's Pulumi.yaml with main under program/", () => {
    const doc = parse(runProjectFile(fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")));
    expect(doc).toEqual({ ...parse(fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")), main: "program/index.ts" });
    expect(parse(runProjectFile("name: p\nruntime: nodejs\n")).main).toBe("program");
    expect(() => runProjectFile("name: p\nruntime: nodejs\nmain: /abs/index.ts\n")).toThrow(
      "Pulumi.yaml: 'main' must be a relative path, got /abs/index.ts",
    );
  });

  test("created outside the project, the link resolves to it, a second call reuses it; a foreign file in the way is refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-wd-"));
    const wd = createRunWorkDir(ROOT, "ceph-nitro", "r9", dir);
    expect(wd).toBe(path.join(dir, "ceph-nitro-r9"));
    expect(fs.realpathSync(path.join(wd, "program"))).toBe(fs.realpathSync(ROOT));
    expect(fs.existsSync(path.join(wd, "program", "index.ts"))).toBe(true);
    expect(createRunWorkDir(ROOT, "ceph-nitro", "r9", dir)).toBe(wd);
    const other = path.join(dir, "ceph-nitro-r8");
    fs.mkdirSync(path.join(other, "program"), { recursive: true });
    expect(() => createRunWorkDir(ROOT, "ceph-nitro", "r8", dir)).toThrow(
      `${path.join(other, "program")} exists and is not a link to ${ROOT}: remove it, or pick another --run-id`,
    );
  });

  test("the root: LAB_WORK_ROOT, else ~/.storage-bench-lab/runs", () => {
    expect(workRoot({ LAB_WORK_ROOT: "/w" }, "/home/a")).toBe("/w");
    expect(workRoot({}, "/home/a")).toBe("/home/a/.storage-bench-lab/runs");
  });
});
