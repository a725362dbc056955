# shellcheck shell=sh
# lib.sh: helpers shared by fio.sh, ioping.sh and pgbench.sh. Sourced, never run.
#
# Output contract (components/bench/collect.ts cuts on it): every repetition's raw tool output
# is printed on stdout between two marker lines, and nothing else is ever printed between them:
#
#   === LAB-RESULT-BEGIN tool=<tool> rep=<n> [key=value ...] ===
#   <the tool's raw output, verbatim; a final newline is added when the tool wrote none>
#   === LAB-RESULT-END tool=<tool> rep=<n> ===
#
# The tool writes into a file first and the block is printed only once the tool has exited, so
# the tool's stderr (progress, warnings), which a container log interleaves with stdout, always
# lands outside the blocks. Values in markers never contain spaces. Diagnostics go to stderr.

# lab_log MESSAGE...: one timestamped diagnostic line on stderr.
lab_log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}

# lab_die MESSAGE...: logs the message and exits 2 (a usage or environment problem).
lab_die() {
  lab_log "error: $*"
  exit 2
}

# lab_require_cmd CMD...: dies unless every command is on PATH.
lab_require_cmd() {
  for lab_cmd in "$@"; do
    command -v "$lab_cmd" >/dev/null 2>&1 || lab_die "'$lab_cmd' is not installed (not on PATH)"
  done
}

# lab_require_uint NAME VALUE MIN: dies unless VALUE is a whole number >= MIN.
lab_require_uint() {
  case $2 in
    '' | *[!0-9]*) lab_die "$1 must be a whole number, got '$2'" ;;
  esac
  [ "$2" -ge "$3" ] || lab_die "$1 must be at least $3, got '$2'"
}

# lab_require_word NAME VALUE: dies if VALUE is empty or has a space (marker values cannot).
lab_require_word() {
  case $2 in
    '' | *' '*) lab_die "$1 must be one word, got '$2'" ;;
  esac
}

# lab_mktemp_dir: prints the path of a new private temporary directory.
lab_mktemp_dir() {
  mktemp -d "${TMPDIR:-/tmp}/lab-bench.XXXXXX"
}

# lab_emit TOOL REP FILE [key=value ...]: prints FILE between the result markers on stdout.
lab_emit() {
  lab_tool=$1
  lab_rep=$2
  lab_file=$3
  shift 3
  lab_attrs=''
  for lab_kv in "$@"; do
    lab_require_word "marker attribute" "$lab_kv"
    lab_attrs="$lab_attrs $lab_kv"
  done
  {
    printf '=== LAB-RESULT-BEGIN tool=%s rep=%s%s ===\n' "$lab_tool" "$lab_rep" "$lab_attrs"
    cat "$lab_file"
    # Keep the END marker on a line of its own when the tool's output lacks a final newline.
    if [ -n "$(tail -c 1 "$lab_file")" ]; then
      printf '\n'
    fi
    printf '=== LAB-RESULT-END tool=%s rep=%s ===\n' "$lab_tool" "$lab_rep"
  }
}

# Run ids. A benchmark Job that Kubernetes deleted ttlSecondsAfterFinished after it finished is
# created again by the next `pulumi up` once a `pulumi refresh` has dropped it from the stack's
# state. It must not run the benchmark again under the same run id (its results would silently
# replace the first ones), so a script stamps each finished run and refuses a repeat with exit
# status 4. fio.sh and ioping.sh stamp files on the volume under test (LAB_RUNS_DIR); pgbench.sh
# stamps a row in the benchmark database. Without LAB_RUN_ID (a run by hand) nothing is stamped.

# lab_require_run_id: dies unless LAB_RUN_ID is empty or a run id (lower-case letters, digits, '-').
lab_require_run_id() {
  case ${LAB_RUN_ID:-} in
    *[!a-z0-9-]*) lab_die "LAB_RUN_ID must be lower-case letters, digits and '-', got '${LAB_RUN_ID:-}'" ;;
  esac
}

