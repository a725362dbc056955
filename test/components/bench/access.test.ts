/**
 * components/bench/access.ts: the collector's grant is exactly the requests of collect-job.sh's
 * kubectl calls (as kubectl makes them: the module comment), passes the lab's RBAC checks, and its
 * token's lifetime covers the wait.
 */
import {
  COLLECTOR_TOKEN_SLACK_SECONDS,
  MIN_TOKEN_SECONDS,
  collectorAccountName,
  collectorGrant,
  collectorTokenSeconds,
} from "../../../components/bench/access";
import { grantAllows, rbacProblems, type ApiCall } from "../../../components/lib/rbac";

const GRANT = collectorGrant("same-az-collect", "bench", ["same-az-fio-r1", "same-az-ioping-r1"]);

/** Every request collect-job.sh's kubectl calls make (access.ts, from kubectl's source). */
const SCRIPT_REQUESTS: ApiCall[] = [
  { verb: "get", apiGroup: "batch", resource: "jobs", name: "same-az-fio-r1", namespace: "bench" },
  { verb: "list", apiGroup: "", resource: "pods", namespace: "bench" },
  { verb: "watch", apiGroup: "", resource: "pods", namespace: "bench" },
  { verb: "get", apiGroup: "", resource: "pods", subresource: "log", name: "same-az-fio-r1-x7k2p", namespace: "bench" },
  { verb: "list", apiGroup: "", resource: "events", namespace: "bench" },
];

describe("collectorGrant", () => {
  it("is one Role in the Jobs' namespace, no cluster rules, and passes the lab's RBAC checks", () => {
    expect(GRANT).toEqual({
      name: "same-az-collect",
      namespace: "bench",
      namespaced: {
        bench: [
          { apiGroups: ["batch"], resources: ["jobs"], verbs: ["get"], resourceNames: ["same-az-fio-r1", "same-az-ioping-r1"] },
          { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch"] },
          { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
          { apiGroups: [""], resources: ["events"], verbs: ["list"] },
        ],
      },
    });
    expect(rbacProblems(GRANT)).toEqual([]);
  });

  it("allows every request of the script", () => {
    expect(SCRIPT_REQUESTS.filter((c) => !grantAllows(GRANT, c))).toEqual([]);
  });

  it.each<[string, ApiCall]>([
    ["another run's Job", { verb: "get", apiGroup: "batch", resource: "jobs", name: "cross-az-fio-r1", namespace: "bench" }],
    ["listing Jobs", { verb: "list", apiGroup: "batch", resource: "jobs", namespace: "bench" }],
    ["deleting its Job", { verb: "delete", apiGroup: "batch", resource: "jobs", name: "same-az-fio-r1", namespace: "bench" }],
    ["a Secret", { verb: "get", apiGroup: "", resource: "secrets", name: "pg-auth", namespace: "bench" }],
    [
      "exec into a pod",
      { verb: "create", apiGroup: "", resource: "pods", subresource: "exec", name: "same-az-fio-r1-x7k2p", namespace: "bench" },
    ],
    ["another namespace's pods", { verb: "list", apiGroup: "", resource: "pods", namespace: "mysql" }],
    [
      "another token",
      { verb: "create", apiGroup: "", resource: "serviceaccounts", subresource: "token", name: "same-az-collect", namespace: "bench" },
    ],
    ["nodes", { verb: "list", apiGroup: "", resource: "nodes" }],
  ])("refuses %s", (_what, call) => {
    expect(grantAllows(GRANT, call)).toBe(false);
  });

  it("needs a Job to read", () => {
    expect(() => collectorGrant("x-collect", "bench", [])).toThrow("collector x-collect: no Jobs to read");
  });
});

describe("collectorAccountName", () => {
  it("is <base>-collect, cut to 63 characters", () => {
    expect(collectorAccountName("same-az")).toBe("same-az-collect");
    const long = "a".repeat(57);
    expect(collectorAccountName(long)).toBe(`${"a".repeat(55)}-collect`);
    expect(collectorAccountName(long)).toHaveLength(63);
  });
});

describe("collectorTokenSeconds", () => {
  it("covers the wait and the reads after it, never below the API server's 600 s minimum", () => {
    expect([MIN_TOKEN_SECONDS, COLLECTOR_TOKEN_SLACK_SECONDS]).toEqual([600, 600]);
    expect(collectorTokenSeconds(3000)).toBe(3600);
    expect(collectorTokenSeconds(0)).toBe(600);
  });
});
