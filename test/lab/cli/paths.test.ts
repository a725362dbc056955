/** lab/cli/paths.ts: the CLI's path arguments, on real files, links, FIFOs and permissions as the kernel answers them. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkPaths, pathProblems, pathWhy } from "../../../lab/cli/paths";
import { UsageError } from "../../../lab/cli/errors";
import { asNobody, runsAsRoot } from "../../helpers/nobody";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-paths-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("pathWhy", () => {
  test("a file: present and readable passes; a directory, a FIFO, nothing are named", () => {
    const file = path.join(tmp, "out.json");
    fs.writeFileSync(file, "{}");
    execFileSync("mkfifo", [path.join(tmp, "fifo")]);
    expect(pathWhy(file, "file")).toBeUndefined();
    expect(pathWhy(tmp, "file")).toBe("it is a directory");
    expect(pathWhy(path.join(tmp, "fifo"), "file")).toBe("it is a FIFO");
    expect(pathWhy(path.join(tmp, "none"), "file")).toBe("no such file or directory");
    expect(pathWhy(path.join(file, "x"), "file")).toBe("a part of it is a file, not a directory");
    expect(pathWhy("", "file")).toBe("it is empty");
  });

  test("a directory through a symbolic link is a directory; a dangling link is nothing", () => {
    fs.mkdirSync(path.join(tmp, "real"));
    fs.symlinkSync(path.join(tmp, "real"), path.join(tmp, "link"));
    fs.symlinkSync(path.join(tmp, "gone"), path.join(tmp, "dangling"));
    expect(pathWhy(path.join(tmp, "link"), "dir")).toBeUndefined();
    expect(pathWhy(path.join(tmp, "link"), "work-dir")).toBeUndefined();
    expect(pathWhy(path.join(tmp, "dangling"), "dir")).toBe("no such file or directory");
    // mkdir -p cannot make a directory where a dangling link is (EEXIST)
    expect(pathWhy(path.join(tmp, "dangling"), "out-dir")).toBe("it is a symbolic link to nothing");
  });

  test("an output directory: existing, or created by mkdir -p under its nearest existing ancestor", () => {
    fs.writeFileSync(path.join(tmp, "f"), "");
    expect(pathWhy(path.join(tmp, "a", "b", "c"), "out-dir")).toBeUndefined();
    expect(pathWhy(path.join(tmp, "f"), "out-dir")).toBe("it is a file");
    expect(pathWhy(path.join(tmp, "f", "report"), "out-dir")).toBe("a part of it is a file, not a directory");
    // a work directory must exist already
    expect(pathWhy(path.join(tmp, "a"), "work-dir")).toBe("no such file or directory");
  });

  test("relative values resolve against the base given (the command's working directory)", () => {
    fs.mkdirSync(path.join(tmp, "results"));
    expect(pathWhy("results", "dir", tmp)).toBeUndefined();
    expect(pathWhy("results/x.json", "file", tmp)).toBe("no such file or directory");
  });
});

describe("pathProblems and checkPaths", () => {
  test("every problem at once, naming the option, the rule and the value as typed", () => {
    fs.writeFileSync(path.join(tmp, "f"), "");
    const args = [
      { option: "<dir>", value: "f", kind: "dir" as const, base: tmp },
      { option: "--out", value: "f/report", kind: "out-dir" as const, base: tmp },
      { option: "<dir>", value: ".", kind: "dir" as const, base: tmp },
    ];
    const lines = [
      `'<dir>' must be a readable directory (it is a file), got "f"`,
      `'--out' must be a directory this user can write into or create (a part of it is a file, not a directory), got "f/report"`,
    ];
    expect(pathProblems(args)).toEqual(lines);
    expect(() => checkPaths(args)).toThrow(new UsageError(lines.join("\n")));
    expect(() => checkPaths(args.slice(2))).not.toThrow();
  });
});

(runsAsRoot ? describe : describe.skip)("as another user: the kernel's permissions (run as nobody, uid 65534)", () => {
  test("an unreadable file, an unwritable directory, an unsearchable one, an uncreatable output directory", () => {
    const mod = path.resolve(__dirname, "../../../lab/cli/paths.ts");
    fs.chmodSync(tmp, 0o755);
    fs.writeFileSync(path.join(tmp, "secret"), "root only\n", { mode: 0o600 });
    fs.mkdirSync(path.join(tmp, "ro"), { mode: 0o555 });
    fs.mkdirSync(path.join(tmp, "closed"), { mode: 0o700 });
    const cases: [string, string][] = [
      [path.join(tmp, "secret"), "file"],
      [path.join(tmp, "ro"), "work-dir"],
      [path.join(tmp, "ro"), "dir"],
      [path.join(tmp, "closed"), "dir"],
      [path.join(tmp, "ro", "new", "report"), "out-dir"],
    ];
    const out = asNobody(
      `const p = require(${JSON.stringify(mod)}); console.log(JSON.stringify(${JSON.stringify(cases)}.map(([v, k]) => p.pathWhy(v, k) ?? null)))`,
    );
    expect(JSON.parse(out)).toEqual([
      "it cannot be read (EACCES)",
      "it cannot be written (EACCES)",
      null,
      "it cannot be read (EACCES)",
      `it does not exist and ${path.join(tmp, "ro")} cannot take it (EACCES)`,
    ]);
  }, 60000);
});
