/**
 * A Kubernetes API server for the end-to-end test: the simulated {@link World}'s objects behind
 * the REST paths the experiments' client (lab/experiment/kube.ts, @kubernetes/client-node) calls,
 * with the API's conventions that client relies on: JSON objects, `kind: Status` errors with the
 * HTTP code (404 NotFound, 409 AlreadyExists), `labelSelector` on lists, `text/plain` logs, merge
 * patches (`application/merge-patch+json`, RFC 7386) on pods and nodes. Every request is recorded.
 *
 * Authentication and RBAC as kube-apiserver does them: a request without a known bearer token is
 * 401 Unauthorized; the admin token ({@link ADMIN_TOKEN}, the kubeconfig's) may do anything; the
 * TokenRequest API (POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token) mints a token of a
 * ServiceAccount the stack grants (stacks/fsx-eks/experiment-access.ts, the same grants the stack
 * creates), and a request with that token is authorized against its grant
 * (components/lib/rbac.ts `grantAllows`): a call the grant does not cover is 403 Forbidden with
 * kube-apiserver's message (k8s.io/apiserver pkg/endpoints/handlers/responsewriters/errors.go
 * `forbiddenMessage`) and is recorded with `denied`. The request's attributes come from its path and
 * method as k8s.io/apiserver pkg/endpoints/request/requestinfo.go derives them.
 *
 * For kubectl (the utilization manifest's reads, test/lab/utilization/cluster-read.test.ts) it serves
 * over TLS ({@link ServeOptions} `tls`: kubectl sends credentials to an https server only), answers
 * `/version` to anyone (kube-apiserver's `system:public-info-viewer`, bound to every user), and
 * serves cluster-scoped lists given as {@link ServeOptions} `lists`.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { describeCall, grantAllows, type AccessGrant, type ApiCall } from "../../../components/lib/rbac";
import { experimentGrants } from "../../../stacks/fsx-eks/experiment-access";
import type { World } from "./sim";

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: unknown;
  /** `admin`, or `system:serviceaccount:<ns>:<name>`. */
  readonly user?: string;
  /** Why RBAC refused it. */
  readonly denied?: string;
}

export interface ApiServer {
  readonly url: string;
  readonly requests: ApiRequest[];
  /** The tokens minted: who, and the expirationSeconds asked for. */
  readonly tokens: Array<{ readonly user: string; readonly expirationSeconds: unknown }>;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Serve https with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Answers to a LIST by its path (`/api/v1/persistentvolumes`): the list's kind and its items. */
  readonly lists?: Readonly<Record<string, { readonly kind: string; readonly apiVersion: string; readonly items: readonly unknown[] }>>;
}

/** The kubeconfig's token: the cluster's admin. */
export const ADMIN_TOKEN = "sim-token";

