import { egressRule, ingressRules, ruleSources } from "../../../components/fsx-ontap/security";

type Row = [protocol: string, from: number, to: number, source: string, description: string];
const rows = (rules: ReturnType<typeof ingressRules>): Row[] =>
  rules.map((r) => [r.ipProtocol, r.fromPort, r.toPort, r.cidrIpv4 ?? `sg:${r.referencedSecurityGroupId}`, r.description]);

describe("FSx for ONTAP security group rules", () => {
  test("without client security groups the file system's own group has no ingress at all: never the VPC CIDR", () => {
    expect(ruleSources([])).toEqual([]);
    expect(ingressRules(ruleSources([]))).toEqual([]);
  });

  test("the exact ingress set per client group: NFS on TCP and UDP, rquotad on UDP, iSCSI on TCP, SSH, HTTPS, ICMP", () => {
    const vpc = "sg:sg-0aaaaaaaaaaaaaaaa";
    expect(rows(ingressRules(ruleSources(["sg-0aaaaaaaaaaaaaaaa"])))).toEqual<Row[]>([
      ["tcp", 111, 111, vpc, "NFS portmapper/rpcbind (TCP 111) from client security group 1"],
      ["udp", 111, 111, vpc, "NFS portmapper/rpcbind (UDP 111) from client security group 1"],
      ["tcp", 635, 635, vpc, "NFS mountd (TCP 635) from client security group 1"],
      ["udp", 635, 635, vpc, "NFS mountd (UDP 635) from client security group 1"],
      ["tcp", 2049, 2049, vpc, "NFS server (TCP 2049) from client security group 1"],
      ["udp", 2049, 2049, vpc, "NFS server (UDP 2049) from client security group 1"],
      ["tcp", 4045, 4045, vpc, "NFS lock manager (NLM) (TCP 4045) from client security group 1"],
      ["udp", 4045, 4045, vpc, "NFS lock manager (NLM) (UDP 4045) from client security group 1"],
      ["tcp", 4046, 4046, vpc, "NFS status monitor (NSM) (TCP 4046) from client security group 1"],
      ["udp", 4046, 4046, vpc, "NFS status monitor (NSM) (UDP 4046) from client security group 1"],
      ["udp", 4049, 4049, vpc, "NFS quota (rquotad, UDP 4049) from client security group 1"],
      ["tcp", 3260, 3260, vpc, "iSCSI (TCP 3260) from client security group 1"],
      ["tcp", 22, 22, vpc, "ONTAP CLI over SSH (TCP 22) from client security group 1"],
      ["tcp", 443, 443, vpc, "ONTAP REST API and System Manager over HTTPS (TCP 443) from client security group 1"],
      ["icmp", -1, -1, vpc, "ICMP (ping, path MTU discovery) from client security group 1"],
    ]);
  });

  test("iSCSI is TCP 3260 and only TCP (the published setup's UDP-only rule is the trap)", () => {
    const iscsi = ingressRules(ruleSources(["sg-0aaaaaaaaaaaaaaaa"])).filter((r) => r.fromPort === 3260);
    expect(iscsi.map((r) => r.ipProtocol)).toEqual(["tcp"]);
  });

  test("client security groups are the only sources: every port for each group, no CIDR anywhere", () => {
    const rules = ingressRules(ruleSources(["sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"]));
    expect(rules).toHaveLength(30);
    expect(rules.every((r) => r.cidrIpv4 === undefined)).toBe(true);
    expect(new Set(rules.map((r) => r.referencedSecurityGroupId))).toEqual(new Set(["sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"]));
    expect(rules.find((r) => r.name === "iscsi-tcp-3260-sg2")).toMatchObject({
      referencedSecurityGroupId: "sg-0bbbbbbbbbbbbbbbb",
      description: "iSCSI (TCP 3260) from client security group 2",
    });
  });

  test("every rule has a description, a unique logical name, and never 0.0.0.0/0", () => {
    for (const sources of [ruleSources([]), ruleSources(["sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"])]) {
      const rules = [...ingressRules(sources), egressRule("10.0.0.0/16")];
      expect(rules.every((r) => r.description.length > 0)).toBe(true);
      expect(new Set(rules.map((r) => r.name)).size).toBe(rules.length);
      expect(rules.some((r) => r.cidrIpv4 === "0.0.0.0/0")).toBe(false);
    }
  });

  test("egress: all protocols, to the VPC CIDR only", () => {
    expect(egressRule("10.20.0.0/16")).toMatchObject({ name: "all-vpc", ipProtocol: "-1", cidrIpv4: "10.20.0.0/16" });
  });
});
