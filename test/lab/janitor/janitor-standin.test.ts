/**
 * `lab janitor` on the real Automation API against the stand-in Pulumi CLI (test/lab/run/standin.ts),
 * from a directory that has the project's Pulumi.yaml and no stack config files (as on a CI
 * machine): the order from the stacks' state, unknown expiry, `--run-id`, unreadable stacks, no CLI,
 * not logged in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { janitorAction, JanitorCliOptions } from "../../../lab/cli/janitor";
import { Standin, standin } from "../run/standin";

const NOW = new Date("2030-01-02T12:00:00Z");
const FQ = (n: string) => `organization/storage-bench-lab/${n}`;
const vpc = (n: string) => [`urn:pulumi:${n}::storage-bench-lab::aws:ec2/vpc:Vpc::${n}-vpc`];
const lab = { provider: { region: "us-east-1", project: "storage-bench-lab" } };

let s: Standin | undefined;
afterEach(() => s?.restore());

function world(loggedOut = false): Standin {
  s = standin({ loggedOut });
  s.writeStack(FQ("u-r7-network"), {
    ...lab,
    outputs: { expiresAt: "2030-01-02T08:00:00Z" },
    resources: vpc("u-r7-network"),
    created: "2030-01-02T00:00:00Z",
  });
  s.writeStack(FQ("u-r7-dev"), {
    ...lab,
    outputs: { expiresAt: "2030-01-02T08:00:00Z" },
    resources: vpc("u-r7-dev"),
    stackReferences: [FQ("u-r7-network")],
    created: "2030-01-02T00:30:00Z",
  });
  // its first up failed: no expiresAt, but resources and the lab's provider in its state
  s.writeStack(FQ("u-r7-compare"), {
    ...lab,
    outputs: {},
    resources: vpc("u-r7-compare"),
    stackReferences: [FQ("u-r7-dev")],
    created: "2030-01-02T01:00:00Z",
  });
  s.writeStack(FQ("u-r8-network"), {
    ...lab,
    outputs: { expiresAt: "2030-01-03T08:00:00Z" },
    resources: vpc("u-r8-network"),
    created: "2030-01-02T10:00:00Z",
  });
  return s;
}

async function janitor(opts: JanitorCliOptions, extra: { which?: (c: string) => string | undefined } = {}) {
  const out: string[] = [];
  // no run work directories: never the machine's own ~/.storage-bench-lab/runs
  const workRoot = `${s!.project}/no-work-dirs`;
  const code = await janitorAction(opts, s!.project, {
    now: NOW,
    write: (t) => out.push(t),
    retry: { attempts: 2, delayMs: 0 },
    workRoot,
    ...extra,
  });
  return { code, lines: out.join("").trimEnd().split("\n") };
}

const destroys = () =>
  s!
    .trace()
    .filter((t) => t.cmd === "destroy" && t.phase === "start")
    .map((t) => t.stack.split("/").pop());

describe("lab janitor against the stand-in Pulumi CLI", () => {
  test("unknown expiry listed with its start; --include-unknown --yes destroys dependents first, the order read from the state's StackReferences", async () => {
    world();
    const r = await janitor({ yes: true, includeUnknown: true });
    expect(r.lines.slice(0, 7)).toEqual([
      "2 expired lab stack(s):",
      "  organization/storage-bench-lab/u-r7-dev  expired 4h00m00s ago (2030-01-02T08:00:00.000Z)  age 11h30m00s  $0.0000/h",
      "  organization/storage-bench-lab/u-r7-network  expired 4h00m00s ago (2030-01-02T08:00:00.000Z)  age 12h00m00s  $0.0000/h",
      "  together $0.0000/h",
      "1 lab stack(s) not expired: organization/storage-bench-lab/u-r8-network (until 2030-01-03T08:00:00.000Z)",
      "1 lab stack(s) of unknown expiry (no expiresAt output: their first up failed; destroyed with --include-unknown):",
      "  organization/storage-bench-lab/u-r7-compare  expiry unknown  started 2030-01-02T01:00:00.000Z (11h00m00s ago)  $0.0000/h",
    ]);
    expect(destroys()).toEqual(["u-r7-compare", "u-r7-dev", "u-r7-network"]);
    expect(r.lines.at(-1)).toBe("destroyed 3, failed 0, kept 0");
    expect(r.code).toBe(0);
    expect(fs.readdirSync(s!.project)).toEqual(["Pulumi.yaml"]);
  });

  test("without --include-unknown the stack of unknown expiry stays, and so does what it depends on", async () => {
    world();
    const r = await janitor({ yes: true });
    expect(destroys()).toEqual([]);
    expect(r.lines.slice(-3)).toEqual([
      "kept organization/storage-bench-lab/u-r7-dev: not due: organization/storage-bench-lab/u-r7-compare depend(s) on it",
      "kept organization/storage-bench-lab/u-r7-network: organization/storage-bench-lab/u-r7-dev depend(s) on it and stay(s)",
      "destroyed 0, failed 0, kept 2",
    ]);
    expect(r.code).toBe(1);
  });

  test("--run-id: only that run's stacks, expired or not", async () => {
    world();
    const r = await janitor({ yes: true, runId: "r8" });
    expect(r.lines[0]).toBe("1 lab stack of run r8(s):");
    expect(destroys()).toEqual(["u-r8-network"]);
    expect(r.code).toBe(0);
  });

  test("a stack that cannot be read: listed with the CLI's error, exit 1 (never a false all-clear)", async () => {
    s = standin({});
    fs.writeFileSync(path.join(s.state, "stacks", "u-r9-dev.json"), "{ truncated");
    const r = await janitor({});
    expect(r.lines).toHaveLength(3);
    expect(r.lines[0]).toBe("no expired lab stacks among those read");
    // Node's JSON.parse message (Node 22+ adds the line and column)
    expect(r.lines[1]).toMatch(
      /^NOT READ u-r9-dev: error: could not deserialize deployment: Expected property name or '\}' in JSON at position 2( \(line 1 column 3\))?$/,
    );
    expect(r.lines[2]).toBe("1 stack(s) could not be read: this is not an all-clear (exit 1)");
    expect(r.code).toBe(1);
  });

  test("not logged in, or no Pulumi CLI: one line, exit 2", async () => {
    world(true);
    const r = await janitor({});
    expect(r.lines).toEqual([
      "Pulumi backend: not logged in (pulumi whoami: error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions): run pulumi login (s3://<bucket>, --local, or Pulumi Cloud)",
    ]);
    expect(r.code).toBe(2);
    const none = await janitor({}, { which: () => undefined });
    expect(none.lines).toEqual([
      "Pulumi CLI: not on the PATH: install it: https://www.pulumi.com/docs/install/ (curl -fsSL https://get.pulumi.com | sh)",
    ]);
    expect(none.code).toBe(2);
  });
});
