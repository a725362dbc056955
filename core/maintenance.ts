/**
 * A file system's weekly maintenance window against a benchmark repetition's window. Pure.
 *
 * FSx for ONTAP patches its file servers during the weekly maintenance window, one file server at
 * a time, typically up to an hour each; before a file server of an HA pair is patched the pair
 * fails over to its partner and fails back after, each a pause of under 60 s (Amazon FSx for
 * NetApp ONTAP User Guide, "Optimizing performance with Amazon FSx maintenance windows",
 * https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/maintenance-windows.html). A repetition that
 * overlaps that span may have been served by the standby file server, in the other zone for a
 * Multi-AZ file system: its samples say so (`fsxMaintenanceOverlap`, docs/samples.md).
 *
 * The window's start is the FSx API's `WeeklyMaintenanceStartTime`, `d:HH:MM` in UTC with d from
 * 1 (Monday) to 7 (Sunday) (API reference, CreateFileSystemOntapConfiguration).
 */
import type { MetadataValue } from "./sample";

/** Typical patch time of one file server (the user guide above: "up to an hour"), minutes. */
export const FILE_SERVER_PATCH_MINUTES = 60;

/** File servers of an HA pair (active and standby). */
export const FILE_SERVERS_PER_HA_PAIR = 2;

/**
 * How long after the window's start maintenance may still be under way, minutes: every file server
 * patched in turn, {@link FILE_SERVER_PATCH_MINUTES} each.
 */
export function maintenanceSpanMinutes(haPairs: number): number {
  if (!Number.isInteger(haPairs) || haPairs < 1) throw new Error(`haPairs must be a whole number of at least 1, got ${haPairs}`);
  return haPairs * FILE_SERVERS_PER_HA_PAIR * FILE_SERVER_PATCH_MINUTES;
}

/** FSx's `WeeklyMaintenanceStartTime`: `d:HH:MM`, d from 1 (Monday) to 7 (Sunday), UTC (API `WeeklyTime`). */
export const WEEKLY_TIME_RE = /^([1-7]):([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTES_PER_WEEK = 7 * 24 * 60;
const MS_PER_MINUTE = 60_000;

/** Minutes from Monday 00:00 UTC of a `d:HH:MM` weekly time, or undefined when it is not one. */
export function weeklyMinute(weeklyTime: string): number | undefined {
  const m = WEEKLY_TIME_RE.exec(weeklyTime);
  if (!m) return undefined;
  return (Number(m[1]) - 1) * 24 * 60 + Number(m[2]) * 60 + Number(m[3]);
}

/** Minutes from Monday 00:00 UTC of the week holding `t`, to `t` (fractions kept). */
function minuteOfWeek(t: Date): number {
  const isoDay = (t.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return isoDay * 24 * 60 + t.getUTCHours() * 60 + t.getUTCMinutes() + t.getUTCSeconds() / 60 + t.getUTCMilliseconds() / MS_PER_MINUTE;
}

/**
 * True when [start, end] shares any instant with a weekly window that starts at `weeklyTime` and
 * lasts `minutes`, in whichever week (a window that starts on Sunday evening runs into Monday).
 * A repetition of a week or more always overlaps.
 */
export function overlapsWeeklyWindow(weeklyTime: string, minutes: number, start: Date, end: Date): boolean {
  const at = weeklyMinute(weeklyTime);
  if (at === undefined)
    throw new Error(`weekly time must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC, got ${JSON.stringify(weeklyTime)}`);
  if (!(minutes > 0)) throw new Error(`window length must be a positive number of minutes, got ${minutes}`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw new Error("repetition window has an invalid time");
  if (end < start) throw new Error(`repetition window ends (${end.toISOString()}) before it starts (${start.toISOString()})`);
  const length = (end.getTime() - start.getTime()) / MS_PER_MINUTE;
  if (length >= MINUTES_PER_WEEK) return true;
  // The repetition as minutes from the Monday of its start's week; windows of that week, the one
  // before (one that started last Sunday may still be running) and the next (a repetition that
  // runs past Sunday midnight) are the only ones it can meet.
  const s = minuteOfWeek(start);
  const e = s + length;
  return [-1, 0, 1].some((week) => {
    const ws = at + week * MINUTES_PER_WEEK;
    return ws <= e && s <= ws + minutes;
  });
}

/** Run metadata keys a collector reads the window from (components/fsx-ontap `maintenanceWindow`). */
export const MAINTENANCE_START_KEY = "fsxMaintenanceStart";
export const MAINTENANCE_MINUTES_KEY = "fsxMaintenanceMinutes";
/** The per-repetition verdict. */
export const MAINTENANCE_OVERLAP_KEY = "fsxMaintenanceOverlap";

/**
 * `{ fsxMaintenanceOverlap }` for a repetition whose metadata carries the file system's window
 * (`fsxMaintenanceStart`, `fsxMaintenanceMinutes`) and its own (`repStart`, `repEnd`, UTC);
 * nothing when either is missing (a run without a file system, or recorded before the scripts
 * recorded repetition windows): an overlap is never guessed. A window or time that cannot be read
 * is an error naming the key and the value.
 */
export function maintenanceOverlapMetadata(metadata: Readonly<Record<string, MetadataValue | undefined>>): Record<string, boolean> {
  const weekly = metadata[MAINTENANCE_START_KEY];
  const minutes = metadata[MAINTENANCE_MINUTES_KEY];
  const { repStart, repEnd } = metadata;
  if (weekly === undefined || minutes === undefined || repStart === undefined || repEnd === undefined) return {};
  const problems: string[] = [];
  if (typeof weekly !== "string" || weeklyMinute(weekly) === undefined)
    problems.push(`${MAINTENANCE_START_KEY} must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC, got ${JSON.stringify(weekly)}`);
  if (typeof minutes !== "number" || !(minutes > 0))
    problems.push(`${MAINTENANCE_MINUTES_KEY} must be a positive number of minutes, got ${JSON.stringify(minutes)}`);
  const time = (key: string, v: MetadataValue): Date | undefined => {
    const d = typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) ? new Date(v) : undefined;
    if (d === undefined || Number.isNaN(d.getTime()))
      problems.push(`${key} must be a UTC time (YYYY-MM-DDTHH:MM:SSZ), got ${JSON.stringify(v)}`);
    return d;
  };
  const start = time("repStart", repStart);
  const end = time("repEnd", repEnd);
  if (start && end && end < start) problems.push(`repEnd (${String(repEnd)}) is before repStart (${String(repStart)})`);
  if (problems.length > 0) throw new Error(problems.join("; "));
  return { [MAINTENANCE_OVERLAP_KEY]: overlapsWeeklyWindow(weekly as string, minutes as number, start!, end!) };
}

/** A file system's window as the fsx-ontap stack exports it (components/fsx-ontap `maintenanceWindow`). */
export interface MaintenanceWindow {
  /** `d:HH:MM`, UTC. */
  readonly start: string;
  /** How long after `start` patching may run. */
  readonly minutes: number;
}

/**
 * The run metadata that names the file system's window ({@link MAINTENANCE_START_KEY},
 * {@link MAINTENANCE_MINUTES_KEY}); none for a file system that exports none (deployed before it
 * was exported), whose samples then record no overlap rather than a guess.
 */
export function maintenanceMetadata(window: MaintenanceWindow | undefined): Record<string, MetadataValue> {
  return window === undefined ? {} : { [MAINTENANCE_START_KEY]: window.start, [MAINTENANCE_MINUTES_KEY]: window.minutes };
}
