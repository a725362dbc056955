# shellcheck shell=sh
# k0sctl.sh: what the K0sCluster component's @pulumi/command local.Commands run on the machine
# running `pulumi up` (never on a node). components/k0s/k0sctl.ts appends one call to this text:
#   lab_k0sctl_apply       create/update of the cluster: `k0sctl apply` (idempotent)
#   lab_k0sctl_kubeconfig  the admin kubeconfig on stdout (`k0sctl kubeconfig`), the API URL rewritten
#   lab_k0sctl_reset       delete of the cluster: `k0sctl reset --force`, best effort (the instances
#                          are terminated right after, so a failed reset does not block a destroy)
#
# Environment (the secrets arrive from Pulumi's state through the Command's environment and are
# written, 0600, to a private temporary directory removed when the call ends):
#   LAB_K0SCTL_CONFIG     the k0sctl config (YAML), fed to k0sctl on stdin (`--config -`) (required)
#   LAB_SSH_NODE_KEY      the nodes' SSH private key; its file is LAB_SSH_KEY_PATH (required)
#   LAB_SSH_BASTION_KEY   the bastion's SSH private key (another key); its file is LAB_SSH_BASTION_KEY_PATH (required)
#   LAB_SSH_KNOWN_HOSTS   every host's address and host public key; its file is LAB_SSH_KNOWN_HOSTS_PATH (required)
#   LAB_ENCRYPTION_CONFIG the API server's Secrets encryption config, uploaded to the controller;
#                         its file is LAB_ENCRYPTION_CONFIG_PATH (required)
#   LAB_API_URL           kubeconfig only: the API server URL written into the kubeconfig (required)
#   TMPDIR                where the temporary directory is made [/tmp]
# The config names the files as ${LAB_SSH_KEY_PATH} etc., which k0sctl substitutes from its environment.
#
# Host keys are known before first contact (components/k0s/ssh.ts): every connection reads the
# known_hosts file read-only (the config's ssh `options`), so an unknown host or another key fails
# the call. SSH_KNOWN_HOSTS is unset: k0sctl (rig) would prefer it and append unknown hosts to it.

lab_k0sctl_log() {
  printf '%s [lab] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2
}

# lab_k0sctl_need NAME VALUE: fails (2) naming NAME when VALUE is empty.
lab_k0sctl_need() {
  [ -n "$2" ] || { lab_k0sctl_log "error: $1 is empty"; exit 2; }
}

# lab_k0sctl_prepare: temporary directory, key files, known_hosts, encryption config; fails (127) without k0sctl.
lab_k0sctl_prepare() {
  if ! command -v k0sctl >/dev/null 2>&1; then
    lab_k0sctl_log "error: k0sctl is not installed (not on PATH). Install k0sctl v0.32.2 or newer on this machine" \
      "(https://github.com/k0sproject/k0sctl#installation: a release binary on PATH, or 'brew install k0sproject/tap/k0sctl')" \
      "and run 'pulumi up' again."
    exit 127
  fi
  lab_k0sctl_need LAB_K0SCTL_CONFIG "${LAB_K0SCTL_CONFIG:-}"
  lab_k0sctl_need LAB_SSH_NODE_KEY "${LAB_SSH_NODE_KEY:-}"
  lab_k0sctl_need LAB_SSH_BASTION_KEY "${LAB_SSH_BASTION_KEY:-}"
  lab_k0sctl_need LAB_SSH_KNOWN_HOSTS "${LAB_SSH_KNOWN_HOSTS:-}"
  lab_k0sctl_need LAB_ENCRYPTION_CONFIG "${LAB_ENCRYPTION_CONFIG:-}"
  umask 077
  LAB_K0SCTL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lab-k0sctl.XXXXXX")
  trap 'rm -rf -- "$LAB_K0SCTL_TMP"' EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
  unset SSH_KNOWN_HOSTS
  LAB_SSH_KEY_PATH="$LAB_K0SCTL_TMP/node_key"
  LAB_SSH_BASTION_KEY_PATH="$LAB_K0SCTL_TMP/bastion_key"
  LAB_SSH_KNOWN_HOSTS_PATH="$LAB_K0SCTL_TMP/known_hosts"
  LAB_ENCRYPTION_CONFIG_PATH="$LAB_K0SCTL_TMP/encryption-config.yaml"
  printf '%s\n' "$LAB_SSH_NODE_KEY" >"$LAB_SSH_KEY_PATH"
  printf '%s\n' "$LAB_SSH_BASTION_KEY" >"$LAB_SSH_BASTION_KEY_PATH"
  printf '%s' "$LAB_SSH_KNOWN_HOSTS" >"$LAB_SSH_KNOWN_HOSTS_PATH"
  printf '%s' "$LAB_ENCRYPTION_CONFIG" >"$LAB_ENCRYPTION_CONFIG_PATH"
  export LAB_SSH_KEY_PATH LAB_SSH_BASTION_KEY_PATH LAB_SSH_KNOWN_HOSTS_PATH LAB_ENCRYPTION_CONFIG_PATH
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
