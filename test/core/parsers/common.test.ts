/** The parsers' shared reading of numbers (core/parsers/common.ts): exact, or an error / the text as it is. */
import {
  findJsonStart,
  isJsonObject,
  JsonFields,
  normaliseText,
  optionValue,
  parseJsonAt,
  scaleDecimal,
} from "../../../core/parsers/common";

describe("optionValue: a tool option's text as sample metadata", () => {
  test.each<[string, string | number]>([
    ["64", 64],
    ["0", 0],
    ["-2.50", -2.5],
    ["0.75", 0.75],
    // not plain decimals: kept as text (fio's "4k", "64M", version-like or padded values)
    ["4k", "4k"],
    ["1.5x", "1.5x"],
    ["x1", "x1"],
    ["1.", "1."],
    ["01", "01"],
    ["1.2.3", "1.2.3"],
    ["1.a5", "1.a5"],
    ["", ""],
  ])("%j → %j", (text, value) => {
    expect(optionValue(text)).toBe(value);
  });
});

describe("scaleDecimal: digits × a unit's multiplier, one rounding", () => {
  test("exact products", () => {
    expect(scaleDecimal("75.6", 2 ** 20)).toBe(79272345.6);
    expect(scaleDecimal("58.0", 1e3)).toBe(58000);
    expect(scaleDecimal("3", 1024)).toBe(3072);
    expect(scaleDecimal("0.125", 8)).toBe(1);
  });
  test.each(["", "1.", ".5", "1e3", "-1", "1.5x", "x1.5", "1,5"])("%j is not a plain decimal", (digits) => {
    expect(() => scaleDecimal(digits, 1)).toThrow(`not a plain decimal: ${digits}`);
  });
});

describe("the shared JSON reading (edges a mutation test found untested)", () => {
  test("isJsonObject: objects only", () => {
    expect([isJsonObject({}), isJsonObject(null), isJsonObject([]), isJsonObject("{}"), isJsonObject(1)]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  test("normaliseText: a leading byte-order mark dropped (not one inside), CRLF and lone CR become LF", () => {
    expect(normaliseText("\uFEFFa\r\nb\rc\n")).toBe("a\nb\nc\n");
    expect(normaliseText("a\uFEFFb")).toBe("a\uFEFFb");
    expect(normaliseText("a\r\r\nb")).toBe("a\n\nb");
  });

  test("findJsonStart: the offset of the opener on the first line starting with it, after its indent", () => {
    expect(findJsonStart("note: x\n  {\n}", "{")).toEqual({ offset: 10, line: 2 });
    expect(findJsonStart("a {\n\t[1]\n", "[")).toEqual({ offset: 5, line: 2 });
    expect(findJsonStart("{ } \n", "{")).toEqual({ offset: 0, line: 1 });
    expect(findJsonStart("x\ny\n", "{")).toBeUndefined();
  });

  test("parseJsonAt: brackets and escaped quotes inside strings do not count; text after the document is ignored", () => {
    const text = 'warn\n{"a": "}]\\"{[", "b": [1, {"c": "\\\\"}]}\ntrailing text';
    expect(parseJsonAt(text, findJsonStart(text, "{")!, "f", "x JSON")).toEqual({ a: '}]"{[', b: [1, { c: "\\" }] });
    expect(() => parseJsonAt('{"a": "}', { offset: 0, line: 1 }, "f", "x JSON")).toThrow(
      "f: x JSON is truncated: the object opened on line 1 is never closed",
    );
    expect(() => parseJsonAt('[1, "]"', { offset: 0, line: 1 }, "f", "x JSON")).toThrow(
      "f: x JSON is truncated: the array opened on line 1 is never closed",
    );
    expect(() => parseJsonAt("{}\n\n {}", { offset: 0, line: 1 }, "f", "x JSON")).toThrow(
      "f: holds more than one x JSON document (another starts on line 3); give one run a file",
    );
  });

  test("JsonFields: a number must be a JSON number, a string a string; the path and the value are named", () => {
    const f = new JsonFields({ n: "5", s: 5, a: [1, "2"], o: [], ok: 3, nul: null }, "f.json", "jobs[0]", "read.");
    expect(() => f.number("n")).toThrow('f.json: jobs[0]: "read.n" must be a number, got "5"');
    expect(() => f.number("nul")).toThrow('f.json: jobs[0]: "read.nul" must be a number, got null');
    expect(() => f.string("s")).toThrow('f.json: jobs[0]: "read.s" must be a string, got 5');
    expect(() => f.numbers("a")).toThrow('f.json: jobs[0]: "read.a[1]" must be a number, got "2"');
    expect(() => f.numbers("ok")).toThrow('f.json: jobs[0]: "read.ok" must be an array of numbers, got 3');
    expect(() => f.object("o")).toThrow('f.json: jobs[0]: "read.o" must be an object, got []');
    expect(() => f.number("gone")).toThrow('f.json: jobs[0]: "read.gone" is missing');
    expect(f.number("ok")).toBe(3);
    expect([f.has("nul"), f.has("gone"), f.optionalNumber("gone"), f.optionalObject("gone")]).toEqual([true, false, undefined, undefined]);
    expect(() => new JsonFields({}, "f.json", "").number("x")).toThrow('f.json: "x" is missing');
    expect(new JsonFields({ a: [1, 2.5] }, "f", "").numbers("a")).toEqual([1, 2.5]);
  });
});
