#!/bin/bash
# clone-mysql.sh: the clone-mysql container of the MySQL StatefulSet (Percona XtraBackup 8.4
# image). A replica's first start: stream a backup of the previous pod's data (its xtrabackup
# sidecar serves one on port XTRABACKUP_PORT) into the empty data directory and prepare it.
# Nothing to do on the source (ordinal 0) or when the data directory holds a server already.
# socat instead of the tutorial's ncat: Percona's image installs socat (percona/percona-docker
# percona-xtrabackup-8.x/Dockerfile).
#
# Environment: POD_NAME, STATEFULSET, SERVICE (the headless Service), DATA_DIR, XTRABACKUP_PORT.
set -euo pipefail

[[ -d "$DATA_DIR/mysql" ]] && exit 0
ordinal=${POD_NAME##*-}
[[ $ordinal =~ ^[0-9]+$ ]] || { echo "clone-mysql: no ordinal in pod name '$POD_NAME'" >&2; exit 1; }
[[ $ordinal -eq 0 ]] && exit 0

mkdir -p "$DATA_DIR"
peer="${STATEFULSET}-$((ordinal - 1)).${SERVICE}"
echo "clone-mysql: cloning from ${peer}:${XTRABACKUP_PORT}" >&2
socat -u "TCP:${peer}:${XTRABACKUP_PORT},retry=30,interval=2" STDOUT | xbstream -x -C "$DATA_DIR"
xtrabackup --prepare --target-dir="$DATA_DIR"
