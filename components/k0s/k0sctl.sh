# shellcheck shell=sh
# k0sctl.sh: what the K0sCluster component's @pulumi/command local.Commands run on the machine
# running `pulumi up` (never on a node). components/k0s/k0sctl.ts appends one call to this text:
#   lab_k0sctl_apply       create/update of the cluster: `k0sctl apply` (idempotent)
#   lab_k0sctl_kubeconfig  the admin kubeconfig on stdout (`k0sctl kubeconfig`), the API URL rewritten
#   lab_k0sctl_reset       delete of the cluster: `k0sctl reset --force`, best effort (the instances
#                          are terminated right after, so a failed reset does not block a destroy)
#
# Environment:
#   LAB_K0SCTL_CONFIG    the k0sctl config (YAML), fed to k0sctl on stdin (`--config -`) (required)
#   LAB_SSH_PRIVATE_KEY  the nodes' and bastion's SSH private key; written to a private temporary
#                        file that LAB_SSH_KEY_PATH names (the config reads ${LAB_SSH_KEY_PATH}
#                        through k0sctl's environment substitution). Empty: k0sctl uses the SSH
#                        agent or ~/.ssh keys (when the stack was given lab:sshPublicKey) []
#   LAB_API_URL          kubeconfig only: the API server URL written into the kubeconfig (required)
#   TMPDIR               where the key and a fresh known_hosts live during the call [/tmp]
#
# k0sctl trusts each host key on first use and records it in SSH_KNOWN_HOSTS, here a file of this
# call only: lab hosts are re-created with reused private addresses, and a stale entry in the
# user's ~/.ssh/known_hosts must neither block the lab nor be overwritten by it.

lab_k0sctl_log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}

# lab_k0sctl_prepare: temporary directory, key file and known_hosts; fails (127) without k0sctl.
lab_k0sctl_prepare() {
  if ! command -v k0sctl >/dev/null 2>&1; then
    lab_k0sctl_log "error: k0sctl is not installed (not on PATH). Install k0sctl v0.32.2 or newer on this machine" \
      "(https://github.com/k0sproject/k0sctl#installation: a release binary on PATH, or 'brew install k0sproject/tap/k0sctl')" \
      "and run 'pulumi up' again."
    exit 127
  fi
  [ -n "${LAB_K0SCTL_CONFIG:-}" ] || { lab_k0sctl_log "error: LAB_K0SCTL_CONFIG is empty"; exit 2; }
  umask 077
  LAB_K0SCTL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lab-k0sctl.XXXXXX")
  trap 'rm -rf -- "$LAB_K0SCTL_TMP"' EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
  SSH_KNOWN_HOSTS="$LAB_K0SCTL_TMP/known_hosts"
  export SSH_KNOWN_HOSTS
  if [ -n "${LAB_SSH_PRIVATE_KEY:-}" ]; then
    printf '%s\n' "$LAB_SSH_PRIVATE_KEY" >"$LAB_K0SCTL_TMP/id"
    LAB_SSH_KEY_PATH="$LAB_K0SCTL_TMP/id"
    export LAB_SSH_KEY_PATH
  fi
}

lab_k0sctl_apply() {
  set -eu
  lab_k0sctl_prepare
  lab_k0sctl_log "k0sctl apply ($(k0sctl version 2>/dev/null | head -n 1))"
  printf '%s\n' "$LAB_K0SCTL_CONFIG" | k0sctl apply --config -
}

lab_k0sctl_kubeconfig() {
  set -eu
  [ -n "${LAB_API_URL:-}" ] || { lab_k0sctl_log "error: LAB_API_URL is empty"; exit 2; }
  lab_k0sctl_prepare
  printf '%s\n' "$LAB_K0SCTL_CONFIG" | k0sctl kubeconfig --config - --address "$LAB_API_URL"
}

lab_k0sctl_reset() {
  set -u
  if ! command -v k0sctl >/dev/null 2>&1; then
    lab_k0sctl_log "warning: k0sctl is not on PATH: skipping 'k0sctl reset' (the instances are terminated next)"
    return 0
  fi
  lab_k0sctl_prepare
  status=0
  printf '%s\n' "$LAB_K0SCTL_CONFIG" | k0sctl reset --config - --force || status=$?
  if [ "$status" -ne 0 ]; then
    lab_k0sctl_log "warning: k0sctl reset failed with status $status; the instances are terminated next anyway"
  fi
  return 0
}
