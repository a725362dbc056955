#!/bin/sh
# wait-installed.sh: waits until Trident runs on the cluster, so that the stacks downstream can
# create TridentBackendConfigs (their CRD is created by the Trident operator, not by the chart or
# the add-on). Run on the machine running `pulumi up`, by the @pulumi/command local.Command of
# components/trident/index.ts (TridentOperator).
#
# Done when the TridentOrchestrator's `.status.status` is `Installed` (NetApp/trident v26.06.0
# operator/crd/apis/netapp/v1/tridentorchestrator.go: AppStatusInstalled = "Installed") and the
# TridentBackendConfig CRD exists.
#
# Environment [default]:
#   LAB_KUBECONFIG        kubeconfig *content*; written to a private temporary file removed on exit
#                         (required)
#   ORCHESTRATOR          the TridentOrchestrator's name (required)
#   TRIDENT_NAMESPACE     Trident's namespace, for the pod list printed on failure (required)
#   WAIT_TIMEOUT_SECONDS  give up after this many seconds (required)
#   POLL_SECONDS          seconds between two looks [10]
#   KUBECTL_BIN           kubectl executable [kubectl]
set -eu

LAB_KUBECONFIG=${LAB_KUBECONFIG:-}
ORCHESTRATOR=${ORCHESTRATOR:-}
TRIDENT_NAMESPACE=${TRIDENT_NAMESPACE:-}
WAIT_TIMEOUT_SECONDS=${WAIT_TIMEOUT_SECONDS:-}
POLL_SECONDS=${POLL_SECONDS:-10}
KUBECTL_BIN=${KUBECTL_BIN:-kubectl}

log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}
[ -n "$LAB_KUBECONFIG" ] || { log "error: LAB_KUBECONFIG is not set"; exit 2; }
[ -n "$ORCHESTRATOR" ] || { log "error: ORCHESTRATOR is not set"; exit 2; }
[ -n "$TRIDENT_NAMESPACE" ] || { log "error: TRIDENT_NAMESPACE is not set"; exit 2; }
case $WAIT_TIMEOUT_SECONDS in
  '' | *[!0-9]*) log "error: WAIT_TIMEOUT_SECONDS must be a whole number, got '$WAIT_TIMEOUT_SECONDS'"; exit 2 ;;
esac
command -v "$KUBECTL_BIN" >/dev/null 2>&1 || { log "error: '$KUBECTL_BIN' is not installed"; exit 2; }

umask 077
kubeconfig=$(mktemp "${TMPDIR:-/tmp}/lab-kubeconfig.XXXXXX")
trap 'rm -f "$kubeconfig"' EXIT
printf '%s\n' "$LAB_KUBECONFIG" > "$kubeconfig"
KUBECONFIG=$kubeconfig
export KUBECONFIG

deadline=$(( $(date +%s) + WAIT_TIMEOUT_SECONDS ))
status=""
while :; do
  status=$("$KUBECTL_BIN" get tridentorchestrator "$ORCHESTRATOR" -o 'jsonpath={.status.status}' 2>/dev/null || true)
  if [ "$status" = "Installed" ] && "$KUBECTL_BIN" get crd tridentbackendconfigs.trident.netapp.io >/dev/null 2>&1; then
    log "Trident is installed (TridentOrchestrator $ORCHESTRATOR: Installed)"
    exit 0
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    log "error: Trident is not installed after ${WAIT_TIMEOUT_SECONDS}s (TridentOrchestrator $ORCHESTRATOR status: '${status:-none}')"
    "$KUBECTL_BIN" -n "$TRIDENT_NAMESPACE" get pods >&2 || true
    exit 1
  fi
  log "waiting for Trident (TridentOrchestrator $ORCHESTRATOR status: '${status:-none}')"
  sleep "$POLL_SECONDS"
done
