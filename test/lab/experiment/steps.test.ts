/**
 * The step runner and the cleanup on the real clock: a call that never answers fails its step at
 * the deadline; a cleanup action that hangs is reported as left; an action the flow ran and that
 * failed stays for the final cleanup; the progress lines.
 */
import { Cleanup, Interrupted, realTime, Steps, StepTimeout, type ExperimentEnv } from "../../../lab/experiment/steps";

function env(interrupts?: ExperimentEnv["interrupts"]): ExperimentEnv & { lines: string[] } {
  const lines: string[] = [];
  return { ...realTime, line: (s) => lines.push(s), lines, hungCallSlackMs: 50, ...(interrupts ? { interrupts } : {}) };
}
const never = () => new Promise<never>(() => undefined);

describe("Steps", () => {
  test("a call that never answers fails the step once its deadline (+ the slack) has passed on the real clock", async () => {
    const e = env();
    const steps = new Steps("x", 2, e);
    await expect(steps.run("hang", 150, never)).rejects.toThrow(
      new StepTimeout("timed out after 0s: a call to the cluster or FSx did not answer"),
    );
    expect(e.lines).toEqual(["+00:00:00 x [1/2] hang: failed after 0s: timed out after 0s: a call to the cluster or FSx did not answer"]);
    expect(steps.current).toBe("hang");
  });

  test("waitFor polls until there is a value; its timeout names what it waited for and the last status", async () => {
    const e = env();
    const steps = new Steps("x", 2, e);
    let n = 0;
    expect(await steps.run("poll", 5_000, (c) => c.waitFor("three", async () => (++n === 3 ? n : undefined), 10))).toBe(3);
    await expect(
      steps.run("poll again", 100, (c) =>
        c.waitFor(
          "Godot",
          async () => undefined,
          20,
          () => "still not here",
        ),
      ),
    ).rejects.toThrow("timed out after 0s waiting for Godot (still not here)");
  });

  test("Ctrl-C interrupts a running step at once, and no later step starts", async () => {
    const abort = new AbortController();
    const stop = new AbortController();
    const e = env({ abort: abort.signal, stop: stop.signal });
    const steps = new Steps("x", 2, e);
    setTimeout(() => abort.abort(), 50);
    await expect(steps.run("long", 60_000, (c) => c.sleep(30_000))).rejects.toThrow(new Interrupted());
    await expect(steps.run("next", 60_000, async () => 1)).rejects.toThrow(new Interrupted());
    expect(e.lines.map((l) => l.replace(/after \d+s/, "after Ns"))).toEqual([
      "+00:00:00 x [1/2] long: interrupted after Ns: interrupted (Ctrl-C)",
      "+00:00:00 x [2/2] next: interrupted after Ns: interrupted (Ctrl-C)",
    ]);
  });
});

describe("Cleanup", () => {
  test("newest first, each under its own timeout: a hanging action is left with its leftover and why", async () => {
    const e = env();
    const c = new Cleanup(e);
    c.add({ key: "a", leftover: "A is left: undo-a", timeoutMs: 1_000, run: async () => "undid A" });
    c.add({ key: "b", leftover: "B is left: undo-b", timeoutMs: 100, run: never });
    c.add({ key: "c", leftover: "C is left: undo-c", timeoutMs: 1_000, run: async () => "undid C" });
    expect(await c.runAll()).toEqual({ done: ["undid C", "undid A"], left: ["B is left: undo-b (no answer within 0s)"] });
    expect(e.lines).toEqual([
      "          cleanup: undid C",
      "          cleanup: NOT done: B is left: undo-b (no answer within 0s)",
      "          cleanup: undid A",
    ]);
  });

  test("an action the flow ran that failed stays registered, and the final cleanup runs it again", async () => {
    const c = new Cleanup(env());
    let calls = 0;
    c.add({
      key: "x",
      leftover: "X: undo-x",
      timeoutMs: 1_000,
      run: async () => {
        if (++calls === 1) throw new Error("first time fails");
        return "undid X";
      },
    });
    await expect(c.runNow("x", new AbortController().signal)).rejects.toThrow("first time fails");
    expect(c.has("x")).toBe(true);
    expect(await c.runAll()).toEqual({ done: ["undid X"], left: [] });
    expect(calls).toBe(2);
  });

  test("an action registered twice is a programming error", () => {
    const c = new Cleanup(env());
    c.add({ key: "x", leftover: "", timeoutMs: 1, run: async () => "" });
    expect(() => c.add({ key: "x", leftover: "", timeoutMs: 1, run: async () => "" })).toThrow("cleanup action x registered twice");
  });
});
