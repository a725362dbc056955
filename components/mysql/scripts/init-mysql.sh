#!/bin/bash
# init-mysql.sh: the init-mysql container of the MySQL StatefulSet (components/mysql/manifests.ts),
# the Kubernetes "Run a Replicated Stateful Application" pattern (kubernetes/website
# content/en/examples/application/mysql/mysql-statefulset.yaml) for MySQL 8.4.
#
# Writes the server's configuration for its ordinal into /mnt/conf.d (mounted as
# /etc/mysql/conf.d, which the image's /etc/my.cnf includes): a server-id of 100 + ordinal, the
# common settings, and the source's (ordinal 0) or a replica's settings from the ConfigMap. Writes
# the clients' option file (root over TCP to this pod's server) into /mnt/client, readable by the
# pod's user only, so no password is ever on a command line.
#
# Environment: POD_NAME (the pod's name, `<statefulset>-<ordinal>`), MYSQL_ROOT_PASSWORD.
set -euo pipefail

ordinal=${POD_NAME##*-}
[[ $ordinal =~ ^[0-9]+$ ]] || { echo "init-mysql: no ordinal in pod name '$POD_NAME'" >&2; exit 1; }

{
  echo "[mysqld]"
  echo "server-id=$((100 + ordinal))"
} > /mnt/conf.d/server-id.cnf
cp /mnt/config-map/common.cnf /mnt/conf.d/
if [[ $ordinal -eq 0 ]]; then
  cp /mnt/config-map/source.cnf /mnt/conf.d/
else
  cp /mnt/config-map/replica.cnf /mnt/conf.d/
fi

umask 077
{
  echo "[client]"
  echo "user=root"
  echo "password=${MYSQL_ROOT_PASSWORD}"
  echo "host=127.0.0.1"
  echo "[xtrabackup]"
  echo "user=root"
  echo "password=${MYSQL_ROOT_PASSWORD}"
  echo "host=127.0.0.1"
} > /mnt/client/root.cnf
