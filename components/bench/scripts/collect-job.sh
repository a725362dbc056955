#!/bin/sh
# collect-job.sh: waits for one benchmark Job to finish and prints its log on stdout. Run on the
# machine running `pulumi up`, by the @pulumi/command local.Command that BenchmarkRun creates
# per Job (components/bench/index.ts), never inside a Job.
#
# Environment [default]:
#   JOB_NAME              the Job (required)
#   JOB_NAMESPACE         its namespace (required)
#   WAIT_TIMEOUT_SECONDS  give up after this many seconds (required)
#   LAB_KUBECONFIG        kubeconfig *content*; written to a private temporary file that is
#                         removed on exit. Empty: kubectl's own KUBECONFIG / ~/.kube/config []
#   POLL_SECONDS          seconds between two looks at the Job's conditions [10]
#   KUBECTL_BIN           kubectl executable [kubectl]
#
# It polls the Job's conditions instead of a single `kubectl wait --for=condition=complete`,
# which would only notice a failed Job at its own timeout. Complete: prints `kubectl logs
# job/<name>` (the benchmark's raw outputs between LAB-RESULT markers) on stdout and exits 0.
# Failed, or not finished in time: prints the Job's description and its log on stderr and exits
# 1, so the Pulumi update fails showing why. Gone (the API answers NotFound: kubectl prints
# `Error from server (NotFound): jobs.batch "<name>" not found`, kubernetes/kubernetes
# staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go "Error from server (%s): %s" with
# apimachinery's NewNotFound message): says what happened and exits 1 at once, since waiting
# cannot bring a deleted Job back. Any other API error is retried until the timeout.
set -eu

JOB_NAME=${JOB_NAME:-}
JOB_NAMESPACE=${JOB_NAMESPACE:-}
WAIT_TIMEOUT_SECONDS=${WAIT_TIMEOUT_SECONDS:-}
LAB_KUBECONFIG=${LAB_KUBECONFIG:-}
POLL_SECONDS=${POLL_SECONDS:-10}
KUBECTL_BIN=${KUBECTL_BIN:-kubectl}

log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}
[ -n "$JOB_NAME" ] || { log "error: JOB_NAME is not set"; exit 2; }
[ -n "$JOB_NAMESPACE" ] || { log "error: JOB_NAMESPACE is not set"; exit 2; }
case $WAIT_TIMEOUT_SECONDS in
  '' | *[!0-9]*) log "error: WAIT_TIMEOUT_SECONDS must be a whole number, got '$WAIT_TIMEOUT_SECONDS'"; exit 2 ;;
esac
command -v "$KUBECTL_BIN" >/dev/null 2>&1 || { log "error: '$KUBECTL_BIN' is not installed"; exit 2; }

umask 077
stage=$(mktemp -d "${TMPDIR:-/tmp}/lab-collect.XXXXXX")
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
if [ -n "$LAB_KUBECONFIG" ]; then
  printf '%s\n' "$LAB_KUBECONFIG" >"$stage/kubeconfig"
  KUBECONFIG="$stage/kubeconfig"
  export KUBECONFIG
fi

k() {
  "$KUBECTL_BIN" --namespace "$JOB_NAMESPACE" "$@"
}

give_up() {
  log "job/$JOB_NAME in namespace $JOB_NAMESPACE $1"
  k describe "job/$JOB_NAME" >&2 || true
  log "log of job/$JOB_NAME:"
  k logs "job/$JOB_NAME" >&2 || true
  exit 1
}

deadline=$(($(date +%s) + WAIT_TIMEOUT_SECONDS))
log "waiting up to ${WAIT_TIMEOUT_SECONDS}s for job/$JOB_NAME in namespace $JOB_NAMESPACE"
while :; do
  if ! conditions=$(k get "job/$JOB_NAME" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}' 2>"$stage/get.err"); then
    if grep -q '(NotFound)' "$stage/get.err"; then
      log "job/$JOB_NAME in namespace $JOB_NAMESPACE does not exist ($(cat -- "$stage/get.err")): it was deleted before its log was collected (ttlSecondsAfterFinished after it finished, or by hand), so this run's results cannot be read; set a new run id to run the benchmark again"
      exit 1
    fi
    log "kubectl get failed (retrying): $(cat -- "$stage/get.err")"
    conditions=''
  fi
  case " $conditions " in
    *' Complete '*) break ;;
    *' Failed '*) give_up "failed" ;;
  esac
  if [ "$(date +%s)" -ge "$deadline" ]; then give_up "did not finish within ${WAIT_TIMEOUT_SECONDS}s"; fi
  sleep "$POLL_SECONDS"
done
log "job/$JOB_NAME complete; collecting its log"
k logs "job/$JOB_NAME"
