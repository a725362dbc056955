#!/bin/sh
# ioping.sh: measures I/O latency of a directory on the storage under test with ioping, REPS
# times, and prints each repetition's raw output between LAB-RESULT markers on stdout (format in
# lib.sh). Run by the ioping benchmark Job, or by hand.
#
# Environment [default]:
#   IOPING_DIR       directory on the storage under test, created if missing (required)
#   IOPING_COUNT     requests per repetition, warm-up included (ioping -c) [100]
#   IOPING_WARMUP    first requests ioping itself leaves out of its statistics (-a) [1]
#   IOPING_INTERVAL  pause between requests, ioping syntax: 1s, 100ms, 0 (-i) [1s]
#   IOPING_SIZE      request size (-s) [4k]
#   IOPING_WORK_SIZE working set: the size of ioping's temporary file (-S) [1m]
#   IOPING_DIRECT    1: O_DIRECT (-D); 0: ioping's default (cache dropped before each read) [0]
#   IOPING_WRITE     1: write requests (-W); 0: read requests [0]
#   IOPING_FORMAT    auto | json | text: json is ioping -J; auto picks json when the installed
#                    ioping supports -J (1.1 and later), text otherwise [auto]
#   REPS             repetitions, at least 1 [3]
#   IOPING_BIN       ioping executable [ioping]
#   LAB_RUN_ID       the run id; with LAB_RUNS_DIR, a run id that finished once is refused (lib.sh) []
#   LAB_RUNS_DIR     where finished runs are stamped (ioping-<run id>), on the storage under test []
#   TMPDIR           where each repetition's output is staged before it is printed [/tmp]
#
# Markers: tool=ioping rep=<n> format=<json|text> version=<ioping version> start=<UTC> end=<UTC>,
# then the node sampler's summary of the repetition between LAB-UTIL markers (lib.sh).
# Exit status: 0 success; 2 usage or environment problem; 4 this run id already ran (lib.sh);
# otherwise ioping's own status.
set -eu

LAB_SCRIPT_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$LAB_SCRIPT_DIR/lib.sh"

IOPING_DIR=${IOPING_DIR:-}
IOPING_COUNT=${IOPING_COUNT:-100}
IOPING_WARMUP=${IOPING_WARMUP:-1}
IOPING_INTERVAL=${IOPING_INTERVAL:-1s}
IOPING_SIZE=${IOPING_SIZE:-4k}
IOPING_WORK_SIZE=${IOPING_WORK_SIZE:-1m}
IOPING_DIRECT=${IOPING_DIRECT:-0}
IOPING_WRITE=${IOPING_WRITE:-0}
IOPING_FORMAT=${IOPING_FORMAT:-auto}
REPS=${REPS:-3}
IOPING_BIN=${IOPING_BIN:-ioping}

[ -n "$IOPING_DIR" ] || lab_die "IOPING_DIR must name the directory to test"
lab_require_uint IOPING_WARMUP "$IOPING_WARMUP" 0
lab_require_uint IOPING_COUNT "$IOPING_COUNT" $((IOPING_WARMUP + 1))
lab_require_word IOPING_INTERVAL "$IOPING_INTERVAL"
lab_require_word IOPING_SIZE "$IOPING_SIZE"
lab_require_word IOPING_WORK_SIZE "$IOPING_WORK_SIZE"
lab_require_uint REPS "$REPS" 1
lab_require_run_id
lab_require_cmd "$IOPING_BIN"
lab_run_check ioping

case $IOPING_FORMAT in
  auto)
    if "$IOPING_BIN" -h 2>&1 | grep -q -- '-json'; then format=json; else format=text; fi
    ;;
  json | text) format=$IOPING_FORMAT ;;
  *) lab_die "IOPING_FORMAT must be auto, json or text, got '$IOPING_FORMAT'" ;;
esac

# `ioping -v` prints "ioping 1.3".
ioping_version=$("$IOPING_BIN" -v 2>&1 | sed -n '1s/^ioping[[:space:]]*//p')
lab_require_word "ioping version" "$ioping_version"

set -- -c "$IOPING_COUNT" -a "$IOPING_WARMUP" -i "$IOPING_INTERVAL" -s "$IOPING_SIZE" -S "$IOPING_WORK_SIZE"
if [ "$IOPING_DIRECT" = 1 ]; then set -- "$@" -D; fi
if [ "$IOPING_WRITE" = 1 ]; then set -- "$@" -W; fi
if [ "$format" = json ]; then set -- "$@" -J; fi

mkdir -p -- "$IOPING_DIR"
stage=$(lab_mktemp_dir)
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

lab_log "ioping $ioping_version: $REPS repetition(s) of: ioping $* $IOPING_DIR"
rep=1
while [ "$rep" -le "$REPS" ]; do
  out="$stage/ioping-rep$rep.$format"
  lab_log "ioping repetition $rep/$REPS"
  status=0
  lab_util_begin ioping "$rep" "$stage"
  "$IOPING_BIN" "$@" "$IOPING_DIR" >"$out" || status=$?
  lab_util_end
  if [ "$status" -ne 0 ]; then
    lab_log "ioping failed with status $status in repetition $rep; its output follows"
    cat -- "$out" >&2
    exit "$status"
  fi
  lab_emit ioping "$rep" "$out" "format=$format" "version=$ioping_version" "start=$lab_rep_start" "end=$lab_rep_end"
  lab_util_emit ioping "$rep"
  rep=$((rep + 1))
done
lab_run_done ioping
lab_log "ioping done: $REPS repetition(s)"
