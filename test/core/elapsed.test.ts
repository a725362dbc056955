import { formatElapsed, stamp } from "../../core/elapsed";

describe("formatElapsed", () => {
  it("writes seconds, minutes and hours, rounding to the second", () => {
    expect(formatElapsed(0)).toBe("0s");
    expect(formatElapsed(-5000)).toBe("0s");
    expect(formatElapsed(1499)).toBe("1s");
    expect(formatElapsed(1500)).toBe("2s");
    expect(formatElapsed(65_000)).toBe("1m05s");
    expect(formatElapsed(3_725_000)).toBe("1h02m05s");
    expect(formatElapsed(3_600_000)).toBe("1h00m00s");
  });
});

describe("stamp", () => {
  it("writes +hh:mm:ss since the start, down to the second", () => {
    expect(stamp(0)).toBe("+00:00:00");
    expect(stamp(-1)).toBe("+00:00:00");
    expect(stamp(1999)).toBe("+00:00:01");
    expect(stamp(3_725_000)).toBe("+01:02:05");
    expect(stamp(100 * 3_600_000)).toBe("+100:00:00");
  });
});
