/** The stacks the project ships, found as the tests' own listing of `Pulumi.<stack>.yaml` files in the root. */
import * as fs from "node:fs";
import { ROOT } from "./root";

/** Stack names of every `Pulumi.<stack>.yaml` (or `.yml`) in the project root, sorted. */
export const SHIPPED_STACKS: readonly string[] = fs
  .readdirSync(ROOT)
  .flatMap((f) => /^Pulumi\.(.+)\.ya?ml$/.exec(f)?.[1] ?? [])
  .sort();
