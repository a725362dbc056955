/** The Pulumi entry point: what `pulumi up` runs. */
import * as pulumi from "@pulumi/pulumi";

function loadProgram(config: Record<string, string>): unknown {
  pulumi.runtime.setMocks(
    {
      newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }),
      // The network checks its zones by id (components/network/rules.ts chooseZones): the one invoke.
      call: (a) => {
        if (a.token !== "aws:index/getAvailabilityZones:getAvailabilityZones") throw new Error(`unexpected invoke ${a.token}`);
        return { names: ["us-east-1a", "us-east-1b"], zoneIds: ["use1-az1", "use1-az2"] };
      },
    },
    "storage-bench-lab",
    "network",
    true,
  );
  pulumi.runtime.setAllConfig(config);
  let exported: unknown;
  jest.isolateModules(() => {
    exported = require("../index"); // eslint-disable-line @typescript-eslint/no-require-imports
  });
  return exported;
}

describe("index.ts", () => {
  test("a config error ends the program with its problems only (RunError: no stack trace)", async () => {
    // The program is a promise (kinds that read upstream stacks check them first): Pulumi awaits it.
    const error = await Promise.resolve(
      loadProgram({ "aws:region": "us-east-1", "lab:kind": "network", "lab:owner": "a", "lab:azCount": "4", "lab:ttlHours": "-1" }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(pulumi.RunError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "invalid stack config:\n'lab:ttlHours' must be a whole number of hours from 1 to 168, got -1\n'lab:azCount' must be an integer from 1 to 3, got 4",
    );
  });

  test("a valid config exports the kind's outputs", async () => {
    const outputs = await loadProgram({
      "aws:region": "us-east-1",
      "lab:kind": "network",
      "lab:owner": "a",
      "lab:azs": '["us-east-1a","us-east-1b"]',
    });
    expect(Object.keys(outputs as object)).toEqual([
      "vpcId",
      "vpcCidr",
      "azs",
      "azIds",
      "publicSubnetIds",
      "privateSubnetIds",
      "privateSubnetCidrs",
      "privateRouteTableIds",
      "expiresAt",
    ]);
  });
});
