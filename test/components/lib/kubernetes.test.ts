/** Kubernetes names, labels and quantities (Kubernetes docs: "Object Names and IDs", "Labels and Selectors", "Resource units"). */
import {
  kubeletMaySelfLabel,
  isCpuQuantity,
  isDnsLabel,
  isDnsSubdomain,
  isLabelKey,
  isLabels,
  isLabelValue,
  isMemoryQuantity,
} from "../../../components/lib/kubernetes";

test("RFC 1123 labels: lowercase letters, digits and '-', letter or digit at both ends, at most 63", () => {
  expect(["bench", "rook-ceph", "a", "0a", "x".repeat(63)].map(isDnsLabel)).toEqual([true, true, true, true, true]);
  expect(["Bench", "-a", "a-", "a.b", "", "x".repeat(64), 7].map(isDnsLabel)).toEqual([false, false, false, false, false, false, false]);
});

test("DNS subdomains: such labels joined by '.', at most 253", () => {
  expect(["rook-ceph-block", "topology.kubernetes.io", `${"a".repeat(63)}.${"b".repeat(63)}`].map(isDnsSubdomain)).toEqual([
    true,
    true,
    true,
  ]);
  expect(["Rook", "a..b", ".a", `${"a.".repeat(126)}ab`, ""].map(isDnsSubdomain)).toEqual([false, false, false, false, false]);
});

test("label keys and values", () => {
  expect(["storage-bench-lab/worker", "topology.kubernetes.io/zone", "app", "a.b_c-d", "A1"].map(isLabelKey)).toEqual([
    true,
    true,
    true,
    true,
    true,
  ]);
  expect(["Storage/worker", "/worker", "a/", "x".repeat(64), "a/b/c", "-a", 3].map(isLabelKey)).toEqual([
    false,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
  expect(["", "1", "us-east-1a", "m5.xlarge", "x".repeat(63)].map(isLabelValue)).toEqual([true, true, true, true, true]);
  expect(["not valid!", "-1", "x".repeat(64), 1].map(isLabelValue)).toEqual([false, false, false, false]);
  expect(isLabels({ "storage-bench-lab/worker": "2", app: "" })).toBe(true);
  expect([{ "-bad": "x" }, { ok: "a b" }, ["a"], null, "a=b"].map(isLabels)).toEqual([false, false, false, false, false]);
});

test("quantities: CPU in cores or millicores, memory in bytes with a suffix", () => {
  expect(["1", "0.5", "500m", "16"].map(isCpuQuantity)).toEqual([true, true, true, true]);
  expect(["one", "1.5m", "1Gi", "", "-1"].map(isCpuQuantity)).toEqual([false, false, false, false, false]);
  // at most 1m precision (Kubernetes docs, CPU units): 0.001 is the finest a core count may be
  expect(["0.001", "0.125", "0.0005", "1.2345"].map(isCpuQuantity)).toEqual([true, true, false, false]);
  expect(["4Gi", "512Mi", "1G", "1073741824", "1.5Gi"].map(isMemoryQuantity)).toEqual([true, true, true, true, true]);
  expect(["4 GiB", "4GB", "lots", "Gi"].map(isMemoryQuantity)).toEqual([false, false, false, false]);
});

test("kubeletMaySelfLabel: the kubelet's own test (well_known_labels.go IsKubeletLabel, options.go isKubernetesLabel)", () => {
  expect(
    [
      "example.com/x",
      "plain",
      "node.kubernetes.io/pool",
      "a.kubelet.kubernetes.io/x",
      "topology.kubernetes.io/zone",
      "kubernetes.io/arch",
    ].map(kubeletMaySelfLabel),
  ).toEqual([true, true, true, true, true, true]);
  expect(
    ["node-role.kubernetes.io/worker", "kubernetes.io/role", "app.kubernetes.io/name", "k8s.io/x", "x.k8s.io/y"].map(kubeletMaySelfLabel),
  ).toEqual([false, false, false, false, false]);
});
