#!/bin/sh
# fio-failover.sh: the fio Job of the FSx for ONTAP AZ-failover experiment
# (lab/experiment/fsx-failover.ts), from the project's tools image (components/bench/image). Runs
# failover.fio against a file on the volume under test until the experiment asks it to stop (a pod
# annotation read through a downward API file) or FIO_MAX_RUNTIME seconds have passed, then prints
# fio's JSON output and its per-second IOPS log between result markers (lib.sh).
#
# Stopping: fio's --trigger-file makes fio check for a file and, once it exists, terminate every
# job and report as at a normal end (fio-3.33 backend.c check_trigger_file →
# fio_terminate_threads; HOWTO "--trigger-file=file"). This script creates that file when the
# annotation says so. fio saves a verify state file into its working directory when the trigger
# fires, so fio runs in a private directory under TMPDIR.
#
# Environment [default]:
#   FIO_DIR            directory on the volume under test, created if missing (required)
#   FIO_JOBFILE        the job file [failover.fio beside this script]
#   FIO_SIZE           the file fio writes, fio syntax (4G = 4 GiB) [4G]
#   FIO_MAX_RUNTIME    seconds fio writes at most (the job's runtime) [3600]
#   LAB_STOP_FILE      the pod's annotations as a downward API file (required)
#   LAB_STOP_KEY       the annotation that asks for the stop when "true" [lab/stop]
#   LAB_POLL_SECONDS   how often the stop is checked [1]
#   FIO_BIN            fio executable [fio]
#   TMPDIR             private working directory's parent [/tmp]
#
# Output on stdout (lab/experiment/fio-log.ts reads it):
#   fio-start <epoch ms> version=<fio version>
#   fio-stop <epoch ms>                     the stop was requested
#   === LAB-RESULT-BEGIN tool=fio rep=1 version=<v> ===       fio's JSON output
#   === LAB-RESULT-BEGIN tool=fio-iops rep=1 ===              the IOPS log
#   fio-exit <status>
# fio's own stderr (a verify failure's "crc32c: verify failed at file … offset …") goes to stderr.
# Exit status: fio's; 2 for a usage or environment problem.
set -eu

LAB_SCRIPT_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../components/bench/scripts/lib.sh
. "${LAB_LIB:-$LAB_SCRIPT_DIR/lib.sh}"

FIO_DIR=${FIO_DIR:-}
FIO_JOBFILE=${FIO_JOBFILE:-$LAB_SCRIPT_DIR/failover.fio}
FIO_SIZE=${FIO_SIZE:-4G}
FIO_MAX_RUNTIME=${FIO_MAX_RUNTIME:-3600}
LAB_STOP_FILE=${LAB_STOP_FILE:-}
LAB_STOP_KEY=${LAB_STOP_KEY:-lab/stop}
LAB_POLL_SECONDS=${LAB_POLL_SECONDS:-1}
FIO_BIN=${FIO_BIN:-fio}

[ -n "$FIO_DIR" ] || lab_die "FIO_DIR must name the directory to write to"
[ -n "$LAB_STOP_FILE" ] || lab_die "LAB_STOP_FILE must name the annotations file"
lab_require_word FIO_SIZE "$FIO_SIZE"
lab_require_uint FIO_MAX_RUNTIME "$FIO_MAX_RUNTIME" 1
lab_require_uint LAB_POLL_SECONDS "$LAB_POLL_SECONDS" 1
[ -r "$FIO_JOBFILE" ] || lab_die "no fio job file $FIO_JOBFILE"
lab_require_cmd "$FIO_BIN"

fio_version=$("$FIO_BIN" --version)
fio_version=${fio_version#fio-}
lab_require_word "fio version" "$fio_version"

now_ms() { date +%s%3N; }
stop_requested() { grep -Fqx "${LAB_STOP_KEY}=\"true\"" "$LAB_STOP_FILE" 2>/dev/null; }

mkdir -p -- "$FIO_DIR"
work=$(lab_mktemp_dir)
cd "$work"
FIO_FILE=$FIO_DIR/failover.dat
FIO_RUNTIME=$FIO_MAX_RUNTIME
FIO_LOG=$work/iops
export FIO_FILE FIO_SIZE FIO_RUNTIME FIO_LOG

"$FIO_BIN" --output-format=json --output="$work/fio.json" --trigger-file="$work/stop" "$FIO_JOBFILE" &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null || true' TERM INT
printf 'fio-start %s version=%s\n' "$(now_ms)" "$fio_version"
lab_log "fio $fio_version: $FIO_JOBFILE, size $FIO_SIZE, at most ${FIO_MAX_RUNTIME}s, file $FIO_FILE"

stopping=0
while kill -0 "$pid" 2>/dev/null; do
  if [ "$stopping" = 0 ] && stop_requested; then
    printf 'fio-stop %s\n' "$(now_ms)"
    : >"$work/stop"
    stopping=1
  fi
  sleep "$LAB_POLL_SECONDS"
done
status=0
wait "$pid" || status=$?

if [ -s "$work/fio.json" ]; then lab_emit fio 1 "$work/fio.json" "version=$fio_version"; fi
if [ -f "$work/iops_iops.1.log" ]; then lab_emit fio-iops 1 "$work/iops_iops.1.log"; fi
printf 'fio-exit %s\n' "$status"
exit "$status"
