/**
 * The FSx for ONTAP side of the AZ-failover experiment: the lever and the watch, through the FSx
 * API directly (@aws-sdk/client-fsx 3.1098.0), not through the fsx-ontap stack's config and a
 * `pulumi up`:
 *
 * - the lever is one `UpdateFileSystem` with `OntapConfiguration.ThroughputCapacity`, and the
 *   restore is a second one back to the original value, so the stack's state (which holds the
 *   original) matches the file system again and a later `pulumi preview` shows no change; the
 *   Automation API route would rewrite the shipped `Pulumi.<stack>.yaml` twice and run two updates
 *   of the whole fsx-ontap stack to change one number;
 * - the watch needs the API anyway: `DescribeFileSystems` lists the file system's
 *   `AdministrativeActions`, which is how FSx reports an update's progress.
 *
 * Facts (FSx API Reference and the FSx for ONTAP User Guide, "Managing throughput capacity"):
 * - changing the throughput capacity "switches out the file server": Multi-AZ file systems fail
 *   over to the standby file server and back ("automatic failover and failback ... typically takes
 *   a few minutes"); that is the AZ failover this experiment exercises;
 * - the update is a `FILE_SYSTEM_UPDATE` administrative action whose `TargetFileSystemValues.
 *   OntapConfiguration.ThroughputCapacity` is the new value and whose `Status` goes PENDING →
 *   IN_PROGRESS → COMPLETED (or FAILED, with `FailureDetails.Message`); `RequestTime` is when FSx
 *   received it; the file system's `ThroughputCapacity` shows the new value once it is COMPLETED
 *   (managing-throughput-capacity.md, "Monitoring changes with the AWS CLI and API"; the Status
 *   enum of the SDK also has UPDATED_OPTIMIZING, OPTIMIZING, PAUSED, CANCELLED);
 * - valid levels per HA pair: MULTI_AZ_1 128–4096, MULTI_AZ_2 384–6144 (components/fsx-ontap/rules.ts
 *   `THROUGHPUT_PER_HA_PAIR_MBPS`, their one home); Multi-AZ file systems have one HA pair;
 * - `ClientRequestToken` makes a retried `UpdateFileSystem` idempotent (at most 63 of
 *   `[A-za-z0-9_.-]`, API_UpdateFileSystem).
 */
import { DescribeFileSystemsCommand, FSxClient, UpdateFileSystemCommand, type FileSystem } from "@aws-sdk/client-fsx";
import { isMultiAz, THROUGHPUT_PER_HA_PAIR_MBPS, type DeploymentType } from "../../components/fsx-ontap/rules";

/** An administrative action, as far as the experiment reads it. */
export interface ActionView {
  readonly type: string;
  readonly status: string;
  /** When FSx received the request (ms since the epoch). */
  readonly requestTime?: number;
  /** The throughput capacity the action moves to, for a throughput update. */
  readonly targetThroughputMBps?: number;
  readonly failure?: string;
}

/** A file system, as far as the experiment reads it. */
export interface FileSystemView {
  readonly id: string;
  readonly type?: string;
  readonly lifecycle?: string;
  readonly deploymentType?: string;
  readonly throughputCapacityMBps?: number;
  readonly actions: readonly ActionView[];
}

/** The two calls the experiment makes. */
export interface FsxApi {
  describe(fileSystemId: string): Promise<FileSystemView>;
  /** Requests a throughput change; `token` makes a retry idempotent. */
  updateThroughput(fileSystemId: string, throughputCapacityMBps: number, token: string): Promise<void>;
}

/** Statuses after which an action does nothing more. */
export const FINAL_STATUSES: readonly string[] = ["COMPLETED", "FAILED", "CANCELLED"];

