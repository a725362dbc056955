/**
 * Ctrl-C as a user sends it: SIGINT to a child process running the runner (on the fake workspace)
 * with the CLI's own signal handling (lab/cli/run.ts withInterrupts). The first SIGINT cancels the
 * running ups and cleans up (results saved, everything created destroyed in reverse order, exit
 * 130); a second one stops at once and prints what is left (exit 3).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const HARNESS = path.join(__dirname, "harness.ts");

function start(upMs: number, destroyMs = 5) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-sigint-"));
  const child = spawn(process.execPath, ["--require", "tsx/cjs", HARNESS, "fake-run", dir, String(upMs), String(destroyMs)], {
    cwd: path.resolve(__dirname, "..", "..", ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  const waiters: Array<[RegExp, () => void]> = [];
  child.stdout.on("data", (d) => {
    stdout += d.toString();
    for (const [re, fn] of waiters.splice(0)) (re.test(stdout) ? fn : () => waiters.push([re, fn]))();
  });
  const waitFor = (re: RegExp) => new Promise<void>((res) => (re.test(stdout) ? res() : waiters.push([re, res])));
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  return { child, dir, waitFor, exited, out: () => stdout };
}

const calls = (stdout: string): string[] => JSON.parse(/^CALLS (.*)$/m.exec(stdout)![1]);

describe("Ctrl-C (SIGINT to the lab process)", () => {
  test("first SIGINT: running ups cancelled, everything created destroyed in reverse order, exit 130 naming the stage", async () => {
    const p = start(20_000);
    await p.waitFor(/UP-START nitro/);
    p.child.kill("SIGINT");
    const code = await p.exited;
    const out = p.out();
    expect(code).toBe(130);
    expect(out).toContain(
      "Ctrl-C: cancelling the running operations, then saving results and destroying what was created; press Ctrl-C again to stop at once",
    );
    expect(out).toContain("== run ceph-nitro r1: interrupted (Ctrl-C) during up dev, up nitro");
    const c = calls(out);
    expect(c).toEqual(expect.arrayContaining(["up-canceled dev", "up-canceled nitro"]));
    expect(c).not.toContain("up-start compare");
    const destroys = c.filter((x) => x.startsWith("destroy-start")).map((x) => x.split(" ")[1]);
    expect(destroys.sort()).toEqual(["dev", "network", "nitro"]);
    expect(c.indexOf("destroy-start network")).toBeGreaterThan(c.indexOf("destroy-end dev"));
    expect(c.indexOf("destroy-start network")).toBeGreaterThan(c.indexOf("destroy-end nitro"));
    expect(out).toContain("left: nothing");
  }, 30_000);

  test("first SIGINT after the ups: results are saved before the destroys", async () => {
    const p = start(50);
    await p.waitFor(/UP-START compare/);
    p.child.kill("SIGINT");
    const code = await p.exited;
    expect(code).toBe(130);
    expect(fs.existsSync(path.join(p.dir, "dev", "r1", "samples.json"))).toBe(true);
    expect(fs.existsSync(path.join(p.dir, "nitro", "r1", "samples.json"))).toBe(true);
    expect(
      [
        ...calls(p.out())
          .filter((x) => x.startsWith("destroy-end"))
          .map((x) => x.split(" ")[1]),
      ].sort(),
    ).toEqual(["compare", "dev", "network", "nitro"]);
  }, 30_000);

  test("second SIGINT: stops at once, prints what is left and the commands, exit 3", async () => {
    const p = start(20_000, 20_000);
    await p.waitFor(/UP-START nitro/);
    p.child.kill("SIGINT");
    await p.waitFor(/destroy .*started/);
    p.child.kill("SIGINT");
    const code = await p.exited;
    const out = p.out();
    expect(code).toBe(3);
    expect(out).toMatch(/== run ceph-nitro r1: stopped \(second Ctrl-C\) during destroy (dev|nitro)/);
    expect(out).toContain("left (NOT destroyed, still billed):");
    expect(out).toContain("  network (organization/storage-bench-lab/u-r1-network): not destroyed: stopped");
    expect(out).toContain("  pulumi destroy --yes --remove --stack organization/storage-bench-lab/u-r1-network");
  }, 30_000);
});
