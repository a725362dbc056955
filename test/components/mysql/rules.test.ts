/** MySQL's rules and defaults (components/mysql/rules.ts): exact values and messages. */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatArgProblem } from "../../../core/errors";
import { MYSQL_DEFAULTS, MYSQL_PORT, MYSQL_UID, problems, resolve, XTRABACKUP_PORT } from "../../../components/mysql/rules";
import { MYSQL_IMAGE, XTRABACKUP_IMAGE } from "../../../components/versions";

describe("MySQL defaults and pins", () => {
  test("MySQL 8.4 and XtraBackup 8.4, pinned tags; three servers of 1 CPU / 2 GiB on 50 GiB volumes", () => {
    expect(MYSQL_IMAGE).toBe("docker.io/library/mysql:8.4.11");
    expect(XTRABACKUP_IMAGE).toBe("docker.io/percona/percona-xtrabackup:8.4.0-5.1");
    // XtraBackup's major.minor must be the server's (8.4 backs up 8.4 only).
    expect(XTRABACKUP_IMAGE.split(":")[1].slice(0, 3)).toBe(MYSQL_IMAGE.split(":")[1].slice(0, 3));
    // Within a major the version check passes (Percona 8.4 docs): the sidecar never overrides it.
    const sidecar = fs.readFileSync(path.join(__dirname, "..", "..", "..", "components", "mysql", "scripts", "xtrabackup.sh"), "utf8");
    expect(sidecar).toContain("--backup --slave-info --stream=xbstream");
    expect(sidecar).not.toContain("--no-server-version-check");
    expect(MYSQL_DEFAULTS).toEqual({
      namespace: "mysql",
      replicas: 3,
      volumeGiB: 50,
      cpu: "1",
      memory: "2Gi",
      image: MYSQL_IMAGE,
      xtrabackupImage: XTRABACKUP_IMAGE,
    });
    expect(resolve({ storageClass: "fsx-ontap-nas" })).toEqual({ ...MYSQL_DEFAULTS, storageClass: "fsx-ontap-nas" });
    expect([MYSQL_UID, MYSQL_PORT, XTRABACKUP_PORT]).toEqual([999, 3306, 3307]);
  });
});

describe("MySQL rules", () => {
  test("a valid spec has no problem", () => {
    expect(problems({ storageClass: "fsx-ontap-nas", replicas: 5, volumeGiB: 100, cpu: "500m", memory: "4Gi" })).toEqual([]);
  });

  test("every problem at once, exact", () => {
    expect(
      problems({
        namespace: "My_NS",
        storageClass: "",
        replicas: 6,
        volumeGiB: 0,
        cpu: "1 core",
        memory: "2GB",
        image: "mysql:latest",
        xtrabackupImage: "percona/percona-xtrabackup",
      }).map((p) => formatArgProblem(p)),
    ).toEqual([
      `'namespace' must be an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got "My_NS"`,
      `'storageClass' must be a StorageClass name: a DNS subdomain: lowercase labels joined by '.', at most 253 characters, got ""`,
      `'replicas' must be an integer from 1 to 5 (mysql-0 the source, the others replicas), got 6`,
      `'volumeGiB' must be an integer from 1 to 16384 (GiB), got 0`,
      `'cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "1 core"`,
      `'memory' must be a Kubernetes memory quantity (e.g. "4Gi"), got "2GB"`,
      `'image' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "mysql:latest"`,
      `'xtrabackupImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "percona/percona-xtrabackup"`,
    ]);
  });
});
