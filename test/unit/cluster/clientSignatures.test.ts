/**
 * Client signatures at apply (src/cluster/clientSignatures.ts): the checks each client write needs, and the
 * verdict of each write of a `writes` record (the remembering verifier has its own test in workers/).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  badSignature,
  type CheckedWrite,
  checkClientWrites,
  clientSignatureChecks,
} from "../../../src/cluster/clientSignatures.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { commitSignedPart, decodeChainCommit } from "../../../src/protocol/commit.js";
import { buildTransaction, decodeTransaction } from "../../../src/protocol/transaction.js";
import type { SignatureCheck } from "../../../src/workers/verifier.js";
import { CountingVerifier } from "../../support/countingVerifier.js";
import { chainCommit, ecKey, firstEntry, payment, sand } from "../ledger/harness.js";

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

  it("checkClientWrites: each write decoded and checked; the verdict names the input whose signature fails; nothing to check asks nothing", async () => {
    const inner = new CountingVerifier();
    const v = { verifyAtApply: (c: readonly SignatureCheck[]) => inner.verify(c) };
    const { raw } = firstEntry(["cw"], "x");
    const commit = chainCommit(raw, T);
    const two = buildTransaction({
      milliTimestamp: T,
      inputs: [
        { seed: sand.seed, amount: 5_000_000n },
        { seed: ecKey.seed, amount: 5_000_000n },
      ],
      outputs: [{ address: new Uint8Array(32).fill(1), amount: 9_000_000n }],
      ecOutputs: [],
    });
    const secondBad = two.raw.slice();
    secondBad.fill(0, secondBad.length - 64); // the last signature block: input 1's
    const badCommitRaw = commit.raw.slice();
    badCommitRaw.fill(7, badCommitRaw.length - 64);
    const messages = [
      new Uint8Array([9, 9, 9]),
      encodeMessage({ kind: "reveal", timeMs: T, entryRaw: raw }),
      encodeMessage({ kind: "commit", timeMs: T, commit }),
      encodeMessage({ kind: "commit", timeMs: T, commit: decodeChainCommit(badCommitRaw) }),
      encodeMessage({ kind: "transaction", timeMs: T, tx: two }),
      encodeMessage({ kind: "transaction", timeMs: T, tx: decodeTransaction(secondBad) }),
    ];
    const out = await checkClientWrites(messages, v);
    assert.equal(inner.asked, 1 + 1 + 2 + 2, "one check per commit, one per transaction input, none for a reveal");
    const verdict = (w: CheckedWrite): string => (w instanceof LedgerError ? JSON.stringify(w.type) : w.kind);
    assert.deepEqual(out.map(verdict).slice(1), [
      "reveal",
      "commit",
      JSON.stringify({ code: "BAD_SIGNATURE", what: "commit" }),
      "transaction",
      JSON.stringify({ code: "BAD_SIGNATURE", what: "transaction input 1" }),
    ]);
    assert.ok(out[0] instanceof LedgerError && out[0].type.code === "INVALID");
    assert.match(
      (out[0] as LedgerError).type.code === "INVALID" ? ((out[0] as LedgerError).type as { info: string }).info : "",
      /^not a message: /,
    );
    // a transaction with an RCD of another type is refused without a check
    const one = payment({ milliTime: T, outputs: [{ to: sand, amount: 1n }] });
    const rcd2 = one.raw.slice();
    rcd2[rcd2.length - 97] = 0x02; // the input's RCD (33 bytes before its 64-byte signature) of type 2
    const broken = await checkClientWrites(
      [encodeMessage({ kind: "transaction", timeMs: T, tx: { ...one, raw: rcd2 } })],
      v,
    );
    assert.ok(broken[0] instanceof LedgerError && broken[0].type.code === "INVALID", verdict(broken[0]!));
    // only reveals: the verifier is not asked at all
    const before = inner.asked;
    const reveals = await checkClientWrites([encodeMessage({ kind: "reveal", timeMs: T, entryRaw: raw })], {
      verifyAtApply: () => Promise.reject(new Error("asked")),
    });
    assert.equal(verdict(reveals[0]!), "reveal");
    assert.equal(inner.asked, before);
  });
});
