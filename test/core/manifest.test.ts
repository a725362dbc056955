import {
  canonicalJson,
  configDifferences,
  CONFIG_KEYS_NOT_HASHED,
  hashConfig,
  hashedConfig,
  isManifestKey,
  manifestDifferences,
  manifestFromMetadata,
  manifestId,
  manifestMetadata,
  sha256,
  type Manifest,
} from "../../core/manifest";

const MANIFEST: Manifest = {
  schema: 1,
  git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
  versions: { K0S_VERSION: "v1.36.3+k0s.2", "ROOK_CHART.version": "v1.20.6" },
  region: "us-east-1",
  stacks: {
    dev: {
      kind: "ceph-k0s",
      configHash: "a".repeat(64),
      azs: ["us-east-1a"],
      azIds: ["use1-az6"],
      amiIds: ["ami-0abc"],
      instanceTypes: ["m4.xlarge", "t3.micro"],
      images: ["docker.io/library/postgres:17.11-bookworm"],
    },
    network: { kind: "network", configHash: "b".repeat(64), azs: [], azIds: [], amiIds: [], instanceTypes: [], images: [] },
  },
  command: "lab results save --stack organization/storage-bench-lab/dev",
  createdAt: "2026-01-15T10:30:00.000Z",
};

describe("config hashes", () => {
  it("cover the effective config but the run's bookkeeping, access and stack references; secrets as [secret]", () => {
    expect(CONFIG_KEYS_NOT_HASHED).toEqual(["lab:runId", "lab:owner", "lab:ttlHours", "lab:adminCidrs", "lab:sshPublicKey"]);
    const config = {
      "aws:region": { value: "us-east-1", secret: false },
      "lab:instanceType": { value: "m4.xlarge", secret: false },
      "lab:runId": { value: "r1", secret: false },
      "lab:owner": { value: "alice", secret: false },
      "lab:ttlHours": { value: "8", secret: false },
      "lab:adminCidrs": { value: '["198.51.100.7/32"]', secret: false },
      "lab:networkStack": { value: "organization/storage-bench-lab/alice-r1-network", secret: false },
      "lab:dbPassword": { value: "hunter2", secret: true },
      "lab:reps": "3",
    };
    expect(hashedConfig(config)).toEqual({
      "aws:region": "us-east-1",
      "lab:dbPassword": "[secret]",
      "lab:instanceType": "m4.xlarge",
      "lab:reps": "3",
    });
    expect(hashConfig(config)).toBe(
      sha256('{"aws:region":"us-east-1","lab:dbPassword":"[secret]","lab:instanceType":"m4.xlarge","lab:reps":"3"}'),
    );
    // Another run, owner and reference: the same hash. Another setting: another hash.
    expect(
      hashConfig({ ...config, "lab:runId": { value: "r2" }, "lab:owner": { value: "bob" }, "lab:networkStack": { value: "x/y/z" } }),
    ).toBe(hashConfig(config));
    expect(hashConfig({ ...config, "lab:instanceType": { value: "m5.xlarge" } })).not.toBe(hashConfig(config));
  });

  it("canonical JSON sorts keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}');
  });
});

