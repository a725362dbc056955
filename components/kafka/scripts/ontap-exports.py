"""ontap-exports.py: gives the Kafka data volumes an NFS export policy of their own and Kafka's
ownership of their roots, through the ONTAP REST API of the SVM (run by the ontap Job,
components/kafka/ontap.ts, as the SVM's vsadmin).

1. The export policy POLICY_NAME on SVM SVM_NAME, created or, when it exists, its rules replaced
   (PATCH replaces all rules: "Updates the properties of an export policy to change an export
   policy name or replace all export policy rules", ONTAP REST API reference,
   PATCH /protocols/nfs/export-policies/{id}); one rule whose clients are CLIENT_CIDRS (the
   subnets of the EKS nodes, whose pods' addresses are in them too), NFSv4 only, AUTH_SYS for read
   and write, root squashed to ANONYMOUS_UID (superuser "none"), no set-uid.
2. Every volume whose junction path is in JUNCTION_PATHS: nas.export_policy POLICY_NAME, and its
   root owned by OWNER_UID:OWNER_GID with mode ROOT_MODE (PATCH /storage/volumes/{uuid}, `nas.uid`,
   `nas.gid`, `nas.unix_permissions`: the octal digits as a decimal integer, 751 for rwxr-x--x, as
   NetApp Trident sends them: storage_drivers/ontap/api/ontap_rest.go `convertUnixPermissions` then
   `strconv.ParseInt(unixPermissions, 10, 64)`). A volume modify is asynchronous: the request asks
   ONTAP to wait (`return_timeout`), and a 202 is followed by polling its job to the end.

Idempotent: a second run finds the policy and sets the same rules and owners again.

TLS: the SVM's management endpoint presents a self-signed certificate that nothing in the VPC can
verify (FSx creates it); the connection is encrypted but the server is not authenticated, as with
Trident's default (no `trustedCACertificate`). The host is the endpoint's address from the fsx-ontap
stack's outputs, reachable only from inside the VPC.

Environment: ONTAP_HOST, SVM_NAME, POLICY_NAME, CLIENT_CIDRS (comma-separated), JUNCTION_PATHS
(comma-separated), OWNER_UID, OWNER_GID, ROOT_MODE (octal, e.g. 0751), ANONYMOUS_UID; the
credentials in CREDENTIALS_DIR/username and CREDENTIALS_DIR/password (a mounted Secret);
ONTAP_SCHEME (https; http only for the tests' local server), POLL_SECONDS, JOB_TIMEOUT_SECONDS.
"""

import base64
import json
import os
import ssl
import stat
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def log(msg):
    print("[lab] " + msg, file=sys.stderr, flush=True)


def fail(msg):
    log("error: " + msg)
    sys.exit(1)


def env(name):
    v = os.environ.get(name, "")
    if v == "":
        fail(name + " is not set")
    return v


def export_rule(cidrs, anonymous_uid):
    return {
        "clients": [{"match": c} for c in cidrs],
        "protocols": ["nfs4"],
        "ro_rule": ["sys"],
        "rw_rule": ["sys"],
        "superuser": ["none"],
        "anonymous_user": str(anonymous_uid),
        "allow_suid": False,
    }


