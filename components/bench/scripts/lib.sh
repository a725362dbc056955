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
