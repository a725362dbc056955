/**
 * Preflight: the tools (the Pulumi CLI's version read by the real Automation API from a fake
 * `pulumi` on the PATH; the AWS CLI's STS GetCallerIdentity from a fake `aws`), the backend, and
 * building the run's plan (prefixed, fully qualified stacks; references rewritten).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StackSummary, WhoAmIResult } from "@pulumi/pulumi/automation";
import { INSTALL_DOCKER, type DockerProbe } from "../../../components/image/rules";
import {
  awsIdentity,
  backendChecks,
  buildsImage,
  dockerProblems,
  localToolEnv,
  passphraseProblem,
  MIN_PULUMI_CLI,
  runOrganization,
  secretsProviderProblems,
  ToolEnv,
  toolProblems,
  whichOn,
} from "../../../lab/run/preflight";
import type { OfflinePrep } from "../../../lab/run/prepare";

function binDir(scripts: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bin-"));
  for (const [name, body] of Object.entries(scripts)) fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

async function withPath<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const old = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}/usr/bin${path.delimiter}/bin`;
  try {
    return await fn();
  } finally {
    process.env.PATH = old;
  }
}

const only = (present: string[], version = "3.248.0"): ToolEnv => ({
  which: (c) => (present.includes(c) ? `/usr/bin/${c}` : undefined),
  exec: async () => ({ code: 0, stdout: "", stderr: "" }),
  pulumiVersion: async () => version,
});

describe("tools", () => {
  const stacks = [
    { name: "network", kind: "network" },
    { name: "dev", kind: "ceph-k0s" },
    { name: "nitro", kind: "ceph-k0s" },
  ];

  test("every missing tool at once, one line each saying how to get it", async () => {
    expect(await toolProblems([...stacks, { name: "fsx-eks", kind: "fsx-eks", needsDocker: true }], only([]))).toEqual([
      "Pulumi CLI: not on the PATH: install it: https://www.pulumi.com/docs/install/ (curl -fsSL https://get.pulumi.com | sh)",
      "AWS CLI: not on the PATH: install the AWS CLI (https://aws.amazon.com/cli/): it runs the STS GetCallerIdentity check",
      "kubectl: not on the PATH, needed by dev (ceph-k0s), nitro (ceph-k0s), fsx-eks (fsx-eks): install it: https://kubernetes.io/docs/tasks/tools/",
      "k0sctl: not on the PATH, needed by dev (ceph-k0s), nitro (ceph-k0s): install it: https://github.com/k0sproject/k0sctl/releases (a single binary on the PATH)",
      "docker: not on the PATH, needed by fsx-eks (fsx-eks): install Docker Engine: https://docs.docker.com/engine/install/",
    ]);
  });

  test("nothing missing: no problem; k0sctl only for ceph-k0s, Docker only for an image build", async () => {
    expect(await toolProblems(stacks, only(["pulumi", "aws", "kubectl", "k0sctl"]))).toEqual([]);
    expect(await toolProblems([{ name: "network", kind: "network" }], only(["pulumi", "aws"]))).toEqual([]);
    expect(buildsImage(["pulumi:providers:aws", "docker-build:index:Image"])).toBe(true);
    expect(buildsImage(["aws:ecr/repository:Repository"])).toBe(false);
  });

  test(`a Pulumi CLI older than ${MIN_PULUMI_CLI}, read through the Automation API (PulumiCommand.get runs 'pulumi version')`, async () => {
    const dir = binDir({ pulumi: 'echo "v3.50.1"' });
    expect(await withPath(dir, () => toolProblems([], { ...localToolEnv, which: (c) => whichOn(c, dir) }))).toEqual([
      "Pulumi CLI: 3.50.1 is older than 3.58.0, the oldest the lab supports: upgrade it (https://www.pulumi.com/docs/install/)",
      "AWS CLI: not on the PATH: install the AWS CLI (https://aws.amazon.com/cli/): it runs the STS GetCallerIdentity check",
    ]);
  });

  test("a Pulumi CLI of another major version: the Automation API's own check, reported", async () => {
    const dir = binDir({ pulumi: 'echo "v4.0.0"', aws: "true" });
    expect(await withPath(dir, () => toolProblems([], { ...localToolEnv, which: (c) => whichOn(c, dir) }))).toEqual([
      "Pulumi CLI: Major version mismatch. You are using Pulumi CLI version v4.0.0 with Automation SDK v3. Please update the SDK.",
    ]);
  });

  test("a current Pulumi CLI passes", async () => {
    const dir = binDir({ pulumi: 'echo "v3.248.0"', aws: "true" });
    expect(await withPath(dir, () => toolProblems([], { ...localToolEnv, which: (c) => whichOn(c, dir) }))).toEqual([]);
  });
});

describe("AWS credentials (aws sts get-caller-identity)", () => {
  test("the identity when credentials work; the CLI is asked for JSON in the stacks' region", async () => {
    const dir = binDir({
      aws: 'echo "$@" > "$(dirname "$0")/args"; echo \'{"UserId": "AROAEXAMPLE:ci", "Account": "123456789012", "Arn": "arn:aws:sts::123456789012:assumed-role/lab/ci"}\'',
    });
    const r = await withPath(dir, () => awsIdentity(localToolEnv, "eu-west-1"));
    expect(r).toEqual({ account: "123456789012", arn: "arn:aws:sts::123456789012:assumed-role/lab/ci" });
    expect(fs.readFileSync(path.join(dir, "args"), "utf8")).toBe("sts get-caller-identity --output json --region eu-west-1\n");
  });

  test("no credentials: the CLI's own error, and how to fix it", async () => {
    const dir = binDir({
      aws: 'echo "\nUnable to locate credentials. You can configure credentials by running \\"aws configure\\"." >&2; exit 253',
    });
    expect(await withPath(dir, () => awsIdentity(localToolEnv, "us-east-1"))).toEqual({
      problem:
        'AWS credentials: aws sts get-caller-identity failed: Unable to locate credentials. You can configure credentials by running "aws configure".: configure them (aws configure sso, AWS_PROFILE, or OIDC in CI)',
    });
  });
});

describe("backend and the run's plan", () => {
  const prep: OfflinePrep = {
    runId: "r1",
    specs: [
      { name: "network", source: "x", config: { "lab:kind": "network", "lab:runId": "r1" }, secretKeys: [] },
      {
        name: "dev",
        source: "x",
        config: { "lab:kind": "ceph-k0s", "lab:networkStack": "organization/storage-bench-lab/network", "lab:runId": "r1" },
        secretKeys: [],
      },
    ],
    plans: new Map(),
    upstreams: { network: [], dev: ["network"] },
    problems: [],
  };
  const ws = (who: WhoAmIResult | Error, stacks: StackSummary[] = []) => ({
    whoAmI: async () => {
      if (who instanceof Error) throw who;
      return who;
    },
    listStacks: async () => stacks,
  });
  const opts = { keep: false, workDir: "/p", scenario: "ceph-nitro", env: { PULUMI_CONFIG_PASSPHRASE: "" } };

  test("self-managed backend: organization/storage-bench-lab/<user>-<runId>-<stack>, references rewritten", async () => {
    const r = await backendChecks(ws({ user: "Alice Smith", url: "s3://lab-state" }), prep, opts);
    expect(r.problems).toEqual([]);
    expect(r.plan!.stacks.map((s) => [s.name, s.fqName, s.config["lab:networkStack"], s.upstreams])).toEqual([
      ["network", "organization/storage-bench-lab/alice-smith-r1-network", undefined, []],
      ["dev", "organization/storage-bench-lab/alice-smith-r1-dev", "organization/storage-bench-lab/alice-smith-r1-network", ["network"]],
    ]);
  });

  test("Pulumi Cloud: the user's organization unless --org", async () => {
    expect(runOrganization({ user: "alice", url: "https://api.pulumi.com" })).toBe("alice");
    expect(runOrganization({ user: "alice", url: "https://api.pulumi.com" }, "acme")).toBe("acme");
    expect(runOrganization({ user: "alice", url: "file://~" }, "acme")).toBe("organization");
  });

  test("not logged in, or a stack of the run taken already: the problem and how to fix it", async () => {
    expect(
      (
        await backendChecks(
          ws(new Error("error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions")),
          prep,
          opts,
        )
      ).problems,
    ).toEqual([
      "Pulumi backend: not logged in (pulumi whoami: error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions): run pulumi login (s3://<bucket>, --local, or Pulumi Cloud)",
    ]);
    const taken = await backendChecks(
      ws({ user: "alice", url: "s3://b" }, [{ name: "organization/storage-bench-lab/alice-r1-dev", current: false }]),
      prep,
      opts,
    );
    expect(taken.problems).toEqual([
      "stack dev: alice-r1-dev exists already (another run with this --run-id?): pick another --run-id, or destroy it (pulumi destroy --remove --stack alice-r1-dev)",
    ]);
    expect(taken.plan).toBeUndefined();
  });
});

describe("passphrase and Docker daemon", () => {
  const who = (url: string): WhoAmIResult => ({ user: "alice", url });
  test.each([
    [
      "s3://lab-state",
      {},
      "Pulumi backend: s3://lab-state is self-managed: its stacks' secrets are encrypted with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE",
    ],
    [
      "file:///home/a/.pulumi",
      { PULUMI_CONFIG_PASSPHRASE_FILE: "" },
      "Pulumi backend: file:///home/a/.pulumi is self-managed: its stacks' secrets are encrypted with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE",
    ],
    ["s3://lab-state", { PULUMI_CONFIG_PASSPHRASE: "" }, undefined],
    ["s3://lab-state", { PULUMI_CONFIG_PASSPHRASE_FILE: "/run/secrets/p" }, undefined],
    ["https://api.pulumi.com", {}, undefined],
  ])("backend %s with %j: %s", (url, env, expected) => {
    expect(passphraseProblem(who(url), env)).toBe(expected);
  });

  // A daemon that answers like the Engine API (GET /_ping, /version, /info) on the sockets that exist.
  const probe = (over: Partial<{ env: Record<string, string>; sockets: string[] }> = {}): DockerProbe => ({
    env: over.env ?? {},
    homeDir: "/home/a",
    os: "linux",
    arch: "x64",
    exists: (f: string) => (over.sockets ?? []).includes(f),
    readFile: () => undefined,
    get: async (_host: string, p: string) => {
      if (p === "/_ping") return { status: 200, body: "OK" };
      if (p === "/version") return { status: 200, body: JSON.stringify({ Os: "linux", Arch: "amd64" }) };
      return { status: 200, body: JSON.stringify({ OperatingSystem: "Debian GNU/Linux 12" }) };
    },
  });
  const stacks = [
    { name: "network", kind: "network" },
    { name: "fsx-eks-cluster", kind: "eks", needsDocker: true },
  ];
  test("a stack that builds an image and no daemon: one problem naming it; a socket or DOCKER_HOST: none; no image built: not asked", async () => {
    expect(await dockerProblems(stacks, probe())).toEqual([
      `Docker, needed by fsx-eks-cluster (eks) to build the images of lab:images (or give them instead: lab:toolsImage, lab:ombImage): no Docker daemon on this machine (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): ${INSTALL_DOCKER}`,
    ]);
    expect(await dockerProblems(stacks, probe({ sockets: ["/var/run/docker.sock"] }))).toEqual([]);
    expect(await dockerProblems(stacks, probe({ env: { DOCKER_HOST: "ssh://builder" } }))).toEqual([]);
    expect(await dockerProblems([stacks[0]], probe())).toEqual([]);
  });
});

describe("--secrets-provider", () => {
  test("a KMS key in the forms the Pulumi CLI takes, passphrase or default; anything else named with the rule", () => {
    for (const ok of [
      undefined,
      "passphrase",
      "default",
      "awskms://alias/lab-secrets?region=us-east-1",
      "awskms://1234abcd-12ab-34cd-56ef-1234567890ab?region=eu-west-1",
      "awskms://mrk-1234abcd12ab34cd56ef1234567890ab?region=us-east-1",
      "awskms:///arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      "awskms://alias/x?awssdk=v2&region=us-east-1&profile=lab",
      "awskms://alias/x?region=us-east-1&context_project=lab",
    ])
      expect([ok, secretsProviderProblems(ok)]).toEqual([ok, []]);
    const rule =
      "awskms://<key id or alias/<name>>?region=<region>, awskms:///<key ARN> (three slashes), passphrase or default (e.g. awskms://alias/lab-secrets?region=us-east-1)";
    expect(secretsProviderProblems("gcpkms://projects/p/locations/l/keyRings/r/cryptoKeys/k")).toEqual([
      `'--secrets-provider' must be ${rule}, got "gcpkms://projects/p/locations/l/keyRings/r/cryptoKeys/k"`,
    ]);
    // two slashes before an ARN: the CLI reads "arn" as a host (pulumi/pulumi#5074)
    expect(secretsProviderProblems("awskms://arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab")).toEqual([
      `'--secrets-provider' must be ${rule}: a key ARN takes three slashes (awskms:///arn:…), got "awskms://arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"`,
    ]);
    expect(secretsProviderProblems("awskms://alias/x?region=nowhere")).toHaveLength(1);
    expect(secretsProviderProblems("awskms://alias/x?colour=blue")).toHaveLength(1);
  });
  test("a self-managed backend asks no passphrase of stacks a KMS key encrypts; `passphrase` by name needs one on any backend", () => {
    const s3 = { user: "u", url: "s3://lab-state" } as never;
    const cloud = { user: "u", url: "https://api.pulumi.com" } as never;
    expect(passphraseProblem(s3, {}, "awskms://alias/lab-secrets?region=us-east-1")).toBeUndefined();
    expect(passphraseProblem(s3, {})).toMatch(/set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE$/);
    expect(passphraseProblem(cloud, {})).toBeUndefined();
    expect(passphraseProblem(cloud, {}, "passphrase")).toBe(
      "Pulumi backend: --secrets-provider passphrase encrypts the new stacks' secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE",
    );
    expect(passphraseProblem(cloud, { PULUMI_CONFIG_PASSPHRASE: "x" }, "passphrase")).toBeUndefined();
  });
});
