#!/bin/sh
# pgbench.sh: TPC-B-like pgbench against a PostgreSQL server, REPS times, printing each
# repetition's text output (pgbench's summary) between LAB-RESULT markers on stdout (format in
# lib.sh). Run by the pgbench benchmark Job and by hand.
#
# The benchmark is the published one (koor-tech/experiment-ceph-on-nitro k8s/base/pgbench.job.yaml):
# `pgbench -i --foreign-keys -s <scale>`, then `pgbench -r -c <clients> -j <threads> -T <seconds>`
# (`-r` is `--report-latencies`). Each option can be switched off or on below, and the samples'
# metadata records it (components/bench/render.ts builds the same two command lines).
#
# Environment [default]:
#   PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD
#                      libpq's own connection variables, read by pg_isready, psql and pgbench
#   PGBENCH_SCALE      scale factor of `pgbench -i -s` (1 = 100 000 accounts) [1000]
#   PGBENCH_CLIENTS    concurrent clients (-c) [20]
#   PGBENCH_THREADS    worker threads (-j) [2]
#   PGBENCH_DURATION   seconds each repetition runs (-T) [300]
#   PGBENCH_FOREIGN_KEYS  1: initialise with --foreign-keys (adds the f init step) [1]
#   PGBENCH_PER_STATEMENT 1: per-statement latencies in the output (-r) [1]
#   PGBENCH_PROGRESS   seconds between progress lines on stderr (-P); 0: none [0]
#   PGBENCH_SETTLE     seconds to wait after the initialisation and its CHECKPOINT [30]
#   PGBENCH_INIT       auto | always | never [auto]:
#                        auto   initialise unless the database already holds a complete
#                               initialisation by the same `pgbench -i` command (see below)
#                        always `pgbench -i` every time (drops and recreates the tables)
#                        never  trust the existing tables
#   PG_READY_TIMEOUT   seconds to wait for the server to accept connections and queries [300]
#   REPS               repetitions, at least 1 [3]
#   LAB_RUN_ID         the run id: a run id that finished once in this database is refused []
#   PGBENCH_BIN, PSQL_BIN, PG_ISREADY_BIN  executables [pgbench, psql, pg_isready]
#   TMPDIR             where each repetition's output is staged before it is printed [/tmp]
#
# Readiness: pg_isready, then `select 1` through psql (authentication, database), polled every
# 2 s until PG_READY_TIMEOUT, never a blind sleep.
# Run id: with LAB_RUN_ID set, the script keeps finished runs in the table lab_bench_runs (which
# `pgbench -i` leaves alone: it drops only the pgbench_* tables) and exits 4 before touching
# anything when this run id is already there (lib.sh, "Run ids").
# Initialisation: the init command once. Once it succeeds the script stamps the accounts table with
# a comment naming the command; PGBENCH_INIT=auto skips the (long: at scale 1000 ~16 GB)
# initialisation when the stamp matches, so re-running the benchmark with a new run id reuses the
# data. An interrupted initialisation leaves no stamp and is redone. After an initialisation the
# script runs CHECKPOINT (the role must be a superuser or have pg_checkpoint) and waits
# PGBENCH_SETTLE seconds, so that repetition 1 does not pay for flushing the freshly loaded tables
# and starts from the state the others start from.
# Each repetition starts with pgbench's own vacuum, which also truncates pgbench_history, so
# repetitions and re-runs start from the same state.
# Markers: tool=pgbench rep=<n> scale=<s> clients=<c> threads=<j> duration=<s> init=<how>
# version=<v> start=<UTC> end=<UTC> (then the node sampler's summary between LAB-UTIL markers,
# lib.sh); init is `ran` (this run initialised), `reused` (auto found the same initialisation)
# or `unchecked` (PGBENCH_INIT=never).
# Exit status: 0 success; 2 usage or environment problem; 3 server not ready in time; 4 this run
# id already ran; otherwise pgbench's own status (2 when a client aborted: the result is not whole).
set -eu

