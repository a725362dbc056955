/** The output contract of the fsx-eks stack the experiments read, and its reader (the Pulumi CLI's JSON). */
import { parseExperimentOutputs, readExperimentOutputs, StackOutputsError, type RunProgram } from "../../../lab/experiment/outputs";
import { OUTPUTS } from "./support";

const stack = "organization/storage-bench-lab/fsx-eks";

describe("parseExperimentOutputs", () => {
  test("what a deployed fsx-eks stack exports passes, other outputs ignored", () => {
    expect(parseExperimentOutputs(stack, { ...OUTPUTS, results: [], expiresAt: "2026-01-15T18:00:00Z" })).toEqual(OUTPUTS);
  });

  test("an older fsx-eks stack's outputs (no kubeconfig, region, fileSystemId, statefulSetName, writerPasswordSecretRef, storageClass, experimentAccess): every missing one named at once", () => {
    const today = {
      backendNames: ["fsx-ontap-nas"],
      storageClasses: ["fsx-ontap-nas", "gp3"],
      mysql: {
        namespace: "mysql",
        sourceHost: "mysql-0.mysql.mysql.svc.cluster.local",
        readHost: "mysql-read.mysql.svc.cluster.local",
        replicas: 3,
      },
      mysqlRootPassword: "x",
      toolsImage: OUTPUTS.toolsImage,
    };
    let err: unknown;
    try {
      parseExperimentOutputs(stack, today);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StackOutputsError);
    expect((err as StackOutputsError).problems).toEqual([
      "output 'kubeconfig' is missing",
      "output 'region' is missing",
      "output 'fileSystemId' is missing",
      "output 'mysql.statefulSetName' is missing",
      "output 'mysql.writerPasswordSecretRef' is missing",
      "output 'mysql.storageClass' is missing",
      "output 'experimentAccess' is missing",
    ]);
    expect((err as Error).message.split("\n")[0]).toBe(
      `stack ${stack} lacks what the failover experiments read (lab/experiment/outputs.ts; deploy it with stacks/fsx-eks exporting them):`,
    );
  });

  test("malformed values name the output and the rule", () => {
    expect(() => parseExperimentOutputs(stack, { ...OUTPUTS, fileSystemId: "fsx-1", toolsImage: "fio:latest" })).toThrow(
      new StackOutputsError(stack, [
        "output 'fileSystemId': an FSx file system id (fs-…)",
        `output 'toolsImage': an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest`,
      ]),
    );
  });
});

describe("readExperimentOutputs", () => {
  test("runs `pulumi stack output --json --show-secrets --stack <stack>` in the project directory", async () => {
    const seen: unknown[] = [];
    const run: RunProgram = async (file, args, opts) => {
      seen.push([file, args, opts]);
      return JSON.stringify(OUTPUTS);
    };
    expect(await readExperimentOutputs(stack, { cwd: "/project", run })).toEqual(OUTPUTS);
    expect(seen).toEqual([
      ["pulumi", ["stack", "output", "--json", "--show-secrets", "--stack", stack], { cwd: "/project", timeoutMs: 120_000 }],
    ]);
  });

  test("the CLI missing, failing, hanging, or printing no JSON: one clear line each", async () => {
    const failing =
      (e: object): RunProgram =>
      async () => {
        throw Object.assign(new Error("spawn"), e);
      };
    await expect(readExperimentOutputs(stack, { cwd: "/", run: failing({ code: "ENOENT" }) })).rejects.toThrow(
      "the Pulumi CLI (pulumi) is not on the PATH (https://www.pulumi.com/docs/install/)",
    );
    await expect(
      readExperimentOutputs(stack, { cwd: "/", run: failing({ code: 255, stderr: "error: no stack named 'fsx-eks' found\n" }) }),
    ).rejects.toThrow(`pulumi stack output --stack ${stack} failed: error: no stack named 'fsx-eks' found`);
    await expect(readExperimentOutputs(stack, { cwd: "/", run: failing({ killed: true }) })).rejects.toThrow(
      `pulumi stack output --stack ${stack} did not answer within 120s`,
    );
    await expect(readExperimentOutputs(stack, { cwd: "/", run: async () => "warning: …" })).rejects.toThrow(
      `pulumi stack output --stack ${stack} did not print JSON`,
    );
  });
});
