/**
 * The images' inputs do not depend on where the checkout lives (issue 26): the same project copied
 * to two different paths plans, through the real `lab plan --all --json`, to identical
 * docker-build Image inputs, with `buildOnPreview: false`, and no path of either checkout (or of
 * this one) anywhere in the plan. @pulumi/docker-build diffs `context.location` and
 * `dockerfile.location` as given (components/image/ecr.ts): an absolute path there would rebuild
 * the image from every other checkout.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../helpers/root";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The project's files (tracked and new, not ignored: what a clone would have once committed) copied under `dir`, with this checkout's node_modules linked in. */
function checkout(dir: string): string {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f !== "");
  for (const f of files) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
    fs.chmodSync(path.join(dir, f), fs.statSync(from).mode & 0o7777);
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

function planAll(dir: string): { text: string; plans: Array<{ stack: string; resources: Any[] }> } {
  const r = spawnSync(process.execPath, ["bin/lab.js", "plan", "--all", "--json"], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`lab plan in ${dir} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout, plans: JSON.parse(r.stdout) };
}

const images = (plans: Array<{ stack: string; resources: Any[] }>) =>
  plans.flatMap((p) =>
    p.resources.filter((r) => r.type === "docker-build:index:Image").map((r) => ({ stack: p.stack, name: r.name, inputs: r.inputs })),
  );

describe("image inputs from two checkouts", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-checkouts-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("identical, never building on a preview, with no absolute path of either checkout", () => {
    const a = checkout(path.join(tmp, "a", "storage-bench-lab"));
    const b = checkout(path.join(tmp, "elsewhere", "deeper", "lab"));
    const [pa, pb] = [planAll(a), planAll(b)];

    const ia = images(pa.plans);
    // `--all` plans the shipped stacks, then each scenario's (the same stacks again).
    expect([...new Set(ia.map((i) => `${i.stack}/${i.name}`))]).toEqual(["fsx-eks-cluster/tools-image", "kafka-cluster/omb-image"]);
    expect(images(pb.plans)).toEqual(ia);
    for (const i of ia) expect(i.inputs.buildOnPreview).toBe(false);
    expect(ia[0].inputs.context).toEqual({ location: "components/bench/image" });
    expect(ia[0].inputs.dockerfile).toEqual({ location: "components/bench/image/Dockerfile" });
    for (const { text } of [pa, pb]) for (const p of [a, b, ROOT, tmp]) expect(text).not.toContain(p);
  }, 120_000);
});
