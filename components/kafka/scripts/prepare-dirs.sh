#!/bin/sh
# prepare-dirs.sh: gives every Kafka broker its own directory on every FSx for ONTAP data volume, the
# directory its static PersistentVolume mounts (components/kafka/storage.ts). Run by the prepare Job
# (components/kafka/manifests.ts) as Kafka's own user, so the directories it creates are Kafka's;
# the volume roots belong to that user (1001:0, mode 0751: set through ONTAP by the ontap Job,
# components/kafka/ontap.ts, before this runs).
#
# Usage: prepare-dirs.sh [--check]
# Environment:
#   VOLUME_MOUNTS  the data volumes' mount points, space-separated (required)
#   BROKER_DIRS    the brokers' directory names, space-separated (required)
#   OWNER_UID      the uid the directories must belong to: the user running this script (Strimzi's
#                  Kafka user 1001) (required)
#   DEPLOYMENT_ID  what names this deployment of the cluster (the uid of the storage namespace the
#                  stack created): written into every directory it prepares (.lab-deployment), so a
#                  later run of the same deployment (the Job re-created by an update) accepts its own
#                  brokers' data (required)
#   DIR_MODE       their mode, octal [0750]
#
# What decides whether a broker can use its directory is the uid that owns it and whether that uid
# can write there, so that is what is checked: the owner's uid (stat %u) and a file created and
# removed as this user. The group is not checked: over NFSv4 owners travel as names
# (user@domain), and a group the client cannot map to its own ID domain comes back as nobody
# (ONTAP answers gid 0 as root@<SVM v4 ID domain>, which an AL2023 node whose idmap domain is its DNS
# domain shows as 65534), while the uid still travels as a number and the write works.
#
# Safely:
# - only on a mounted volume: a mount point's device differs from its parent's, so a volume that failed
#   to mount never gets directories in the container's own file system (which would vanish);
# - one level, no -p: mkdir fails rather than create a missing parent;
# - never through a symbolic link, never over a file, never deleting or rewriting anything: an existing
#   directory is checked (owner, write, no earlier cluster's data), not changed; a wrong one stops the
#   pod with the reason;
# - an existing directory holding a Kafka log directory (its meta.properties, which Kafka writes at
#   the top of every log directory it formats) of another deployment (no .lab-deployment, or another
#   DEPLOYMENT_ID in it) stops it too: the new cluster's
#   brokers would refuse it ("Invalid cluster.id") and crash-loop until `pulumi up` times out; the
#   message names the clean-up (docs/kinds/kafka.md, "Re-deploying onto the same file system");
# - the mode is set at creation (mkdir -m); the owner is whoever creates it, checked against OWNER_UID
#   (run as another user, or with the NFS export mapping the user elsewhere, it stops and says so).
#   An owner of 65534 is the NFSv4 client's "nobody": the SVM sent an owner name the node could not
#   map, which ONTAP does for uid 1001 (no name on the SVM) only with numeric ids turned off
#   (`v4-numeric-ids`, enabled by default: NetAppDocs/ontap nfs-config/create-server-task.adoc), so
#   the message names the ONTAP command that shows that setting;
# - a directory it cannot create on a volume root that is not this user's means the ontap Job did not
#   give the root to Kafka's user (components/kafka/ontap.ts): the message names the root's owner
#   and mode as this client sees them.
# --check verifies the same (every directory there, a directory, owned by OWNER_UID, writable, no
# earlier cluster's data) and creates nothing (the write test's file is removed at once).
set -eu

VOLUME_MOUNTS=${VOLUME_MOUNTS:-}
BROKER_DIRS=${BROKER_DIRS:-}
OWNER_UID=${OWNER_UID:-}
DEPLOYMENT_ID=${DEPLOYMENT_ID:-}
DIR_MODE=${DIR_MODE:-0750}

log() {
  printf '[lab] %s\n' "$*" >&2
}
fail() {
  log "error: $*"
  exit 1
}

mode=prepare
case ${1:-} in
  '') ;;
  --check) mode=check ;;
  *) fail "unknown argument '$1' (usage: prepare-dirs.sh [--check])" ;;
