#!/bin/sh
# collect-job.sh: waits for one benchmark Job to finish and prints its log on stdout, or (KAFKA_NAME)
# waits for a Strimzi Kafka to become Ready. Run on the machine running `pulumi up`, by the
# @pulumi/command local.Command that BenchmarkRun creates per Job (components/bench/index.ts), the
# kafka stack's storage Jobs and its Kafka (components/kafka/index.ts), never inside a Job.
#
# Environment [default]:
#   JOB_NAME              the Job (JOB_NAME or KAFKA_NAME, not both)
#   KAFKA_NAME            instead of a Job: the Kafka (kafka.strimzi.io/v1) to await
#   JOB_NAMESPACE         the namespace of either (required)
#   WAIT_TIMEOUT_SECONDS  give up after this many seconds (required)
#   COLLECTOR_ACCOUNT     the ServiceAccount (in JOB_NAMESPACE) every read is made as (required)
#   TOKEN_SECONDS         lifetime asked for its token, at least 600 (required)
#   LAB_KUBECONFIG        the admin kubeconfig *content*; written to a private temporary file that
#                         is removed on exit. Empty: kubectl's own KUBECONFIG / ~/.kube/config []
#   POLL_SECONDS          seconds between two looks at the conditions [10]
#   KUBECTL_BIN           kubectl executable [kubectl]
#   LAB_RUN_METADATA      the run's metadata as one line of JSON (components/bench/collect.ts
#                         runMetadataEnv): printed on stdout as `=== LAB-RUN-METADATA <json> ===`
#                         before a Complete Job's log, so the samples carry the setup the Job ran
#                         on, recorded when it ran, not what the stack's config says later []
#   MOUNT_FIX             what to do when the NFS server refuses a pod's mount (lines, printed after
#                         the event). Set: every look also reads the FailedMount events of the pods
#                         awaited (the Job's, or the Kafka's) []
#   JOB_SECRET            a Secret the Job's pod mounts, as one line of JSON (its manifest, in
#                         JOB_NAMESPACE), which lives only while the Job is awaited: created before
#                         the wait (after deleting a leftover of an interrupted run), deleted when the
#                         script ends, however it ends; a failed delete fails the script (exit 1),
#                         naming the command, so the next `pulumi up` runs it again. Only with JOB_NAME []
#   JOB_SECRET_NAME       that Secret's name (required with JOB_SECRET)
#
# Identity: the admin kubeconfig makes one request (with JOB_SECRET, three more: that Secret's
# create and its two deletes, `kubectl create -f -` and `kubectl delete secret <name>
# --ignore-not-found --wait=false`, which sends the DELETE only: kubernetes/kubectl
# pkg/cmd/delete/delete.go Complete, `RequireObject(false)`, and DeleteResult; so the collector's Role
# never writes), a TokenRequest for COLLECTOR_ACCOUNT (`kubectl
# create token <account> --namespace <ns> --duration <TOKEN_SECONDS>s`, kubectl's "Request a
# service account token": --duration is the "Requested lifetime of the issued token",
# kubernetes/kubectl v0.35.7 pkg/cmd/create/create_token.go, which prints the bare token when
# stdout is not a terminal). Every other call reads with that token, through a kubeconfig written
# in the private temporary directory (mode 0600, removed on exit) holding the current context's
# server and certificate authority (`kubectl config view --minify --raw --flatten`: local, no
# request) and the token: never on a command line, where other users of the machine could read it
# in the process list. The account's Role (components/bench/access.ts) allows get on this run's
# Jobs (or this Kafka), list/watch pods, get pods/log and list events in the namespace, nothing
# else. A request refused as Unauthorized (the server capped the lifetime: kube-apiserver
# --service-account-max-token-expiration) gets one new token; Forbidden stops at once, naming the
# account, since waiting cannot widen its Role.
#
# It polls the conditions instead of a single `kubectl wait --for=condition=complete`, which would
# only notice a failed Job at its own timeout. A Job: Complete prints `kubectl logs job/<name>`
# (the benchmark's raw outputs between LAB-RESULT markers) on stdout and exits 0. Failed, or not
# finished in time: prints the Job's description and its log on stderr and exits 1, so the Pulumi
# update fails showing why. Gone (the API answers NotFound: kubectl prints `Error from server
# (NotFound): jobs.batch "<name>" not found`, kubernetes/kubernetes
# staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go "Error from server (%s): %s" with
# apimachinery's NewNotFound message): says what happened and exits 1 at once, since waiting
# cannot bring a deleted Job back. Any other API error is retried until the timeout.
#
# A Kafka: done when its `Ready` condition is True for its current spec (`status.observedGeneration`
# equal to `metadata.generation`: Strimzi's KafkaStatus, api/.../status/Status.java; a Ready of the
# spec before an update does not count); prints `kafka/<name> Ready` on stderr, nothing on stdout,
# exits 0. Strimzi reports a failing reconciliation as `NotReady` and keeps retrying, so NotReady is
# not an end: its reason and message are printed when they change, and only the timeout (or a
# refused mount, below) ends the wait, with the Kafka's description and its pods on stderr, exit 1.
# Its pods are the ones Strimzi labels `strimzi.io/cluster=<name>` (brokers and controllers).
#
# With MOUNT_FIX: a FailedMount event (selected by `reason`, kubernetes pkg/registry/core/event/
# strategy.go ToSelectableFields) of one of the pods awaited (a Job's pods are labelled
# batch.kubernetes.io/job-name=<job> by the Job controller) whose message says the NFS server
# refused the mount makes it print the event and MOUNT_FIX and exit 1 at once: the kubelet's `nfs`
# volume plugin runs mount(8) (kubernetes pkg/volume/nfs/nfs.go SetUpAt), and mount.nfs reports
# EACCES from the server as "<prog>: access denied by server while mounting <spec>" (nfs-utils
# utils/mount/error.c mount_error), which the kubelet's event carries in `MountVolume.SetUp failed
# for volume "<pv>" : mount failed: exit status 32` + mount-utils' "Mounting command … Output: …"
# lines (k8s.io/mount-utils mount_linux.go doMount). The kubelet retries such a mount forever, so
# without this the wait would run to its timeout. An event's message holds newlines: each is read
# as one Go-quoted line (`-o go-template` with printf "%q"). Other FailedMount events are printed
# once each while it waits.
set -eu

