/**
 * The Pulumi CLI's own error lines out of an Automation API CommandError (both shapes of cmd.js).
 * The errors are built as cmd.js builds them (`message` = CommandResult.toString(), `commandResult`);
 * the real ones, from the real module against the stand-in CLI, are in ./standin-runner.test.ts.
 */
interface Result {
  stdout: string;
  stderr: string;
  code: number;
  err?: { stdout?: string; stderr?: string };
}
function createCommandError(r: Result) {
  const e = new Error(`code: ${r.code}\n stdout: ${r.stdout}\n stderr: ${r.stderr}\n err?: ${r.err ? String(r.err) : ""}\n`);
  return Object.assign(e, { name: "CommandError", commandResult: r });
}
const CommandResult = function (stdout: string, stderr: string, code: number, err?: Result["err"]): Result {
  return { stdout, stderr, code, err };
} as unknown as new (stdout: string, stderr: string, code: number, err?: Result["err"]) => Result;
import { pulumiError, pulumiErrorLines } from "../../../lab/run/cli-errors";

const stdout = [
  "Updating (dev)",
  "",
  "Diagnostics:",
  "  pulumi:pulumi:Stack (storage-bench-lab-dev):",
  "    error: update failed",
  "",
  "  aws:ec2:Instance (dev-worker-1):",
  "    error: creating EC2 Instance: InsufficientInstanceCapacity: We currently do not have sufficient m4.xlarge capacity",
  "",
  "Resources:",
  "    5 unchanged",
].join("\n");

describe("pulumiErrorLines", () => {
  test("3.248 shape: code -2, execa's message in stderr, the CLI's streams on err: the resource diagnostics, the generic line dropped", () => {
    const execaError = Object.assign(new Error("Command failed with exit code 255: pulumi up --yes"), { stdout, stderr: "" });
    const e = createCommandError(new CommandResult("", `Command failed with exit code 255: pulumi up --yes\n\n${stdout}`, -2, execaError));
    expect(e.message.split("\n")[0]).toBe("code: -2");
    expect(pulumiErrorLines(e)).toEqual([
      "aws:ec2:Instance (dev-worker-1): error: creating EC2 Instance: InsufficientInstanceCapacity: We currently do not have sufficient m4.xlarge capacity",
    ]);
  });

  test("a CLI error on stderr (newer shape: the streams on the result)", () => {
    const e = createCommandError(new CommandResult("", "error: no stack named 'org/p/x' found\n", 255));
    expect(pulumiError(e)).toBe("error: no stack named 'org/p/x' found");
  });

  test("several CLI errors joined; nothing from the CLI: the first line that is not 'code: n'", () => {
    const two = createCommandError(new CommandResult("", "error: a\nwarning: w\nerror: b\n", 255));
    expect(pulumiError(two)).toBe("error: a; error: b");
    const none = createCommandError(new CommandResult("", "spawn pulumi ENOENT", -2));
    expect(pulumiError(none)).toBe("spawn pulumi ENOENT");
    expect(pulumiError(new Error("plain failure\nmore"))).toBe("plain failure");
  });
});
