/**
 * Client signatures at apply (src/cluster/clientSignatures.ts): the checks each client write needs, and the
 * remembering verifier — a check passed at submit is answered once at apply from memory, only for the very
 * same bytes; a failed check is never remembered; the memory is bounded.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { badSignature, clientSignatureChecks, RememberingVerifier } from "../../../src/cluster/clientSignatures.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { commitSignedPart } from "../../../src/protocol/commit.js";
import { decodeTransaction } from "../../../src/protocol/transaction.js";
import { InlineVerifier, type SignatureCheck, type Verifier } from "../../../src/workers/verifier.js";
import { chainCommit, firstEntry, payment, sand } from "../ledger/harness.js";

/** The real inline verifier, counting the checks it is asked. */
class CountingVerifier implements Verifier {
  asked = 0;
  private readonly inner = new InlineVerifier();
  verify(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    this.asked += checks.length;
    return this.inner.verify(checks);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const T = Date.UTC(2024, 0, 1);

describe("client signatures at apply", () => {
  it("a commit needs its EC key's check, a transaction one per input, a reveal none; a malformed RCD is refused", () => {
    const { raw } = firstEntry(["cs"], "x");
    const commit = chainCommit(raw, T);
    const c = clientSignatureChecks({ kind: "commit", timeMs: T, commit });
    assert.ok(Array.isArray(c) && c.length === 1);
    assert.deepEqual(c[0]!.publicKey, commit.ecPublicKey);
    assert.deepEqual(c[0]!.message, commitSignedPart(commit));
    assert.deepEqual(c[0]!.signature, commit.signature);
    assert.deepEqual(clientSignatureChecks({ kind: "reveal", timeMs: T, entryRaw: raw }), []);
    assert.deepEqual(clientSignatureChecks({ kind: "endOfMinute", timeMs: T, minute: 0 }), []);
    const tx = payment({ milliTime: T, outputs: [{ to: sand, amount: 1n }] });
    const t = clientSignatureChecks({ kind: "transaction", timeMs: T, tx });
    assert.ok(Array.isArray(t) && t.length === 1);
    assert.deepEqual(t[0]!.message, tx.signedPart);
    // a transaction with no signature blocks for its input
    const broken = { ...tx, signatures: [] };
    const refused = clientSignatureChecks({ kind: "transaction", timeMs: T, tx: broken });
    assert.ok(refused instanceof LedgerError && refused.type.code === "INVALID", String(refused));
    assert.deepEqual(badSignature({ kind: "commit", timeMs: T, commit }, 0).type, {
      code: "BAD_SIGNATURE",
      what: "commit",
    });
    assert.deepEqual(badSignature({ kind: "transaction", timeMs: T, tx }, 2).type, {
      code: "BAD_SIGNATURE",
      what: "transaction input 2",
    });
  });

  it("remembers what passed at submit and answers it once at apply, for the same bytes only", async () => {
    const inner = new CountingVerifier();
    const v = new RememberingVerifier(inner, 2);
    const tx = payment({ milliTime: T, outputs: [{ to: sand, amount: 1n }] });
    const good = clientSignatureChecks({ kind: "transaction", timeMs: T, tx }) as SignatureCheck[];
    assert.deepEqual(await v.verify(good), [true]);
    assert.equal(inner.asked, 1);
    assert.equal(v.size, 1);
    // the same signature over other bytes is checked (and fails), and does not consume the memory
    const forged = { ...good[0]!, message: good[0]!.message.slice(0, -1) };
    assert.deepEqual(await v.verifyAtApply([forged]), [false]);
    assert.equal(inner.asked, 2);
    const otherKey = { ...good[0]!, publicKey: new Uint8Array(32).fill(9) };
    assert.deepEqual(await v.verifyAtApply([otherKey]), [false]);
    assert.equal(inner.asked, 3);
    // the real one: from memory, once
    assert.deepEqual(await v.verifyAtApply(good), [true]);
    assert.equal(inner.asked, 3);
    assert.equal(v.size, 0);
    assert.deepEqual(await v.verifyAtApply(good), [true]);
    assert.equal(inner.asked, 4, "answered from memory only once");
    assert.equal(v.size, 0, "an apply-time pass is not remembered");
    // a failed check is never remembered
    const zeroRaw = tx.raw.slice();
    zeroRaw.fill(0, zeroRaw.length - 64);
    const zero = clientSignatureChecks({
      kind: "transaction",
      timeMs: T,
      tx: decodeTransaction(zeroRaw),
    }) as SignatureCheck[];
    assert.deepEqual(await v.verify(zero), [false]);
    assert.equal(v.size, 0);
    // bounded: the oldest goes first
    const checks = [1, 2, 3].map((n) => {
      const t = payment({ milliTime: T + n, outputs: [{ to: sand, amount: BigInt(n) }] });
      return (clientSignatureChecks({ kind: "transaction", timeMs: T, tx: t }) as SignatureCheck[])[0]!;
    });
    assert.deepEqual(await v.verify(checks), [true, true, true]);
    assert.equal(v.size, 2);
    const before = inner.asked;
    assert.deepEqual(await v.verifyAtApply(checks), [true, true, true]);
    assert.equal(inner.asked, before + 1, "the oldest was forgotten and checked again");
    // mixed: results stay in the order asked
    assert.deepEqual(await v.verifyAtApply([zero[0]!, good[0]!]), [false, true]);
    await v.close();
    assert.equal(v.size, 0);
  });
});