JOB_NAME=${JOB_NAME:-}
KAFKA_NAME=${KAFKA_NAME:-}
JOB_NAMESPACE=${JOB_NAMESPACE:-}
WAIT_TIMEOUT_SECONDS=${WAIT_TIMEOUT_SECONDS:-}
COLLECTOR_ACCOUNT=${COLLECTOR_ACCOUNT:-}
TOKEN_SECONDS=${TOKEN_SECONDS:-}
LAB_KUBECONFIG=${LAB_KUBECONFIG:-}
POLL_SECONDS=${POLL_SECONDS:-10}
KUBECTL_BIN=${KUBECTL_BIN:-kubectl}
MOUNT_FIX=${MOUNT_FIX:-}
LAB_RUN_METADATA=${LAB_RUN_METADATA:-}
JOB_SECRET=${JOB_SECRET:-}
JOB_SECRET_NAME=${JOB_SECRET_NAME:-}

log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}
if [ -n "$JOB_NAME" ] && [ -n "$KAFKA_NAME" ]; then log "error: JOB_NAME and KAFKA_NAME are both set: set one"; exit 2; fi
if [ -n "$KAFKA_NAME" ]; then
  # kubectl's name for it: resource.version.group, no discovery guess between versions
  target="kafkas.v1.kafka.strimzi.io/$KAFKA_NAME"
  shown="kafka/$KAFKA_NAME"
  listed="the Kafka"
  pod_selector="strimzi.io/cluster=$KAFKA_NAME"
else
  [ -n "$JOB_NAME" ] || { log "error: JOB_NAME is not set"; exit 2; }
  target="job/$JOB_NAME"
  shown="job/$JOB_NAME"
  listed="the Jobs of its run"
  pod_selector="batch.kubernetes.io/job-name=$JOB_NAME"
fi
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
case $LAB_RUN_METADATA in
  '' | '{'*'}') ;;
  *) log "error: LAB_RUN_METADATA must be one line of JSON, an object, got '$LAB_RUN_METADATA'"; exit 2 ;;
esac
newline='
'
case $LAB_RUN_METADATA in
  *"$newline"*) log "error: LAB_RUN_METADATA must be one line of JSON, an object, got several lines"; exit 2 ;;
