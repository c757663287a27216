/**
 * The header chain a starting node checks from genesis before it takes a certified snapshot (snapshotChain.ts,
 * docs/cluster.md §1.13 "Trust"): real directory and admin blocks built with the protocol's encoders, signed with
 * real ed25519 keys, an authority change (two servers added) and a key rotation on the way. Each rule of
 * `HeaderChain.add` has a link that breaks only it; the segment codec and the reader over an archive too. The chains:
 * snapshotChainFixture.ts; what a walk costs: snapshotChainCost.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ChainCheckpoint,
  decodeHeaderSegment,
  encodeHeaderSegment,
  HeaderChainBroken,
  merkleDepth,
  segmentRange,
} from "../../../src/cluster/snapshotChain.js";
import { HeaderChainReader } from "../../../src/cluster/snapshotHeaders.js";
import { toHex, ZERO_HASH } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { networkId } from "../../../src/protocol/network.js";
import { MemoryArchive } from "../../support/memoryFederation.js";
import {
  a,
  aNext,
  BOOTSTRAP,
  b,
  boot,
  breaksAt,
  buildChain,
  chainOf,
  changesAt,
  concatHeader,
  good,
  INTERVAL,
  NET,
  signersAt,
  stranger,
  withLink,
} from "./snapshotChainFixture.js";

const ids = (list: readonly { identity: Uint8Array }[]): string[] => list.map((s) => toHex(s.identity));

describe("header chain from genesis: a genuine chain", () => {
  it("folds every link, keeps a checkpoint at each snapshot height, with the changes and rotations applied", () => {
    const chain = chainOf();
    for (const l of good.links) chain.add(l);
    assert.equal(chain.next, 10);
    assert.equal(chain.broken, undefined);
    assert.equal(chain.checkpoint(3), undefined, "no checkpoint between snapshot heights");
    const at4 = chain.checkpoint(4) as ChainCheckpoint;
    const at8 = chain.checkpoint(8) as ChainCheckpoint;
    assert.ok(at4 && at8);
    assert.deepEqual(at4.keyMR, sha256(concatHeader(good.links[4]!)));
    const fed5 = at4.authorities.projected(5).federated;
    assert.deepEqual(ids(fed5), ids([boot, a, b].sort((x, y) => toHex(x.identity).localeCompare(toHex(y.identity)))));
    assert.deepEqual(fed5.find((s) => toHex(s.identity) === toHex(a.identity))?.publicKey, a.publicKey);
    // the rotation recorded at 5 is pending at 4's checkpoint, in force at 8's
    assert.equal(at4.authorities.pendingChanges().length, 0, "(recorded at 5: not yet at 4)");
    const fed9 = at8.authorities.projected(9).federated;
    assert.deepEqual(fed9.find((s) => toHex(s.identity) === toHex(a.identity))?.publicKey, aNext.publicKey);
    // the checkpoint is a copy: the chain going on does not change it
    assert.deepEqual(ids(at4.authorities.projected(5).federated), ids(fed5));
  });
  it("the servers added at 3 sign alone from 3 on (2 of 3), and not before", () => {
    const ab = buildChain(6, { signers: (h) => (h < 3 ? [boot] : [a, b]) });
    const chain = chainOf(ab.genesisKeyMR);
    for (const l of ab.links) chain.add(l);
    assert.equal(chain.next, 6);
    const early = buildChain(3, { signers: (h) => (h < 2 ? [boot] : [a]) });
    breaksAt(
      early.links,
      2,
      /^admin block 2 carries 0 valid signatures over header 1 by the 1 federated servers of 2, 1 needed$/,
      chainOf(early.genesisKeyMR),
    );
  });
});

describe("header chain from genesis: every rule refuses", () => {
  it("a header that is not 113 bytes", () => {
    const l = good.links[3]!;
    breaksAt(withLink(3, { ...l, header: l.header.subarray(0, 112) }), 3, /^the header is 112 bytes, not 113$/);
  });
  it("a header of another network", () => {
    const other = buildChain(2, { network: networkId("TEST") });
    breaksAt(other.links, 0, /^the header is of network id 0x/, chainOf(other.genesisKeyMR));
  });
  it("a header of another height", () => {
    breaksAt(withLink(3, good.links[4]!), 3, /^the header says height 4$/);
  });
  it("a genesis that is not the node's", () => {
    breaksAt(good.links, 0, /is not this network's genesis/, chainOf(sha256(new Uint8Array([1]))));
  });
  it("a header that does not link to the previous keyMR", () => {
    const fork = buildChain(4, { timestamp: (h) => (h === 2 ? 7 : 1000 + h) });
    breaksAt(
      [...good.links.slice(0, 2), fork.links[2]!, good.links[3]!],
      3,
      /^its previous keyMR .* is not header 2's/,
    );
  });
  it("an admin block that does not decode (named by its header all the same)", () => {
    const bad = buildChain(3, { adminRaw: (h, raw) => (h === 2 ? raw.subarray(0, raw.length - 1) : raw) });
    breaksAt(bad.links, 2, /^the admin block does not decode/, chainOf(bad.genesisKeyMR));
  });
  it("an admin block of another height (named by its header all the same)", () => {
    const bad = buildChain(3, { adminHeight: (h) => (h === 2 ? 7 : h) });
    breaksAt(bad.links, 2, /^the admin block says height 7$/, chainOf(bad.genesisKeyMR));
  });
  it("a branch of the wrong depth", () => {
    const l = good.links[6]!;
    breaksAt(
      withLink(6, { ...l, branch: [...l.branch, ZERO_HASH] }),
      6,
      /^the admin block's branch has 4 levels, a body of 5 has 3$/,
    );
    breaksAt(withLink(6, { ...l, branch: l.branch.slice(1) }), 6, /has 2 levels, a body of 5 has 3$/);
  });
  it("an admin block that is not the header's (another one with an extra authority change, validly signed)", () => {
    const smuggled = buildChain(4, {
      changes: (h) => (h === 3 ? [{ type: 0x05, identityChainId: stranger.identity, dbHeight: 4 }] : changesAt(h)),
    });
    const l = good.links[3]!;
    breaksAt(
      withLink(3, { ...l, admin: smuggled.links[3]!.admin }),
      3,
      /^the admin block is not the first entry of the header's body$/,
    );
    const branch = l.branch.map((x, i) => (i === 0 ? Uint8Array.from(x, (v, j) => (j === 0 ? v ^ 1 : v)) : x));
    breaksAt(withLink(3, { ...l, branch }), 3, /not the first entry of the header's body/);
  });
  it("a minority of the federated servers' signatures", () => {
    const minority = buildChain(5, { signers: (h) => (h === 4 ? [b] : signersAt(h)) });
    breaksAt(
      minority.links,
      4,
      /^admin block 4 carries 1 valid signatures over header 3 by the 3 federated servers of 4, 2 needed$/,
      chainOf(minority.genesisKeyMR),
    );
  });
  it("signatures by a server that is not federated, or over another header", () => {
    const outsider = buildChain(2, { signers: () => [stranger] });
    breaksAt(outsider.links, 1, /carries 0 valid signatures/, chainOf(outsider.genesisKeyMR));
    const stale = buildChain(3, { signedHeader: (_h, hs) => hs[0]! });
    breaksAt(stale.links, 2, /^admin block 2 carries 0 valid signatures over header 1/, chainOf(stale.genesisKeyMR));
  });
  it("a rotated key: the old one no longer counts from the rotation's height", () => {
    const old = buildChain(7, { signers: (h) => (h === 6 ? [a, b] : signersAt(h)) });
    breaksAt(
      old.links,
      6,
      /carries 1 valid signatures over header 5 by the 3 federated servers of 6, 2 needed/,
      chainOf(old.genesisKeyMR),
    );
  });
  it("a broken chain stays broken at its first break", () => {
    const chain = chainOf();
    const first = breaksAt(withLink(2, good.links[3]!), 2, /says height 3/, chain);
    assert.throws(
      () => chain.add(good.links[2]!),
      (e: unknown) => e === first,
    );
    assert.equal(chain.stop("later"), first);
    assert.equal(chain.checkpoint(4), undefined);
  });
});

describe("header segments", () => {
  it("cover (H − interval, H], and 0 in the first", () => {
    assert.deepEqual(segmentRange(4, 4), { from: 0, to: 4 });
    assert.deepEqual(segmentRange(8, 4), { from: 5, to: 8 });
    assert.deepEqual([1, 2, 3, 4, 5, 8, 9].map(merkleDepth), [0, 1, 2, 2, 3, 3, 4]);
  });
  it("decode to the links they were made of, and refuse parts of another height or out of place", () => {
    const parts = encodeHeaderSegment(8, 5, good.links.slice(5, 9));
    assert.equal(parts.length, 1);
    const back = decodeHeaderSegment(parts, 8);
    assert.equal(back.from, 5);
    assert.deepEqual(back.links, good.links.slice(5, 9));
    assert.throws(() => decodeHeaderSegment(parts, 4), /out of place/);
    assert.throws(() => decodeHeaderSegment([parts[0]!, parts[0]!], 8), /out of place/);
    assert.throws(() => decodeHeaderSegment([parts[0]!.subarray(0, parts[0]!.length - 1)], 8), /./);
  });
  it("read from an archive: the chain to a snapshot height, or where it stops", async () => {
    const archive = new MemoryArchive();
    const options = { networkId: NET, genesisKeyMR: good.genesisKeyMR, bootstrap: BOOTSTRAP, interval: INTERVAL };
    await archive.put(4, encodeHeaderSegment(4, 0, good.links.slice(0, 5)));
    const reader = new HeaderChainReader(options, archive);
    const at4 = await reader.upTo(4);
    assert.ok(!(at4 instanceof HeaderChainBroken));
    assert.equal(reader.checked, 5);
    const at8 = await reader.upTo(8);
    assert.ok(at8 instanceof HeaderChainBroken && at8.height === 5);
    assert.match(at8.reason, /^no header segment 8 in the snapshot archive$/);
    assert.ok(!((await reader.upTo(4)) instanceof HeaderChainBroken), "what was checked stays usable");
    // a segment of the wrong heights
    const wrong = new MemoryArchive();
    await wrong.put(4, encodeHeaderSegment(4, 1, good.links.slice(1, 5)));
    const r2 = await new HeaderChainReader(options, wrong).upTo(4);
    assert.ok(r2 instanceof HeaderChainBroken);
    assert.match(r2.reason, /^header segment 4 holds heights 1…4, not 0…4$/);
  });
});
