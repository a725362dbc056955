/** The Rook objects: the OSD device filter, the wait, the muted warnings, and the CRs checked against Rook v1.20.6's own CRDs. */
import { StorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import {
  cephBlockPoolManifest,
  cephClusterManifest,
  cephCsiDriversValues,
  clusterReadyConditions,
  isOsdDevice,
  osdsUp,
  OSD_DEVICE_PATH_FILTER,
  storageClassManifest,
} from "../../../components/rook/manifests";
import { CEPH_IMAGE } from "../../../components/versions";
import { crdProblems, loadCrd } from "../../helpers/crd";

const ARGS = { osdCount: 3 };

describe("OSD device path filter", () => {
  // Device paths Rook matches the filter against: /dev/<kernel name> and the udev links.
  test.each([
    ["/dev/xvdf", true], // the data volume on Xen (m4)
    ["/dev/nvme1n1", true], // the data volume on Nitro (m5)
    ["/dev/xvda", false], // root on Xen
    ["/dev/xvda1", false],
    ["/dev/nvme0n1", false], // root on Nitro
    ["/dev/nvme0n1p1", false],
    ["/dev/nvme1n1p1", false], // a partition of the data volume
    ["/dev/xvdf1", false],
    ["/dev/nvme1n10", false],
    ["/dev/nvme11n1", false],
    ["/dev/sdf", false],
    ["/dev/xvdfa", false],
    ["/dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_vol0123456789abcdef0", false],
    ["/dev/disk/by-path/pci-0000:00:1f.0-nvme-1", false],
    ["/dev/mapper/ubuntu--vg-root", false],
    ["/dev/loop0", false],
    ["xvdf", false],
    ["/dev/xvdf ", false],
  ])("%s → %s", (path, expected) => {
    expect(isOsdDevice(path)).toBe(expected);
  });

  test("is the filter the CephCluster carries", () => {
    expect(OSD_DEVICE_PATH_FILTER).toBe("^/dev/(xvdf|nvme1n1)$");
    expect((cephClusterManifest(ARGS).spec as { storage: unknown }).storage).toEqual({
      useAllNodes: true,
      useAllDevices: false,
      devicePathFilter: "^/dev/(xvdf|nvme1n1)$",
      nearFullRatio: 0.85,
    });
  });
});

describe("CephCluster against Rook v1.20.6's CRD", () => {
  test("validates, with the published shape: 3 mons, 2 mgrs, pinned Ceph, the pod network, the published resources; waits for HEALTH_OK and every OSD up", () => {
    const cr = cephClusterManifest(ARGS);
    expect(crdProblems("ceph.rook.io", "CephCluster", cr)).toEqual([]);
    expect(cr.metadata).toEqual({
      name: "rook-ceph",
      namespace: "rook-ceph",
      annotations: {
        "pulumi.com/waitFor": '["jsonpath={.status.ceph.health}=HEALTH_OK","jsonpath={.status.ceph.versions.osd.*}=3"]',
      },
    });
    const spec = cr.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(spec.mon).toEqual({ count: 3, allowMultiplePerNode: false });
    expect(spec.mgr).toEqual({ count: 2, allowMultiplePerNode: false });
    expect(spec.cephVersion).toEqual({ image: CEPH_IMAGE, allowUnsupported: false });
    expect(CEPH_IMAGE).toMatch(/^quay\.io\/ceph\/ceph:v\d+\.\d+\.\d+$/);
    // No network section: Rook's default, the pod network (koor-tech/experiment-ceph-on-nitro k8s/base/rook-ceph.cluster.yaml line 85 leaves `provider: host` commented out).
    expect(spec.network).toBeUndefined();
    expect(spec.placement).toBeUndefined();
    expect(spec.security).toEqual({ cephx: { csi: { keyType: "aes" } } });
    expect(spec.resources).toEqual({
      mon: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
      mgr: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "500m", memory: "1Gi" } },
      osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
    });
  });

  test("host networking and the managers kept off a node: one key each, the CRD still holds", () => {
    const cr = cephClusterManifest({ ...ARGS, hostNetwork: true, mgrAvoidNodeLabels: { "storage-bench-lab/worker": "2" } });
    expect(crdProblems("ceph.rook.io", "CephCluster", cr)).toEqual([]);
    const spec = cr.spec as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(spec.network).toEqual({ provider: "host" });
    expect(spec.placement).toEqual({
      mgr: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "storage-bench-lab/worker", operator: "NotIn", values: ["2"] }] }],
          },
        },
      },
    });
  });

  test("the validator rejects a broken CephCluster: wrong types, an unknown field, an enum violation, a missing namespace", () => {
    const good = cephClusterManifest(ARGS) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const broken = {
      ...good,
      metadata: { name: "rook-ceph" },
      spec: {
        ...good.spec,
        mon: { count: "three" },
        network: { provider: "overlay" },
        storage: { ...good.spec.storage, devicePathFiltre: "x" },
      },
    };
    expect(crdProblems("ceph.rook.io", "CephCluster", broken)).toEqual([
      "metadata.namespace is missing",
      "/spec/mon/count must be integer",
      "/spec/network/provider must be equal to one of the allowed values",
      "/spec/storage must NOT have additional properties 'devicePathFiltre'",
    ]);
    expect(crdProblems("ceph.rook.io", "CephCluster", { ...good, apiVersion: "ceph.rook.io/v2" })).toEqual([
      "CRD CephCluster has no served version v2",
    ]);
    expect(crdProblems("ceph.rook.io", "CephCluster", { ...good, spec: { ...good.spec, mon: { count: 11 } } })).toEqual([
      "/spec/mon/count must be <= 9",
    ]);
  });
});

