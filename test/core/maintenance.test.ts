/**
 * core/maintenance.ts: a repetition's window against FSx's weekly maintenance window (d:HH:MM UTC,
 * Monday 1 … Sunday 7, FSx API WeeklyMaintenanceStartTime), across day and week boundaries.
 */
import { maintenanceOverlapMetadata, maintenanceSpanMinutes, overlapsWeeklyWindow, weeklyMinute } from "../../core/maintenance";

const at = (iso: string) => new Date(iso);
// 2026-12-06 is a Sunday, 2026-12-07 a Monday.
describe("weeklyMinute", () => {
  test.each([
    ["1:00:00", 0],
    ["7:02:00", 6 * 1440 + 120],
    ["7:23:59", 7 * 1440 - 1],
    ["3:10:30", 2 * 1440 + 630],
  ])("%s is minute %d of the week", (t, m) => expect(weeklyMinute(t)).toBe(m));
  test.each(["0:02:00", "8:02:00", "7:24:00", "7:2:00", "7:02", "7:02:60", ""])("%j is no weekly time", (t) =>
    expect(weeklyMinute(t)).toBeUndefined(),
  );
});

describe("maintenanceSpanMinutes", () => {
  test("two file servers an HA pair, up to an hour each", () => {
    expect([maintenanceSpanMinutes(1), maintenanceSpanMinutes(12)]).toEqual([120, 1440]);
    expect(() => maintenanceSpanMinutes(0)).toThrow("haPairs must be a whole number of at least 1, got 0");
  });
});

describe("overlapsWeeklyWindow", () => {
  test.each([
    // window Sunday 02:00 for 120 min
    ["inside", "7:02:00", "2026-12-06T02:30:00Z", "2026-12-06T02:40:00Z", true],
    ["ends as it starts", "7:02:00", "2026-12-06T01:00:00Z", "2026-12-06T02:00:00Z", true],
    ["ends a second before", "7:02:00", "2026-12-06T01:00:00Z", "2026-12-06T01:59:59Z", false],
    ["starts as it ends", "7:02:00", "2026-12-06T04:00:00Z", "2026-12-06T04:10:00Z", true],
    ["starts a second after it ends", "7:02:00", "2026-12-06T04:00:01Z", "2026-12-06T04:10:00Z", false],
    ["spans it", "7:02:00", "2026-12-06T01:00:00Z", "2026-12-06T05:00:00Z", true],
    ["another day, same hour", "7:02:00", "2026-12-05T02:30:00Z", "2026-12-05T02:40:00Z", false],
    // window Sunday 23:30 for 120 min runs into Monday 01:30
    ["Monday morning, in last Sunday's window", "7:23:30", "2026-12-07T01:00:00Z", "2026-12-07T01:10:00Z", true],
    ["Monday, after it", "7:23:30", "2026-12-07T01:31:00Z", "2026-12-07T02:00:00Z", false],
    // window Monday 00:10: a repetition from Sunday night into Monday
    ["across Sunday midnight into next week's", "1:00:10", "2026-12-06T23:50:00Z", "2026-12-07T00:15:00Z", true],
    ["across Sunday midnight, before it", "1:00:10", "2026-12-06T23:50:00Z", "2026-12-07T00:05:00Z", false],
    ["a week long", "3:12:00", "2026-12-01T13:00:00Z", "2026-12-08T13:00:00Z", true],
  ])("%s", (_what, weekly, start, end, overlaps) => {
    expect(overlapsWeeklyWindow(weekly, 120, at(start), at(end))).toBe(overlaps);
  });

  test("refuses what it cannot read", () => {
    expect(() => overlapsWeeklyWindow("0:02:00", 120, at("2026-12-06T02:30:00Z"), at("2026-12-06T02:40:00Z"))).toThrow(
      'weekly time must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC, got "0:02:00"',
    );
    expect(() => overlapsWeeklyWindow("7:02:00", 0, at("2026-12-06T02:30:00Z"), at("2026-12-06T02:40:00Z"))).toThrow(
      "window length must be a positive number of minutes, got 0",
    );
    expect(() => overlapsWeeklyWindow("7:02:00", 120, at("2026-12-06T02:40:00Z"), at("2026-12-06T02:30:00Z"))).toThrow(
      "repetition window ends (2026-12-06T02:30:00.000Z) before it starts (2026-12-06T02:40:00.000Z)",
    );
  });
});

describe("maintenanceOverlapMetadata", () => {
  const window = { fsxMaintenanceStart: "7:02:00", fsxMaintenanceMinutes: 120 };
  test("the verdict where both windows are known, nothing where either is missing", () => {
    expect(maintenanceOverlapMetadata({ ...window, repStart: "2026-12-06T03:00:00Z", repEnd: "2026-12-06T03:05:00Z" })).toEqual({
      fsxMaintenanceOverlap: true,
    });
    expect(maintenanceOverlapMetadata({ ...window, repStart: "2026-12-06T05:00:00Z", repEnd: "2026-12-06T05:05:00Z" })).toEqual({
      fsxMaintenanceOverlap: false,
    });
    expect(maintenanceOverlapMetadata({ ...window })).toEqual({});
    expect(maintenanceOverlapMetadata({ repStart: "2026-12-06T03:00:00Z", repEnd: "2026-12-06T03:05:00Z" })).toEqual({});
  });
  test("every unreadable value named at once", () => {
    expect(() =>
      maintenanceOverlapMetadata({ fsxMaintenanceStart: "Sun 02:00", fsxMaintenanceMinutes: "120", repStart: "yesterday", repEnd: 5 }),
    ).toThrow(
      'fsxMaintenanceStart must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC, got "Sun 02:00"; ' +
        'fsxMaintenanceMinutes must be a positive number of minutes, got "120"; ' +
        'repStart must be a UTC time (YYYY-MM-DDTHH:MM:SSZ), got "yesterday"; ' +
        "repEnd must be a UTC time (YYYY-MM-DDTHH:MM:SSZ), got 5",
    );
    expect(() => maintenanceOverlapMetadata({ ...window, repStart: "2026-12-06T03:05:00Z", repEnd: "2026-12-06T03:00:00Z" })).toThrow(
      "repEnd (2026-12-06T03:00:00Z) is before repStart (2026-12-06T03:05:00Z)",
    );
  });
});
