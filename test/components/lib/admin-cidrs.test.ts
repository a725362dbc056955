/** components/lib/admin-cidrs.ts: how wide an admin CIDR may be, by default and when widened. */
import { formatArgProblem } from "../../../core/errors";
import { adminCidrWidthProblems } from "../../../components/lib/admin-cidrs";
import { problems as eksProblems } from "../../../components/eks/rules";

const lines = (cidrs: unknown, min?: unknown) => adminCidrWidthProblems(cidrs, min).map((p) => formatArgProblem(p));

describe("admin CIDRs no wider than a /24 unless adminCidrMinPrefix says", () => {
  test("a /32 and a /24 pass; a /23 and a /16 are named with the key that allows them", () => {
    expect(lines(["198.51.100.7/32", "192.0.2.0/24"])).toEqual([]);
    expect(lines(["10.0.0.0/23", "172.16.0.0/16"])).toEqual([
      "'adminCidrs[0]' must be at most 256 addresses, a prefix of /24 or longer (your own address, e.g. a /32; 'adminCidrMinPrefix' allows wider, down to /8), got \"10.0.0.0/23\"",
      "'adminCidrs[1]' must be at most 256 addresses, a prefix of /24 or longer (your own address, e.g. a /32; 'adminCidrMinPrefix' allows wider, down to /8), got \"172.16.0.0/16\"",
    ]);
  });
  test("widened to /16: a /16 passes, a /8 does not; to 8: a /8 passes", () => {
    expect(lines(["172.16.0.0/16"], 16)).toEqual([]);
    expect(lines(["10.0.0.0/8"], 16)).toEqual([
      "'adminCidrs[0]' must be at most 65536 addresses, a prefix of /16 or longer (your own address, e.g. a /32; 'adminCidrMinPrefix' allows wider, down to /8), got \"10.0.0.0/8\"",
    ]);
    expect(lines(["10.0.0.0/8"], 8)).toEqual([]);
  });
  test("a limit outside 8–32 is refused; a CIDR the kind's own rule refuses is left to it (one problem a mistake)", () => {
    expect(lines(["10.0.0.0/8"], 4)).toEqual([
      "'adminCidrMinPrefix' must be a whole number from 8 to 32 (the widest prefix an admin CIDR may have), got 4",
    ]);
    expect(lines(["10.0.0.5/16", "10.0.0.0/7", "0.0.0.0/8", "nonsense"])).toEqual([]);
    // the eks kind: its own rule once for host bits, the width once for a wide network
    expect(eksProblems({ clusterName: "c", adminCidrs: ["10.0.0.5/16", "10.0.0.0/16"] }).map((p) => formatArgProblem(p))).toEqual([
      "'adminCidrs[0]' must be an IPv4 network CIDR of the operators with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got \"10.0.0.5/16\"",
      "'adminCidrs[1]' must be at most 256 addresses, a prefix of /24 or longer (your own address, e.g. a /32; 'adminCidrMinPrefix' allows wider, down to /8), got \"10.0.0.0/16\"",
    ]);
  });
});
