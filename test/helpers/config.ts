import { ConfigError } from "../../core/errors";

/**
 * The problems of the ConfigError `f` throws, in order. Fails the test when `f` throws nothing
 * (unless `noneIsEmpty`, then [] ) or throws something else.
 */
export function problemsOf(f: () => unknown, noneIsEmpty = false): readonly string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  if (noneIsEmpty) return [];
  throw new Error("no ConfigError thrown");
}
