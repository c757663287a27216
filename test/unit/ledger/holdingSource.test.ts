/**
 * The source a caller's address counts as for the holding queue's per-source share (holdingPolicy.ts
 * `sourceOf`; docs/testing.md §Mutation testing), exactly: an IPv4 address as is (trimmed), an IPv4-mapped
 * IPv6 address as its IPv4 (any case), any other IPv6 address by its /64, with `::` expanded wherever it is.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sourceOf } from "../../../src/ledger/holdingPolicy.js";

test("sourceOf: IPv4 as is, IPv4-mapped as its IPv4, IPv6 by its /64 with :: expanded wherever it stands", () => {
  const cases: [string, string][] = [
    ["10.0.0.1", "10.0.0.1"],
    [" 10.0.0.1 ", "10.0.0.1"],
    ["", ""],
    ["::ffff:10.20.30.40", "10.20.30.40"],
    ["::FFFF:192.168.100.200", "192.168.100.200"],
    // a mapped-looking address that is not at the start is an IPv6 address like any other
    ["1::ffff:1.2.3.4", "1:0:0:0::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:DB8:0001:0002:3:4:5:6", "2001:db8:1:2::/64"],
    ["::1:2:3:4:5:6:7", "0:1:2:3::/64"],
    ["1::2:3:4:5:6", "1:0:0:2::/64"],
    ["1:2:3::", "1:2:3:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["fe80::1:2", "fe80:0:0:0::/64"],
  ];
  for (const [address, source] of cases) assert.equal(sourceOf(address), source, JSON.stringify(address));
});
