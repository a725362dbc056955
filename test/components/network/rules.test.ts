import * as pulumi from "@pulumi/pulumi";
import { DeployTimeError } from "../../../components/lib/deploy-error";
import { formatArgProblem } from "../../../core/errors";
import { throwIfInvalid } from "../../../components/lib/args";
import { chooseZones, EKS_UNSUPPORTED_ZONE_IDS, NETWORK_DEFAULTS, problems, resolve } from "../../../components/network/rules";

const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

describe("network rules", () => {
  test("defaults, in one table", () => {
    expect(resolve({ region: "us-east-1" })).toEqual({ region: "us-east-1", azs: undefined, ...NETWORK_DEFAULTS });
    expect(resolve({ region: "us-east-1", azs: ["us-east-1a", "us-east-1b", "us-east-1c"] }).azCount).toBe(3);
  });

  test("every problem at once, named by argument, other arguments referenced by name", () => {
    expect(
      lines({
        region: "us-east-1",
        vpcCidr: "10.0.0.1/16",
        azs: ["us-east-1a", "eu-west-1a", "bad"],
        azCount: 2,
        natGateways: "none" as never,
        flowLogsRetentionDays: 10,
      }),
    ).toEqual([
      `'vpcCidr' must be an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16), got "10.0.0.1/16"`,
      `'azs[2]' must be an availability zone name (e.g. us-east-1a), got "bad"`,
      `'azs' must be zones of 'region' us-east-1, got ["us-east-1a","eu-west-1a","bad"]`,
      "'azCount' must be the number of 'azs' (3) when both are set, got 2",
      `'natGateways' must be one of perAz, single, got "none"`,
      "'flowLogsRetentionDays' must be one of CloudWatch Logs' retention periods (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653), got 10",
    ]);
  });

  test("a valid spec has no problem", () => {
    expect(problems({ region: "eu-west-1", vpcCidr: "10.20.0.0/20", azs: ["eu-west-1a"], natGateways: "single" })).toEqual([]);
  });
});

describe("throwIfInvalid: the one argument error", () => {
  test("Pulumi's InputPropertiesError with every problem, each with its property path", () => {
    const run = () => throwIfInvalid("lab:network:Network", "lab", problems({ region: "us-east-1", azCount: 4, flowLogs: "yes" as never }));
    expect(run).toThrow(
      [
        "invalid arguments of lab:network:Network 'lab':",
        "'azCount' must be an integer from 1 to 3, got 4",
        `'flowLogs' must be true or false, got "yes"`,
      ].join("\n"),
    );
    try {
      run();
    } catch (e) {
      expect(pulumi.InputPropertiesError.isInstance(e)).toBe(true);
      expect((e as pulumi.InputPropertiesError).errors).toEqual([
        { propertyPath: "azCount", reason: "'azCount' must be an integer from 1 to 3, got 4" },
        { propertyPath: "flowLogs", reason: `'flowLogs' must be true or false, got "yes"` },
      ]);
    }
    expect.assertions(3);
  });

  test("no problem, no error", () => {
    expect(() => throwIfInvalid("lab:network:Network", "lab", [])).not.toThrow();
  });
});

describe("zones by id (chooseZones)", () => {
  // us-east-1 as one account sees it: names map to ids differently in every account.
  const zones = {
    names: ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"],
    zoneIds: ["use1-az3", "use1-az1", "use1-az2", "use1-az4"],
  };

  test("the first zones whose ids EKS accepts: use1-az3 is skipped", () => {
    expect(EKS_UNSUPPORTED_ZONE_IDS).toEqual(["use1-az3", "usw1-az2", "cac1-az3"]);
    expect(chooseZones("us-east-1", zones, 2)).toEqual({ names: ["us-east-1b", "us-east-1c"], ids: ["use1-az1", "use1-az2"] });
  });

  test("given names are checked by id too, with the reason", () => {
    expect(() => chooseZones("us-east-1", zones, 2, ["us-east-1a", "us-east-1b"])).toThrow(
      new DeployTimeError([
        `'azs' must be zones whose ids Amazon EKS accepts (not use1-az3, usw1-az2, cac1-az3; us-east-1a is use1-az3), got ["us-east-1a","us-east-1b"]`,
      ]),
    );
    expect(() => chooseZones("us-east-1", zones, 1, ["us-east-1z"])).toThrow(
      new DeployTimeError([
        `'azs' must be zones of region us-east-1 that need no opt-in (us-east-1z not among us-east-1a, us-east-1b, us-east-1c, us-east-1d), got ["us-east-1z"]`,
      ]),
    );
    expect(chooseZones("us-east-1", zones, 2, ["us-east-1d", "us-east-1b"])).toEqual({
      names: ["us-east-1d", "us-east-1b"],
      ids: ["use1-az4", "use1-az1"],
    });
  });

  test("too few usable zones is an error naming the count", () => {
    expect(() => chooseZones("us-east-1", zones, 4)).toThrow(
      new DeployTimeError([
        "'azCount' must be at most 3: region us-east-1's zones that need no opt-in and whose ids Amazon EKS accepts, got 4",
      ]),
    );
  });
});
