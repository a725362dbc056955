/**
 * scripts/wait-installed.sh: shellcheck, and its behaviour against a fake kubectl (a shell script
 * that answers from a state directory): done when the TridentOrchestrator is Installed and the
 * backend CRD exists, a failure naming the status at the deadline, refusal of bad environment.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TRIDENT_WAIT_SECONDS, WAIT_INSTALLED_SCRIPT } from "../../../components/trident";

const FAKE_KUBECTL = `#!/bin/sh
# Fake kubectl: records its arguments; answers from $STATE.
echo "$*" >> "$STATE/calls"
case "$1 $2" in
  "get tridentorchestrator")
    n=$(cat "$STATE/polls" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$STATE/polls"
    if [ "$n" -ge "$(cat "$STATE/installed-at")" ]; then printf Installed; else printf Installing; fi ;;
  "get crd") [ -f "$STATE/crd" ] ;;
  *) exit 0 ;;
esac
`;

function run(env: Record<string, string>, installedAt: number, crd = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-trident-"));
  const kubectl = path.join(dir, "kubectl");
  fs.writeFileSync(kubectl, FAKE_KUBECTL, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, "installed-at"), String(installedAt));
  if (crd) fs.writeFileSync(path.join(dir, "crd"), "");
  const r = spawnSync("/bin/sh", [WAIT_INSTALLED_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      STATE: dir,
      KUBECTL_BIN: kubectl,
      LAB_KUBECONFIG: "apiVersion: v1\nkind: Config\n",
      ORCHESTRATOR: "trident",
      TRIDENT_NAMESPACE: "trident",
      WAIT_TIMEOUT_SECONDS: "30",
      POLL_SECONDS: "0",
      ...env,
    },
    encoding: "utf8",
  });
  const calls = fs.existsSync(path.join(dir, "calls")) ? fs.readFileSync(path.join(dir, "calls"), "utf8").trim().split("\n") : [];
  return { status: r.status, stderr: r.stderr, calls };
}

describe("wait-installed.sh", () => {
  test("passes shellcheck", () => {
    const r = spawnSync("shellcheck", ["-s", "sh", WAIT_INSTALLED_SCRIPT], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  test("polls until the TridentOrchestrator is Installed and the CRD exists, then exits 0", () => {
    const r = run({}, 3);
    expect(r.status).toBe(0);
    expect(r.calls).toEqual([
      "get tridentorchestrator trident -o jsonpath={.status.status}",
      "get tridentorchestrator trident -o jsonpath={.status.status}",
      "get tridentorchestrator trident -o jsonpath={.status.status}",
      "get crd tridentbackendconfigs.trident.netapp.io",
    ]);
    expect(r.stderr).toContain("Trident is installed (TridentOrchestrator trident: Installed)");
  });

  test("at the deadline: exit 1 with the last status and the pods of Trident's namespace", () => {
    const r = run({ WAIT_TIMEOUT_SECONDS: "0" }, 99);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("error: Trident is not installed after 0s (TridentOrchestrator trident status: 'Installing')");
    expect(r.calls[r.calls.length - 1]).toBe("-n trident get pods");
  });

  test("Installed without the backend CRD is not done", () => {
    const r = run({ WAIT_TIMEOUT_SECONDS: "0" }, 1, false);
    expect(r.status).toBe(1);
  });

  test("refuses a missing kubeconfig or a non-numeric timeout (exit 2)", () => {
    expect(run({ LAB_KUBECONFIG: "" }, 1).stderr).toContain("error: LAB_KUBECONFIG is not set");
    const bad = run({ WAIT_TIMEOUT_SECONDS: "ten" }, 1);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("error: WAIT_TIMEOUT_SECONDS must be a whole number, got 'ten'");
  });

  test("the component waits 20 minutes", () => {
    expect(TRIDENT_WAIT_SECONDS).toBe(1200);
  });
});