LAB_SCRIPT_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$LAB_SCRIPT_DIR/lib.sh"

PGBENCH_SCALE=${PGBENCH_SCALE:-1000}
PGBENCH_CLIENTS=${PGBENCH_CLIENTS:-20}
PGBENCH_THREADS=${PGBENCH_THREADS:-2}
PGBENCH_DURATION=${PGBENCH_DURATION:-300}
PGBENCH_FOREIGN_KEYS=${PGBENCH_FOREIGN_KEYS:-1}
PGBENCH_PER_STATEMENT=${PGBENCH_PER_STATEMENT:-1}
PGBENCH_PROGRESS=${PGBENCH_PROGRESS:-0}
PGBENCH_SETTLE=${PGBENCH_SETTLE:-30}
PGBENCH_INIT=${PGBENCH_INIT:-auto}
PG_READY_TIMEOUT=${PG_READY_TIMEOUT:-300}
REPS=${REPS:-3}
LAB_RUN_ID=${LAB_RUN_ID:-}
PGBENCH_BIN=${PGBENCH_BIN:-pgbench}
PSQL_BIN=${PSQL_BIN:-psql}
PG_ISREADY_BIN=${PG_ISREADY_BIN:-pg_isready}

lab_require_uint PGBENCH_SCALE "$PGBENCH_SCALE" 1
lab_require_uint PGBENCH_CLIENTS "$PGBENCH_CLIENTS" 1
lab_require_uint PGBENCH_THREADS "$PGBENCH_THREADS" 1
lab_require_uint PGBENCH_DURATION "$PGBENCH_DURATION" 1
lab_require_uint PGBENCH_PROGRESS "$PGBENCH_PROGRESS" 0
lab_require_uint PGBENCH_SETTLE "$PGBENCH_SETTLE" 0
lab_require_uint PG_READY_TIMEOUT "$PG_READY_TIMEOUT" 1
lab_require_uint REPS "$REPS" 1
lab_require_run_id
[ "$PGBENCH_THREADS" -le "$PGBENCH_CLIENTS" ] ||
  lab_die "PGBENCH_THREADS must be at most PGBENCH_CLIENTS ($PGBENCH_CLIENTS), got '$PGBENCH_THREADS'"
require_switch() {
  case $2 in
    0 | 1) ;;
    *) lab_die "$1 must be 0 or 1, got '$2'" ;;
  esac
}
require_switch PGBENCH_FOREIGN_KEYS "$PGBENCH_FOREIGN_KEYS"
require_switch PGBENCH_PER_STATEMENT "$PGBENCH_PER_STATEMENT"
case $PGBENCH_INIT in
  auto | always | never) ;;
  *) lab_die "PGBENCH_INIT must be auto, always or never, got '$PGBENCH_INIT'" ;;
esac
lab_require_cmd "$PGBENCH_BIN" "$PSQL_BIN" "$PG_ISREADY_BIN"

# `pgbench --version` prints "pgbench (PostgreSQL) 17.6 (Debian 17.6-1.pgdg120+1)".
pgbench_version=$("$PGBENCH_BIN" --version | awk '{ print $3; exit }')
lab_require_word "pgbench version" "$pgbench_version"

# psql with no .psqlrc, unaligned tuples only, quiet (no command tags), stopping at the first error.
sql() {
  "$PSQL_BIN" -X -A -t -q -v ON_ERROR_STOP=1 -c "$1"
}

wait_ready() {
  deadline=$(($(date +%s) + PG_READY_TIMEOUT))
  attempt=0
  while :; do
    attempt=$((attempt + 1))
    ready=0
    "$PG_ISREADY_BIN" -q -t 5 || ready=$?
    if [ "$ready" -eq 3 ]; then lab_die "pg_isready: invalid connection parameters"; fi
    if [ "$ready" -eq 0 ] && sql 'select 1' >/dev/null 2>"$stage/ready.err"; then
      lab_log "server ready after $attempt attempt(s)"
      return 0
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      lab_log "server at ${PGHOST:-<local socket>}:${PGPORT:-5432} not ready within ${PG_READY_TIMEOUT}s (pg_isready status $ready)"
      if [ -s "$stage/ready.err" ]; then cat -- "$stage/ready.err" >&2; fi
      exit 3
    fi
    sleep 2
  done
}