esac
[ -n "$VOLUME_MOUNTS" ] || fail "VOLUME_MOUNTS is not set"
[ -n "$BROKER_DIRS" ] || fail "BROKER_DIRS is not set"
case $OWNER_UID in
  '' | *[!0-9]*) fail "OWNER_UID must be a numeric uid, got '$OWNER_UID'" ;;
esac
[ "$(id -u)" = "$OWNER_UID" ] || fail "runs as uid $(id -u), not OWNER_UID $OWNER_UID: the directories would belong to another user"
case $DEPLOYMENT_ID in
  '' | *[!A-Za-z0-9-]*) fail "DEPLOYMENT_ID must be letters, digits and '-', got '$DEPLOYMENT_ID'" ;;
esac
case $DIR_MODE in
  0[0-7][0-7][0-7]) ;;
  *) fail "DIR_MODE must be an octal mode like 0750, got '$DIR_MODE'" ;;
esac
for d in $BROKER_DIRS; do
  case $d in
    */* | . | ..) fail "'$d' is not a directory name" ;;
  esac
done

created=0
for m in $VOLUME_MOUNTS; do
  if [ -L "$m" ] || [ ! -d "$m" ]; then fail "$m is not a directory"; fi
  [ "$(stat -c %d -- "$m")" != "$(stat -c %d -- "$m/..")" ] || fail "$m is not a mount point: the volume is not mounted"
  for d in $BROKER_DIRS; do
    p="$m/$d"
    if [ -L "$p" ]; then
      fail "$p is a symbolic link"
    elif [ -e "$p" ]; then
      [ -d "$p" ] || fail "$p exists and is not a directory"
    elif [ "$mode" = check ]; then
      fail "$p does not exist"
    else
      if ! mkdir -m "$DIR_MODE" -- "$p"; then
        fail "cannot create $p as $(id -u):$(id -g): the volume root $m is $(stat -c %u:%g -- "$m") mode $(stat -c %a -- "$m") as this client sees it; the ontap Job gives each root to Kafka's user, 1001:0 mode 751 (its log: kubectl --namespace <namespace>-storage logs job/kafka-storage-ontap)"
      fi
      created=$((created + 1))
    fi
    owner=$(stat -c %u -- "$p")
    if [ "$owner" = 65534 ] && [ "$OWNER_UID" != 65534 ]; then
      fail "$p belongs to uid 65534, not $OWNER_UID (as this NFS client sees it: $(stat -c %u:%g -- "$p")): 65534 is NFSv4 ID mapping's \"nobody\", an owner name the node could not map; check that the SVM sends numeric ids: vserver nfs show -vserver <svm> -fields v4-numeric-ids (docs/kinds/kafka.md, \"What it checks\")"
    fi
    [ "$owner" = "$OWNER_UID" ] || fail "$p belongs to uid $owner, not $OWNER_UID (as this NFS client sees it: $(stat -c %u:%g -- "$p"))"
    probe="$p/.lab-write-test.$$"
    (set -C && : >"$probe") 2>/dev/null || fail "$p belongs to uid $OWNER_UID but uid $OWNER_UID cannot create a file in it (mode $(stat -c %a -- "$p"))"
    rm -f -- "$probe"
    mark="$p/.lab-deployment"
    ours=no
    if [ -f "$mark" ] && [ ! -L "$mark" ] && [ "$(cat -- "$mark")" = "$DEPLOYMENT_ID" ]; then ours=yes; fi
    for meta in "$p/meta.properties" "$p"/*/meta.properties; do
      if [ "$ours" = yes ] || [ ! -e "$meta" ]; then continue; fi
      fail "$meta exists: $p holds a Kafka log directory of an earlier cluster, which the new brokers would refuse (Invalid cluster.id); remove the brokers' directories from every data volume or re-create the volumes (docs/kinds/kafka.md, \"Re-deploying onto the same file system\")"
    done
    if [ "$mode" = prepare ] && [ "$ours" = no ]; then
      [ ! -L "$mark" ] || fail "$mark is a symbolic link"
      if ! { printf '%s\n' "$DEPLOYMENT_ID" >"$mark.$$" && mv -f -- "$mark.$$" "$mark"; }; then fail "cannot write $mark"; fi
    fi
  done
done
if [ "$mode" = prepare ]; then
  log "broker directories ready: $created created on $(echo "$VOLUME_MOUNTS" | wc -w) volume(s)"
fi
