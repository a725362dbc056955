#!/bin/sh
# collect-job.sh: waits for one benchmark Job to finish and prints its log on stdout. Run on the
# machine running `pulumi up`, by the @pulumi/command local.Command that BenchmarkRun creates
# per Job (components/bench/index.ts), never inside a Job.
#
# Environment [default]:
#   JOB_NAME              the Job (required)
#   JOB_NAMESPACE         its namespace (required)
#   WAIT_TIMEOUT_SECONDS  give up after this many seconds (required)
#   COLLECTOR_ACCOUNT     the ServiceAccount (in JOB_NAMESPACE) every read is made as (required)
#   TOKEN_SECONDS         lifetime asked for its token, at least 600 (required)
#   LAB_KUBECONFIG        the admin kubeconfig *content*; written to a private temporary file that
#                         is removed on exit. Empty: kubectl's own KUBECONFIG / ~/.kube/config []
#   POLL_SECONDS          seconds between two looks at the Job's conditions [10]
#   KUBECTL_BIN           kubectl executable [kubectl]
#   MOUNT_REFUSED_FIX     what to do when a pod of the Job cannot mount a volume because the CSI
#                         driver's chmod of it was refused (lines, printed after the event). Set: it
#                         also reads the FailedMount events of the Job's pods on every look. []
#
# Identity: the admin kubeconfig makes one request, a TokenRequest for COLLECTOR_ACCOUNT (`kubectl
# create token <account> --namespace <ns> --duration <TOKEN_SECONDS>s`, kubectl's "Request a
# service account token": --duration is the "Requested lifetime of the issued token",
# kubernetes/kubectl v0.35.7 pkg/cmd/create/create_token.go, which prints the bare token when
# stdout is not a terminal). Every other call reads with that token, through a kubeconfig written
# in the private temporary directory (mode 0600, removed on exit) holding the current context's
# server and certificate authority (`kubectl config view --minify --raw --flatten`: local, no
# request) and the token: never on a command line, where other users of the machine could read it
# in the process list. The account's Role (components/bench/access.ts) allows get on this run's
# Jobs, list/watch pods, get pods/log and list events in the namespace, nothing else. A request
# refused as Unauthorized (the server capped the lifetime: kube-apiserver
# --service-account-max-token-expiration) gets one new token; Forbidden stops at once, naming the
# account, since waiting cannot widen its Role.
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
#
# With MOUNT_REFUSED_FIX (the kafka stack's storage Job, components/kafka/index.ts): a FailedMount
# event of one of the Job's pods (pods labelled batch.kubernetes.io/job-name=<job>, set by the Job
# controller; events selected by `reason`, kubernetes pkg/registry/core/event/strategy.go
# ToSelectableFields) whose message says a chmod was not permitted makes it print the event and
# MOUNT_REFUSED_FIX and exit 1 at once. csi-driver-nfs chmods a volume root as root after mounting it,
# refused where the NFS export squashes root; NodePublishVolume returns the error as codes.Internal
# with the error's own text (pkg/nfs/nodeserver.go). Since v4.13.3 (commit 4a5ec144) the chmod is a
# bare syscall.Chmod (pkg/nfs/chmod_unix.go), whose error is just the errno's text, so v4.13.4's
# event reads `MountVolume.SetUp failed for volume "data-0" : rpc error: code = Internal desc =
# operation not permitted` (no "chmod", no path); before it, os.Chmod's `chmod <path>: operation not
# permitted`. Both are matched. Other FailedMount events are printed once each while it waits.
#
# The event may not be the end of it: the driver leaves the NFS mount in place after the refused
# chmod, and the kubelet's retry finds it mounted and succeeds without a chmod, so the container
# starts on a root-owned 0755 volume root, prepare-dirs.sh fails on it ("the NFS driver's chmod was
# refused", its own line) and, with backoffLimit 2, the Job is Failed within about a minute. So on a
# Failed Job the events are read first, then the Job's log for that line: either prints
# MOUNT_REFUSED_FIX before the Job's description.
set -eu

