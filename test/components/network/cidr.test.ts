import fc from "fast-check";
import {
  cidrsOverlap,
  contains,
  formatCidr,
  isNetworkAddress,
  overlaps,
  parseCidr,
  subnet,
  subnetLayout,
} from "../../../components/network/cidr";

const toCidr = (s: string) => {
  const p = parseCidr(s)!;
  return { base: p.address, prefix: p.prefix };
};

describe("subnetLayout", () => {
  test.each([
    ["10.0.0.0/16", 2, ["10.0.0.0/18", "10.0.64.0/18"], ["10.0.192.0/20", "10.0.208.0/20"]],
    ["10.0.0.0/16", 3, ["10.0.0.0/18", "10.0.64.0/18", "10.0.128.0/18"], ["10.0.192.0/20", "10.0.208.0/20", "10.0.224.0/20"]],
    ["10.0.0.0/16", 1, ["10.0.0.0/18"], ["10.0.192.0/20"]],
    ["172.31.0.0/20", 2, ["172.31.0.0/22", "172.31.4.0/22"], ["172.31.12.0/24", "172.31.13.0/24"]],
    [
      "192.168.10.0/24",
      3,
      ["192.168.10.0/26", "192.168.10.64/26", "192.168.10.128/26"],
      ["192.168.10.192/28", "192.168.10.208/28", "192.168.10.224/28"],
    ],
  ])("%s over %i AZs", (vpc, n, priv, pub) => {
    expect(subnetLayout(vpc, n)).toEqual({ privateCidrs: priv, publicCidrs: pub });
  });

  test.each([
    ["10.0.0.5/16", 2, "not a network CIDR: 10.0.0.5/16"],
    ["10.0.0.0/8", 2, "VPC prefix /8 is outside /16../24"],
    ["10.0.0.0/25", 2, "VPC prefix /25 is outside /16../24"],
    ["10.0.0.0/16", 0, "azCount 0 is outside 1..3"],
    ["10.0.0.0/16", 4, "azCount 4 is outside 1..3"],
    ["300.0.0.0/16", 2, "not a network CIDR: 300.0.0.0/16"],
  ])("rejects %s with %i AZs", (vpc, n, message) => {
    expect(() => subnetLayout(vpc, n)).toThrow(message);
  });

  const vpcArb = fc
    .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 16, max: 24 }))
    .map(([addr, prefix]) => formatCidr({ base: (addr & (0xffffffff << (32 - prefix))) >>> 0, prefix }));

  test("properties: inside the VPC, no overlaps, one per AZ per tier, at least /28", () => {
    fc.assert(
      fc.property(vpcArb, fc.integer({ min: 1, max: 3 }), (vpc, n) => {
        const layout = subnetLayout(vpc, n);
        const all = [...layout.privateCidrs, ...layout.publicCidrs].map(toCidr);
        expect(layout.privateCidrs).toHaveLength(n);
        expect(layout.publicCidrs).toHaveLength(n);
        for (const c of all) {
          expect(contains(toCidr(vpc), c)).toBe(true);
          expect(isNetworkAddress(c.base, c.prefix)).toBe(true);
          expect(c.prefix).toBeLessThanOrEqual(28);
        }
        for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlaps(all[i], all[j])).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("cidr primitives", () => {
  test("parseCidr accepts dotted quads with a prefix and rejects the rest", () => {
    expect(parseCidr("10.1.2.3/24")).toEqual({ address: 0x0a010203, prefix: 24 });
    expect(parseCidr("10.1.2/24")).toBeUndefined();
    expect(parseCidr("10.1.2.3/33")).toBeUndefined();
    expect(parseCidr("10.1.2.256/24")).toBeUndefined();
    expect(parseCidr(" 10.1.2.3/24")).toBeUndefined();
  });
  test("subnet() places the i-th block and refuses what does not fit", () => {
    expect(formatCidr(subnet(toCidr("10.0.0.0/16"), 20, 15))).toBe("10.0.240.0/20");
    expect(() => subnet(toCidr("10.0.0.0/16"), 20, 16)).toThrow("subnet 16 of /20 does not fit in 10.0.0.0/16");
  });
});

test("cidrsOverlap: CIDRs as text, nested or equal overlap, neighbours do not; a malformed one is an error", () => {
  expect(cidrsOverlap("10.0.0.0/16", "10.0.3.0/24")).toBe(true);
  expect(cidrsOverlap("10.0.3.0/24", "10.0.0.0/16")).toBe(true);
  expect(cidrsOverlap("10.0.0.0/24", "10.0.0.0/24")).toBe(true);
  expect(cidrsOverlap("10.0.0.0/24", "10.0.1.0/24")).toBe(false);
  expect(() => cidrsOverlap("10.0.0.0/24", "nonsense")).toThrow(new RangeError("not an IPv4 CIDR: nonsense"));
});
