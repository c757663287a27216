// `proof` on a devnet of three federated servers and a follower (real processes, one nats-server): the authority
// set is no longer the bootstrap server alone but what the admin blocks' 05/08 entries made it, so the proof
// carries those change blocks and the majority (2 of 3) of signatures. A proof answered by the follower verifies
// with no node, against the bootstrap key the network was configured with and no other.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeAddress } from "../../src/protocol/address.js";
import { fromHex } from "../../src/protocol/bytes.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { type ProofJson, verifyProof } from "../../src/protocol/proof.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { startTestDevnet, type TestDevnet } from "../support/testDevnet.js";
import { waitFor } from "../support/waitFor.js";

function callOf(node: LedgerdNode): RpcCall {
  return (method, params) => node.client.call(method, params);
}

describe("proof on a devnet of three federated servers", () => {
  let net: TestDevnet;
  before(async () => {
    net = await startTestDevnet({ federated: 3, audit: 0, followers: 1, nats: 1, blockTimeSeconds: 2 });
  });
  after(() => net?.cleanup());

  it("the follower's proof carries the change blocks and a majority of the three; it verifies offline", async (t) => {
    const fed = callOf(net.devnet.node("fed0"));
    const follower = callOf(net.devnet.node("follower0"));
    const ec = ecKeyOf("proof-devnet");
    await buyCredits(fed, ec, 100);
    await waitFor(
      "entry credits bought",
      async () =>
        ((await fed("entry-credit-balance", { address: encodeAddress("EC", ec.publicKey) })) as { balance: number })
          .balance >= 100
          ? true
          : undefined,
      120_000,
      200,
    );
    const c = await createChain(fed, ec, `proof devnet ${Date.now()}`);
    const { entryHash } = await addEntry(fed, ec, c.chainId, "proved on a federation", { extIds: ["doc"] });
    const proof = await waitFor(
      "a proof from the follower signed by the three servers",
      async () => {
        const p = (await follower("proof", { hash: entryHash }).catch(() => undefined)) as ProofJson | undefined;
        return p !== undefined && p.authority.federated.length === 3 ? p : undefined;
      },
      240_000,
      500,
    );
    const summary = verifyProof(proof, { trustedBootstrapKey: fromHex(proof.authority.bootstrap.publickey) });
    t.diagnostic(
      `height ${summary.directoryblockheight}: ${summary.signed} of ${summary.federated} signed (${summary.needed} needed), ${summary.changeblocks} change blocks`,
    );
    assert.equal(summary.federated, 3);
    assert.ok(summary.signed >= 2);
    assert.ok(summary.changeblocks >= 2, "the genesis block and the blocks that added the servers and their keys");
    // another trust root: refused
    assert.throws(
      () => verifyProof(proof, { trustedBootstrapKey: new Uint8Array(32).fill(7) }),
      (e: unknown) => e instanceof ProtocolError && /bootstrap\.publickey/.test(e.message),
    );
    // a signer left out below the majority: refused; the set as stated changed: refused
    const fewer = structuredClone(proof);
    fewer.signatures.signers = fewer.signatures.signers.slice(0, 1);
    assert.throws(() => verifyProof(fewer), /1 federated servers signed, 2 needed/);
    const otherSet = structuredClone(proof);
    otherSet.authority.federated = otherSet.authority.federated.slice(1);
    assert.throws(() => verifyProof(otherSet), /authority\.federated/);
    // a change block dropped (the servers it added are then unknown): refused
    const dropped = structuredClone(proof);
    dropped.authority.changes = dropped.authority.changes.slice(0, -1);
    assert.throws(() => verifyProof(dropped), ProtocolError);
    // the federated server answers the same proof
    assert.deepEqual(await fed("proof", { hash: entryHash }), proof);
  });
});
