#!/bin/sh
# fio.sh: runs one fio profile REPS times against a directory on the storage under test and
# prints each repetition's JSON output (fio --output-format=json) between LAB-RESULT markers on
# stdout (format in lib.sh). Run by the fio benchmark Job, or by hand; the profile
# job files (fio-<profile>.fio) are rendered by components/bench/profiles.ts.
#
# Environment [default]:
#   FIO_DIR        directory on the storage under test, created if missing (required)
#   FIO_PROFILE    seed | latency | suite: picks the job file fio-<profile>.fio [seed]
#   FIO_JOB_DIR    directory holding the fio-<profile>.fio files [this script's directory]
#   FIO_JOBFILE    the job file to run [$FIO_JOB_DIR/fio-$FIO_PROFILE.fio]
#   FIO_SIZE       test file size, fio syntax, binary units (8G = 8 GiB) [8G]
#   FIO_RUNTIME    seconds each job of a time-based profile measures [60]
#   FIO_RAMP       seconds each job of a time-based profile runs before measuring [10]
#   REPS           repetitions, at least 1 [3]
#   FIO_KEEP_FILE  1: keep the test file after the run; 0: delete it [0]
#   FIO_BIN        fio executable [fio]
#   LAB_RUN_ID     the run id; with LAB_RUNS_DIR, a run id that finished once is refused (lib.sh) []
#   LAB_RUNS_DIR   where finished runs are stamped (fio-<run id>), on the storage under test []
#   TMPDIR         where each repetition's output is staged before it is printed [/tmp]
#
# The job files read FIO_DIR, FIO_SIZE, FIO_RUNTIME and FIO_RAMP through fio's own ${VAR}
# expansion, so one file serves an 8 GiB benchmark and a 16 MiB smoke test. The test file
# ($FIO_DIR/lab-fio.dat) is laid out once before the first repetition (fio --create_only=1),
# outside the repetitions' windows, and reused by every repetition.
# Markers: tool=fio rep=<n> profile=<profile> version=<fio version> start=<UTC> end=<UTC>, then
# the node sampler's summary of the repetition between LAB-UTIL markers (lib.sh).
# Exit status: 0 success; 2 usage or environment problem; 4 this run id already ran (lib.sh);
# otherwise fio's own status.
set -eu

LAB_SCRIPT_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$LAB_SCRIPT_DIR/lib.sh"

FIO_PROFILE=${FIO_PROFILE:-seed}
FIO_JOB_DIR=${FIO_JOB_DIR:-$LAB_SCRIPT_DIR}
FIO_JOBFILE=${FIO_JOBFILE:-$FIO_JOB_DIR/fio-$FIO_PROFILE.fio}
FIO_DIR=${FIO_DIR:-}
FIO_SIZE=${FIO_SIZE:-8G}
FIO_RUNTIME=${FIO_RUNTIME:-60}
FIO_RAMP=${FIO_RAMP:-10}
REPS=${REPS:-3}
FIO_KEEP_FILE=${FIO_KEEP_FILE:-0}
FIO_BIN=${FIO_BIN:-fio}

[ -n "$FIO_DIR" ] || lab_die "FIO_DIR must name the directory to test"
lab_require_word FIO_PROFILE "$FIO_PROFILE"
lab_require_word FIO_SIZE "$FIO_SIZE"
lab_require_uint FIO_RUNTIME "$FIO_RUNTIME" 1
lab_require_uint FIO_RAMP "$FIO_RAMP" 0
lab_require_uint REPS "$REPS" 1
lab_require_run_id
[ -r "$FIO_JOBFILE" ] ||
  lab_die "no fio job file for profile '$FIO_PROFILE' ($FIO_JOBFILE); the job files are rendered by components/bench/profiles.ts (the Job's ConfigMap holds them): set FIO_JOB_DIR"
lab_require_cmd "$FIO_BIN"
lab_run_check fio

mkdir -p -- "$FIO_DIR"
export FIO_DIR FIO_SIZE FIO_RUNTIME FIO_RAMP

fio_version=$("$FIO_BIN" --version)
fio_version=${fio_version#fio-}
lab_require_word "fio version" "$fio_version"

stage=$(lab_mktemp_dir)
cleanup() {
  rm -rf -- "$stage"
  if [ "$FIO_KEEP_FILE" != 1 ]; then rm -f -- "$FIO_DIR/lab-fio.dat"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

lab_log "fio $fio_version: profile $FIO_PROFILE, $REPS repetition(s), size $FIO_SIZE, dir $FIO_DIR"
# The test file is laid out once, before the first repetition and outside every repetition's
# window: fio's create_only runs "only the setup phase of the job. If files need to be laid out or
# updated on disk, only that will be done -- the actual job contents are not executed" (fio(1)).
# Its numbers exclude the layout anyway; the window the limit lines judge (lab_util_begin) must too.
lab_log "fio: laying out the test file ($FIO_SIZE) before the repetitions"
status=0
"$FIO_BIN" --create_only=1 --output="$stage/fio-layout.txt" "$FIO_JOBFILE" || status=$?
if [ "$status" -ne 0 ]; then
  lab_log "fio could not lay out the test file (status $status); its output follows"
  if [ -f "$stage/fio-layout.txt" ]; then cat -- "$stage/fio-layout.txt" >&2; fi
  exit "$status"
fi
rep=1
while [ "$rep" -le "$REPS" ]; do
  out="$stage/fio-rep$rep.json"
  lab_log "fio repetition $rep/$REPS"
  status=0
  lab_util_begin fio "$rep" "$stage"
  "$FIO_BIN" --output-format=json --output="$out" "$FIO_JOBFILE" || status=$?
  lab_util_end
  if [ "$status" -ne 0 ]; then
    lab_log "fio failed with status $status in repetition $rep; its output follows"
    if [ -f "$out" ]; then cat -- "$out" >&2; fi
    exit "$status"
  fi
  lab_emit fio "$rep" "$out" "profile=$FIO_PROFILE" "version=$fio_version" "start=$lab_rep_start" "end=$lab_rep_end"
  lab_util_emit fio "$rep"
  rep=$((rep + 1))
done
lab_run_done fio
lab_log "fio done: $REPS repetition(s)"
