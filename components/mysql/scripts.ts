/**
 * Reads the MySQL StatefulSet's container scripts from `components/mysql/scripts/`, their one
 * home (the ConfigMap carries them; the tests run shellcheck on the same files).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const MYSQL_SCRIPTS_DIR = path.join(__dirname, "scripts");

/** The scripts, by file name. */
export const MYSQL_SCRIPT_FILES = ["init-mysql.sh", "clone-mysql.sh", "xtrabackup.sh"] as const;
export type MySqlScripts = Readonly<Record<(typeof MYSQL_SCRIPT_FILES)[number], string>>;

export function readMySqlScripts(dir: string = MYSQL_SCRIPTS_DIR): MySqlScripts {
  return Object.fromEntries(MYSQL_SCRIPT_FILES.map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")])) as MySqlScripts;
}
