import * as pulumi from "@pulumi/pulumi";

/**
 * The least mock runtime a component constructor needs (every resource echoes its inputs, every
 * invoke fails the test): for tests that only check what a constructor throws before it creates anything.
 */
export function minimalMocks(): Promise<void> {
  return pulumi.runtime.setMocks(
    {
      newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }),
      call: (a) => {
        throw new Error(`unexpected invoke ${a.token}`);
      },
    },
    "storage-bench-lab",
    "test",
    true,
  );
}
