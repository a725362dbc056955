#!/bin/sh
# await-prepare.sh: waits for the storage Job (kafka-storage-prepare, scripts/prepare-dirs.sh) to
# complete, and stops at once, naming the fix, when the NFS CSI driver cannot make a volume root
# writable. Run on the machine running `pulumi up`, by the @pulumi/command local.Command the
# KafkaCluster component creates (components/kafka/index.ts), never inside a Job.
#
# Why: the driver chmods each volume root as root after mounting it (csi-driver-nfs v4.13.4
# pkg/nfs/utils.go chmodIfPermissionMismatch, mountPermissions 0777). Where the SVM's export rule
# squashes root, that chmod is refused: NodePublishVolume fails, the kubelet records a FailedMount
# event on the Job's pod ("MountVolume.SetUp failed for volume ... chmod ...: operation not
# permitted") and retries, and the pod stays in ContainerCreating until the Job's deadline. This
# script reads those events (core/v1 Events are selectable by `reason`: kubernetes
# pkg/registry/core/event/strategy.go ToSelectableFields) and fails with the one command that fixes
# the rule (docs/kafka.md, "Root over NFS").
#
# Environment [default]:
#   JOB_NAME              the Job (required)
#   JOB_NAMESPACE         its namespace, which holds nothing else (required)
#   WAIT_TIMEOUT_SECONDS  give up after this many seconds (required)
#   SVM_NAME              the SVM whose `default` export policy the volumes use (required)
#   MANAGEMENT_ENDPOINT   the file system's management endpoint (DNS name) (required)
#   LAB_KUBECONFIG        kubeconfig *content*; written to a private temporary file that is
#                         removed on exit. Empty: kubectl's own KUBECONFIG / ~/.kube/config []
#   POLL_SECONDS          seconds between two looks [5]
#   KUBECTL_BIN           kubectl executable [kubectl]
#
# Complete: exits 0. Failed, or not complete in time: prints the Job's description and log on stderr,
# exits 1. A FailedMount event whose message says chmod was not permitted: prints the fix, exits 1.
# Other FailedMount events (e.g. an NFS server that does not answer) are printed once each while it
# keeps waiting, since the kubelet retries them.
set -eu

JOB_NAME=${JOB_NAME:-}
JOB_NAMESPACE=${JOB_NAMESPACE:-}
WAIT_TIMEOUT_SECONDS=${WAIT_TIMEOUT_SECONDS:-}
SVM_NAME=${SVM_NAME:-}
MANAGEMENT_ENDPOINT=${MANAGEMENT_ENDPOINT:-}
LAB_KUBECONFIG=${LAB_KUBECONFIG:-}
POLL_SECONDS=${POLL_SECONDS:-5}
KUBECTL_BIN=${KUBECTL_BIN:-kubectl}

log() {
  printf '[lab] %s\n' "$*" >&2
}
for v in JOB_NAME JOB_NAMESPACE SVM_NAME MANAGEMENT_ENDPOINT; do
  eval "val=\${$v}"
  # shellcheck disable=SC2154 # val is set by the eval above
  [ -n "$val" ] || { log "error: $v is not set"; exit 2; }
done
case $WAIT_TIMEOUT_SECONDS in
  '' | *[!0-9]*) log "error: WAIT_TIMEOUT_SECONDS must be a whole number, got '$WAIT_TIMEOUT_SECONDS'"; exit 2 ;;
esac
command -v "$KUBECTL_BIN" >/dev/null 2>&1 || { log "error: '$KUBECTL_BIN' is not installed"; exit 2; }

umask 077
stage=$(mktemp -d "${TMPDIR:-/tmp}/lab-await.XXXXXX")
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
if [ -n "$LAB_KUBECONFIG" ]; then
  printf '%s\n' "$LAB_KUBECONFIG" >"$stage/kubeconfig"
  KUBECONFIG="$stage/kubeconfig"
  export KUBECONFIG
fi
: >"$stage/seen"

k() {
  "$KUBECTL_BIN" --namespace "$JOB_NAMESPACE" "$@"
}

give_up() {
  log "job/$JOB_NAME in namespace $JOB_NAMESPACE $1"
  k describe "job/$JOB_NAME" >&2 || true
  k logs "job/$JOB_NAME" >&2 || true
  exit 1
}

deadline=$(($(date +%s) + WAIT_TIMEOUT_SECONDS))
log "waiting up to ${WAIT_TIMEOUT_SECONDS}s for job/$JOB_NAME in namespace $JOB_NAMESPACE (the brokers' directories)"
while :; do
  conditions=$(k get "job/$JOB_NAME" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}' 2>"$stage/err") ||
    { log "kubectl get failed (retrying): $(cat -- "$stage/err")"; conditions=''; }
  case " $conditions " in
    *' Complete '*) log "job/$JOB_NAME complete"; exit 0 ;;
    *' Failed '*) give_up "failed; once its cause is fixed, delete it (kubectl --namespace $JOB_NAMESPACE delete job $JOB_NAME) and run pulumi up --refresh" ;;
  esac
  events=$(k get events --field-selector reason=FailedMount -o 'jsonpath={range .items[*]}{.message}{"\n"}{end}' 2>"$stage/err") ||
    { log "kubectl get events failed (retrying): $(cat -- "$stage/err")"; events=''; }
  while IFS= read -r e; do
    [ -n "$e" ] || continue
    case $e in
      *chmod*'operation not permitted'*)
        log "error: the NFS CSI driver cannot make the volume roots writable: $e"
        log "error: the export rule of SVM $SVM_NAME squashes root, and the driver's chmod of a new volume's root runs as root. Fix the rule on the file system's management endpoint (ssh fsxadmin@$MANAGEMENT_ENDPOINT):"
        log "error:   vserver export-policy rule modify -vserver $SVM_NAME -policyname default -ruleindex 1 -superuser sys"
        log "error: then run pulumi up --refresh (docs/kafka.md, \"Root over NFS\")"
        exit 1
        ;;
    esac
    if ! grep -qxF -- "$e" "$stage/seen"; then
      printf '%s\n' "$e" >>"$stage/seen"
      log "FailedMount (the kubelet retries): $e"
    fi
  done <<EVENTS
$events
EVENTS
  if [ "$(date +%s)" -ge "$deadline" ]; then give_up "did not complete within ${WAIT_TIMEOUT_SECONDS}s"; fi
  sleep "$POLL_SECONDS"
done
