import { firstEndpoint, placement } from "../../../components/fsx-ontap/placement";

const azs = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
const subnets = ["subnet-a", "subnet-b", "subnet-c"];
const rts = ["rtb-a", "rtb-b", "rtb-c"];

describe("placement of the file system in the network's private subnets", () => {
  test("Multi-AZ: the first two subnets, the preferred by index, route tables of every private subnet", () => {
    expect(placement("MULTI_AZ_1", 0, subnets, azs, rts)).toEqual({
      subnetIds: ["subnet-a", "subnet-b"],
      preferredSubnetId: "subnet-a",
      preferredAz: "eu-west-1a",
      standbyAz: "eu-west-1b",
      routeTableIds: ["rtb-a", "rtb-b", "rtb-c"],
    });
    expect(placement("MULTI_AZ_2", 1, subnets, azs, rts)).toMatchObject({
      preferredSubnetId: "subnet-b",
      preferredAz: "eu-west-1b",
      standbyAz: "eu-west-1a",
    });
  });

  test("preferred by zone name", () => {
    expect(placement("MULTI_AZ_1", "eu-west-1b", subnets, azs, rts)).toMatchObject({
      preferredSubnetId: "subnet-b",
      standbyAz: "eu-west-1a",
    });
  });

  test("Single-AZ: the preferred subnet alone, standby in the same zone, no route tables", () => {
    expect(placement("SINGLE_AZ_1", "eu-west-1c", subnets, azs, rts)).toEqual({
      subnetIds: ["subnet-c"],
      preferredSubnetId: "subnet-c",
      preferredAz: "eu-west-1c",
      standbyAz: "eu-west-1c",
    });
  });

  test.each<[string, () => unknown, string]>([
    [
      "a third zone is not one of a Multi-AZ file system's two",
      () => placement("MULTI_AZ_1", "eu-west-1c", subnets, azs, rts),
      'preferred availability zone "eu-west-1c" is not one of the file system\'s zones eu-west-1a, eu-west-1b (by index 0–1 or by name)',
    ],
    [
      "index out of range",
      () => placement("MULTI_AZ_1", 2, subnets, azs, rts),
      "preferred availability zone index 2 is not one of the file system's zones eu-west-1a, eu-west-1b (by index 0–1 or by name)",
    ],
    [
      "Multi-AZ needs two zones",
      () => placement("MULTI_AZ_1", 0, ["subnet-a"], ["eu-west-1a"], ["rtb-a"]),
      "MULTI_AZ_1 needs private subnets in 2 availability zones; the network stack has 1 (eu-west-1a)",
    ],
    [
      "subnets and zones pair up",
      () => placement("MULTI_AZ_1", 0, subnets, azs.slice(0, 2), rts),
      "the network stack lists 3 private subnets for 2 availability zones; they must pair up",
    ],
  ])("%s", (_n, f, message) => {
    expect(f).toThrow(message);
  });

  test("endpoints: the first, IPs sorted; none reported is null", () => {
    expect(firstEndpoint([{ dnsName: "svm.fs.example", ipAddresses: ["10.0.1.9", "10.0.0.5"] }])).toEqual({
      dnsName: "svm.fs.example",
      ipAddresses: ["10.0.0.5", "10.0.1.9"],
    });
    expect(firstEndpoint([])).toBeNull();
    expect(firstEndpoint(undefined)).toBeNull();
  });
});