/** The SDK's file system → {@link FileSystemView}. */
export function fileSystemView(fs: FileSystem): FileSystemView {
  return {
    id: fs.FileSystemId ?? "",
    ...(fs.FileSystemType ? { type: fs.FileSystemType } : {}),
    ...(fs.Lifecycle ? { lifecycle: fs.Lifecycle } : {}),
    ...(fs.OntapConfiguration?.DeploymentType ? { deploymentType: fs.OntapConfiguration.DeploymentType } : {}),
    ...(fs.OntapConfiguration?.ThroughputCapacity !== undefined
      ? { throughputCapacityMBps: fs.OntapConfiguration.ThroughputCapacity }
      : {}),
    actions: (fs.AdministrativeActions ?? []).map((a) => {
      const target = a.TargetFileSystemValues?.OntapConfiguration?.ThroughputCapacity;
      return {
        type: a.AdministrativeActionType ?? "",
        status: a.Status ?? "",
        ...(a.RequestTime ? { requestTime: a.RequestTime.getTime() } : {}),
        ...(target !== undefined ? { targetThroughputMBps: target } : {}),
        ...(a.FailureDetails?.Message ? { failure: a.FailureDetails.Message } : {}),
      };
    }),
  };
}

/** The FSx API in `region` (credentials and endpoint as the AWS SDK resolves them, or given). */
export function fsxApi(
  region: string,
  opts: { endpoint?: string; credentials?: { accessKeyId: string; secretAccessKey: string } } = {},
): FsxApi {
  const client = new FSxClient({
    region,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
  });
  return {
    async describe(fileSystemId) {
      const r = await client.send(new DescribeFileSystemsCommand({ FileSystemIds: [fileSystemId] }));
      const fs = r.FileSystems?.[0];
      if (fs === undefined) throw new Error(`DescribeFileSystems returned no file system ${fileSystemId}`);
      return fileSystemView(fs);
    },
    async updateThroughput(fileSystemId, throughputCapacityMBps, token) {
      await client.send(
        new UpdateFileSystemCommand({
          FileSystemId: fileSystemId,
          ClientRequestToken: token,
          OntapConfiguration: { ThroughputCapacity: throughputCapacityMBps },
        }),
      );
    },
  };
}

/**
 * The level the lever moves a Multi-AZ file system to: the next valid level up, or the next down
 * at the top (4096 → 2048 for MULTI_AZ_1). Throws for a Single-AZ file system or a value that is
 * not a valid level of its deployment type.
 */
export function leverTarget(deploymentType: string, currentMBps: number): number {
  if (!(deploymentType in THROUGHPUT_PER_HA_PAIR_MBPS) || !isMultiAz(deploymentType as DeploymentType)) {
    throw new Error(`the AZ failover needs a Multi-AZ file system (MULTI_AZ_1 or MULTI_AZ_2), this one is ${deploymentType}`);
  }
  const levels = THROUGHPUT_PER_HA_PAIR_MBPS[deploymentType as DeploymentType];
  const i = levels.indexOf(currentMBps);
  if (i < 0) throw new Error(`throughput capacity ${currentMBps} MB/s is not a level of ${deploymentType} (${levels.join(", ")})`);
  return i + 1 < levels.length ? levels[i + 1] : levels[i - 1];
}

/** The newest throughput update to `targetMBps` received at or after `sinceMs` (FSx's clock, with 5 minutes of slack for clock skew). */
export function throughputAction(view: FileSystemView, targetMBps: number, sinceMs: number): ActionView | undefined {
  const slack = 5 * 60_000;
  return view.actions
    .filter(
      (a) =>
        a.type === "FILE_SYSTEM_UPDATE" &&
        a.targetThroughputMBps === targetMBps &&
        (a.requestTime === undefined || a.requestTime >= sinceMs - slack),
    )
    .sort((a, b) => (b.requestTime ?? 0) - (a.requestTime ?? 0))[0];
}

/** A throughput update that has not reached a final status. */
export function pendingThroughputAction(view: FileSystemView): ActionView | undefined {
  return view.actions.find(
    (a) => a.type === "FILE_SYSTEM_UPDATE" && a.targetThroughputMBps !== undefined && !FINAL_STATUSES.includes(a.status),
  );
}
