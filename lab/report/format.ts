/**
 * How the report writes numbers and units: the same strings in report.md, report.html and the
 * charts, so a reader can match a table cell with a bar label. Pure.
 */
import type { MetadataValue } from "../../core/sample";

/** A unit as the report shows it: bandwidth in MB/s (10^6 bytes), as the published figures are. */
interface DisplayUnit {
  readonly unit: string;
  /** Sample value / divisor = displayed value (a division, so 192596594 B/s shows as exactly 192.596594). */
  readonly divisor: number;
}

const DISPLAY_UNITS: Readonly<Record<string, DisplayUnit>> = {
  "B/s": { unit: "MB/s", divisor: 1e6 },
};

/** The unit a sample unit is shown in. */
export function displayUnit(unit: string): string {
  return DISPLAY_UNITS[unit]?.unit ?? unit;
}

/** A value of `unit` converted to {@link displayUnit}. */
export function toDisplay(value: number, unit: string): number {
  const d = DISPLAY_UNITS[unit];
  return d === undefined ? value : value / d.divisor;
}

const VALUE_FORMAT = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 5 });
const RATIO_FORMAT = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4, useGrouping: false });

/** A measured value (already in its display unit): five significant digits, grouped thousands. */
export function formatValue(value: number): string {
  return VALUE_FORMAT.format(value);
}

/** A sample value of `unit`, in its display unit. */
export function formatSampleValue(value: number, unit: string): string {
  return formatValue(toDisplay(value, unit));
}

/** A ratio: four significant digits. */
export function formatRatio(value: number): string {
  return RATIO_FORMAT.format(value);
}

/** `low–high` with an en dash. */
export function formatRange(low: string, high: string): string {
  return `${low}–${high}`;
}

/** A metadata value as text (numbers as written, strings verbatim). */
export function formatMetadata(value: MetadataValue | undefined): string {
  return value === undefined ? "—" : String(value);
}

const PERCENT_FORMAT = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 2 });

/** A share (0.034) as a percentage with two significant digits: `3.4 %`; `—` when undefined. */
export function formatPercent(share: number | undefined): string {
  return share === undefined ? "—" : `${PERCENT_FORMAT.format(share * 100)} %`;
}

/** A p-value: two significant digits (`0.1`, `0.0079`). */
export function formatP(p: number): string {
  return PERCENT_FORMAT.format(p);
}
