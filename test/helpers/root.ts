/** The project root and the steering repo's shared/ folder beside it, for tests that read files. */
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const SHARED = path.resolve(ROOT, "..", "shared");