# lab_refuse_repeat TOOL FINISHED: logs why TOOL does not run again under LAB_RUN_ID and exits 4.
lab_refuse_repeat() {
  lab_log "error: $1 already ran to completion under run id $LAB_RUN_ID (finished $2): refusing to run it again under the same id, which would replace its results. A finished run's Job is created again when Kubernetes has deleted it (ttlSecondsAfterFinished after it finished) and a refresh dropped it from the stack's state; set a new run id to run the benchmark again."
  exit 4
}

# lab_run_check TOOL: with LAB_RUN_ID and LAB_RUNS_DIR set, refuses when TOOL finished under that id.
lab_run_check() {
  if [ -z "${LAB_RUN_ID:-}" ] || [ -z "${LAB_RUNS_DIR:-}" ]; then return 0; fi
  if [ -f "$LAB_RUNS_DIR/$1-$LAB_RUN_ID" ]; then
    lab_refuse_repeat "$1" "$(cat -- "$LAB_RUNS_DIR/$1-$LAB_RUN_ID")"
  fi
}

# lab_run_done TOOL: stamps TOOL finished under LAB_RUN_ID (the time, UTC) in LAB_RUNS_DIR.
lab_run_done() {
  if [ -z "${LAB_RUN_ID:-}" ] || [ -z "${LAB_RUNS_DIR:-}" ]; then return 0; fi
  mkdir -p -- "$LAB_RUNS_DIR"
  date -u '+%Y-%m-%dT%H:%M:%SZ' >"$LAB_RUNS_DIR/$1-$LAB_RUN_ID"
}

# Repetition windows and the node sampler (sampler.sh, in the background of the same container).
# lab_util_begin before a repetition's tool runs, lab_util_end after it: the repetition's start and
# end (UTC, whole seconds) go into its result marker as start=/end= (the caller passes
# "start=$lab_rep_start" "end=$lab_rep_end" to lab_emit), and lab_util_emit prints the sampler's
# summary of the window after the result block, between its own markers, which the result cutter
# (components/bench/collect.ts) leaves alone:
#
#   === LAB-UTIL-BEGIN tool=<tool> rep=<n> ===
#   <sampler.sh's summary>
#   === LAB-UTIL-END tool=<tool> rep=<n> ===
#
# LAB_SAMPLER=off: no sampler, no summary (the markers keep their times). No sampler.sh beside
# this file, or a sampler that failed: no summary, the benchmark goes on.

# lab_util_begin TOOL REP DIR: records the start, starts the sampler writing into DIR.
lab_util_begin() {
  lab_util_file="$3/util-$1-rep$2.txt"
  lab_util_pid=''
  # shellcheck disable=SC2034 # read by the scripts sourcing this file (their lab_emit call)
  lab_rep_start=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
  if [ "${LAB_SAMPLER:-on}" != off ] && [ -r "$LAB_SCRIPT_DIR/sampler.sh" ]; then
    sh "$LAB_SCRIPT_DIR/sampler.sh" run "$lab_util_file" "$lab_util_file.stop" "$$" &
    lab_util_pid=$!
  fi
}

# lab_util_end: records the end, stops the sampler and waits for its summary.
lab_util_end() {
  # shellcheck disable=SC2034 # read by the scripts sourcing this file (their lab_emit call)
  lab_rep_end=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
  if [ -n "$lab_util_pid" ]; then
    : >"$lab_util_file.stop"
    kill -USR1 "$lab_util_pid" 2>/dev/null || true
    wait "$lab_util_pid" || lab_log "node sampler failed (status $?): no utilization summary for this repetition"
    rm -f -- "$lab_util_file.stop"
  fi
}

# lab_util_emit TOOL REP: prints the summary of lab_util_begin's file between the util markers.
lab_util_emit() {
  if [ -s "$lab_util_file" ]; then
    printf '=== LAB-UTIL-BEGIN tool=%s rep=%s ===\n' "$1" "$2"
    cat -- "$lab_util_file"
    printf '=== LAB-UTIL-END tool=%s rep=%s ===\n' "$1" "$2"
  fi
  rm -f -- "$lab_util_file"
}
