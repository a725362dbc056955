import { argProblem, ConfigError, formatArgProblem, formatValue, problem, throwIfProblems, ToolOutputError } from "../../core/errors";

describe("the one error format", () => {
  test("values as a user typed them", () => {
    expect([
      formatValue(undefined),
      formatValue("a"),
      formatValue(3),
      formatValue(false),
      formatValue(null),
      formatValue([1, "x"]),
    ]).toEqual(["nothing", '"a"', "3", "false", "null", '[1,"x"]']);
    expect(problem("lab:azCount", "an integer from 1 to 3", 4)).toBe("'lab:azCount' must be an integer from 1 to 3, got 4");
  });

  test("an argument problem rendered for a component's user and for a stack's user", () => {
    const p = argProblem("volumes[2].sizeGiB", "at most {storageCapacityGiB} GiB", 9);
    expect(formatArgProblem(p)).toBe("'volumes[2].sizeGiB' must be at most 'storageCapacityGiB' GiB, got 9");
    expect(formatArgProblem(p, (a) => `lab:${a}`)).toBe("'lab:volumes[2].sizeGiB' must be at most 'lab:storageCapacityGiB' GiB, got 9");
  });

  test("a path that is already a config key is printed as it is", () => {
    expect(formatArgProblem(argProblem("lab:<label>Stack", "set for 1 to 10 compared stacks", undefined), (a) => `lab:${a}`)).toBe(
      "'lab:<label>Stack' must be set for 1 to 10 compared stacks, got nothing",
    );
  });

  test("all problems at once; none, no error", () => {
    expect(() => throwIfProblems(["a", "b"])).toThrow(new ConfigError(["a", "b"]));
    expect(() => throwIfProblems([])).not.toThrow();
    expect(new ToolOutputError("out.json", "no jobs").message).toBe("out.json: no jobs");
  });
});
