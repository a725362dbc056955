/** The parsers' shared reading of numbers (core/parsers/common.ts): exact, or an error / the text as it is. */
import { optionValue, scaleDecimal } from "../../../core/parsers/common";

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
