/**
 * Where a file system goes in the network stack's private subnets (pure; the component calls it
 * inside an apply on the network's outputs; the fsx-ontap stack checks {@link placementProblems}
 * before it registers anything, so that apply never throws for a stack's config).
 *
 * Multi-AZ: the first two private subnets (the network lists them in zone order), the preferred one
 * among them, and the route tables of **every** private subnet, so clients in any zone (a third AZ
 * included) reach the floating endpoint IPs, which FSx moves to the standby on failover. Single-AZ:
 * the preferred subnet alone, and no route tables (they are Multi-AZ only).
 */
import { DeployTimeError } from "../lib/deploy-error";
import { DeploymentType, isMultiAz } from "./rules";

export interface Placement {
  readonly subnetIds: string[];
  readonly preferredSubnetId: string;
  readonly preferredAz: string;
  /** The standby file server's zone: the other of the two (Multi-AZ) or the preferred one (Single-AZ). */
  readonly standbyAz: string;
  /** Multi-AZ only. */
  readonly routeTableIds?: string[];
}

/**
 * Why the file system cannot be placed in the network's subnets: one message a problem, naming the
 * upstream values (empty when it can be). The stacks check it before registering anything
 * (stacks/fsx-ontap/index.ts, as config problems); {@link placement} throws its first.
 * @param preferred a 0-based index into the zones the file system uses, or a zone name
 */
export function placementProblems(
  deploymentType: DeploymentType,
  preferred: number | string,
  privateSubnetIds: readonly string[],
  azs: readonly string[],
): { readonly about: "networkStack" | "deploymentType" | "preferredAz"; readonly why: string }[] {
  if (privateSubnetIds.length !== azs.length)
    return [
      {
        about: "networkStack",
        why: `the network stack lists ${privateSubnetIds.length} private subnets for ${azs.length} availability zones; they must pair up`,
      },
    ];
  const multi = isMultiAz(deploymentType);
  if (azs.length < (multi ? 2 : 1))
    return [
      {
        about: "deploymentType",
        why: `${deploymentType} needs private subnets in 2 availability zones; the network stack has ${azs.length} (${azs.join(", ") || "none"})`,
      },
    ];
  const zones = azs.slice(0, multi ? 2 : azs.length);
  const index = typeof preferred === "number" ? preferred : zones.indexOf(preferred);
  if (!Number.isInteger(index) || index < 0 || index >= zones.length) {
    const what = typeof preferred === "number" ? `index ${preferred}` : `"${preferred}"`;
    return [
      {
        about: "preferredAz",
        why: `preferred availability zone ${what} is not one of the file system's zones ${zones.join(", ")} (by index 0–${zones.length - 1} or by name)`,
      },
    ];
  }
  return [];
}

/**
 * @param preferred a 0-based index into the zones the file system uses, or a zone name
 * @throws DeployTimeError when the network has too few subnets or the preferred zone is not usable ({@link placementProblems})
 */
export function placement(
  deploymentType: DeploymentType,
  preferred: number | string,
  privateSubnetIds: readonly string[],
  azs: readonly string[],
  privateRouteTableIds: readonly string[],
): Placement {
  const problems = placementProblems(deploymentType, preferred, privateSubnetIds, azs);
  if (problems.length > 0) throw new DeployTimeError(problems.map((p) => p.why));
  const multi = isMultiAz(deploymentType);
  const zones = azs.slice(0, multi ? 2 : azs.length);
  const index = typeof preferred === "number" ? preferred : zones.indexOf(preferred);
  const preferredSubnetId = privateSubnetIds[index];
  if (multi) {
    return {
      subnetIds: privateSubnetIds.slice(0, 2),
      preferredSubnetId,
      preferredAz: zones[index],
      standbyAz: zones[1 - index],
      routeTableIds: [...privateRouteTableIds],
    };
  }
  return { subnetIds: [preferredSubnetId], preferredSubnetId, preferredAz: zones[index], standbyAz: zones[index] };
}

/** One endpoint as the stack exports it. */
export interface Endpoint {
  readonly dnsName: string;
  readonly ipAddresses: string[];
}

/** The first endpoint of a provider endpoint list, or null when the service reports none. */
export function firstEndpoint(list: readonly { dnsName?: string; ipAddresses?: string[] }[] | undefined): Endpoint | null {
  const e = list?.[0];
  if (!e || !e.dnsName) return null;
  return { dnsName: e.dnsName, ipAddresses: [...(e.ipAddresses ?? [])].sort() };
}
