/**
 * The {@link Cluster} of the experiments on a real cluster, with @kubernetes/client-node 2.0.1
 * (kubernetes-client/javascript, tag 2.0.1). It is an ES module: Node `require()`s it (the `lab`
 * CLI), and Jest only under `--experimental-vm-modules` (package.json), so this file is loaded only
 * by the CLI and by the end-to-end test's child process (test/lab/experiment/e2e.test.ts).
 *
 * client-node facts used here (dist/gen/types/ObjectParamAPI.d.ts, dist/middleware.d.ts,
 * dist/patch.d.ts, dist/gen/apis/exception.js of 2.0.1; unchanged from 1.x for these calls, 2.0
 * replaced node-fetch with undici: dist/gen/http/isomorphic-fetch.js):
 * - every API method takes one object of parameters (`readNamespacedPod({ name, namespace })`)
 *   and resolves to the model; an HTTP error rejects with `ApiException` whose `code` is the status;
 * - `readNamespacedPodLog` resolves to the log text;
 * - a patch is sent as `application/json-patch+json` unless the call's options set the
 *   Content-Type: `setHeaderOptions("Content-Type", PatchStrategy.MergePatch)` sends a JSON merge
 *   patch (RFC 7386), which is what `kubectl cordon` (`{"spec":{"unschedulable":true}}`) and
 *   `kubectl annotate` amount to;
 * - `KubeConfig.loadFromString` reads a kubeconfig in YAML or JSON (the eks stack's is JSON with
 *   an `aws eks get-token` exec user, which client-node runs itself: src/exec_auth.ts);
 * - before each request `KubeConfig.applyAuthorizationHeader` asks the first authenticator whose
 *   `isAuthProvider(user)` is true (the built-in exec/OIDC/cloud ones, then those added with
 *   `addAuthenticator`) to set the headers, then sets `Authorization: Bearer <user.token>` only
 *   when the user has a static token (dist/config.js): a user without one gets the header from
 *   the authenticator, on every request;
 * - `createNamespacedServiceAccountToken` is the TokenRequest API (POST
 *   /api/v1/namespaces/{ns}/serviceaccounts/{name}/token), resolving to the request with
 *   `status.token` and `status.expirationTimestamp` (a Date).
 *
 * Who the experiments are to the cluster: the stack's kubeconfig is the admin's (the deployer's),
 * and {@link experimentCluster} uses it for one kind of request only, a TokenRequest for the
 * experiment's own ServiceAccount (stacks/fsx-eks/experiment-access.ts: exactly the calls of
 * ./cluster.ts `CLUSTER_API_CALLS` the experiment makes). Every call of the experiment goes out with
 * that token, which expires after {@link TOKEN_SECONDS} and is renewed through the admin identity
 * {@link RENEW_BEFORE_MS} before (the API server bounds a token's life by its own
 * `--service-account-max-token-expiration`; the renewal follows the `expirationTimestamp` it answers).
 */
import * as k8s from "@kubernetes/client-node";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { claimState, Cluster, jobState, nodeState, podState, statefulSetState } from "./cluster";

/** An API error's status code, or undefined for anything else (a network error). */
function statusOf(e: unknown): number | undefined {
  return e instanceof k8s.ApiException ? e.code : undefined;
}

/** `undefined` for a 404, the value otherwise; other errors pass through. */
async function orMissing<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (statusOf(e) === 404) return undefined;
    throw e;
  }
}

/** Resolves for a 404 (already gone). */
async function ignoreMissing(p: Promise<unknown>): Promise<void> {
  await orMissing(p);
}

const mergePatch = () => k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

/** An experiment's identity in the cluster: its ServiceAccount (the stack's `experimentAccess.<experiment>`). */
export interface ServiceAccountRef {
  readonly namespace: string;
  readonly serviceAccount: string;
}

/**
 * Lifetime asked for each token: one hour. TokenRequest's minimum is 10 minutes
 * (k8s.io/api authentication/v1 TokenRequestSpec `expirationSeconds`: "The token issuer may return a
 * token with a different validity duration"; the API rejects less than 600 s).
 */
export const TOKEN_SECONDS = 3600;
/** A token this close to its expiry is renewed before the next request. */
export const RENEW_BEFORE_MS = 10 * 60_000;
/** The kubeconfig user the experiment's calls go out as. */
export const EXPERIMENT_USER = "lab-experiment";

/**
 * A {@link Cluster} that calls the API as the experiment's ServiceAccount `who`, on the cluster the
 * admin `kubeconfig` (YAML or JSON) points at: the admin identity only requests its tokens.
 */
