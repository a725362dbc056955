/**
 * How the lab writes a duration in its progress lines and reports: the bench (lab/bench/), the
 * experiments (lab/experiment/), `lab run` (lab/run/) and the janitor all take it from here. Pure.
 */

/** `65000` → `1m05s`; `3725000` → `1h02m05s`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const p = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h${p(m)}m${p(sec)}s` : m > 0 ? `${m}m${p(sec)}s` : `${sec}s`;
}

/** `+hh:mm:ss` since the run started. */
export function stamp(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const p = (n: number) => String(n).padStart(2, "0");
  return `+${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}