esac
if [ -n "$JOB_SECRET" ] || [ -n "$JOB_SECRET_NAME" ]; then
  [ -n "$JOB_NAME" ] || { log "error: JOB_SECRET is for a Job (JOB_NAME), not for a Kafka"; exit 2; }
  case $JOB_SECRET_NAME in
    '' | -* | *- | *[!a-z0-9-]*) log "error: JOB_SECRET_NAME must be a Secret's name (lower-case letters, digits, '-'), got '$JOB_SECRET_NAME'"; exit 2 ;;
  esac
  case $JOB_SECRET in
    '{'*'}') ;;
    *) log "error: JOB_SECRET must be one line of JSON, a Secret's manifest, got something else"; exit 2 ;;
  esac
  case $JOB_SECRET in
    *"$newline"*) log "error: JOB_SECRET must be one line of JSON, a Secret's manifest, got several lines"; exit 2 ;;
  esac
fi

umask 077
stage=$(mktemp -d "${TMPDIR:-/tmp}/lab-collect.XXXXXX")
secret_made=
# On exit: the Job's Secret deleted (JOB_SECRET), then the private directory.
finish() {
  status=$?
  if [ -n "$secret_made" ]; then
    if admin --namespace "$JOB_NAMESPACE" delete secret "$JOB_SECRET_NAME" --ignore-not-found --wait=false >/dev/null 2>"$stage/secret.err"; then
      log "secret/$JOB_SECRET_NAME in namespace $JOB_NAMESPACE deleted"
    else
      log "error: cannot delete secret/$JOB_SECRET_NAME in namespace $JOB_NAMESPACE ($(cat -- "$stage/secret.err")): the credentials stay in the cluster until it is deleted: kubectl --namespace $JOB_NAMESPACE delete secret $JOB_SECRET_NAME (or run pulumi up again)"
      status=1
    fi
  fi
  rm -rf -- "$stage"
  exit "$status"
}
trap finish EXIT
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

# The Job's Secret, for the time it is awaited (JOB_SECRET): a leftover of an interrupted run first goes.
if [ -n "$JOB_SECRET" ]; then
  secret_made=1
  if ! admin --namespace "$JOB_NAMESPACE" delete secret "$JOB_SECRET_NAME" --ignore-not-found --wait=false >/dev/null 2>"$stage/secret.err" ||
    ! printf '%s\n' "$JOB_SECRET" | admin --namespace "$JOB_NAMESPACE" create -f - >/dev/null 2>"$stage/secret.err"; then
    log "error: cannot create secret/$JOB_SECRET_NAME in namespace $JOB_NAMESPACE for $shown: $(cat -- "$stage/secret.err")"
    exit 1
  fi
  log "secret/$JOB_SECRET_NAME created in namespace $JOB_NAMESPACE for $shown; deleted when this wait ends"
fi
KUBECONFIG="$stage/kubeconfig"
export KUBECONFIG

# k: every read, as the collector's ServiceAccount.
k() {
  "$KUBECTL_BIN" --namespace "$JOB_NAMESPACE" "$@"
}

# check_mounts: with MOUNT_FIX, the FailedMount events of the pods awaited (see above).
: >"$stage/seen"
check_mounts() {
  [ -n "$MOUNT_FIX" ] || return 0
  pods=$(k get pods -l "$pod_selector" -o 'jsonpath={range .items[*]}{.metadata.name}{"\n"}{end}' 2>/dev/null) || return 0
  k get events --field-selector reason=FailedMount -o 'go-template={{range .items}}{{.involvedObject.name}}{{"\t"}}{{printf "%q" .message}}{{"\n"}}{{end}}' >"$stage/events" 2>/dev/null || return 0
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
      *'access denied by server while mounting'*)
        log "error: pod $pod of $shown cannot mount a volume, the NFS server refused it: $message"
        printf '%s\n' "$MOUNT_FIX" | while IFS= read -r line; do log "error: $line"; done
        exit 1
        ;;
    esac
    if ! grep -qxF -- "$pod $message" "$stage/seen"; then
      printf '%s\n' "$pod $message" >>"$stage/seen"
      log "FailedMount of pod $pod (the kubelet retries): $message"
    fi
  done <"$stage/events"
}

