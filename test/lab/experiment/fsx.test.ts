/**
 * The FSx side: the lever's target per deployment type, finding an update among the
 * AdministrativeActions, and the real @aws-sdk/client-fsx calls (./fsx.ts `fsxApi`) against an HTTP
 * FSx that speaks the AWS JSON 1.1 protocol (./fsx-http.ts): what the SDK sends, how the answer is read.
 */
import { fsxApi, leverTarget, pendingThroughputAction, throughputAction, type FileSystemView } from "../../../lab/experiment/fsx";
import { serveFsx } from "./fsx-http";
import { FS_ID, T0, World } from "./sim";

describe("leverTarget: the next valid level up, or down at the top (components/fsx-ontap/rules.ts levels)", () => {
  test.each([
    ["MULTI_AZ_1", 128, 256],
    ["MULTI_AZ_1", 512, 1024],
    ["MULTI_AZ_1", 4096, 2048],
    ["MULTI_AZ_2", 384, 768],
    ["MULTI_AZ_2", 6144, 3072],
  ])("%s at %i MB/s → %i", (t, now, target) => {
    expect(leverTarget(t, now)).toBe(target);
  });

  test("Single-AZ and unknown levels are refused", () => {
    expect(() => leverTarget("SINGLE_AZ_2", 1536)).toThrow(
      "the AZ failover needs a Multi-AZ file system (MULTI_AZ_1 or MULTI_AZ_2), this one is SINGLE_AZ_2",
    );
    expect(() => leverTarget("MULTI_AZ_1", 300)).toThrow(
      "throughput capacity 300 MB/s is not a level of MULTI_AZ_1 (128, 256, 512, 1024, 2048, 4096)",
    );
  });
});

describe("the update among the AdministrativeActions", () => {
  const view: FileSystemView = {
    id: FS_ID,
    actions: [
      { type: "FILE_SYSTEM_UPDATE", status: "COMPLETED", requestTime: T0 - 86_400_000, targetThroughputMBps: 1024 },
      { type: "STORAGE_OPTIMIZATION", status: "IN_PROGRESS", requestTime: T0 },
      { type: "FILE_SYSTEM_UPDATE", status: "IN_PROGRESS", requestTime: T0 + 1_000, targetThroughputMBps: 1024 },
    ],
  };
  test("the newest throughput update to the target since the request (5 minutes of slack for clock skew), not yesterday's", () => {
    expect(throughputAction(view, 1024, T0 + 60_000)).toEqual(view.actions[2]);
    expect(throughputAction(view, 1024, T0 + 400_000)).toBeUndefined();
    expect(throughputAction(view, 2048, T0)).toBeUndefined();
  });
  test("a running throughput update; storage optimisation is not one", () => {
    expect(pendingThroughputAction(view)).toEqual(view.actions[2]);
    expect(pendingThroughputAction({ id: FS_ID, actions: [view.actions[0], view.actions[1]] })).toBeUndefined();
  });
});

describe("fsxApi: the AWS SDK against an FSx endpoint", () => {
  test("DescribeFileSystems and UpdateFileSystem on the wire, and the answers read", async () => {
    const w = new World();
    const server = await serveFsx(w, () => w.t);
    try {
      const api = fsxApi("us-east-1", {
        endpoint: server.endpoint,
        credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
      });
      expect(await api.describe(FS_ID)).toEqual({
        id: FS_ID,
        type: "ONTAP",
        lifecycle: "AVAILABLE",
        deploymentType: "MULTI_AZ_1",
        throughputCapacityMBps: 512,
        actions: [],
      });
      await api.updateThroughput(FS_ID, 1024, "lab-r1-lever");
      w.advance(T0 + 30_000);
      expect(await api.describe(FS_ID)).toEqual({
        id: FS_ID,
        type: "ONTAP",
        lifecycle: "UPDATING",
        deploymentType: "MULTI_AZ_1",
        throughputCapacityMBps: 512,
        actions: [{ type: "FILE_SYSTEM_UPDATE", status: "IN_PROGRESS", requestTime: T0, targetThroughputMBps: 1024 }],
      });
      expect(server.operations).toEqual([
        `DescribeFileSystems {"FileSystemIds":["${FS_ID}"]}`,
        `UpdateFileSystem {"FileSystemId":"${FS_ID}","ClientRequestToken":"lab-r1-lever","OntapConfiguration":{"ThroughputCapacity":1024}}`,
        `DescribeFileSystems {"FileSystemIds":["${FS_ID}"]}`,
      ]);
      // FSx's refusal reaches the caller with its message.
      await expect(api.updateThroughput(FS_ID, 512, "lab-r1-restore")).rejects.toThrow(
        "BadRequest: Unable to perform the update: an update is already in progress",
      );
      await expect(api.describe("fs-00000000000000000")).rejects.toThrow("File system not found");
    } finally {
      await server.close();
    }
  });
});
