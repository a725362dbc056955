/**
 * Helpers shared by the tool-output parsers: reading a JSON document out of a tool's output,
 * typed field access that names what is missing, and exact decimal arithmetic for figures tools
 * print as text. Pure: no I/O, no Pulumi.
 */
import { ToolOutputError } from "../errors";
import type { MetadataValue } from "../sample";

/** A parsed JSON object. */
export type JsonObject = { [key: string]: unknown };

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Line endings normalised to `\n`, a leading byte-order mark dropped. */
export function normaliseText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/** Throws `<file>: is empty; expected <expected>` when the text holds nothing but white space. */
export function requireNonEmpty(text: string, file: string, expected: string): void {
  if (text.trim() === "") throw new ToolOutputError(file, `is empty; expected ${expected}`);
}

/** Where a JSON document starts inside a tool's output. */
export interface JsonStart {
  /** Character offset of the opening bracket. */
  readonly offset: number;
  /** 1-based line number of the opening bracket. */
  readonly line: number;
}

/**
 * Finds the first line whose first non-blank character is `opener`: tools print warnings
 * ("note: ...", "fio: pid=...") on lines of their own before the document, never on its first line.
 */
export function findJsonStart(text: string, opener: "{" | "["): JsonStart | undefined {
  let offset = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const indent = line.length - line.trimStart().length;
    if (line.trimStart().startsWith(opener)) return { offset: offset + indent, line: i + 1 };
    offset += line.length + 1;
  }
  return undefined;
}

/**
 * Parses the JSON document (object or array) that starts at `start`. A document whose brackets
 * never balance is reported as truncated, any other syntax problem as malformed, and a second
 * document after it (two runs in one file) as an error too; text after the document that is not
 * JSON (fio's `json,normal` output) is ignored. `label` names the document ("fio JSON").
 */
export function parseJsonAt(text: string, start: JsonStart, file: string, label: string): unknown {
  const opener = text[start.offset] as "{" | "[";
  const end = matchingClose(text, start.offset);
  if (end === undefined) {
    const what = opener === "{" ? "object" : "array";
    throw new ToolOutputError(file, `${label} is truncated: the ${what} opened on line ${start.line} is never closed`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start.offset, end + 1)) as unknown;
  } catch (e) {
    throw new ToolOutputError(file, `${label} is malformed: ${(e as Error).message}`);
  }
  const after = text.slice(end + 1);
  const second = findJsonStart(after, opener);
  if (second !== undefined) {
    const line = start.line + (text.slice(start.offset, end + 1).split("\n").length - 1) + second.line - 1;
    throw new ToolOutputError(file, `holds more than one ${label} document (another starts on line ${line}); give one run a file`);
  }
  return value;
}

/** Offset of the bracket closing the one at `open`, skipping brackets inside strings. */
function matchingClose(text: string, open: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return undefined;
}

/**
 * Reads typed fields of one JSON object, naming the field by its path when it is missing or of
 * the wrong type: `jobs[0] ("seed"): "read.bw_bytes" is missing`.
 */
export class JsonFields {
  constructor(
    private readonly obj: JsonObject,
    private readonly file: string,
    /** What the object is, for messages, e.g. `jobs[0] ("seed")`. */
    private readonly where: string,
    /** Path prefix of the object's fields, e.g. `read.`. */
    private readonly prefix = "",
  ) {}

  /** A required finite number. */
  number(key: string): number {
    const v = this.obj[key];
    if (typeof v !== "number" || !Number.isFinite(v)) throw this.problem(key, "a number", v);
    return v;
  }

  /** A required string. */
  string(key: string): string {
    const v = this.obj[key];
    if (typeof v !== "string") throw this.problem(key, "a string", v);
    return v;
  }

  /** A required nested object, as fields of their own. */
  object(key: string): JsonFields {
    const v = this.obj[key];
    if (!isJsonObject(v)) throw this.problem(key, "an object", v);
    return new JsonFields(v, this.file, this.where, `${this.prefix}${key}.`);
  }

  /** A nested object when present. */
  optionalObject(key: string): JsonFields | undefined {
    return this.has(key) ? this.object(key) : undefined;
  }

  /** A number when present. */
  optionalNumber(key: string): number | undefined {
    return this.has(key) ? this.number(key) : undefined;
  }

  /** A required array of finite numbers. */
  numbers(key: string): number[] {
    const v = this.obj[key];
    if (!Array.isArray(v)) throw this.problem(key, "an array of numbers", v);
    v.forEach((x, i) => {
      if (typeof x !== "number" || !Number.isFinite(x)) throw this.problem(`${key}[${i}]`, "a number", x);
    });
    return v as number[];
  }

  /** True when the key is present (even as null). */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.obj, key);
  }

  /** The underlying object. */
  get raw(): JsonObject {
    return this.obj;
  }

  private problem(key: string, rule: string, value: unknown): ToolOutputError {
    const at = this.where === "" ? "" : `${this.where}: `;
    const field = `"${this.prefix}${key}"`;
    if (value === undefined) return new ToolOutputError(this.file, `${at}${field} is missing`);
    return new ToolOutputError(this.file, `${at}${field} must be ${rule}, got ${JSON.stringify(value)}`);
  }
}

/** Arithmetic mean; the caller guarantees at least one value. */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * `digits × multiplier` for a plain decimal string, exact up to one final rounding: "75.6" with
 * multiplier 1048576 is 756 × 1048576 / 10, so a figure a tool printed with a unit prefix
 * converts to the double nearest the true product, as if the tool had printed that product.
 */
export function scaleDecimal(digits: string, multiplier: number): number {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(digits);
  if (!m) throw new Error(`not a plain decimal: ${digits}`);
  const fraction = m[2] ?? "";
  const mantissa = Number(m[1] + fraction);
  return (mantissa * multiplier) / 10 ** fraction.length;
}

/** A tool option's text as metadata: plain decimal integers and fractions become numbers. */
export function optionValue(text: string): MetadataValue {
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/.test(text) ? Number(text) : text;
}
