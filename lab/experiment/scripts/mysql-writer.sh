#!/bin/bash
# mysql-writer.sh: the writer of the MySQL failover experiment (lab/experiment/mysql-failover.ts),
# run by its Job in the MySQL namespace from the pinned MySQL 8.4 image (the `mysql` client, bash,
# GNU coreutils). It inserts rows with unique, increasing ids into the source, one autocommit
# INSERT per client call, and prints which commits were acknowledged, until the experiment asks it
# to stop (a pod annotation it reads through a downward API file) or LAB_MAX_SECONDS have passed;
# then it reads back every id of its run and prints them, and reports every replica's replication.
#
# Acknowledged means committed: with autocommit on, every new session's default, "MySQL does a
# commit after each SQL statement if that statement did not return an error" (MySQL 8.4 Reference
# Manual, 17.7.2.2 "autocommit, Commit, and Rollback"), and the mysql client exits 0 only when its
# statements succeeded. An INSERT that fails may still have been committed (the connection can
# break after the commit): its id is reported as an error, never as acknowledged, so the check is
# one-sided: every acknowledged id must be there, unacknowledged ones may be.
#
# Client options (MySQL 8.4 Reference Manual, 6.5.1.1 "mysql Client Options"):
# --defaults-extra-file must come first; --batch and --skip-column-names print bare values, one
# row a line; --connect-timeout bounds the connection attempt. The password goes into an option
# file readable by this user only, never onto a command line.
#
# Environment [default]:
#   LAB_MYSQL_HOST          the source's address (required)
#   LAB_MYSQL_PORT          [3306]
#   LAB_MYSQL_USER          the writer's account (required: components/mysql `lab_writer`, with
#                           CREATE, INSERT, SELECT on lab_failover and REPLICATION CLIENT, never root)
#   LAB_MYSQL_PASSWORD      its password, from its Secret (required)
#   LAB_RUN_ID              the experiment's run id, the rows' run_id (required: a-z, 0-9, '-')
#   LAB_INTERVAL_MS         pause between two inserts, ms [200]
#   LAB_MAX_SECONDS         stop writing after this long at the latest [1800]
#   LAB_STOP_FILE           the pod's annotations as a downward API file (required)
#   LAB_STOP_KEY            the annotation that asks for the stop when "true" [lab/stop]
#   LAB_STATEMENT_TIMEOUT   seconds one client call may take, when `timeout` exists [20]
#   LAB_READBACK_SECONDS    how long the final read is retried [300]
#   LAB_REPLICA_HOSTS       the replicas' addresses, space-separated [none]
#   LAB_REPLICA_WAIT_SECONDS  how long to wait for one replica to catch up [60]
#   TMPDIR                  where the option file goes [/tmp]
#   MYSQL_BIN               [mysql]
#
# Output on stdout, one record a line (lab/experiment/writer-log.ts reads it):
#   writer start run=<id> host=<host> interval_ms=<n>
#   ack <id> <epoch ms>               the INSERT of <id> was committed
#   err <id> <epoch ms> <message>     it failed: the client's first error line
#   writer stop <reason> <epoch ms>   reason: requested | deadline
#   present-begin
#   <id>                              every id of the run in the table, ascending
#   present-end count=<n>
#   replica-begin <host>              for each replica, after the read-back:
#   replica-max <n>                   the highest id of the run it holds
#   replica-status <Field>: <value>   each field of its SHOW REPLICA STATUS (none: not a replica)
#   replica-error <message>           a query that failed: the client's first error line
#   replica-end <host>
#   writer done
#
# Replication (MySQL 8.4 Reference Manual, 15.7.7.35 "SHOW REPLICA STATUS Statement", whose \G
# output is one "Field: value" a line): a replica replicates when Replica_IO_Running and
# Replica_SQL_Running are Yes and Last_IO_Errno and Last_SQL_Errno are 0. Each replica is polled
# until it is so and holds the last acknowledged id, or LAB_REPLICA_WAIT_SECONDS have passed; the
# records say what it was at the end, and lab/experiment/writer-log.ts judges them.
# Exit status: 0 done; 2 environment problem; 3 the setup or the read-back failed for good;
# 4 the table already holds rows of this run id (a second run under the same id is refused).
set -u