describe("the CephCluster's wait and muted warnings (issue 9 item 1)", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const statusSchema = (loadCrd("ceph.rook.io", "CephCluster").spec.versions[0].schema as any).openAPIV3Schema.properties.status;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const specSchema = (loadCrd("ceph.rook.io", "CephCluster").spec.versions[0].schema as any).openAPIV3Schema.properties.spec;

  test("every JSONPath it waits on is a field of the v1.20.6 CephCluster status", () => {
    expect(clusterReadyConditions(3)).toEqual(["jsonpath={.status.ceph.health}=HEALTH_OK", "jsonpath={.status.ceph.versions.osd.*}=3"]);
    expect(statusSchema.properties.ceph.properties.health.type).toBe("string");
    // versions.osd: Ceph version → number of OSD daemons that are up (`ceph versions`).
    expect(statusSchema.properties.ceph.properties.versions.properties.osd).toEqual({
      additionalProperties: { type: "integer" },
      description: "Osd shows Osd Ceph version",
      type: "object",
    });
    expect(osdsUp(5)).toBe("jsonpath={.status.ceph.versions.osd.*}=5");
    expect(
      JSON.parse(
        (cephClusterManifest({ osdCount: 4 }).metadata as { annotations: Record<string, string> }).annotations["pulumi.com/waitFor"],
      ),
    ).toEqual(["jsonpath={.status.ceph.health}=HEALTH_OK", "jsonpath={.status.ceph.versions.osd.*}=4"]);
  });

  test("mutes exactly the four AES cephx warnings of cephx-key-rotation.md, in the CRD's healthCheck.muteHealthWarning", () => {
    const spec = cephClusterManifest(ARGS).spec as { healthCheck: unknown };
    expect(spec.healthCheck).toEqual({
      muteHealthWarning: {
        AUTH_INSECURE_CLIENT_KEY_TYPE: { policy: "mute" },
        AUTH_INSECURE_KEYS_ALLOWED: { policy: "mute" },
        AUTH_INSECURE_KEYS_CREATABLE: { policy: "mute" },
        AUTH_INSECURE_ROTATING_SERVICE_KEY_TYPE: { policy: "mute" },
      },
    });
    const mute = specSchema.properties.healthCheck.properties.muteHealthWarning;
    expect(mute.additionalProperties.properties.policy.enum).toEqual(["mute", "unmute"]);
    expect(mute.maxProperties).toBe(10);
    // The CEL rule on the keys is not evaluated by the offline checker: apply its regular expression here.
    const cel = mute["x-kubernetes-validations"][0].rule as string;
    expect(cel).toBe("self.all(k, k.matches('^[A-Z]+(_[A-Z]+)+$'))");
    const keyRe = new RegExp(/'(.*)'/.exec(cel)![1]);
    for (const code of Object.keys((spec.healthCheck as { muteHealthWarning: object }).muteHealthWarning))
      expect(keyRe.test(code)).toBe(true);
    expect(keyRe.test("auth_insecure")).toBe(false);
    expect(
      crdProblems("ceph.rook.io", "CephCluster", {
        ...cephClusterManifest(ARGS),
        spec: { ...(cephClusterManifest(ARGS).spec as object), healthCheck: { muteHealthWarning: { AUTH_X: { policy: "silence" } } } },
      }),
    ).toEqual(["/spec/healthCheck/muteHealthWarning/AUTH_X/policy must be equal to one of the allowed values"]);
  });

  test("the nearfull ratio the capacity rule assumes is the one the cluster is given", () => {
    expect((cephClusterManifest(ARGS).spec as { storage: { nearFullRatio: number } }).storage.nearFullRatio).toBe(0.85);
    expect(
      (cephClusterManifest({ osdCount: 3, nearfullRatio: 0.8 }).spec as { storage: { nearFullRatio: number } }).storage.nearFullRatio,
    ).toBe(0.8);
    expect(specSchema.properties.storage.properties.nearFullRatio).toMatchObject({ maximum: 1, minimum: 0, type: "number" });
  });
});