export function experimentCluster(kubeconfig: string, who: ServiceAccountRef, clock: () => number = Date.now): Cluster {
  const admin = new k8s.KubeConfig();
  admin.loadFromString(kubeconfig);
  const server = admin.getCurrentCluster();
  if (server === null) throw new Error("the stack's kubeconfig has no current cluster");
  const tokens = admin.makeApiClient(k8s.CoreV1Api);
  const account = `ServiceAccount ${who.namespace}/${who.serviceAccount}`;
  let token: { value: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const request = async (): Promise<string> => {
    let answer: k8s.AuthenticationV1TokenRequest;
    try {
      answer = await tokens.createNamespacedServiceAccountToken({
        name: who.serviceAccount,
        namespace: who.namespace,
        body: { spec: { audiences: [], expirationSeconds: TOKEN_SECONDS } },
      });
    } catch (e) {
      const why = e instanceof k8s.ApiException ? `HTTP ${e.code}` : e instanceof Error ? e.message : String(e);
      throw new Error(`cannot get a token of ${account} (the stack's experimentAccess; deploy the fsx-eks stack that creates it): ${why}`);
    }
    const value = answer.status?.token;
    const expires = answer.status?.expirationTimestamp;
    if (!value || !(expires instanceof Date)) throw new Error(`the TokenRequest of ${account} answered no token or expiry`);
    token = { value, expiresAt: expires.getTime() };
    return value;
  };
  const current = (): Promise<string> => {
    if (token !== undefined && token.expiresAt - clock() > RENEW_BEFORE_MS) return Promise.resolve(token.value);
    pending ??= request().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  const kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser(server, { name: EXPERIMENT_USER });
  kc.addAuthenticator({
    isAuthProvider: (user) => user.name === EXPERIMENT_USER,
    applyAuthentication: async (_user, opts) => {
      opts.headers = { ...opts.headers, Authorization: `Bearer ${await current()}` };
    },
  });
  return clusterOn(kc);
}

/** The {@link Cluster} calls on `kc`'s current context. */
function clusterOn(kc: k8s.KubeConfig): Cluster {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const batch = kc.makeApiClient(k8s.BatchV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const storage = kc.makeApiClient(k8s.StorageV1Api);
  return {
    async getStatefulSet(namespace, name) {
      const s = await orMissing(apps.readNamespacedStatefulSet({ name, namespace }));
      return s && statefulSetState(s);
    },
    async getPod(namespace, name) {
      const p = await orMissing(core.readNamespacedPod({ name, namespace }));
      return p && podState(p);
    },
    async listPods(namespace, labelSelector) {
      const l = await core.listNamespacedPod({ namespace, labelSelector });
      return l.items.map(podState);
    },
    async deletePod(namespace, name) {
      await ignoreMissing(core.deleteNamespacedPod({ name, namespace }));
    },
    async annotatePod(namespace, name, annotations) {
      await core.patchNamespacedPod({ name, namespace, body: { metadata: { annotations } } }, mergePatch());
    },
    async getNode(name) {
      const n = await orMissing(core.readNode({ name }));
      return n && nodeState(n);
    },
    async listNodes() {
      return (await core.listNode()).items.map(nodeState);
    },
    async setUnschedulable(name, unschedulable) {
      await core.patchNode({ name, body: { spec: { unschedulable } } }, mergePatch());
    },
    async getClaim(namespace, name) {
      const c = await orMissing(core.readNamespacedPersistentVolumeClaim({ name, namespace }));
      return c && claimState(c);
    },
    async createClaim(claim: IPersistentVolumeClaim) {
      await core.createNamespacedPersistentVolumeClaim({
        namespace: claim.metadata!.namespace!,
        body: claim as k8s.V1PersistentVolumeClaim,
      });
    },
    async deleteClaim(namespace, name) {
      await ignoreMissing(core.deleteNamespacedPersistentVolumeClaim({ name, namespace }));
    },
    async getStorageClassProvisioner(name) {
      const s = await orMissing(storage.readStorageClass({ name }));
      return s?.provisioner;
    },
    async createConfigMap(configMap: IConfigMap) {
      await core.createNamespacedConfigMap({ namespace: configMap.metadata!.namespace!, body: configMap as k8s.V1ConfigMap });
    },
    async deleteConfigMap(namespace, name) {
      await ignoreMissing(core.deleteNamespacedConfigMap({ name, namespace }));
    },
    async createJob(job: IJob) {
      await batch.createNamespacedJob({ namespace: job.metadata!.namespace!, body: job as k8s.V1Job });
    },
    async getJob(namespace, name) {
      const j = await orMissing(batch.readNamespacedJob({ name, namespace }));
      return j && jobState(j);
    },
    async deleteJob(namespace, name) {
      // Background: the Job goes at once and the garbage collector deletes its pods. Without a
      // propagation policy they would be orphaned: batch/v1 Jobs default to OrphanDependents "for
      // backwards compatibility" (kubernetes/kubernetes pkg/registry/batch/job/strategy.go,
      // DefaultGarbageCollectionPolicy).
      await ignoreMissing(batch.deleteNamespacedJob({ name, namespace, propagationPolicy: "Background" }));
    },
    async podLog(namespace, pod, container) {
      return core.readNamespacedPodLog({ name: pod, namespace, container });
    },
  };
}
