/**
 * The certification rule's edges (snapshotCertification.ts; docs/cluster.md §1.13), beside snapshots.test.ts's rule
 * tests, written for its mutation run (docs/testing.md §Mutation testing): a majority at exactly ⌊F/2⌋+1 of five, a
 * federated server with no key counted in F and never as a signer, (hash, keyMR) pairs as the groups, the order in
 * which a signer's first valid signature counts, the certificate's fields, and the shortfall's whole sentence for each
 * signature it does not count. Real ed25519 signatures over the records' signed bytes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import {
  type CertificationContext,
  certificationShortfall,
  certify,
  type SnapshotSignature,
} from "../../../src/cluster/snapshotCertification.js";
import { networkId } from "../../../src/protocol/network.js";
import { serverIdentity } from "../../support/memoryFederation.js";

const NET = networkId("LOCAL");
const HEIGHT = 20;
const five = [1, 2, 3, 4, 5].map(serverIdentity);
const HASH_A = new Uint8Array(32).fill(0xaa);
const HASH_B = new Uint8Array(32).fill(0xbb);
const KEYMR = new Uint8Array(32).fill(0x11);
const KEYMR_2 = new Uint8Array(32).fill(0x12);

function sig(
  who: { identity: Uint8Array; seed: Uint8Array },
  o: { hash?: Uint8Array; keyMR?: Uint8Array; height?: number; net?: number } = {},
): SnapshotSignature {
  const rec: Extract<ClusterRecord, { kind: "snapshotSignature" }> = {
    kind: "snapshotSignature",
    height: o.height ?? HEIGHT,
    hash: o.hash ?? HASH_A,
    keyMR: o.keyMR ?? KEYMR,
    signer: who.identity,
    signature: new Uint8Array(64),
  };
  return signRecord(rec, o.net ?? NET, who.seed);
}

/** The five federated servers of HEIGHT+1, the last `keyless` of them with no key in force. */
function ctxOf(keyless = 0): CertificationContext {
  return {
    networkId: NET,
    height: HEIGHT,
    federated: five.map((f, i) => ({ identity: f.identity, publicKey: i >= 5 - keyless ? undefined : f.publicKey })),
  };
}

const s = five.map((f) => sig(f));

describe("snapshot certification: edges", () => {
  it("a majority of five is exactly three, and the certificate holds the three signatures in the order given", () => {
    assert.equal(certify([s[0]!, s[1]!], ctxOf()), undefined);
    const c = certify([s[3]!, s[0]!, s[4]!], ctxOf());
    assert.deepEqual(c, { height: HEIGHT, hash: HASH_A, keyMR: KEYMR, signatures: [s[3], s[0], s[4]] });
    // taken in order: what comes after the majority is not in the certificate
    assert.deepEqual(certify([s[1]!, s[2]!, s[0]!, s[3]!, s[4]!], ctxOf())?.signatures, [s[1], s[2], s[0]]);
  });
  it("a federated server with no key counts in the majority and certifies nothing, with any signature", () => {
    // five federated, two without a key: three needed, and only three can sign
    assert.equal(certify([s[0]!, s[1]!, s[3]!, s[4]!], ctxOf(2)), undefined);
    assert.equal(certify([s[0]!, s[1]!, s[2]!], ctxOf(2))?.signatures.length, 3);
    assert.equal(
      certificationShortfall([s[0]!, s[3]!, s[4]!], ctxOf(2)),
      `1 valid signature(s) of the 5 federated server(s) of height ${HEIGHT + 1}, none with a majority of 3 on one hash`,
    );
  });
  it("the same hash with another keyMR is another pair: no majority until three sign one pair", () => {
    const other = sig(five[2]!, { keyMR: KEYMR_2 });
    assert.equal(certify([s[0]!, s[1]!, other], ctxOf()), undefined);
    const c = certify([s[0]!, sig(five[1]!, { keyMR: KEYMR_2 }), other, sig(five[3]!, { keyMR: KEYMR_2 })], ctxOf());
    assert.deepEqual(c?.keyMR, KEYMR_2);
    assert.deepEqual(c?.hash, HASH_A);
    assert.equal(c?.signatures.length, 3);
  });
  it("a signer's first valid signature counts: an invalid one before it does not use up its vote", () => {
    const broken = { ...s[0]!, signature: new Uint8Array(64) };
    const wrongHeight = sig(five[0]!, { height: HEIGHT + 1 });
    assert.deepEqual(certify([broken, wrongHeight, s[0]!, s[1]!, s[2]!], ctxOf())?.signatures, [s[0], s[1], s[2]]);
    // and a later signature of the same signer on another hash does not move its vote
    assert.equal(
      certify(
        [s[0]!, sig(five[0]!, { hash: HASH_B }), sig(five[1]!, { hash: HASH_B }), sig(five[2]!, { hash: HASH_B })],
        ctxOf(),
      ),
      undefined,
    );
  });
  it("the shortfall counts each valid signer once and names F, H+1 and the majority", () => {
    const stranger = serverIdentity(9);
    const sentence = (valid: number): string =>
      `${valid} valid signature(s) of the 5 federated server(s) of height ${HEIGHT + 1}, none with a majority of 3 on one hash`;
    assert.equal(certificationShortfall([], ctxOf()), sentence(0));
    assert.equal(certificationShortfall([s[0]!, s[0]!, { ...s[0]! }], ctxOf()), sentence(1));
    assert.equal(certificationShortfall([s[0]!, sig(five[0]!, { hash: HASH_B })], ctxOf()), sentence(1));
    // not counted: another height, another network, a stranger, another key, a broken signature
    const notCounted = [
      sig(five[1]!, { height: HEIGHT + 1 }),
      sig(five[1]!, { net: networkId("TEST") }),
      sig(stranger),
      sig({ identity: five[2]!.identity, seed: five[3]!.seed }),
      { ...s[3]!, signature: new Uint8Array(64) },
    ];
    for (const n of notCounted) assert.equal(certificationShortfall([s[0]!, n], ctxOf()), sentence(1));
    // an invalid signature of a signer does not hide its valid one after it
    assert.equal(certificationShortfall([notCounted[0]!, s[1]!, notCounted[3]!, s[2]!], ctxOf()), sentence(2));
    const three = { networkId: NET, height: HEIGHT, federated: ctxOf().federated.slice(0, 3) };
    assert.equal(
      certificationShortfall([s[0]!], three),
      `1 valid signature(s) of the 3 federated server(s) of height ${HEIGHT + 1}, none with a majority of 2 on one hash`,
    );
  });
});
