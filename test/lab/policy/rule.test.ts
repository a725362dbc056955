import {
  COMPUTED,
  controls,
  defineRule,
  defineStackRule,
  dig,
  entry,
  isObj,
  isOpaque,
  isSet,
  isTrue,
  mirrors,
  SECRET,
  shown,
  withoutOpaque,
} from "../../../lab/policy/rule";

describe("how rules read inputs", () => {
  test("opaque values are the plan's two placeholders", () => {
    expect([COMPUTED, SECRET, "<computed> ", "", undefined].map(isOpaque)).toEqual([true, true, false, false, false]);
  });

  test("isObj: a plain object, not an array or null", () => {
    expect([{}, { a: 1 }, [], null, "x", 1].map(isObj)).toEqual([true, true, false, false, false, false]);
  });

  test("isSet: present unless missing or blank; an opaque value is present", () => {
    expect([undefined, null, "", "  ", "x", 0, false, COMPUTED, SECRET].map(isSet)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  test("isTrue: the boolean or the string a launch template takes", () => {
    expect([true, "true", false, "false", "TRUE", 1, COMPUTED].map(isTrue)).toEqual([true, true, false, false, false, false, false]);
  });

  test("shown: how a value reads in a message", () => {
    expect([undefined, null, COMPUTED, SECRET, "optional", false, { a: 1 }].map(shown)).toEqual([
      "nothing",
      "nothing",
      "<computed>",
      "[secret]",
      '"optional"',
      "false",
      '{"a":1}',
    ]);
  });

  test("dig: the value at a path, stopping at an opaque value", () => {
    const o = { a: { b: { c: 1 } }, u: COMPUTED, l: [1] };
    expect(dig(o, ["a", "b", "c"])).toBe(1);
    expect(dig(o, ["a", "x", "c"])).toBeUndefined();
    expect(dig(o, ["u", "b"])).toBe(COMPUTED);
    expect(dig(o, ["l", "0"])).toBeUndefined();
    expect(dig(COMPUTED, ["a"])).toBe(COMPUTED);
  });

  test("withoutOpaque: opaque values and entries dropped, deeply", () => {
    expect(withoutOpaque({ a: COMPUTED, b: [1, SECRET, { c: COMPUTED, d: 2 }], e: { f: null } })).toEqual({
      b: [1, { d: 2 }],
      e: { f: null },
    });
    expect(withoutOpaque(COMPUTED)).toBeUndefined();
  });

  test("entry: a list entry by its key field, else by index", () => {
    expect(entry("containers", { name: "fio" }, 2, "name")).toBe("containers[fio]");
    expect(entry("containers", { name: COMPUTED }, 2, "name")).toBe("containers[2]");
    expect(entry("ebsBlockDevices", {}, 0, "deviceName")).toBe("ebsBlockDevices[0]");
  });

  test("defineRule and defineStackRule return the rule itself", () => {
    const c = controls([]);
    const rule = {
      name: "x-rule",
      description: "d",
      enforcementLevel: "advisory" as const,
      controls: c,
      resourceTypes: ["t"],
      check: () => [],
    };
    expect(defineRule(rule)).toBe(rule);
    const stackRule = { name: "y-rule", description: "d", enforcementLevel: "mandatory" as const, controls: c, checkOutputs: () => [] };
    expect(defineStackRule(stackRule)).toBe(stackRule);
  });

  test("mirrors: the sentence naming a rule's controls, Checkov's then Trivy's; or that none mirrors it", () => {
    expect(controls(["CKV_AWS_38"], ["AWS-0041"])).toEqual({ checkov: ["CKV_AWS_38"], trivy: ["AWS-0041"] });
    expect(mirrors(controls(["CKV_AWS_38"], ["AWS-0041"]))).toBe("Mirrors Checkov CKV_AWS_38; Trivy AWS-0041.");
    expect(mirrors(controls(["CKV_K8S_8", "CKV_K8S_9"]))).toBe("Mirrors Checkov CKV_K8S_8, CKV_K8S_9.");
    expect(mirrors(controls([], ["KSV-0110"]))).toBe("Mirrors Trivy KSV-0110.");
    expect(mirrors(controls([]))).toBe("No Checkov or Trivy control: the lab's own rule.");
  });
});