# The two command lines (arguments after the executable).
init_args="-i -s $PGBENCH_SCALE"
if [ "$PGBENCH_FOREIGN_KEYS" = 1 ]; then init_args="$init_args --foreign-keys"; fi
run_args="-c $PGBENCH_CLIENTS -j $PGBENCH_THREADS -T $PGBENCH_DURATION"
if [ "$PGBENCH_PROGRESS" -gt 0 ]; then run_args="$run_args -P $PGBENCH_PROGRESS"; fi
if [ "$PGBENCH_PER_STATEMENT" = 1 ]; then run_args="$run_args -r"; fi

stamp="lab: pgbench $init_args complete"

initialised() {
  found=$(sql "select coalesce(obj_description(to_regclass('pgbench_accounts'), 'pg_class'), '')" 2>/dev/null) || return 1
  [ "$found" = "$stamp" ]
}

stage=$(lab_mktemp_dir)
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

wait_ready

if [ -n "$LAB_RUN_ID" ]; then
  sql "create table if not exists lab_bench_runs (tool text not null, run_id text not null, finished_at timestamptz not null default now(), primary key (tool, run_id))" >&2
  finished=$(sql "select to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC' from lab_bench_runs where tool = 'pgbench' and run_id = '$LAB_RUN_ID'")
  if [ -n "$finished" ]; then lab_refuse_repeat pgbench "$finished"; fi
fi

initialisation=unchecked
case $PGBENCH_INIT in
  never) lab_log "PGBENCH_INIT=never: using the existing tables" ;;
  auto | always)
    if [ "$PGBENCH_INIT" = auto ] && initialised; then
      lab_log "already initialised by pgbench $init_args: skipping it"
      initialisation=reused
    else
      lab_log "initialising: pgbench $init_args"
      # Initialisation output is diagnostics, not a result: it goes to stderr.
      # shellcheck disable=SC2086 # init_args is split on purpose: whole numbers and fixed options
      "$PGBENCH_BIN" $init_args >&2
      sql "comment on table pgbench_accounts is '$stamp'" >&2
      lab_log "CHECKPOINT, then ${PGBENCH_SETTLE}s to settle"
      sql "CHECKPOINT" >&2
      sleep "$PGBENCH_SETTLE"
      initialisation=ran
    fi
    ;;
esac

lab_log "pgbench $pgbench_version: $REPS repetition(s) of: pgbench $run_args"
rep=1
while [ "$rep" -le "$REPS" ]; do
  out="$stage/pgbench-rep$rep.txt"
  lab_log "pgbench repetition $rep/$REPS"
  status=0
  lab_util_begin pgbench "$rep" "$stage"
  # shellcheck disable=SC2086 # run_args is split on purpose: whole numbers and fixed options
  "$PGBENCH_BIN" $run_args >"$out" || status=$?
  lab_util_end
  if [ "$status" -ne 0 ]; then
    lab_log "pgbench failed with status $status in repetition $rep; its output follows"
    cat -- "$out" >&2
    exit "$status"
  fi
  lab_emit pgbench "$rep" "$out" "scale=$PGBENCH_SCALE" "clients=$PGBENCH_CLIENTS" \
    "threads=$PGBENCH_THREADS" "duration=$PGBENCH_DURATION" "init=$initialisation" "version=$pgbench_version" \
    "start=$lab_rep_start" "end=$lab_rep_end"
  lab_util_emit pgbench "$rep"
  rep=$((rep + 1))
done
if [ -n "$LAB_RUN_ID" ]; then
  sql "insert into lab_bench_runs (tool, run_id) values ('pgbench', '$LAB_RUN_ID')" >&2
fi
lab_log "pgbench done: $REPS repetition(s)"
