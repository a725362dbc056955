/**
 * The table-test shape of the policy area tests (test/lab/policy/<area>.test.ts): one case is a
 * resource's type and inputs and the exact lines the rule reports (`[]`: compliant).
 */
import type { Rule } from "../../../lab/policy/rule";

export interface Case {
  readonly rule: string;
  readonly title: string;
  readonly type: string;
  readonly inputs: Record<string, unknown>;
  readonly want: readonly string[];
}

/**
 * Runs every case against the rule it names (which must be one of `rules` and apply to the case's
 * type), and checks that each rule of the area has at least one compliant and one non-compliant case.
 */
export function testRules(area: string, rules: readonly Rule[], cases: readonly Case[]): void {
  const rule = (name: string) => {
    const r = rules.find((x) => x.name === name);
    if (!r) throw new Error(`no rule ${name} in the ${area} area`);
    return r;
  };

  describe(`policy rules: ${area}`, () => {
    test.each(cases.map((c) => [`${c.rule}: ${c.title}`, c] as const))("%s", (_, c) => {
      const r = rule(c.rule);
      expect(r.resourceTypes).toContain(c.type);
      expect(r.check(c.inputs, c.type)).toEqual(c.want);
    });

    test("every rule of the area has a compliant and a non-compliant case", () => {
      const coverage = rules.map((r) => {
        const mine = cases.filter((c) => c.rule === r.name);
        return [r.name, mine.some((c) => c.want.length === 0), mine.some((c) => c.want.length > 0)];
      });
      expect(coverage).toEqual(rules.map((r) => [r.name, true, true]));
    });
  });
}