/** The authorizer's attributes of a request (requestinfo.go): verb from the method, resource path segments. */
export function requestCall(method: string, pathname: string, hasWatch = false): ApiCall {
  const p = pathname.split("/").filter(Boolean);
  const rest = p[0] === "api" ? p.slice(2) : p.slice(3);
  const apiGroup = p[0] === "api" ? "" : p[1];
  let namespace: string | undefined;
  let parts = rest;
  if (parts[0] === "namespaces" && parts.length > 2) {
    namespace = parts[1];
    parts = parts.slice(2);
  }
  const [resource, name, subresource] = parts;
  const verb =
    method === "GET"
      ? name === undefined
        ? hasWatch
          ? "watch"
          : "list"
        : "get"
      : method === "POST"
        ? "create"
        : method === "PATCH"
          ? "patch"
          : method === "PUT"
            ? "update"
            : "delete";
  return {
    verb,
    apiGroup,
    resource,
    ...(subresource !== undefined ? { subresource } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/** A `kind: Status` error as kube-apiserver answers it. */
export const status = (code: number, reason: string, message: string) => ({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message,
  reason,
  code,
});

export async function serveKubernetes(
  w: World,
  now: () => number,
  grants: readonly AccessGrant[] = Object.values(experimentGrants("mysql", "bench")),
  opts: ServeOptions = {},
): Promise<ApiServer> {
  const requests: ApiRequest[] = [];
  const tokens: Array<{ user: string; expirationSeconds: unknown }> = [];
  const minted = new Map<string, AccessGrant>();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const body = raw ? JSON.parse(raw) : undefined;
      const json = (code: number, doc: unknown) => {
        res.writeHead(code, { "content-type": "application/json" });
        res.end(JSON.stringify(doc));
      };
      // A non-resource URL every user may read (kubectl's server version check).
      if (url.pathname === "/version" && req.method === "GET") {
        requests.push({ method: "GET", path: `${url.pathname}${url.search}` });
        return json(200, { major: "1", minor: "35", gitVersion: "v1.35.0" });
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const grant = bearer === undefined ? undefined : minted.get(bearer);
      const user =
        bearer === ADMIN_TOKEN ? "admin" : grant !== undefined ? `system:serviceaccount:${grant.namespace}:${grant.name}` : undefined;
      const call = requestCall(req.method ?? "", url.pathname, url.searchParams.get("watch") === "true");
      const denied =
        user !== undefined && grant !== undefined && !grantAllows(grant, call) ? `${user} cannot ${describeCall(call)}` : undefined;
      requests.push({
        method: req.method ?? "",
        path: `${url.pathname}${url.search}`,
        ...(req.headers["content-type"] ? { contentType: req.headers["content-type"] } : {}),
        ...(body ? { body } : {}),
        ...(user !== undefined ? { user } : {}),
        ...(denied !== undefined ? { denied } : {}),
      });
      if (user === undefined) return json(401, status(401, "Unauthorized", "Unauthorized"));
      if (denied !== undefined) {
        const group = call.apiGroup === "" ? "" : ` in API group "${call.apiGroup}"`;
        const resource = call.subresource === undefined ? call.resource : `${call.resource}/${call.subresource}`;
        const scope = call.namespace === undefined ? "at the cluster scope" : `in the namespace "${call.namespace}"`;
        return json(
          403,
          status(
            403,
            "Forbidden",
            `${call.resource}${call.name ? ` "${call.name}"` : ""} is forbidden: User "${user}" cannot ${call.verb} resource "${resource}"${group} ${scope}`,
          ),
        );
      }
      const notFound = (what: string) => json(404, status(404, "NotFound", `${what} not found`));
      const exists = (what: string) => json(409, status(409, "AlreadyExists", `${what} already exists`));
      w.advance(now());
      const p = url.pathname.split("/").filter(Boolean);
      const m = req.method;
      try {
        // TokenRequest: /api/v1/namespaces/{ns}/serviceaccounts/{name}/token
        if (call.resource === "serviceaccounts" && call.subresource === "token" && call.verb === "create") {
          const g = grants.find((x) => x.namespace === call.namespace && x.name === call.name);
          if (g === undefined) return notFound(`serviceaccounts "${call.name}"`);
          if (user !== "admin") return json(403, status(403, "Forbidden", "only the admin mints tokens here"));
          const seconds = body?.spec?.expirationSeconds;
          const token = `sa-${g.namespace}-${g.name}-${tokens.length + 1}`;
          minted.set(token, g);
          tokens.push({ user: `system:serviceaccount:${g.namespace}:${g.name}`, expirationSeconds: seconds });
          return json(201, {
            kind: "TokenRequest",
            apiVersion: "authentication.k8s.io/v1",
            metadata: { name: g.name, namespace: g.namespace },
            spec: body?.spec ?? {},
            status: { token, expirationTimestamp: new Date(now() + Number(seconds ?? 3600) * 1000).toISOString() },
          });
        }
        const list = opts.lists?.[url.pathname];
        if (list !== undefined && call.verb === "list") {
          w.call(`list ${url.pathname}`);
          return json(200, {
            kind: `${list.kind}List`,
            apiVersion: list.apiVersion,
            metadata: { resourceVersion: "1" },
            items: list.items,
          });
        }
        // /api/v1/nodes[/name]
        if (p[0] === "api" && p[2] === "nodes") {
          const name = p[3];
          if (name === undefined && m === "GET") {
            w.call("listNodes");
            return json(200, {
              kind: "NodeList",
              apiVersion: "v1",
              metadata: {},
              items: [...w.nodes.values()].map((n) => w.nodeObject(n)),
            });
          }
          const n = w.nodes.get(name);
          if (m === "GET") {
            w.call(`getNode ${name}`);
            return n ? json(200, w.nodeObject(n)) : notFound(`nodes "${name}"`);
          }
          if (m === "PATCH") {
            w.call(`setUnschedulable ${name} ${body.spec.unschedulable}`);
            if (req.headers["content-type"] !== "application/merge-patch+json")
              return json(415, status(415, "UnsupportedMediaType", "want a merge patch"));
            if (!w.setUnschedulable(name, body.spec.unschedulable === true)) return notFound(`nodes "${name}"`);
            return json(200, w.nodeObject(w.nodes.get(name)!));
          }
        }
        // /api/v1/namespaces/{ns}/{kind}[/name[/log]]
        if (p[0] === "api" && p[2] === "namespaces") {
          const [ns, kind, name, sub] = [p[3], p[4], p[5], p[6]];
          if (kind === "pods") {
            if (name === undefined && m === "GET") {
              const selector = url.searchParams.get("labelSelector") ?? "";
              w.call(`listPods ${ns} ${selector}`);
              return json(200, { kind: "PodList", apiVersion: "v1", metadata: {}, items: w.listPods(ns, selector) });
            }
            if (sub === "log" && m === "GET") {
              w.call(`podLog ${ns}/${name} ${url.searchParams.get("container")}`);
              const log = w.podLog(ns, name);
              if (log === undefined) return notFound(`pods "${name}"`);
              res.writeHead(200, { "content-type": "text/plain" });
              return res.end(log);
            }
            if (m === "GET") {
              w.call(`getPod ${ns}/${name}`);
              const pod = w.getPod(ns, name);
              return pod ? json(200, pod) : notFound(`pods "${name}"`);
            }
            if (m === "DELETE") {
              w.call(`deletePod ${ns}/${name}`);
              const pod = w.getPod(ns, name);
              if (!pod || !w.deletePod(ns, name)) return notFound(`pods "${name}"`);
              return json(200, pod);
            }
            if (m === "PATCH") {
              w.call(`annotatePod ${ns}/${name} ${JSON.stringify(body.metadata.annotations)}`);
              if (req.headers["content-type"] !== "application/merge-patch+json")
                return json(415, status(415, "UnsupportedMediaType", "want a merge patch"));
              if (!w.annotatePod(ns, name, body.metadata.annotations)) return notFound(`pods "${name}"`);
              return json(200, w.getPod(ns, name));
            }
          }
          if (kind === "persistentvolumeclaims") {
            if (m === "POST") {
              w.call(`createClaim ${ns}/${body.metadata.name}`);
              return w.createClaim(body)
                ? json(201, w.claimObject(ns, w.claims.get(`${ns}/${body.metadata.name}`)!))
                : exists(`persistentvolumeclaims "${body.metadata.name}"`);
            }
            const c = w.claims.get(`${ns}/${name}`);
            if (m === "GET") {
              w.call(`getClaim ${ns}/${name}`);
              return c ? json(200, w.claimObject(ns, c)) : notFound(`persistentvolumeclaims "${name}"`);
            }
            if (m === "DELETE") {
              w.call(`deleteClaim ${ns}/${name}`);
              if (!c) return notFound(`persistentvolumeclaims "${name}"`);
              w.claims.delete(`${ns}/${name}`);
              return json(200, w.claimObject(ns, c));
            }
          }
          if (kind === "configmaps") {
            if (m === "POST") {
              w.call(`createConfigMap ${ns}/${body.metadata.name}`);
              return w.createConfigMap(body) ? json(201, body) : exists(`configmaps "${body.metadata.name}"`);
            }
            if (m === "DELETE") {
              w.call(`deleteConfigMap ${ns}/${name}`);
              const c = w.configMaps.get(`${ns}/${name}`);
              if (!c) return notFound(`configmaps "${name}"`);
              w.configMaps.delete(`${ns}/${name}`);
              return json(200, c);
            }
          }
        }
        // /apis/{group}/{version}/...
        if (p[0] === "apis" && p[1] === "storage.k8s.io" && p[3] === "storageclasses" && m === "GET") {
          w.call(`getStorageClass ${p[4]}`);
          const provisioner = w.storageClasses.get(p[4]);
          return provisioner
            ? json(200, { kind: "StorageClass", apiVersion: "storage.k8s.io/v1", metadata: { name: p[4] }, provisioner })
            : notFound(`storageclasses.storage.k8s.io "${p[4]}"`);
        }
        if (p[0] === "apis" && p[1] === "apps" && p[5] === "statefulsets" && m === "GET") {
          w.call(`getStatefulSet ${p[4]}/${p[6]}`);
          if (p[4] !== "mysql" || p[6] !== "mysql") return notFound(`statefulsets.apps "${p[6]}"`);
          return json(200, {
            kind: "StatefulSet",
            apiVersion: "apps/v1",
            metadata: { name: "mysql", namespace: "mysql" },
            spec: { replicas: 3 },
            status: { replicas: 3, readyReplicas: 3 },
          });
        }
        if (p[0] === "apis" && p[1] === "batch" && p[5] === "jobs") {
          const [ns, name] = [p[4], p[6]];
          if (m === "POST") {
            w.call(`createJob ${ns}/${body.metadata.name}`);
            return w.createJob(body) ? json(201, body) : exists(`jobs.batch "${body.metadata.name}"`);
          }
          const j = w.jobs.get(`${ns}/${name}`);
          if (m === "GET") {
            w.call(`getJob ${ns}/${name}`);
            return j ? json(200, w.jobObject(j)) : notFound(`jobs.batch "${name}"`);
          }
          if (m === "DELETE") {
            w.call(`deleteJob ${ns}/${name} propagationPolicy=${url.searchParams.get("propagationPolicy")}`);
            if (!j) return notFound(`jobs.batch "${name}"`);
            w.deleteJob(ns, name);
            return json(200, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success" });
          }
        }
        json(404, status(404, "NotFound", `the server could not find the requested resource (${m} ${url.pathname})`));
      } catch (e) {
        json(500, status(500, "InternalError", e instanceof Error ? e.message : String(e)));
      }
    });
  };
  const server = opts.tls === undefined ? http.createServer(handler) : https.createServer(opts.tls, handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls === undefined ? "http" : "https"}://127.0.0.1:${port}`,
    requests,
    tokens,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A kubeconfig (JSON, like the eks stack's) for `url`, with a bearer token. */
export function kubeconfigFor(url: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    // client-node refuses plain HTTP unless TLS verification is off (src/config.ts: "HTTP protocol is not allowed when skipTLSVerify is not set or false").
    clusters: [{ name: "sim", cluster: { server: url, "insecure-skip-tls-verify": true } }],
    users: [{ name: "sim", user: { token: ADMIN_TOKEN } }],
    contexts: [{ name: "sim", context: { cluster: "sim", user: "sim" } }],
    "current-context": "sim",
  });
}