describe("the manifest in sample metadata", () => {
  it("is flat, under manifest., lists joined with commas", () => {
    expect(manifestMetadata(MANIFEST)).toEqual({
      "manifest.id": manifestId(MANIFEST),
      "manifest.git.commit": "0123456789abcdef0123456789abcdef01234567",
      "manifest.git.dirty": false,
      "manifest.region": "us-east-1",
      "manifest.command": "lab results save --stack organization/storage-bench-lab/dev",
      "manifest.createdAt": "2026-01-15T10:30:00.000Z",
      "manifest.versions.K0S_VERSION": "v1.36.3+k0s.2",
      "manifest.versions.ROOK_CHART.version": "v1.20.6",
      "manifest.stacks.dev.kind": "ceph-k0s",
      "manifest.stacks.dev.configHash": "a".repeat(64),
      "manifest.stacks.dev.azs": "us-east-1a",
      "manifest.stacks.dev.azIds": "use1-az6",
      "manifest.stacks.dev.amiIds": "ami-0abc",
      "manifest.stacks.dev.instanceTypes": "m4.xlarge,t3.micro",
      "manifest.stacks.dev.images": "docker.io/library/postgres:17.11-bookworm",
      "manifest.stacks.network.kind": "network",
      "manifest.stacks.network.configHash": "b".repeat(64),
      "manifest.stacks.network.azs": "",
      "manifest.stacks.network.azIds": "",
      "manifest.stacks.network.amiIds": "",
      "manifest.stacks.network.instanceTypes": "",
      "manifest.stacks.network.images": "",
    });
    expect(Object.keys(manifestMetadata(MANIFEST)).every(isManifestKey)).toBe(true);
    expect(isManifestKey("manifestation")).toBe(false);
  });

  it("reads back into the same manifest, and none from metadata without one", () => {
    expect(manifestFromMetadata({ tool: "fio", ...manifestMetadata(MANIFEST) })).toEqual(MANIFEST);
    const dirty: Manifest = { ...MANIFEST, git: { commit: "c", dirty: true, diffHash: "d".repeat(64) } };
    expect(manifestFromMetadata(manifestMetadata(dirty))).toEqual(dirty);
    // what the hash lacks survives the flattening, a path with a comma included
    const partial: Manifest = {
      ...MANIFEST,
      git: { ...dirty.git, unhashed: ["a,b.txt: EACCES", "tracked changes: git diff HEAD --binary failed: x"] },
    };
    expect(manifestMetadata(partial)["manifest.git.unhashed"]).toBe(
      '["a,b.txt: EACCES","tracked changes: git diff HEAD --binary failed: x"]',
    );
    expect(manifestFromMetadata(manifestMetadata(partial))).toEqual(partial);
    expect(manifestFromMetadata({ tool: "fio", stack: "dev" })).toBeUndefined();
  });

  it("has an id of what is compared: the command line and the time do not change it", () => {
    expect(manifestId(MANIFEST)).toMatch(/^[0-9a-f]{12}$/);
    expect(manifestId({ ...MANIFEST, command: "lab run ceph-nitro", createdAt: "2027-01-01T00:00:00.000Z" })).toBe(manifestId(MANIFEST));
    expect(manifestId({ ...MANIFEST, region: "eu-west-1" })).not.toBe(manifestId(MANIFEST));
  });
});

describe("manifestDifferences", () => {
  it("names every compared field that differs, in order, and nothing for the same manifest", () => {
    expect(manifestDifferences(MANIFEST, { ...MANIFEST, command: "other", createdAt: "later" })).toEqual([]);
    const other: Manifest = {
      ...MANIFEST,
      git: { commit: "fedcba", dirty: true, diffHash: "e".repeat(64) },
      versions: { K0S_VERSION: "v1.36.4+k0s.0", "ROOK_CHART.version": "v1.20.6", CEPH_IMAGE: "quay.io/ceph/ceph:v20.2.4" },
      stacks: { ...MANIFEST.stacks, dev: { ...MANIFEST.stacks.dev, configHash: "c".repeat(64), amiIds: ["ami-0def"] } },
    };
    expect(manifestDifferences(other, MANIFEST)).toEqual([
      { field: "git.commit", a: "fedcba", b: "0123456789abcdef0123456789abcdef01234567" },
      { field: "git.dirty", a: "true", b: "false" },
      { field: "git.diffHash", a: "e".repeat(64), b: "(none)" },
      { field: "versions.CEPH_IMAGE", a: "quay.io/ceph/ceph:v20.2.4", b: "(none)" },
      { field: "versions.K0S_VERSION", a: "v1.36.4+k0s.0", b: "v1.36.3+k0s.2" },
      { field: "stacks.dev.configHash", a: "c".repeat(64), b: "a".repeat(64) },
      { field: "stacks.dev.amiIds", a: "ami-0def", b: "ami-0abc" },
    ]);
  });

  it("compares only the stacks both name: dev's run beside nitro's is not a change", () => {
    const nitro: Manifest = {
      ...MANIFEST,
      stacks: { nitro: { ...MANIFEST.stacks.dev, instanceTypes: ["m5.xlarge", "t3.micro"] }, network: MANIFEST.stacks.network },
    };
    expect(manifestDifferences(nitro, MANIFEST)).toEqual([]);
    const network = { ...MANIFEST.stacks.network, azIds: ["use1-az1"] };
    expect(manifestDifferences({ ...nitro, stacks: { ...nitro.stacks, network } }, MANIFEST)).toEqual([
      { field: "stacks.network.azIds", a: "use1-az1", b: "(none)" },
    ]);
  });

  it("configDifferences names the keys of two hashed configs that differ", () => {
    expect(configDifferences({ "lab:reps": "5", "lab:cni": "calico" }, { "lab:reps": "3", "lab:az": "us-east-1a" })).toEqual([
      "lab:az: (unset) vs us-east-1a",
      "lab:cni: calico vs (unset)",
      "lab:reps: 5 vs 3",
    ]);
  });
});
