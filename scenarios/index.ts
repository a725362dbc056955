/** The scenarios the lab ships (DESIGN.md "What it is"). */
import { Scenario } from "./types";

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "ceph-nitro",
    description: "Ceph (Rook) on k0s: m4.xlarge (Xen, stack dev) vs m5.xlarge (Nitro, stack nitro), pgbench TPC-B",
    stacks: [
      { name: "network", file: "Pulumi.network.yaml" },
      { name: "dev", file: "Pulumi.dev.yaml" },
      { name: "nitro", file: "Pulumi.nitro.yaml" },
    ],
  },
];
