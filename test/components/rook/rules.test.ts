/** Rook rules: defaults in one table, every problem at once, the Ceph capacity rule, exact messages. */
import { formatArgProblem } from "../../../core/errors";
import {
  AES_CEPHX_HEALTH_WARNINGS,
  capacityProblems,
  minOsdSizeGiB,
  problems,
  resolve,
  ROOK_DEFAULTS,
  RookArgs,
} from "../../../components/rook/rules";
import { Rook } from "../../../components/rook";
import { CEPH_IMAGE } from "../../../components/versions";
import { minimalMocks } from "../../helpers/mocks";

const lines = (args: RookArgs) => problems(args).map((p) => formatArgProblem(p));

describe("Rook rules", () => {
  test("defaults, in one table: 3 mons, 2 mgrs, 3 replicas, nearfull 0.85, the four AES warnings muted, 40 minutes, the published network and resources", () => {
    expect(ROOK_DEFAULTS).toEqual({
      cephImage: CEPH_IMAGE,
      monCount: 3,
      mgrCount: 2,
      replicas: 3,
      nearfullRatio: 0.85,
      muteHealthWarnings: [
        "AUTH_INSECURE_CLIENT_KEY_TYPE",
        "AUTH_INSECURE_KEYS_ALLOWED",
        "AUTH_INSECURE_KEYS_CREATABLE",
        "AUTH_INSECURE_ROTATING_SERVICE_KEY_TYPE",
      ],
      healthTimeoutMinutes: 40,
      hostNetwork: false,
      // koor-tech/experiment-ceph-on-nitro@6686fc8 k8s/base/rook-ceph.cluster.yaml lines 203-224.
      resources: {
        mgr: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "500m", memory: "1Gi" } },
        mon: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
        osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
      },
      mgrAvoidNodeLabels: {},
    });
    expect(ROOK_DEFAULTS.muteHealthWarnings).toBe(AES_CEPHX_HEALTH_WARNINGS);
    expect(resolve({ osdCount: 3 })).toEqual({ osdCount: 3, ...ROOK_DEFAULTS });
    expect(problems({ osdCount: 3 })).toEqual([]);
    expect(problems({ osdCount: 2, replicas: 2, monCount: 1, mgrCount: 1, muteHealthWarnings: [] })).toEqual([]);
  });

  test("daemon resources: every daemon, limits at least requests, memory limits at least Rook's recommended minimum", () => {
    const base = ROOK_DEFAULTS.resources;
    const bad = {
      mon: { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "1", memory: "1000Mi" } },
      mgr: { requests: { cpu: "1", memory: "512Mi" }, limits: { cpu: "500m", memory: "512Mi" } },
      osd: { requests: { cpu: "x", memory: "1Gi" }, limits: { cpu: "1", memory: "2047Mi" } },
    };
    expect(lines({ osdCount: 3, resources: bad, hostNetwork: "yes" as unknown as boolean, mgrAvoidNodeLabels: { "a b": "c" } })).toEqual([
      `'hostNetwork' must be true or false, got "yes"`,
      `'resources.mon.limits.memory' must be at least 1024Mi, the mon memory limit Rook recommends as a minimum, got "1000Mi"`,
      `'resources.mgr.limits.cpu' must be at least the request (1), got "500m"`,
      `'resources.osd.requests.cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "x"`,
      `'mgrAvoidNodeLabels' must be a label: a key [prefix/]name and a value of at most 63 letters, digits, '-', '_' or '.', got {"a b":"c"}`,
    ]);
    // 2048 MiB is the OSD's minimum itself, 512Mi the manager's.
    expect(problems({ osdCount: 3, resources: { ...base, osd: { ...base.osd, limits: { cpu: "1", memory: "2048Mi" } } } })).toEqual([]);
    expect(lines({ osdCount: 3, resources: { mon: base.mon, osd: base.osd } as never })[0]).toMatch(
      /^'resources' must be requests and limits of mon, mgr, osd /,
    );
  });

  test("every problem at once, in argument order", () => {
    expect(
      lines({
        osdCount: 0,
        cephImage: "quay.io/ceph/ceph",
        monCount: 4,
        mgrCount: 3,
        replicas: 1,
        nearfullRatio: 0.95,
        muteHealthWarnings: ["OSD_NEARFULL", "osd_down", "OSD_NEARFULL"],
        healthTimeoutMinutes: 5,
      }),
    ).toEqual([
      "'osdCount' must be a whole number of nodes with an OSD, at least 1, got 0",
      `'cephImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "quay.io/ceph/ceph"`,
      "'monCount' must be an odd number from 1 to 9, got 4",
      "'mgrCount' must be 1 or 2, got 3",
      "'replicas' must be a whole number of at least 2 (Rook refuses a pool of one replica), got 1",
      "'nearfullRatio' must be a ratio above 0 and at most Ceph's backfillfull ratio 0.9, got 0.95",
      `'muteHealthWarnings[1]' must be a Ceph health check code (e.g. AUTH_INSECURE_KEYS_ALLOWED), got "osd_down"`,
      `'muteHealthWarnings' must be distinct health check codes, got ["OSD_NEARFULL","osd_down","OSD_NEARFULL"]`,
      "'healthTimeoutMinutes' must be a whole number of minutes from 10 to 240, got 5",
    ]);
  });

  test("one replica a host and one monitor a node: the OSD nodes must hold both", () => {
    expect(lines({ osdCount: 2 })).toEqual([
      "'osdCount' must be at least 3 (3 replicas on as many hosts and 3 monitors, one a node), got 2",
    ]);
    expect(lines({ osdCount: 4, monCount: 5 })).toEqual([
      "'osdCount' must be at least 5 (3 replicas on as many hosts and 5 monitors, one a node), got 4",
    ]);
    expect(lines({ osdCount: 3, replicas: 4, monCount: 1 })).toEqual([
      "'osdCount' must be at least 4 (4 replicas on as many hosts and 1 monitors, one a node), got 3",
    ]);
  });

  test("types are checked too; at most 10 muted warnings (the CRD's maxProperties)", () => {
    expect(lines({ osdCount: "3" as never, nearfullRatio: "0.85" as never, muteHealthWarnings: "AUTH_X" as never })).toEqual([
      `'osdCount' must be a whole number of nodes with an OSD, at least 1, got "3"`,
      `'nearfullRatio' must be a ratio above 0 and at most Ceph's backfillfull ratio 0.9, got "0.85"`,
      `'muteHealthWarnings' must be a list of at most 10 Ceph health check codes, got "AUTH_X"`,
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => `CODE_${String.fromCharCode(65 + i)}`);
    expect(lines({ osdCount: 3, muteHealthWarnings: eleven })).toEqual([
      `'muteHealthWarnings' must be a list of at most 10 Ceph health check codes, got ${JSON.stringify(eleven)}`,
    ]);
  });
});