JOB_NAME=${JOB_NAME:-}
JOB_NAMESPACE=${JOB_NAMESPACE:-}
WAIT_TIMEOUT_SECONDS=${WAIT_TIMEOUT_SECONDS:-}
COLLECTOR_ACCOUNT=${COLLECTOR_ACCOUNT:-}
TOKEN_SECONDS=${TOKEN_SECONDS:-}
LAB_KUBECONFIG=${LAB_KUBECONFIG:-}
POLL_SECONDS=${POLL_SECONDS:-10}
KUBECTL_BIN=${KUBECTL_BIN:-kubectl}
MOUNT_REFUSED_FIX=${MOUNT_REFUSED_FIX:-}

log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}
[ -n "$JOB_NAME" ] || { log "error: JOB_NAME is not set"; exit 2; }
[ -n "$JOB_NAMESPACE" ] || { log "error: JOB_NAMESPACE is not set"; exit 2; }
case $WAIT_TIMEOUT_SECONDS in
  '' | *[!0-9]*) log "error: WAIT_TIMEOUT_SECONDS must be a whole number, got '$WAIT_TIMEOUT_SECONDS'"; exit 2 ;;
esac
[ -n "$COLLECTOR_ACCOUNT" ] || { log "error: COLLECTOR_ACCOUNT is not set"; exit 2; }
case $TOKEN_SECONDS in
  '' | *[!0-9]*) log "error: TOKEN_SECONDS must be a whole number of at least 600, got '$TOKEN_SECONDS'"; exit 2 ;;
esac
[ "$TOKEN_SECONDS" -ge 600 ] || { log "error: TOKEN_SECONDS must be a whole number of at least 600, got '$TOKEN_SECONDS'"; exit 2; }
command -v "$KUBECTL_BIN" >/dev/null 2>&1 || { log "error: '$KUBECTL_BIN' is not installed"; exit 2; }

umask 077
stage=$(mktemp -d "${TMPDIR:-/tmp}/lab-collect.XXXXXX")
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
# The admin kubeconfig: the given one, else kubectl's own.
admin_config=${KUBECONFIG:-}
if [ -n "$LAB_KUBECONFIG" ]; then
  printf '%s\n' "$LAB_KUBECONFIG" >"$stage/admin-kubeconfig"
  admin_config="$stage/admin-kubeconfig"
fi
admin() {
  if [ -n "$admin_config" ]; then
    KUBECONFIG=$admin_config "$KUBECTL_BIN" "$@"
  else
    (unset KUBECONFIG && exec "$KUBECTL_BIN" "$@")
  fi
}

# The current context's cluster, read locally from the admin kubeconfig.
server=$(admin config view --minify --raw --flatten -o 'jsonpath={.clusters[0].cluster.server}')
ca=$(admin config view --minify --raw --flatten -o 'jsonpath={.clusters[0].cluster.certificate-authority-data}')
case $server in
  https://*) ;;
  *) log "error: the kubeconfig's current cluster must have an https:// server, got '$server'"; exit 2 ;;
esac
case $ca in
  '' | *[!A-Za-z0-9+/=]*) log "error: the kubeconfig's current cluster must have its certificate-authority-data (base64), to check the server with"; exit 2 ;;
esac

# request_token: a token of COLLECTOR_ACCOUNT (the one admin request), into the collector's kubeconfig.
request_token() {
  if ! admin create token "$COLLECTOR_ACCOUNT" --namespace "$JOB_NAMESPACE" --duration "${TOKEN_SECONDS}s" >"$stage/token" 2>"$stage/token.err"; then
    log "error: cannot get a token of serviceaccount $COLLECTOR_ACCOUNT in namespace $JOB_NAMESPACE: $(cat -- "$stage/token.err")"
    exit 1
  fi
  token=$(cat -- "$stage/token")
  rm -f -- "$stage/token"
  case $token in
    '' | *[!A-Za-z0-9._-]*) log "error: kubectl create token did not print a token"; exit 1 ;;
  esac
  printf '%s\n' \
    'apiVersion: v1' \
    'kind: Config' \
    'clusters:' \
    '- name: lab' \
    '  cluster:' \
    "    server: \"$server\"" \
    "    certificate-authority-data: $ca" \
    'users:' \
    "- name: $COLLECTOR_ACCOUNT" \
    '  user:' \
    "    token: $token" \
    'contexts:' \
    '- name: lab' \
    '  context:' \
    '    cluster: lab' \
    "    user: $COLLECTOR_ACCOUNT" \
    "    namespace: $JOB_NAMESPACE" \
    'current-context: lab' >"$stage/kubeconfig"
  fresh=1
}
request_token
KUBECONFIG="$stage/kubeconfig"
export KUBECONFIG

