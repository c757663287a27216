/**
 * The remembering verifier (src/workers/rememberingVerifier.ts): a check passed at submit is answered once at
 * apply from memory, only for the very same bytes; a failed check is never remembered; the memory is bounded.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientSignatureChecks } from "../../../src/cluster/clientSignatures.js";
import { decodeTransaction } from "../../../src/protocol/transaction.js";
import { RememberingVerifier } from "../../../src/workers/rememberingVerifier.js";
import type { SignatureCheck } from "../../../src/workers/verifier.js";
import { CountingVerifier } from "../../support/countingVerifier.js";
import { payment, sand } from "../ledger/harness.js";

const T = Date.UTC(2024, 0, 1);

describe("the remembering verifier", () => {
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