# die MESSAGE [STATUS]: the writer's error record, then exit STATUS (2).
die() {
  printf 'writer error %s\n' "$1"
  exit "${2:-2}"
}

LAB_MYSQL_PORT=${LAB_MYSQL_PORT:-3306}
LAB_INTERVAL_MS=${LAB_INTERVAL_MS:-200}
LAB_MAX_SECONDS=${LAB_MAX_SECONDS:-1800}
LAB_STOP_KEY=${LAB_STOP_KEY:-lab/stop}
LAB_STATEMENT_TIMEOUT=${LAB_STATEMENT_TIMEOUT:-20}
LAB_READBACK_SECONDS=${LAB_READBACK_SECONDS:-300}
LAB_REPLICA_HOSTS=${LAB_REPLICA_HOSTS:-}
LAB_REPLICA_WAIT_SECONDS=${LAB_REPLICA_WAIT_SECONDS:-60}
MYSQL_BIN=${MYSQL_BIN:-mysql}

[[ -n ${LAB_MYSQL_HOST:-} ]] || die "LAB_MYSQL_HOST must name the source"
[[ ${LAB_MYSQL_USER:-} =~ ^[a-z][a-z0-9_]*$ ]] || die "LAB_MYSQL_USER must be an account name (lower-case letters, digits and '_'), got '${LAB_MYSQL_USER:-}'"
[[ -n ${LAB_MYSQL_PASSWORD:-} ]] || die "LAB_MYSQL_PASSWORD must be set"
[[ ${LAB_RUN_ID:-} =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "LAB_RUN_ID must be lower-case letters, digits and '-', got '${LAB_RUN_ID:-}'"
[[ -n ${LAB_STOP_FILE:-} ]] || die "LAB_STOP_FILE must name the annotations file"
for v in LAB_MYSQL_PORT LAB_INTERVAL_MS LAB_MAX_SECONDS LAB_STATEMENT_TIMEOUT LAB_READBACK_SECONDS LAB_REPLICA_WAIT_SECONDS; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"
done

now_ms() { date +%s%3N; }
# The client's first output line, or why there was none.
first_line() {
  local text=${1//$'\r'/}
  text=${text%%$'\n'*}
  printf '%s' "${text:-no message (status $2)}"
}
stop_requested() { grep -Fqx "${LAB_STOP_KEY}=\"true\"" "$LAB_STOP_FILE" 2>/dev/null; }

umask 077
cnf=$(mktemp "${TMPDIR:-/tmp}/lab-writer.XXXXXX") || die "cannot create the option file in ${TMPDIR:-/tmp}"
trap 'rm -f "$cnf"' EXIT
printf '[client]\nuser=%s\npassword=%s\nhost=%s\nport=%s\n' "$LAB_MYSQL_USER" "$LAB_MYSQL_PASSWORD" "$LAB_MYSQL_HOST" "$LAB_MYSQL_PORT" >"$cnf"

limit=()
if command -v timeout >/dev/null 2>&1; then limit=(timeout "$LAB_STATEMENT_TIMEOUT"); fi
# sql STATEMENTS: runs them, results on stdout, errors on stderr.
sql() {
  "${limit[@]}" "$MYSQL_BIN" --defaults-extra-file="$cnf" --connect-timeout=5 --batch --skip-column-names -e "$1"
}
# on_replica HOST STATEMENTS: the same on a replica (the host on the command line overrides the option file's).
on_replica() {
  "${limit[@]}" "$MYSQL_BIN" --defaults-extra-file="$cnf" --host="$1" --connect-timeout=5 --batch --skip-column-names -e "$2"
}
# replica_status HOST: its SHOW REPLICA STATUS, one "Field: value" a line (--vertical, i.e. \G).
replica_status() {
  "${limit[@]}" "$MYSQL_BIN" --defaults-extra-file="$cnf" --host="$1" --connect-timeout=5 --vertical -e "SHOW REPLICA STATUS"
}

interval=$(printf '%d.%03d' $((LAB_INTERVAL_MS / 1000)) $((LAB_INTERVAL_MS % 1000)))
run=$LAB_RUN_ID
printf 'writer start run=%s host=%s interval_ms=%s\n' "$run" "$LAB_MYSQL_HOST" "$LAB_INTERVAL_MS"

# The table, and a refusal if this run id already wrote rows. Retried until the deadline: the
# source may still be starting.
setup="CREATE DATABASE IF NOT EXISTS lab_failover;
CREATE TABLE IF NOT EXISTS lab_failover.writes (run_id VARCHAR(64) NOT NULL, id BIGINT NOT NULL,
  written_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), PRIMARY KEY (run_id, id)) ENGINE=InnoDB;
SELECT COUNT(*) FROM lab_failover.writes WHERE run_id = '$run';"
until existing=$(sql "$setup" 2>&1); do
  status=$?
  ((SECONDS < LAB_MAX_SECONDS)) || die "setup failed until the deadline: $(first_line "$existing" "$status")" 3
  sleep 2
done
[[ $existing =~ ^[0-9]+$ ]] || die "setup: unexpected answer '$(first_line "$existing" 0)'" 3
((existing == 0)) || die "lab_failover.writes already holds $existing row(s) of run $run: refusing to write under the same run id" 4

id=0
last_ack=0
reason=deadline
while ((SECONDS < LAB_MAX_SECONDS)); do
  if stop_requested; then
    reason=requested
    break
  fi
  id=$((id + 1))
  if out=$(sql "INSERT INTO lab_failover.writes (run_id, id) VALUES ('$run', $id);" 2>&1); then
    printf 'ack %s %s\n' "$id" "$(now_ms)"
    last_ack=$id
  else
    status=$?
    printf 'err %s %s %s\n' "$id" "$(now_ms)" "$(first_line "$out" "$status")"
  fi
  sleep "$interval"
done
printf 'writer stop %s %s\n' "$reason" "$(now_ms)"

# Every id of the run, read from the source once the writes have stopped.
readback=$((SECONDS + LAB_READBACK_SECONDS))
until rows=$(sql "SELECT id FROM lab_failover.writes WHERE run_id = '$run' ORDER BY id;" 2>&1); do
  status=$?
  ((SECONDS < readback)) || die "read-back failed for ${LAB_READBACK_SECONDS}s: $(first_line "$rows" "$status")" 3
  sleep 2
done
count=0
printf 'present-begin\n'
if [[ -n $rows ]]; then
  printf '%s\n' "$rows"
  count=$(printf '%s\n' "$rows" | wc -l)
fi
printf 'present-end count=%s\n' "$count"

# Every replica: caught up with the last acknowledged id, both threads running, no error?
for host in $LAB_REPLICA_HOSTS; do
  until_s=$((SECONDS + LAB_REPLICA_WAIT_SECONDS))
  while :; do
    max=$(on_replica "$host" "SELECT COALESCE(MAX(id), 0) FROM lab_failover.writes WHERE run_id = '$run';" 2>&1)
    max_status=$?
    status=$(replica_status "$host" 2>&1)
    status_status=$?
    if ((max_status == 0 && status_status == 0)) && [[ $max =~ ^[0-9]+$ ]] && ((max >= last_ack)) &&
      grep -Eq '^ *Replica_IO_Running: Yes$' <<<"$status" && grep -Eq '^ *Replica_SQL_Running: Yes$' <<<"$status" &&
      grep -Eq '^ *Last_IO_Errno: 0$' <<<"$status" && grep -Eq '^ *Last_SQL_Errno: 0$' <<<"$status"; then
      break
    fi
    ((SECONDS < until_s)) || break
    sleep 2
  done
  printf 'replica-begin %s\n' "$host"
  if ((max_status == 0)) && [[ $max =~ ^[0-9]+$ ]]; then
    printf 'replica-max %s\n' "$max"
  else
    printf 'replica-error %s\n' "$(first_line "$max" "$max_status")"
  fi
  if ((status_status == 0)); then
    sed -n 's/^ *\([A-Za-z_]\{1,\}\): \{0,1\}/replica-status \1: /p' <<<"$status"
  else
    printf 'replica-error %s\n' "$(first_line "$status" "$status_status")"
  fi
  printf 'replica-end %s\n' "$host"
done
printf 'writer done\n'
