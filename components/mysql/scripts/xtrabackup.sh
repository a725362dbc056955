#!/bin/bash
# xtrabackup.sh: the xtrabackup sidecar of the MySQL StatefulSet (Percona XtraBackup 8.4 image).
#
# 1. On a replica cloned by clone-mysql, start replication from the clone's position with the
#    MySQL 8.4 statements (8.4 removed CHANGE MASTER TO and START SLAVE: dev.mysql.com/doc/refman/8.4/
#    en/change-replication-source-to.html, replication-howto-slaveinit.html):
#    - cloned from a replica: XtraBackup's `--slave-info` wrote the source's coordinates to
#      xtrabackup_slave_info as a CHANGE REPLICATION SOURCE TO statement (Percona XtraBackup 8.4
#      option reference, `slave-info`);
#    - cloned from the source: xtrabackup_binlog_info holds its binary log file and position.
#    Replication connects as REPLICATION_USER, not root, with SOURCE_SSL=1: MySQL 8.4 accounts use
#    caching_sha2_password, which needs a secure connection (or the source's RSA key) for a replica
#    to authenticate. A replica stores SOURCE_USER/SOURCE_PASSWORD in plain text in its connection
#    metadata repository, mysql.slave_master_info (MySQL 8.4 Reference Manual, 19.1.2.3 "Creating a
#    User for Replication", dev.mysql.com/doc/refman/8.4/en/replication-howto-repuser.html): that
#    table is in every backup this sidecar serves, so it must hold a password that opens nothing
#    but the binary log (which the backup already contains), never root's.
#    The statement goes to mysql on stdin, never on its command line (visible in /proc).
#    At most once: the statement file is renamed after it ran.
#    Reconnection (MySQL 8.4 Reference Manual, 15.4.2.2 "CHANGE REPLICATION SOURCE TO Statement"):
#    after a lost connection the replica retries every SOURCE_CONNECT_RETRY seconds (default 60) at
#    most SOURCE_RETRY_COUNT times (default 86400; 0 = no limit), then its I/O thread stops and stays
#    stopped (Replica_IO_Running: No). Both are set here rather than left to the server's defaults:
#    every 10 s, 8640 times, i.e. 24 hours: far beyond the source's failover to another zone (its
#    DNS name is gone until the new mysql-0 is Ready) and beyond any lab's lifetime.
#    `lab experiment mysql-failover` checks every replica's threads once the source is back.
# 0. On the source (ordinal 0), before serving its first backup: create or update the replication
#    account, with the one privilege the manual's section 19.1.2.3 says it needs, REPLICATION SLAVE
#    (8.4 still names the static privilege so: 8.2.2 "Privileges Provided by MySQL"; REPLICATION
#    CLIENT, for SHOW REPLICA STATUS / SHOW BINARY LOG STATUS, is not needed by a replica's
#    receiver thread and is not granted), REQUIRE SSL like the replicas' SOURCE_SSL=1. Idempotent
#    (CREATE USER IF NOT EXISTS, then ALTER USER to the Secret's password), so a restarted or
#    rescheduled source converges; it is in the binary log, and so on every replica.
#    The same for the failover experiment's writer account, WRITER_USER (lab/experiment/scripts/
#    mysql-writer.sh), with what its statements need and nothing else (MySQL 8.4 Reference Manual,
#    8.2.2 "Privileges Provided by MySQL"): CREATE on `lab_failover`.* ("statements that create new
#    databases and tables": its CREATE DATABASE / CREATE TABLE IF NOT EXISTS), INSERT (its writes),
#    SELECT (its counts and read-backs, on the source and on the replicas), and the global REPLICATION
#    CLIENT, which SHOW REPLICA STATUS requires (15.7.7.35 "SHOW REPLICA STATUS Statement"); REQUIRE
#    SSL (the client's default --ssl-mode=PREFERRED uses the server's auto-generated certificate).
#    Replicated like the repl account, so the writer reads the replicas with it too.
# 2. Serve a full backup (xbstream) on XTRABACKUP_PORT to the next pod's clone-mysql.
#
# Environment: POD_NAME, DATA_DIR, SOURCE_HOST (the source pod's DNS name), XTRABACKUP_PORT,
# REPLICATION_USER, REPLICATION_PASSWORD, WRITER_USER, WRITER_DATABASE, WRITER_PASSWORD (passwords:
# letters and digits); the clients' option file CLIENT_CNF (written by init-mysql).
set -euo pipefail

