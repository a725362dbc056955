/**
 * Offline validation of a custom resource against its upstream CustomResourceDefinition
 * (../shared/schemas/crds/<group>/<Kind>.yaml): the CR's apiVersion must name the CRD's group and
 * a served version, its kind the CRD's kind, its metadata a name (and a namespace for a Namespaced
 * CRD), and the whole object must satisfy that version's `schema.openAPIV3Schema` (ajv).
 *
 * Like the API server with strict field validation (`kubectl apply --validate=strict`), a field the
 * schema does not declare is an error, except under `x-kubernetes-preserve-unknown-fields` or
 * `additionalProperties`. The Kubernetes extensions (`x-kubernetes-*`) are otherwise ignored (ajv
 * `strict: false`); CEL rules (`x-kubernetes-validations`) and formats (`int64`, `int-or-string`,
 * `date-time`) are not evaluated; `nullable` is OpenAPI's and ajv understands it.
 */
import Ajv, { type ValidateFunction } from "ajv";
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";

/** The shared upstream schemas (a sibling of the repository, as laid out for sessions and CI). */
export const SCHEMAS_DIR = path.resolve(__dirname, "../../../shared/schemas");

interface CrdVersion {
  name: string;
  served: boolean;
  schema?: { openAPIV3Schema: Record<string, unknown> };
}
interface Crd {
  kind: string;
  spec: { group: string; scope: "Namespaced" | "Cluster"; names: { kind: string }; versions: CrdVersion[] };
}

/** Reads `crds/<group>/<Kind>.yaml`. */
export function loadCrd(group: string, kind: string): Crd {
  const file = path.join(SCHEMAS_DIR, "crds", group, `${kind}.yaml`);
  const crd = YAML.parse(fs.readFileSync(file, "utf8")) as Crd;
  if (crd.kind !== "CustomResourceDefinition") throw new Error(`${file} is not a CustomResourceDefinition`);
  return crd;
}

/** A copy of `schema` where every object with declared properties rejects undeclared ones. */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const s = Object.fromEntries(
    Object.entries(schema as Record<string, unknown>).map(([k, v]) => [
      k,
      k === "enum" || k === "default" || k === "example" ? v : strictSchema(v),
    ]),
  );
  if (s.properties !== undefined && s.additionalProperties === undefined && s["x-kubernetes-preserve-unknown-fields"] !== true) {
    s.additionalProperties = false;
  }
  return s;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();

/** Problems of `cr` against the CRD of `group`/`kind`, one line each; `[]` when it is valid. */
export function crdProblems(group: string, kind: string, cr: Record<string, unknown>): string[] {
  const crd = loadCrd(group, kind);
  const problems: string[] = [];
  const [crGroup, version] = String(cr.apiVersion ?? "").split("/");
  if (crGroup !== crd.spec.group) return [`apiVersion ${JSON.stringify(cr.apiVersion)} is not of group ${crd.spec.group}`];
  const v = crd.spec.versions.find((x) => x.name === version && x.served);
  if (!v || !v.schema) return [`CRD ${crd.spec.names.kind} has no served version ${version}`];
  if (cr.kind !== crd.spec.names.kind) problems.push(`kind ${JSON.stringify(cr.kind)} is not ${crd.spec.names.kind}`);
  const meta = (cr.metadata ?? {}) as Record<string, unknown>;
  if (typeof meta.name !== "string" || meta.name === "") problems.push("metadata.name is missing");
  if (crd.spec.scope === "Namespaced" && (typeof meta.namespace !== "string" || meta.namespace === ""))
    problems.push("metadata.namespace is missing");
  const key = `${group}/${kind}/${version}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(strictSchema(v.schema.openAPIV3Schema) as object);
    compiled.set(key, validate);
  }
  if (!validate(cr)) {
    for (const e of validate.errors ?? []) {
      const extra = e.keyword === "additionalProperties" ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : "";
      problems.push(`${e.instancePath || "/"} ${e.message}${extra}`);
    }
  }
  return problems;
}
