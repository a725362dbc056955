#!/bin/sh
# prepare-dirs.sh: gives every Kafka broker its own directory on every FSx for ONTAP data volume, the
# directory its static PersistentVolume mounts (components/kafka/storage.ts). Run by the prepare Job
# (components/kafka/manifests.ts) as Kafka's own user, so the directories it creates are Kafka's;
# the volume roots are writable to it (the NFS CSI driver's mountPermissions).
#
# Usage: prepare-dirs.sh [--check]
# Environment:
#   VOLUME_MOUNTS  the data volumes' mount points, space-separated (required)
#   BROKER_DIRS    the brokers' directory names, space-separated (required)
#   OWNER          uid:gid the directories must belong to: the user running this script (Strimzi's
#                  Kafka user 1001, group 0) (required)
#   DIR_MODE       their mode, octal [0750]
#
# Safely:
# - only on a mounted volume: a mount point's device differs from its parent's, so a volume that failed
#   to mount never gets directories in the container's own file system (which would vanish);
# - one level, no -p: mkdir fails rather than create a missing parent;
# - never through a symbolic link, never over a file, never deleting or rewriting anything: an existing
#   directory is checked (owner), not changed; a wrong one stops the pod with the reason;
# - the mode is set at creation (mkdir -m); the owner is whoever creates it, checked against OWNER
#   (run as another user, or with the NFS export mapping the user elsewhere, it stops and says so).
# --check verifies the same (every directory there, a directory, owned by OWNER) and changes nothing.
set -eu

VOLUME_MOUNTS=${VOLUME_MOUNTS:-}
BROKER_DIRS=${BROKER_DIRS:-}
OWNER=${OWNER:-}
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
case $OWNER in
  [0-9]*:[0-9]*) ;;
  *) fail "OWNER must be <uid>:<gid>, got '$OWNER'" ;;
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
      mkdir -m "$DIR_MODE" -- "$p" || fail "cannot create $p: is $m writable by $(id -u):$(id -g)?"
      created=$((created + 1))
    fi
    owner=$(stat -c %u:%g -- "$p")
    [ "$owner" = "$OWNER" ] || fail "$p belongs to $owner, not $OWNER"
  done
done
if [ "$mode" = prepare ]; then
  log "broker directories ready: $created created on $(echo "$VOLUME_MOUNTS" | wc -w) volume(s)"
fi
