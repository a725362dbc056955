/** The Strimzi operator's rules and objects (components/strimzi): exact values and messages, the chart's values against its values.yaml. */
import * as fs from "node:fs";
import * as path from "node:path";
import { Namespace } from "kubernetes-models/v1/Namespace";
import YAML from "yaml";
import { formatArgProblem } from "../../../core/errors";
import { podSecurityNamespaceManifest, strimziChartValues } from "../../../components/strimzi/manifests";
import { problems, resolve, STRIMZI_DEFAULTS, STRIMZI_POD_SECURITY_PROVIDER } from "../../../components/strimzi/rules";
import { STRIMZI_CHART } from "../../../components/versions";
import { SHARED } from "../../helpers/root";

const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

describe("Strimzi operator", () => {
  test("the pinned chart: Strimzi's OCI registry, 1.2.0 (the CRDs and values in ../shared/schemas)", () => {
    expect(STRIMZI_CHART).toEqual({ chart: "oci://quay.io/strimzi-helm/strimzi-kafka-operator", version: "1.2.0" });
    expect(fs.existsSync(path.join(SHARED, "schemas/helm/strimzi-kafka-operator-1.2.0.values.yaml"))).toBe(true);
  });

  test("defaults: its own namespace strimzi; it watches the given namespaces", () => {
    expect(STRIMZI_DEFAULTS).toEqual({ namespace: "strimzi" });
    expect(resolve({ watchNamespaces: ["kafka"] })).toEqual({ namespace: "strimzi", watchNamespaces: ["kafka"] });
  });

  test("chart values: the watched namespaces, the operator's namespace label and the restricted pod security provider, nothing else", () => {
    expect(STRIMZI_POD_SECURITY_PROVIDER).toEqual({ name: "STRIMZI_POD_SECURITY_PROVIDER_CLASS", value: "restricted" });
    expect(strimziChartValues(resolve({ watchNamespaces: ["kafka"] }))).toEqual({
      watchNamespaces: ["kafka"],
      // STRIMZI_OPERATOR_NAMESPACE_LABELS: Strimzi's generated Kafka policy admits the operator from this namespace only
      image: { operatorNamespaceLabels: "kubernetes.io/metadata.name=strimzi" },
      extraEnvs: [{ name: "STRIMZI_POD_SECURITY_PROVIDER_CLASS", value: "restricted" }],
    });
  });

  test("every value is a key of the chart's values.yaml (Helm ignores unknown keys silently), of the default's type", () => {
    const defaults = YAML.parse(
      fs.readFileSync(path.join(SHARED, "schemas/helm/strimzi-kafka-operator-1.2.0.values.yaml"), "utf8"),
    ) as Record<string, unknown>;
    const values = strimziChartValues(resolve({ watchNamespaces: ["kafka"] }));
    for (const [k, v] of Object.entries(values)) {
      expect(Object.keys(defaults)).toContain(k);
      expect(Array.isArray(defaults[k])).toBe(Array.isArray(v));
    }
    // The templates read them so: STRIMZI_NAMESPACE from watchNamespaces, extraEnvs appended to the operator's env.
    const templates = fs.readFileSync(path.join(SHARED, "schemas/helm/strimzi-kafka-operator-1.2.0.templates.txt"), "utf8");
    expect(templates).toContain("{{- $namespacesList := .Values.watchNamespaces | default (list) -}}");
    expect(templates).toContain("{{ toYaml .Values.extraEnvs | indent 12 }}");
    // image.operatorNamespaceLabels is read by the Deployment template, not listed in values.yaml's image map
    expect(typeof defaults.image).toBe("object");
    expect(templates).toContain(
      "{{- if .Values.image.operatorNamespaceLabels }}\n            - name: STRIMZI_OPERATOR_NAMESPACE_LABELS\n              value: {{ .Values.image.operatorNamespaceLabels }}",
    );
  });

  test("namespaces: Pod Security enforced, audited and warned at one level, valid Kubernetes", () => {
    const ns = podSecurityNamespaceManifest("kafka", "restricted");
    expect(ns).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "kafka",
        labels: {
          "pod-security.kubernetes.io/enforce": "restricted",
          "pod-security.kubernetes.io/enforce-version": "latest",
          "pod-security.kubernetes.io/warn": "restricted",
          "pod-security.kubernetes.io/audit": "restricted",
          "app.kubernetes.io/part-of": "storage-bench-lab",
        },
      },
    });
    expect(() => new Namespace(ns).validate()).not.toThrow();
    expect(podSecurityNamespaceManifest("kafka-storage", "baseline").metadata!.labels!["pod-security.kubernetes.io/enforce"]).toBe(
      "baseline",
    );
  });

  test.each<[string, Parameters<typeof problems>[0], string[]]>([
    ["valid", { namespace: "strimzi", watchNamespaces: ["kafka", "omb"] }, []],
    [
      "a bad namespace, an empty or repeated watch list",
      { namespace: "Strimzi", watchNamespaces: [] },
      [
        `'namespace' must be an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got "Strimzi"`,
        `'watchNamespaces' must be a non-empty list of distinct namespace names (an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit), got []`,
      ],
    ],
    [
      "duplicates",
      { watchNamespaces: ["kafka", "kafka"] },
      [
        `'watchNamespaces' must be a non-empty list of distinct namespace names (an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit), got ["kafka","kafka"]`,
      ],
    ],
  ])("%s", (_n, spec, expected) => {
    expect(lines(spec)).toEqual(expected);
  });
});