describe("the Ceph capacity rule: the volume, replicated, stays below the nearfull ratio", () => {
  const spec = { osdCount: 3, claimGiB: 64, claimName: "Postgres volume" };

  test("64 GiB × 3 replicas on 3 OSDs below 0.85 needs 76 GiB OSDs (75.3 rounded up)", () => {
    expect(minOsdSizeGiB({ ...spec, osdSizeGiB: 1 })).toBe(76);
    expect(capacityProblems({ ...spec, osdSizeGiB: 76 })).toEqual([]);
    expect(capacityProblems({ ...spec, osdSizeGiB: 75 }).map((p) => formatArgProblem(p))).toEqual([
      "'osdSizeGiB' must be at least 76 with 'osdCount' = 3 (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 75",
    ]);
  });

  test("more OSDs, fewer replicas or a higher ratio need smaller OSDs", () => {
    expect(minOsdSizeGiB({ ...spec, osdCount: 9, osdSizeGiB: 1 })).toBe(26);
    expect(minOsdSizeGiB({ ...spec, replicas: 2, osdSizeGiB: 1 })).toBe(51);
    expect(minOsdSizeGiB({ ...spec, nearfullRatio: 0.9, osdSizeGiB: 1 })).toBe(72);
  });

  test("not checked on values their own rules report", () => {
    expect(capacityProblems({ ...spec, osdSizeGiB: 0 })).toEqual([]);
    expect(capacityProblems({ ...spec, osdCount: 0, osdSizeGiB: 10 })).toEqual([]);
    expect(capacityProblems({ ...spec, osdSizeGiB: 10.5 })).toEqual([]);
  });
});

describe("the component starts with its rules", () => {
  beforeAll(minimalMocks);

  test("bad arguments: one InputPropertiesError with every problem", () => {
    expect(
      () => new Rook("rook", { osdCount: 2, mgrCount: 0, clusterNetwork: { cephNodeCidrs: [], hostSourceCidrs: [], apiServer: [] } }),
    ).toThrow(
      [
        "invalid arguments of lab:rook:Rook 'rook':",
        "'osdCount' must be at least 3 (3 replicas on as many hosts and 3 monitors, one a node), got 2",
        "'mgrCount' must be 1 or 2, got 0",
      ].join("\n"),
    );
  });
});
