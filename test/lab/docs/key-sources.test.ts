/**
 * Issue 45's rule: every key of every shipped kind names the rule of the system that consumes its
 * value and where that rule is written (its field's `@source` tag), or why it is free text
 * (`@freeText`). The generated tables show it (docs/kinds/*.md); this walks the rows they are made of.
 */
import { commonRows, configProgram, KIND_DOCS, keyRows, renderKeyTable } from "../../../lab/docs/keys";
import { ROOT } from "../../helpers/root";

const program = configProgram(ROOT);
const rows = [
  ...commonRows(ROOT, program).map((r) => ({ kind: "every kind", ...r })),
  ...KIND_DOCS.flatMap((k) => keyRows(ROOT, k, program).map((r) => ({ kind: k.kind, ...r }))),
];

describe("the consumer's rule and its source, for every key", () => {
  test("the walk covers every kind and the keys every kind has", () => {
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(["every kind", ...KIND_DOCS.map((k) => k.kind)]));
    expect(rows.length).toBeGreaterThan(100);
  });

  test("no key without a source or a stated reason", () => {
    expect(rows.filter((r) => r.source === "").map((r) => `${r.kind} ${r.key}`)).toEqual([]);
  });

  test("a source names where the rule is written (a URL or a file), not only a system", () => {
    const vague = rows.filter((r) => !r.source.startsWith("free text: ") && !/https?:\/\/|[\w-]+\/[\w./-]+|\.\w+(:\d+)?\b/.test(r.source));
    expect(vague.map((r) => `${r.kind} ${r.key}: ${r.source}`)).toEqual([]);
  });

  test("the table shows it in its own column", () => {
    const table = renderKeyTable([
      {
        key: "lab:x",
        type: "string",
        required: false,
        default: "",
        rule: "a thing",
        source: "Kafka: an int — a/b.java:1",
        description: "d",
      },
    ]);
    expect(table.split("\n")).toEqual([
      "| key | type | default | rule (as the check words it) | the consumer's rule and its source | what it is |",
      "|---|---|---|---|---|---|",
      "| `lab:x` | string | — | a thing | Kafka: an int — a/b.java:1 | d |",
    ]);
  });
});