# k: every read, as the collector's ServiceAccount.
k() {
  "$KUBECTL_BIN" --namespace "$JOB_NAMESPACE" "$@"
}

# check_mounts: with MOUNT_REFUSED_FIX, the FailedMount events of the Job's pods (see above).
: >"$stage/seen"
check_mounts() {
  [ -n "$MOUNT_REFUSED_FIX" ] || return 0
  pods=$(k get pods -l "batch.kubernetes.io/job-name=$JOB_NAME" -o 'jsonpath={range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null) || return 0
  k get events --field-selector reason=FailedMount -o 'jsonpath={range .items[*]}{.involvedObject.name}{"\t"}{.message}{"\n"}{end}' >"$stage/events" 2>/dev/null || return 0
  while IFS="$(printf '\t')" read -r pod message; do
    case "
$pods
" in
      *"
$pod
"*) ;;
      *) continue ;;
    esac
    case $message in
      *chmod*'operation not permitted'* | *'code = Internal desc = operation not permitted'*)
        log "error: pod $pod of job/$JOB_NAME cannot mount a volume: $message"
        printf '%s\n' "$MOUNT_REFUSED_FIX" | while IFS= read -r line; do log "error: $line"; done
        exit 1
        ;;
    esac
    if ! grep -qxF -- "$pod $message" "$stage/seen"; then
      printf '%s\n' "$pod $message" >>"$stage/seen"
      log "FailedMount of pod $pod (the kubelet retries): $message"
    fi
  done <"$stage/events"
}

# check_log: with MOUNT_REFUSED_FIX, the Job's log for prepare-dirs.sh's line on a volume root the
# driver could not chmod (see above).
check_log() {
  [ -n "$MOUNT_REFUSED_FIX" ] || return 0
  k logs "job/$JOB_NAME" >"$stage/job.log" 2>/dev/null || return 0
  line=$(grep -m 1 -F "the NFS driver's chmod was refused" "$stage/job.log") || return 0
  log "error: job/$JOB_NAME failed: $line"
  printf '%s\n' "$MOUNT_REFUSED_FIX" | while IFS= read -r fix; do log "error: $fix"; done
  exit 1
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
    if grep -q '(Forbidden)' "$stage/get.err"; then
      log "error: serviceaccount $COLLECTOR_ACCOUNT in namespace $JOB_NAMESPACE may not read job/$JOB_NAME ($(cat -- "$stage/get.err")): its Role lists the Jobs of its run by name"
      exit 1
    fi
    if grep -q '(Unauthorized)' "$stage/get.err"; then
      if [ "$fresh" = 1 ]; then
        log "error: the token of serviceaccount $COLLECTOR_ACCOUNT in namespace $JOB_NAMESPACE was refused as soon as it was issued: $(cat -- "$stage/get.err")"
        exit 1
      fi
      log "the token of serviceaccount $COLLECTOR_ACCOUNT expired (the server shortened it): requesting another"
      request_token
      continue
    fi
    log "kubectl get failed (retrying): $(cat -- "$stage/get.err")"
    conditions=''
  else
    fresh=0
  fi
  case " $conditions " in
    *' Complete '*) break ;;
    *' Failed '*)
      check_mounts
      check_log
      give_up "failed"
      ;;
  esac
  check_mounts
  if [ "$(date +%s)" -ge "$deadline" ]; then give_up "did not finish within ${WAIT_TIMEOUT_SECONDS}s"; fi
  sleep "$POLL_SECONDS"
done
log "job/$JOB_NAME complete; collecting its log"
k logs "job/$JOB_NAME"