class Ontap:
    def __init__(self, scheme, host, user, password):
        self.base = scheme + "://" + host + "/api"
        token = base64.b64encode((user + ":" + password).encode()).decode()
        self.headers = {"Authorization": "Basic " + token, "Accept": "application/json", "Content-Type": "application/json"}
        self.context = ssl._create_unverified_context() if scheme == "https" else None  # see "TLS" above

    def call(self, method, path, query=None, body=None):
        url = self.base + path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers=self.headers)
        try:
            with urllib.request.urlopen(req, timeout=60, context=self.context) as resp:
                text = resp.read().decode(errors="replace")
                status = resp.status
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")
            try:
                message = json.loads(text)["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = text.strip()
            if e.code == 401:
                fail("%s %s: 401 Unauthorized: the SVM refused the vsadmin credentials of the fsx-ontap stack's secret (credentialsSecretArn)" % (method, path))
            fail("%s %s: HTTP %d: %s" % (method, path, e.code, message))
        except urllib.error.URLError as e:
            fail(
                "%s %s: cannot reach the SVM's management endpoint %s: %s (TCP 443 from the EKS nodes' security group, "
                "and the storage namespace's NetworkPolicy allow-ontap-api)" % (method, path, self.base, e.reason)
            )
        except OSError as e:  # a timeout or a reset while reading the answer (not wrapped in URLError)
            fail("%s %s: the SVM's management endpoint %s did not answer: %s" % (method, path, self.base, e))
        try:
            return status, (json.loads(text) if text else {})
        except ValueError:
            fail("%s %s: HTTP %d with a body that is not JSON: %r" % (method, path, status, text[:200]))

    def wait(self, status, body, what, poll, timeout):
        """Follows a 202's job until it ends; fails naming `what` when it fails."""
        if status != 202:
            return
        uuid = (body.get("job") or {}).get("uuid")
        if not uuid:
            fail(what + ": ONTAP accepted the request (202) without a job to follow")
        deadline = time.monotonic() + timeout
        while True:
            _, job = self.call("GET", "/cluster/jobs/" + uuid, {"fields": "state,message"})
            state = job.get("state")
            if state == "success":
                return
            if state == "failure":
                fail("%s: ONTAP job %s failed: %s" % (what, uuid, job.get("message", "")))
            if time.monotonic() > deadline:
                fail("%s: ONTAP job %s still %s after %d s" % (what, uuid, state, timeout))
            time.sleep(poll)


def read_credential(creds, name):
    """A file of the mounted Secret; one it cannot read is named with its owner and mode as seen here."""
    p = os.path.join(creds, name)
    try:
        with open(p) as f:
            return f.read().strip()
    except OSError as e:
        try:
            st = os.stat(p)
            seen = "%d:%d mode %04o" % (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode))
        except OSError:
            seen = "absent"
        groups = ",".join(str(g) for g in sorted(set(os.getgroups()) | {os.getgid()}))
        fail(
            "cannot read %s as uid %d (groups %s): %s; the file is %s: the kubelet writes a Secret's files as root's, "
            "readable by the Job's user only through the pod's fsGroup and a group-readable defaultMode "
            "(components/kafka/ontap.ts, ONTAP_CREDENTIALS_MODE)" % (p, os.getuid(), groups, e.strerror, seen)
        )


def main():
    host = env("ONTAP_HOST")
    svm = env("SVM_NAME")
    policy = env("POLICY_NAME")
    cidrs = [c for c in env("CLIENT_CIDRS").split(",") if c]
    paths = [p for p in env("JUNCTION_PATHS").split(",") if p]
    uid = int(env("OWNER_UID"))
    gid = int(env("OWNER_GID"))
    mode = env("ROOT_MODE")
    anonymous = int(env("ANONYMOUS_UID"))
    if len(mode) != 4 or mode[0] != "0" or any(ch not in "01234567" for ch in mode):
        fail("ROOT_MODE must be an octal mode like 0751, got '%s'" % mode)
    creds = env("CREDENTIALS_DIR")
    user = read_credential(creds, "username")
    password = read_credential(creds, "password")
    poll = float(os.environ.get("POLL_SECONDS", "2"))
    timeout = int(os.environ.get("JOB_TIMEOUT_SECONDS", "300"))
    api = Ontap(os.environ.get("ONTAP_SCHEME", "https"), host, user, password)

    rules = [export_rule(cidrs, anonymous)]
    _, found = api.call("GET", "/protocols/nfs/export-policies", {"svm.name": svm, "name": policy, "fields": "id"})
    records = found.get("records") or []
    if records:
        api.call("PATCH", "/protocols/nfs/export-policies/%d" % records[0]["id"], body={"rules": rules})
        log("export policy %s on SVM %s: rules replaced (clients %s)" % (policy, svm, ", ".join(cidrs)))
    else:
        api.call("POST", "/protocols/nfs/export-policies", body={"name": policy, "svm": {"name": svm}, "rules": rules})
        log("export policy %s on SVM %s: created (clients %s)" % (policy, svm, ", ".join(cidrs)))

    for path in paths:
        _, vols = api.call("GET", "/storage/volumes", {"svm.name": svm, "nas.path": path, "fields": "uuid,name"})
        vrecords = vols.get("records") or []
        if len(vrecords) != 1:
            fail("SVM %s has %d volumes at junction path %s, expected 1" % (svm, len(vrecords), path))
        vol = vrecords[0]
        body = {"nas": {"export_policy": {"name": policy}, "uid": uid, "gid": gid, "unix_permissions": int(mode[1:])}}
        status, answer = api.call("PATCH", "/storage/volumes/" + vol["uuid"], {"return_timeout": "120"}, body)
        api.wait(status, answer, "volume %s (%s)" % (vol["name"], path), poll, timeout)
        log("volume %s (%s): export policy %s, root %d:%d mode %s" % (vol["name"], path, policy, uid, gid, mode))


if __name__ == "__main__":
    main()