ordinal=${POD_NAME##*-}
[[ $ordinal =~ ^[0-9]+$ ]] || { echo "xtrabackup: no ordinal in pod name '$POD_NAME'" >&2; exit 1; }
[[ $REPLICATION_USER =~ ^[a-z][a-z0-9_]*$ ]] || { echo "xtrabackup: REPLICATION_USER must be lowercase letters, digits and _, got '$REPLICATION_USER'" >&2; exit 1; }
# Quoted into SQL string literals below: letters and digits only (the component generates it so).
[[ $REPLICATION_PASSWORD =~ ^[A-Za-z0-9]+$ ]] || { echo "xtrabackup: REPLICATION_PASSWORD must be letters and digits" >&2; exit 1; }
[[ $WRITER_USER =~ ^[a-z][a-z0-9_]*$ ]] || { echo "xtrabackup: WRITER_USER must be lowercase letters, digits and _, got '$WRITER_USER'" >&2; exit 1; }
[[ $WRITER_DATABASE =~ ^[a-z][a-z0-9_]*$ ]] || { echo "xtrabackup: WRITER_DATABASE must be lowercase letters, digits and _, got '$WRITER_DATABASE'" >&2; exit 1; }
[[ $WRITER_PASSWORD =~ ^[A-Za-z0-9]+$ ]] || { echo "xtrabackup: WRITER_PASSWORD must be letters and digits" >&2; exit 1; }

wait_for_mysqld() {
  echo "xtrabackup: waiting for mysqld to accept connections" >&2
  until mysql --defaults-extra-file="$CLIENT_CNF" -e "SELECT 1" >/dev/null; do sleep 1; done
}

# On mysql-0's first start nothing has cloned a data directory: mysqld's entrypoint creates it when
# it initializes the server (docker-library/mysql docker-entrypoint.sh `docker_create_db_directories`:
# `mkdir -p "$DATADIR"`). Wait for it rather than fail (and restart) before it exists.
waited=0
until [[ -d $DATA_DIR ]]; do
  if ((waited % 30 == 0)); then echo "xtrabackup: waiting for $DATA_DIR (mysqld creates it on its first start)" >&2; fi
  waited=$((waited + 1))
  sleep 1
done
cd "$DATA_DIR"
if [[ -s xtrabackup_slave_info ]]; then
  # The statement without its trailing semicolon: the connection options are appended to it.
  sed -E 's/;[[:space:]]*$//' xtrabackup_slave_info > change_source_to.sql.in
  rm -f xtrabackup_slave_info xtrabackup_binlog_info
elif [[ -f xtrabackup_binlog_info ]]; then
  [[ $(cat xtrabackup_binlog_info) =~ ^([^[:space:]]+)[[:space:]]+([0-9]+) ]] || exit 1
  rm -f xtrabackup_binlog_info xtrabackup_slave_info
  echo "CHANGE REPLICATION SOURCE TO SOURCE_LOG_FILE='${BASH_REMATCH[1]}', SOURCE_LOG_POS=${BASH_REMATCH[2]}" > change_source_to.sql.in
fi

if [[ $ordinal -eq 0 ]]; then
  wait_for_mysqld
  echo "xtrabackup: ensuring the replication account '${REPLICATION_USER}' and the writer account '${WRITER_USER}'" >&2
  mysql --defaults-extra-file="$CLIENT_CNF" <<SQL
CREATE USER IF NOT EXISTS '${REPLICATION_USER}'@'%' IDENTIFIED BY '${REPLICATION_PASSWORD}' REQUIRE SSL;
ALTER USER '${REPLICATION_USER}'@'%' IDENTIFIED BY '${REPLICATION_PASSWORD}' REQUIRE SSL;
GRANT REPLICATION SLAVE ON *.* TO '${REPLICATION_USER}'@'%';
CREATE USER IF NOT EXISTS '${WRITER_USER}'@'%' IDENTIFIED BY '${WRITER_PASSWORD}' REQUIRE SSL;
ALTER USER '${WRITER_USER}'@'%' IDENTIFIED BY '${WRITER_PASSWORD}' REQUIRE SSL;
GRANT CREATE, INSERT, SELECT ON \`${WRITER_DATABASE}\`.* TO '${WRITER_USER}'@'%';
GRANT REPLICATION CLIENT ON *.* TO '${WRITER_USER}'@'%';
SQL
fi

if [[ -f change_source_to.sql.in ]]; then
  wait_for_mysqld
  echo "xtrabackup: starting replication from the clone's position" >&2
  mysql --defaults-extra-file="$CLIENT_CNF" <<SQL
$(<change_source_to.sql.in), SOURCE_HOST='${SOURCE_HOST}', SOURCE_USER='${REPLICATION_USER}', SOURCE_PASSWORD='${REPLICATION_PASSWORD}', SOURCE_CONNECT_RETRY=10, SOURCE_RETRY_COUNT=8640, SOURCE_SSL=1;
START REPLICA;
SQL
  mv change_source_to.sql.in change_source_to.sql.orig
fi

exec socat "TCP-LISTEN:${XTRABACKUP_PORT},reuseaddr,fork,max-children=1" \
  "EXEC:xtrabackup --defaults-extra-file=${CLIENT_CNF} --backup --slave-info --stream=xbstream --target-dir=/tmp/xtrabackup"
