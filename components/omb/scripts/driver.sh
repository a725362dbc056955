#!/bin/sh
# driver.sh: one cell of the OpenMessaging Benchmark matrix, run by the cell's driver Job
# (components/omb/manifests.ts) in the OMB image: REPS times
#   bin/benchmark --drivers <driver file> --workers <list> -o <result> <workload file>
# each result JSON printed on stdout between LAB-RESULT markers (tool=omb, with the repetition's
# start= and end=, UTC, whole seconds, warm-up included: its samples' repStart/repEnd), which the
# collector cuts and core/parsers/omb.ts reads (components/bench/collect.ts). bin/benchmark's own
# log goes to stderr.
#
# Environment:
#   OMB_HOME        the OMB installation (bin/benchmark) (required)
#   DRIVER_FILE     the cell's driver file (required)
#   WORKLOAD_FILE   the workload file (required)
#   WORKERS         the workers' URLs, comma-separated (required)
#   REPS            repetitions (required)
#   RESULT_DIR      where the result files go (required)
#
# bin/benchmark logs a failed workload and still exits 0 (Benchmark.java catches it per workload),
# so a repetition counts only when its result file exists and is not empty.
set -eu

log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}
fail() {
  log "error: $*"
  exit 1
}

for v in OMB_HOME DRIVER_FILE WORKLOAD_FILE WORKERS REPS RESULT_DIR; do
  eval "val=\${$v:-}"
  # shellcheck disable=SC2154 # val is set by the eval above
  [ -n "$val" ] || fail "$v is not set"
done
case $REPS in
  '' | *[!0-9]* | 0) fail "REPS must be a whole number of at least 1, got '$REPS'" ;;
esac
cd "$OMB_HOME"
[ -x bin/benchmark ] || fail "$OMB_HOME/bin/benchmark is missing"
[ -r "$DRIVER_FILE" ] || fail "driver file $DRIVER_FILE is missing"
[ -r "$WORKLOAD_FILE" ] || fail "workload file $WORKLOAD_FILE is missing"

rep=1
while [ "$rep" -le "$REPS" ]; do
  out="$RESULT_DIR/result-rep$rep.json"
  rm -f -- "$out"
  log "repetition $rep of $REPS: bin/benchmark --drivers $DRIVER_FILE --workers $WORKERS -o $out $WORKLOAD_FILE"
  start=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
  bin/benchmark --drivers "$DRIVER_FILE" --workers "$WORKERS" -o "$out" "$WORKLOAD_FILE" >&2 || fail "bin/benchmark failed (exit $?)"
  end=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
  [ -s "$out" ] || fail "bin/benchmark wrote no result to $out: the workload failed, see its log above"
  printf '=== LAB-RESULT-BEGIN tool=omb rep=%s start=%s end=%s ===\n' "$rep" "$start" "$end"
  cat -- "$out"
  printf '\n=== LAB-RESULT-END tool=omb rep=%s ===\n' "$rep"
  rep=$((rep + 1))
done
