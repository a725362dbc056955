/** Administrator addresses: documentation ranges (RFC 5737), the option's rule, which kinds have a key, checkip's answer. */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import {
  adminCidrOptionProblems,
  documentationRange,
  kindHasKey,
  parseCidr,
  placeholderProblems,
  publicAddressCidr,
  withAdminCidr,
} from "../../../lab/run/admin";

describe("admin addresses", () => {
  test.each([
    ["198.51.100.7/32", "198.51.100.0/24"],
    ["192.0.2.0/24", "192.0.2.0/24"],
    ["203.0.113.255/32", "203.0.113.0/24"],
    ["203.0.112.255/32", undefined],
    ["198.51.101.1/32", undefined],
    ["198.51.0.0/16", undefined], // wider than the range: not inside it
    ["100.64.7.9/32", undefined],
  ])("%s lies in %s", (cidr, range) => expect(documentationRange(cidr)).toBe(range));

  test.each([
    ["10.0.0.1/32", [167772161, 32]],
    ["10.0.0.1", undefined],
    ["256.0.0.1/32", undefined],
    ["10.0.0.01/32", undefined],
    ["10.0.0.1/33", undefined],
  ])("parseCidr(%s)", (s, v) => expect(parseCidr(s)).toEqual(v));

  test("the option: a CIDR outside the documentation ranges", () => {
    expect(adminCidrOptionProblems("100.64.7.9/32")).toEqual([]);
    expect(adminCidrOptionProblems("my-laptop")).toEqual([
      "'--admin-cidr' must be an IPv4 CIDR of your own address (e.g. 203.0.113.7/32 is a documentation example: use yours), or auto, got \"my-laptop\"",
    ]);
    expect(adminCidrOptionProblems("192.0.2.10/32")).toEqual([
      "'--admin-cidr' must be not in the documentation range 192.0.2.0/24 (RFC 5737): your own address, or auto, got \"192.0.2.10/32\"",
    ]);
  });

  test("which kinds have a key: lab: keys by the kind's schema, other namespaces everywhere", () => {
    expect(kindHasKey("ceph-k0s", "lab:adminCidrs")).toBe(true);
    expect(kindHasKey("eks", "lab:adminCidrs")).toBe(true);
    expect(kindHasKey("network", "lab:adminCidrs")).toBe(false);
    expect(kindHasKey("fsx-ontap", "lab:adminCidrs")).toBe(false);
    expect(kindHasKey("compare", "lab:adminCidrs")).toBe(false);
    expect(kindHasKey("network", "aws:region")).toBe(true);
    expect(kindHasKey("network", "lab:ttlHours")).toBe(true);
    expect(kindHasKey("compare", "lab:devStack", { "lab:devStack": "x" })).toBe(true);
  });

  test("withAdminCidr sets the key only where the kind has it; placeholders are named per stack", () => {
    expect(withAdminCidr({ "lab:kind": "eks" }, "100.64.7.9/32")).toEqual({ "lab:kind": "eks", "lab:adminCidrs": '["100.64.7.9/32"]' });
    expect(withAdminCidr({ "lab:kind": "network" }, "100.64.7.9/32")).toEqual({ "lab:kind": "network" });
    expect(
      placeholderProblems([
        { name: "cluster", config: { "lab:adminCidrs": '["100.64.7.9/32","203.0.113.7/32"]' } },
        { name: "ok", config: { "lab:adminCidrs": '["100.64.7.9/32"]' } },
        { name: "none", config: {} },
      ]),
    ).toEqual([
      "stack cluster: 'lab:adminCidrs' must be your own address ranges, not the documentation range 203.0.113.0/24 (RFC 5737: a placeholder nobody connects from, so the cluster would be closed to you), got \"203.0.113.7/32\": run with --admin-cidr <your address>/32, or --admin-cidr auto",
    ]);
  });

  test("auto: checkip's one line becomes a /32; an error status or no answer is a one-line error", async () => {
    const answers = ["100.64.7.9\n"];
    let status = 200;
    const server = http.createServer((_q, res) => {
      res.writeHead(status);
      res.end(answers[0]);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      expect(await publicAddressCidr(url)).toBe("100.64.7.9/32");
      status = 503;
      await expect(publicAddressCidr(url)).rejects.toThrow(
        `--admin-cidr auto: ${url} did not answer (HTTP 503): give --admin-cidr <your address>/32`,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
    await expect(publicAddressCidr(url, 2000)).rejects.toThrow(
      /^--admin-cidr auto: http:\/\/127\.0\.0\.1:\d+\/ did not answer \(fetch failed\): give --admin-cidr <your address>\/32$/,
    );
  });
});
