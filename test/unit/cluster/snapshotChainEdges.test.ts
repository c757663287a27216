/**
 * The header chain's edges (snapshotChain.ts, beside snapshotChain.test.ts's rule by rule), written against the
 * survivors of its mutation run (docs/testing.md §Mutation testing): a federated server with no key in force counts
 * in the signature majority as the live rules count it (heightMachine.ts, blockSets.ts); checkpoints only at
 * multiples of the interval above 0; a break's error whole; links as copies; the segment codec over several parts,
 * each of its refusals named, and its decoded links as copies.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  decodeHeaderSegment,
  encodeHeaderSegment,
  type HeaderLink,
  headerLink,
} from "../../../src/cluster/snapshotChain.js";
import { type AdminEntry, decodeAdminBlock } from "../../../src/protocol/ablock.js";
import { toHex, ZERO_HASH } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { serverIdentity } from "../../support/memoryFederation.js";
import { a, b, boot, breaksAt, buildChain, chainOf, changesAt, concatHeader, good } from "./snapshotChainFixture.js";

describe("header chain from genesis: the majority and the rules' edges", () => {
  it("a federated server without a key counts in the majority, as the live rules count it (heightMachine.ts, blockSets.ts)", () => {
    // A, B and C federated from 3, C with no key recorded: 4 federated servers of 3, a majority is 3, and C cannot sign
    const c = serverIdentity(4);
    const changes = (h: number): AdminEntry[] =>
      h === 2
        ? [
            ...[a, b, c].map((s): AdminEntry => ({ type: 0x05, identityChainId: s.identity, dbHeight: 3 })),
            ...[a, b].map(
              (s): AdminEntry => ({
                type: 0x08,
                identityChainId: s.identity,
                keyPriority: 0,
                publicKey: s.publicKey,
                dbHeight: 3,
              }),
            ),
          ]
        : changesAt(h).filter((e) => h === 0 || e.type !== 0x08);
    const two = buildChain(5, { changes, signers: (h) => (h < 3 ? [boot] : [boot, a]) });
    breaksAt(
      two.links,
      3,
      /^admin block 3 carries 2 valid signatures over header 2 by the 4 federated servers of 3, 3 needed$/,
      chainOf(two.genesisKeyMR),
    );
    const three = buildChain(5, { changes, signers: (h) => (h < 3 ? [boot] : [boot, a, b]) });
    const chain = chainOf(three.genesisKeyMR);
    for (const l of three.links) chain.add(l);
    assert.equal(chain.next, 5);
    // a signature presented for C (no key in force) does not count, whatever key it names
    const withC = buildChain(4, { changes, signers: (h) => (h < 3 ? [boot] : [boot, a, c]) });
    breaksAt(withC.links, 3, /carries 2 valid signatures .* 3 needed$/, chainOf(withC.genesisKeyMR));
  });
  it("no checkpoint at height 0, one at every multiple of the interval reached, none beyond", () => {
    const chain = chainOf();
    for (const l of good.links) chain.add(l);
    assert.equal(chain.checkpoint(0), undefined);
    assert.ok(chain.checkpoint(4) !== undefined && chain.checkpoint(8) !== undefined);
    assert.equal(chain.checkpoint(12), undefined);
    assert.deepEqual(chain.checkpoint(8)?.keyMR, sha256(concatHeader(good.links[8]!)));
  });
  it("a break is a ProtocolError BAD_VALUE naming the height, with the reason whole", () => {
    const bad = buildChain(3, { adminRaw: (h, raw) => (h === 2 ? raw.subarray(0, raw.length - 1) : raw) });
    let decodeError = "";
    try {
      decodeAdminBlock(bad.links[2]!.admin);
    } catch (e) {
      decodeError = (e as Error).message;
    }
    assert.notEqual(decodeError, "");
    const broken = breaksAt(bad.links, 2, /./, chainOf(bad.genesisKeyMR));
    assert.equal(broken.reason, `the admin block does not decode: ${decodeError}`);
    assert.ok(broken instanceof ProtocolError);
    assert.equal(broken.code, "BAD_VALUE");
    assert.equal(broken.field, "headerChain 2");
    assert.equal(broken.message, `headerChain 2: ${broken.reason}`);
    assert.equal(broken.name, "ProtocolError");
    // the genesis and the link refusals name both keyMRs in hex
    const other = sha256(new Uint8Array([1]));
    const g = breaksAt(good.links, 0, /./, chainOf(other));
    assert.equal(g.reason, `its keyMR ${toHex(good.genesisKeyMR)} is not this network's genesis ${toHex(other)}`);
    const fork = buildChain(4, { timestamp: (h) => (h === 2 ? 7 : 1000 + h) });
    const f = breaksAt([...good.links.slice(0, 2), fork.links[2]!, good.links[3]!], 3, /./);
    assert.equal(
      f.reason,
      `its previous keyMR ${toHex(good.links[3]!.header.subarray(37, 69))} is not header 2's ${toHex(sha256(concatHeader(fork.links[2]!)))}`,
    );
    const net = buildChain(1, { network: 0x0abcdef1 });
    assert.equal(
      breaksAt(net.links, 0, /./, chainOf(net.genesisKeyMR)).reason,
      "the header is of network id 0xabcdef1",
    );
  });
  it("a link's parts are copies of the stored blocks", () => {
    const raw = good.directories[5]!.slice();
    const admin = good.links[5]!.admin.slice();
    const link = headerLink(raw, admin);
    const before = structuredClone(link);
    raw.fill(0);
    admin.fill(0);
    assert.deepEqual(link, before);
    assert.deepEqual(link, good.links[5]);
  });
});

describe("header segments: the codec's edges", () => {
  it("a segment above one part's bytes is cut into parts, each with its place, and joins back", () => {
    // (admin blocks are not read by the codec: 3 links of 200,000-byte admin parts make 600,000+ bytes, 2 parts)
    const big = good.links.slice(1, 4).map((l, i) => ({ ...l, admin: new Uint8Array(200_000).fill(i + 1) }));
    const parts = encodeHeaderSegment(8, 1, big);
    assert.equal(parts.length, 2);
    for (const [i, p] of parts.entries()) {
      assert.deepEqual([...p.subarray(0, 9)], [1, 0, 0, 0, 8, 0, i, 0, 2], `part ${i}'s header`);
    }
    assert.equal(parts[0]!.length, 9 + 480 * 1024);
    const bodyLength = 8 + big.reduce((n, l) => n + 113 + 1 + 32 * l.branch.length + 4 + l.admin.length, 0);
    assert.equal(parts[1]!.length, 9 + bodyLength - 480 * 1024);
    const back = decodeHeaderSegment(parts, 8);
    assert.equal(back.from, 1);
    assert.deepEqual(back.links, big);
    // one part alone (its count says 2), the parts swapped (their indexes), a part of another height
    assert.throws(() => decodeHeaderSegment([parts[0]!], 8), outOfPlace(0, 8));
    assert.throws(() => decodeHeaderSegment([parts[1]!, parts[0]!], 8), outOfPlace(0, 8));
    assert.throws(() => decodeHeaderSegment(parts, 9), outOfPlace(0, 8));
  });
  it("an empty segment is one part of 8 body bytes", () => {
    const parts = encodeHeaderSegment(4, 0, []);
    assert.equal(parts.length, 1);
    assert.deepEqual([...parts[0]!], [1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(decodeHeaderSegment(parts, 4), { from: 0, links: [] });
  });
  it("refuses an unknown part version, a branch of more than 32 hashes and trailing bytes, each named", () => {
    const parts = encodeHeaderSegment(8, 5, good.links.slice(5, 9));
    const v2 = Uint8Array.from(parts[0]!, (x, i) => (i === 0 ? 2 : x));
    assert.throws(
      () => decodeHeaderSegment([v2], 8),
      (e: unknown) =>
        e instanceof ProtocolError && e.code === "BAD_VALUE" && e.message === "headerSegment.version: unknown",
    );
    const trailing = Uint8Array.of(...parts[0]!, 0);
    assert.throws(
      () => decodeHeaderSegment([trailing], 8),
      (e: unknown) => e instanceof ProtocolError && e.code === "TRAILING_BYTES",
    );
    const link = good.links[5]!;
    const branchOf = (n: number): HeaderLink => ({ ...link, branch: Array.from({ length: n }, () => ZERO_HASH) });
    assert.deepEqual(decodeHeaderSegment(encodeHeaderSegment(8, 5, [branchOf(32)]), 8).links, [branchOf(32)]);
    assert.throws(
      () => decodeHeaderSegment(encodeHeaderSegment(8, 5, [link, branchOf(33)]), 8),
      (e: unknown) =>
        e instanceof ProtocolError &&
        e.code === "BAD_VALUE" &&
        e.message === "headerSegment.links[1].branch: 33 hashes",
    );
    // a part cut short: named by its field
    assert.throws(
      () => decodeHeaderSegment([parts[0]!.subarray(0, 8)], 8),
      (e: unknown) =>
        e instanceof ProtocolError && e.code === "TRUNCATED" && /^headerSegment\[0\]\.count/.test(e.message),
    );
  });
  it("decoded links are copies of the parts", () => {
    const parts = encodeHeaderSegment(8, 5, good.links.slice(5, 9));
    const back = decodeHeaderSegment(parts, 8);
    for (const p of parts) p.fill(0);
    assert.deepEqual(back.links, good.links.slice(5, 9));
  });
});

function outOfPlace(i: number, h: number): (e: unknown) => boolean {
  return (e: unknown) =>
    e instanceof ProtocolError &&
    e.code === "BAD_VALUE" &&
    e.message === `headerSegment.part: part ${i} of ${h} out of place`;
}

describe("header segments: every cut names the field it ends in", () => {
  it("a one-link segment's part cut at every length", () => {
    const link = good.links[5]!; // a branch of 3 hashes
    const [part] = encodeHeaderSegment(8, 5, [link]);
    const k = link.branch.length;
    // the body's layout: from u32 ‖ count u32 ‖ header 113 ‖ k u8 ‖ k × 32 ‖ admin length u32 ‖ admin
    const fields: [string, number][] = [
      ["from", 4],
      ["count", 4],
      ["links[0].header", 113],
      ["links[0].branch", 1],
      ...Array.from({ length: k }, (_, j): [string, number] => [`links[0].branch[${j}]`, 32]),
      ["links[0].adminLength", 4],
      ["links[0].admin", link.admin.length],
    ];
    const fieldAt = (offset: number): string => {
      let end = 0;
      for (const [name, size] of fields) {
        end += size;
        if (offset < end) return name;
      }
      throw new Error(`offset ${offset} past the body`);
    };
    for (let cut = 0; cut < part!.length; cut++) {
      const field =
        cut < 9
          ? `headerSegment[0].${cut < 1 ? "version" : cut < 5 ? "height" : cut < 7 ? "index" : "count"}`
          : `headerSegment.${fieldAt(cut - 9)}`;
      assert.throws(
        () => decodeHeaderSegment([part!.subarray(0, cut)], 8),
        (e: unknown) => e instanceof ProtocolError && e.code === "TRUNCATED" && e.field === field,
        `cut at ${cut}: ${field}`,
      );
    }
  });
  it("a broken chain says why through `broken`", () => {
    const chain = chainOf();
    const thrown = breaksAt(good.links.slice(1), 0, /is not this network's genesis|says height 1/, chain);
    assert.equal(chain.broken, thrown);
  });
});
