import { ConfigError } from "../../../core/errors";
import { EMPTY_RULE, parseConfig } from "../../../stacks/lib/config/load";
import { checkNetwork, networkSchema } from "../../../stacks/network/config";
import { KIND_NAMES, programFor } from "../../../stacks";
import { problemsOf } from "../../helpers/config";

const base = { "aws:region": "us-east-1", "lab:kind": "network", "lab:owner": "alice" };
const parse = (extra: Record<string, string>) => parseConfig("network", networkSchema, { ...base, ...extra }, checkNetwork);

const KEYS =
  "aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:vpcCidr, lab:azCount, lab:azs, lab:natGateways, lab:flowLogs, lab:flowLogsRetentionDays, lab:permissionsBoundaryArn";
const CIDR_RULE = "an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16)";

describe("network config", () => {
  test("no defaults of its own: the Network component's (components/network/rules.ts) apply", () => {
    expect(parse({})).toEqual({
      region: "us-east-1",
      kind: "network",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
    });
  });

  test("typed values from Pulumi's strings (numbers, booleans and lists as JSON)", () => {
    const c = parse({
      "lab:azs": '["us-east-1b","us-east-1c"]',
      "lab:flowLogs": "true",
      "lab:ttlHours": "24",
      "lab:natGateways": "single",
    });
    expect(c).toMatchObject({ azs: ["us-east-1b", "us-east-1c"], flowLogs: true, ttlHours: 24, natGateways: "single" });
  });

  test.each<[string, Record<string, string>, string[]]>([
    ["bad CIDR", { "lab:vpcCidr": "10.0.0/16" }, [`'lab:vpcCidr' must be ${CIDR_RULE}, got "10.0.0/16"`]],
    ["host bits set", { "lab:vpcCidr": "10.0.0.1/16" }, [`'lab:vpcCidr' must be ${CIDR_RULE}, got "10.0.0.1/16"`]],
    ["prefix too short", { "lab:vpcCidr": "10.0.0.0/8" }, [`'lab:vpcCidr' must be ${CIDR_RULE}, got "10.0.0.0/8"`]],
    ["AZ count 0", { "lab:azCount": "0" }, ["'lab:azCount' must be an integer from 1 to 3, got 0"]],
    ["AZ count 4", { "lab:azCount": "4" }, ["'lab:azCount' must be an integer from 1 to 3, got 4"]],
    ["AZ count not a number", { "lab:azCount": "two" }, ["'lab:azCount' must be a whole number, got \"two\""]],
    ["negative TTL", { "lab:ttlHours": "-1" }, ["'lab:ttlHours' must be a whole number of hours from 1 to 168, got -1"]],
    ["TTL too long", { "lab:ttlHours": "200" }, ["'lab:ttlHours' must be a whole number of hours from 1 to 168, got 200"]],
    [
      "unknown key, with a suggestion",
      { "lab:vpcCdir": "10.0.0.0/16" },
      [`'lab:vpcCdir' must be a key of kind network (did you mean 'lab:vpcCidr'?); its keys are ${KEYS}, got "10.0.0.0/16"`],
    ],
    [
      "unknown key, no near one",
      { "lab:colour": "blue" },
      [`'lab:colour' must be a key of kind network; its keys are ${KEYS}, got "blue"`],
    ],
    ["bad region", { "aws:region": "Virginia" }, ["'aws:region' must be an AWS region the AWS provider knows (@pulumi/aws Region, e.g. us-east-1), got \"Virginia\""]],
    [
      "missing owner",
      { "lab:owner": "" },
      [`'lab:owner' must be ${EMPTY_RULE}, got ""`],
    ],
    ["NAT mode", { "lab:natGateways": "none" }, ["'lab:natGateways' must be one of perAz, single, got \"none\""]],
    ["boolean", { "lab:flowLogs": "yes" }, ["'lab:flowLogs' must be true or false, got \"yes\""]],
    [
      "AZ of another region",
      { "lab:azs": '["eu-west-1a","eu-west-1b"]' },
      [`'lab:azs' must be zones of 'aws:region' us-east-1, got ["eu-west-1a","eu-west-1b"]`],
    ],
    [
      "duplicate AZs",
      { "lab:azs": '["us-east-1a","us-east-1a"]' },
      ['\'lab:azs\' must be distinct availability zone names, got ["us-east-1a","us-east-1a"]'],
    ],
    [
      "azCount disagrees with azs",
      { "lab:azs": '["us-east-1a","us-east-1b"]', "lab:azCount": "3" },
      ["'lab:azCount' must be the number of 'lab:azs' (2) when both are set, got 3"],
    ],
    [
      "bad AZ name",
      { "lab:azs": '["us-east-1a","east"]' },
      ["'lab:azs[1]' must be an availability zone name (e.g. us-east-1a), got \"east\""],
    ],
    [
      "bad run id",
      { "lab:runId": "Run 2" },
      ["'lab:runId' must be a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2), got \"Run 2\""],
    ],
    [
      "flow-log retention",
      { "lab:flowLogsRetentionDays": "10" },
      [
        "'lab:flowLogsRetentionDays' must be one of CloudWatch Logs' retention periods (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653), got 10",
      ],
    ],
  ])("%s", (_name, extra, expected) => {
    expect(problemsOf(() => parse(extra))).toEqual(expected);
  });

  test("every problem at once, in one message", () => {
    const run = () => parse({ "lab:vpcCidr": "10.0.0.0/33", "lab:azCount": "4", "lab:ttlHours": "0", "lab:bogus": "1" });
    expect(problemsOf(run)).toHaveLength(4);
    expect(run).toThrow(
      [
        `'lab:bogus' must be a key of kind network; its keys are ${KEYS}, got "1"`,
        "'lab:ttlHours' must be a whole number of hours from 1 to 168, got 0",
        `'lab:vpcCidr' must be ${CIDR_RULE}, got "10.0.0.0/33"`,
        "'lab:azCount' must be an integer from 1 to 3, got 4",
      ].join("\n"),
    );
  });

  test("missing region and owner", () => {
    expect(problemsOf(() => parseConfig("network", networkSchema, { "lab:kind": "network" }, checkNetwork))).toEqual([
      "'aws:region' must be an AWS region the AWS provider knows (@pulumi/aws Region, e.g. us-east-1), got nothing",
      "'lab:owner' must be an owner name of 1–64 letters, digits, spaces or . _ : / = + - @ (an AWS tag value), got nothing",
    ]);
  });
});

describe("lab:kind", () => {
  test.each([
    [{ "lab:kind": "netwrk" }, `'lab:kind' must be one of ${KIND_NAMES.join(", ")}, got "netwrk"`],
    [{}, `'lab:kind' must be one of ${KIND_NAMES.join(", ")}, got nothing`],
  ])("unknown or missing kind %j", (raw, message) => {
    expect(() => programFor(raw)).toThrow(new ConfigError([message]));
  });
});