give_up() {
  log "$shown in namespace $JOB_NAMESPACE $1"
  k describe "$target" >&2 || true
  if [ -n "$KAFKA_NAME" ]; then
    log "pods of $shown:"
    k get pods -l "$pod_selector" -o wide >&2 || true
  else
    log "log of $shown:"
    k logs "$target" >&2 || true
  fi
  exit 1
}

# look: the state in one word: complete, failed, waiting (also after an API error worth retrying),
# or retry (at once, with a new token). A Kafka's NotReady reason and message are printed when
# they change.
: >"$stage/not-ready"
look() {
  if [ -n "$KAFKA_NAME" ]; then
    jsonpath='{.metadata.generation}{" "}{.status.observedGeneration}{" "}{range .status.conditions[?(@.type=="Ready")]}{.status}{end}{"\n"}{range .status.conditions[?(@.type=="NotReady")]}{.reason}{": "}{.message}{end}'
  else
    jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}'
  fi
  if ! state=$(k get "$target" -o "jsonpath=$jsonpath" 2>"$stage/get.err"); then
    if grep -q '(NotFound)' "$stage/get.err"; then
      if [ -n "$KAFKA_NAME" ]; then
        log "error: $shown in namespace $JOB_NAMESPACE does not exist ($(cat -- "$stage/get.err")): it was deleted while awaited"
      else
        log "$shown in namespace $JOB_NAMESPACE does not exist ($(cat -- "$stage/get.err")): it was deleted before its log was collected (ttlSecondsAfterFinished after it finished, or by hand), so this run's results cannot be read; set a new run id to run the benchmark again"
      fi
      exit 1
    fi
    if grep -q '(Forbidden)' "$stage/get.err"; then
      log "error: serviceaccount $COLLECTOR_ACCOUNT in namespace $JOB_NAMESPACE may not read $shown ($(cat -- "$stage/get.err")): its Role lists $listed by name"
      exit 1
    fi
    if grep -q '(Unauthorized)' "$stage/get.err"; then
      if [ "$fresh" = 1 ]; then
        log "error: the token of serviceaccount $COLLECTOR_ACCOUNT in namespace $JOB_NAMESPACE was refused as soon as it was issued: $(cat -- "$stage/get.err")"
        exit 1
      fi
      log "the token of serviceaccount $COLLECTOR_ACCOUNT expired (the server shortened it): requesting another"
      request_token
      state=retry
      return 0
    fi
    log "kubectl get failed (retrying): $(cat -- "$stage/get.err")"
    state=waiting
    return 0
  fi
  fresh=0
  if [ -n "$KAFKA_NAME" ]; then
    first=$(printf '%s\n' "$state" | sed -n 1p)
    reason=$(printf '%s\n' "$state" | sed -n 2p)
    read -r generation observed ready <<EOF
$first
EOF
    if [ -n "$generation" ] && [ "$generation" = "$observed" ] && [ "$ready" = True ]; then
      state=complete
      return 0
    fi
    if [ -n "$reason" ] && [ "$reason" != "$(cat -- "$stage/not-ready")" ]; then
      printf '%s' "$reason" >"$stage/not-ready"
      log "$shown NotReady (Strimzi retries): $reason"
    fi
    state=waiting
    return 0
  fi
  case " $state " in
    *' Complete '*) state=complete ;;
    *' Failed '*) state=failed ;;
    *) state=waiting ;;
  esac
}

deadline=$(($(date +%s) + WAIT_TIMEOUT_SECONDS))
log "waiting up to ${WAIT_TIMEOUT_SECONDS}s for $shown in namespace $JOB_NAMESPACE"
while :; do
  look
  case $state in
    retry) continue ;;
    complete) break ;;
    failed)
      check_mounts
      give_up "failed"
      ;;
  esac
  check_mounts
  if [ "$(date +%s)" -ge "$deadline" ]; then give_up "did not finish within ${WAIT_TIMEOUT_SECONDS}s"; fi
  sleep "$POLL_SECONDS"
done
if [ -n "$KAFKA_NAME" ]; then
  log "$shown Ready"
  exit 0
fi
log "$shown complete; collecting its log"
if [ -n "$LAB_RUN_METADATA" ]; then printf '=== LAB-RUN-METADATA %s ===\n' "$LAB_RUN_METADATA"; fi
k logs "$target"
