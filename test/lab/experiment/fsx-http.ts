/**
 * The FSx API of a simulated {@link World}, over HTTP as the AWS SDK speaks it: the AWS JSON 1.1
 * protocol (POST /, `X-Amz-Target: AWSSimbaAPIService_v20180301.<Operation>`, JSON bodies; the
 * target prefix is @aws-sdk/client-fsx's `serviceTarget`), timestamps as epoch seconds, errors as
 * HTTP 400 with `{"__type": "<Error>", "Message": …}` (the FSx API Reference's "Common Errors" and
 * each operation's errors: BadRequest, FileSystemNotFound). Requests are not authenticated.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { FS_ID, World } from "./sim";

const TARGET = "AWSSimbaAPIService_v20180301.";

export interface FsxServer {
  readonly endpoint: string;
  /** The operations received, in order. */
  readonly operations: string[];
  close(): Promise<void>;
}

function fileSystem(w: World) {
  const v = w.fsxView();
  return {
    FileSystemId: v.id,
    FileSystemType: v.type,
    Lifecycle: v.lifecycle,
    StorageCapacity: 1024,
    OntapConfiguration: { DeploymentType: v.deploymentType, ThroughputCapacity: v.throughputCapacityMBps, HAPairs: 1 },
    AdministrativeActions: w.fsx.actions.map((a) => ({
      AdministrativeActionType: "FILE_SYSTEM_UPDATE",
      RequestTime: a.requestTime / 1000,
      Status: a.status,
      TargetFileSystemValues: { OntapConfiguration: { ThroughputCapacity: a.target } },
      ...(a.failure ? { FailureDetails: { Message: a.failure } } : {}),
    })),
  };
}

/** Serves `w`'s FSx on 127.0.0.1; `now` is the world's clock. */
export async function serveFsx(w: World, now: () => number): Promise<FsxServer> {
  const operations: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const reply = (status: number, doc: unknown, error?: string) => {
        res.writeHead(status, { "content-type": "application/x-amz-json-1.1", ...(error ? { "x-amzn-errortype": error } : {}) });
        res.end(JSON.stringify(doc));
      };
      const target = String(req.headers["x-amz-target"] ?? "");
      if (req.method !== "POST" || !target.startsWith(TARGET))
        return reply(400, { __type: "UnknownOperationException" }, "UnknownOperationException");
      const op = target.slice(TARGET.length);
      const input = JSON.parse(body || "{}");
      operations.push(`${op} ${JSON.stringify(input)}`);
      w.advance(now());
      try {
        if (op === "DescribeFileSystems") {
          w.call(`describe ${(input.FileSystemIds ?? []).join(",")}`);
          if (!(input.FileSystemIds ?? []).includes(FS_ID))
            return reply(400, { __type: "FileSystemNotFound", Message: "File system not found" }, "FileSystemNotFound");
          return reply(200, { FileSystems: [fileSystem(w)] });
        }
        if (op === "UpdateFileSystem") {
          w.call(`updateThroughput ${input.FileSystemId} ${input.OntapConfiguration?.ThroughputCapacity} ${input.ClientRequestToken}`);
          w.fsxUpdate(input.OntapConfiguration.ThroughputCapacity, input.ClientRequestToken);
          return reply(200, { FileSystem: fileSystem(w) });
        }
        return reply(400, { __type: "UnknownOperationException" }, "UnknownOperationException");
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        return reply(400, { __type: "BadRequest", Message: message }, "BadRequest");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    operations,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