describe("CephBlockPool against Rook v1.20.6's CRD", () => {
  test("validates: replicated 3, failure domain host, Ready await", () => {
    const cr = cephBlockPoolManifest(3);
    expect(crdProblems("ceph.rook.io", "CephBlockPool", cr)).toEqual([]);
    expect(cr).toEqual({
      apiVersion: "ceph.rook.io/v1",
      kind: "CephBlockPool",
      metadata: { name: "replicapool", namespace: "rook-ceph", annotations: { "pulumi.com/waitFor": "jsonpath={.status.phase}=Ready" } },
      spec: { failureDomain: "host", replicated: { size: 3, requireSafeReplicaSize: true } },
    });
  });

  test("the validator rejects a broken CephBlockPool", () => {
    const bad = {
      ...cephBlockPoolManifest(3),
      kind: "CephPool",
      spec: { failureDomain: "host", replicated: { size: -1, requireSafeReplicaSize: "yes" } },
    };
    expect(crdProblems("ceph.rook.io", "CephBlockPool", bad)).toEqual([
      'kind "CephPool" is not CephBlockPool',
      "/spec/replicated/requireSafeReplicaSize must be boolean",
      "/spec/replicated/size must be >= 0",
    ]);
  });
});

describe("rook-ceph-block StorageClass", () => {
  test("is valid Kubernetes and names the RBD CSI driver, the pool and the CSI secrets Rook creates", () => {
    const sc = storageClassManifest();
    expect(() => new StorageClass(sc as never).validate()).not.toThrow();
    expect(sc).toMatchObject({
      metadata: { name: "rook-ceph-block" },
      provisioner: "rook-ceph.rbd.csi.ceph.com",
      reclaimPolicy: "Delete",
      allowVolumeExpansion: true,
    });
    expect(sc.parameters).toEqual({
      clusterID: "rook-ceph",
      pool: "replicapool",
      imageFormat: "2",
      imageFeatures: "layering",
      "csi.storage.k8s.io/provisioner-secret-name": "rook-csi-rbd-provisioner",
      "csi.storage.k8s.io/provisioner-secret-namespace": "rook-ceph",
      "csi.storage.k8s.io/controller-expand-secret-name": "rook-csi-rbd-provisioner",
      "csi.storage.k8s.io/controller-expand-secret-namespace": "rook-ceph",
      "csi.storage.k8s.io/controller-publish-secret-name": "rook-csi-rbd-provisioner",
      "csi.storage.k8s.io/controller-publish-secret-namespace": "rook-ceph",
      "csi.storage.k8s.io/node-stage-secret-name": "rook-csi-rbd-node",
      "csi.storage.k8s.io/node-stage-secret-namespace": "rook-ceph",
      "csi.storage.k8s.io/fstype": "ext4",
    });
  });
});

test("the CSI node plugin mounts under k0s' kubelet directory, and only the RBD driver runs", () => {
  const v = cephCsiDriversValues() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(v.operatorConfig.driverSpecDefaults.nodePlugin.kubeletDirPath).toBe("/var/lib/k0s/kubelet");
  expect(Object.entries(v.drivers).map(([k, d]) => [k, (d as { enabled: boolean }).enabled])).toEqual([
    ["rbd", true],
    ["cephfs", false],
    ["nfs", false],
    ["nvmeof", false],
  ]);
  expect(v.drivers.rbd.name).toBe("rook-ceph.rbd.csi.ceph.com");
});
