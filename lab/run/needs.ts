/**
 * What `lab run --dry-run` says the real run will ask for (its preflight checks each before anything
 * is created: ./preflight.ts), and with `--keep` what stays billing per hour.
 */
import { ADMIN_KEY, documentationRange, kindHasKey } from "./admin";
import { KIND_TOOLS, MIN_PULUMI_CLI, type Tool } from "./preflight";

export interface NeedsStack {
  readonly name: string;
  readonly kind: string;
  readonly config: Readonly<Record<string, string>>;
  /** Its plan builds a container image on this machine (./preflight.ts buildsImage). */
  readonly needsDocker: boolean;
}

/** `a.b.c.d` alone as `a.b.c.d/32` (a bare address names one host); anything else as given. */
export function asCidr(value: string): string {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(value) ? `${value}/32` : value;
}

/** The lines of "what the real run needs", for the stacks the dry run planned. */
export function realRunNeeds(stacks: readonly NeedsStack[], adminCidr: string | undefined, table = KIND_TOOLS): string[] {
  const out = ["what the real run needs (its preflight checks them all before anything is created):"];
  const admins = stacks.filter((s) => kindHasKey(s.kind, ADMIN_KEY, s.config) && s.config[ADMIN_KEY] !== undefined);
  if (adminCidr === "auto")
    out.push("  admin address: this machine's public address as a /32 (--admin-cidr auto), looked up when the run starts");
  else if (adminCidr !== undefined)
    out.push(`  admin address: ${adminCidr} (--admin-cidr) for ${admins.map((s) => s.name).join(", ") || "no stack"}`);
  else {
    const placeholders = admins.filter((s) =>
      (JSON.parse(s.config[ADMIN_KEY]) as string[]).some((c) => documentationRange(c) !== undefined),
    );
    if (placeholders.length > 0)
      out.push(
        `  --admin-cidr <your address>/32 or --admin-cidr auto: ${placeholders.map((s) => s.name).join(", ")} ${placeholders.length === 1 ? "holds" : "hold"} a documentation placeholder (RFC 5737), which the run refuses`,
      );
  }
  out.push(`  the Pulumi CLI ${MIN_PULUMI_CLI} or newer, logged in; the AWS CLI with credentials for the account`);
  const needs = new Map<Tool, string[]>();
  for (const s of stacks)
    for (const t of [...(table[s.kind] ?? []), ...(s.needsDocker ? (["docker"] as const) : [])])
      needs.set(t, [...(needs.get(t) ?? []), s.name]);
  for (const [tool, who] of needs)
    out.push(
      tool === "docker"
        ? `  a running Docker daemon: ${who.join(", ")} ${who.length === 1 ? "builds" : "build"} images on this machine`
        : `  ${tool} on the PATH: ${who.join(", ")}`,
    );
  return out;
}

/** With `--keep`: what the kept stacks go on costing, per hour and per day, until destroyed. */
export function keptCostLines(costs: ReadonlyArray<{ stack: string; usdPerHour: number }>): string[] {
  const perHour = costs.reduce((n, c) => n + c.usdPerHour, 0);
  return [
    `--keep: after a successful run the stacks stay and go on billing: $${perHour.toFixed(4)}/h ($${(perHour * 24).toFixed(2)} a day) for ${costs.map((c) => c.stack).join(", ")}, until pulumi destroy or lab janitor (past lab:ttlHours)`,
  ];
}
