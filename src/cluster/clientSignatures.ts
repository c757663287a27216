/**
 * Client signatures at apply (docs/cluster.md §1.6, "Trust"): every node checks the ed25519 signatures of
 * every client write a `writes` record carries — the commit's EC key, each transaction input's RCD — before
 * the rules apply it, whoever appended the record. A write whose signature does not verify is skipped by
 * every node alike (the check is a pure function of the bytes) and counted.
 *
 * The node that took the write over HTTP checked the same triples before appending them (ledger.ts
 * `submitCommit`, `submitTransaction`); `RememberingVerifier` keeps those passed triples so that node does
 * not pay for the same check twice. A remembered answer is the answer the check gives: it is only used for
 * byte-identical (key, message, signature) triples.
 */
import { LedgerError } from "../ledger/errors.js";
import { decodeMessage, type LogMessage } from "../ledger/messages.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { commitSignedPart } from "../protocol/commit.js";
import { ProtocolError } from "../protocol/errors.js";
import { transactionSignatureChecks } from "../protocol/transaction.js";
import type { SignatureCheck, Verifier } from "../workers/verifier.js";

/**
 * Passed checks kept for the apply of the node that made them. A write is applied within a second or so of
 * its check (one append, one delivery); 65,536 triples cover ~10 s of this node's measured peak intake
 * (~6,900 writes/s), ~14 MiB at most (a triple: 32 + ≤ 200 + 64 bytes, with the map's overhead).
 */
export const REMEMBERED_CHECKS = 65_536;

/**
 * The signature checks a client write needs, or the LedgerError that refuses it without any check (a
 * transaction whose RCDs or signature blocks are malformed). A reveal carries no signature: its commit pays.
 */
export function clientSignatureChecks(msg: LogMessage): SignatureCheck[] | LedgerError {
  switch (msg.kind) {
    case "commit":
      return [
        { publicKey: msg.commit.ecPublicKey, message: commitSignedPart(msg.commit), signature: msg.commit.signature },
      ];
    case "transaction":
      try {
        return transactionSignatureChecks(msg.tx);
      } catch (e) {
        if (e instanceof ProtocolError) return new LedgerError({ code: "INVALID", info: e.message });
        throw e;
      }
    default:
      return [];
  }
}

/** The refusal of a write whose check `index` (of `checks` for `msg`) failed, worded as `submit*` words it. */
export function badSignature(msg: LogMessage, index: number): LedgerError {
  return new LedgerError({
    code: "BAD_SIGNATURE",
    what: msg.kind === "commit" ? "commit" : `transaction input ${index}`,
  });
}

/** A client write of a `writes` record after its checks: the message to apply, or its refusal. */
export type CheckedWrite = LogMessage | LedgerError;

/** What the apply needs of a verifier (RememberingVerifier). */
export interface ApplyVerifier {
  verifyAtApply(checks: readonly SignatureCheck[]): Promise<boolean[]>;
}

/**
 * Decode each client write of a `writes` record and check its signatures (every node, whoever appended the
 * record): the message to apply, or the refusal every node gives it. Deterministic: the bytes decide.
 */
export async function checkClientWrites(
messages: readonly Uint8Array[],
verifier: ApplyVerifier,
): Promise<CheckedWrite[]> {
  const out: CheckedWrite[] = [];
  const checks: SignatureCheck[] = [];
  /** per message of `out`: where its checks start in `checks`, and how many */
  const spans: { from: number; count: number }[] = [];
  for (const bytes of messages) {
    let msg: LogMessage;
    try {
      msg = decodeMessage(bytes);
    } catch (e) {
      out.push(
        new LedgerError({ code: "INVALID", info: `not a message: ${e instanceof Error ? e.message : String(e)}` }),
      );
      spans.push({ from: checks.length, count: 0 });
      continue;
    }
    const own = clientSignatureChecks(msg);
    if (own instanceof LedgerError) {
      out.push(own);
      spans.push({ from: checks.length, count: 0 });
      continue;
    }
    out.push(msg);
    spans.push({ from: checks.length, count: own.length });
    checks.push(...own);
  }
  if (checks.length === 0) return out;
  const results = await verifier.verifyAtApply(checks);
  spans.forEach((span, i) => {
    for (let k = 0; k < span.count; k++)
      if (results[span.from + k] !== true) {
        out[i] = badSignature(out[i] as LogMessage, k);
        return;
      }
  });
  return out;
}

/**
 * A verifier that remembers the checks that passed through `verify` (the ledger's), and answers a
 * byte-identical check at apply (`verifyAtApply`) from memory, once. Everything else goes to `inner`.
 * Oldest first out past REMEMBERED_CHECKS.
 */
export class RememberingVerifier implements Verifier {
  /** signature (hex) → the passed check it belongs to; Map keeps insertion order for the eviction */
  private readonly passed = new Map<string, SignatureCheck>();

  constructor(
    private readonly inner: Verifier,
    private readonly limit: number = REMEMBERED_CHECKS,
  ) {}

  /** Verify, and remember the checks that pass (the ledger's `submit*` checks, before the append). */
  verify(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    return this.check(checks, true);
  }

  /**
   * Verify at apply: a byte-identical check this node passed before is answered from memory (and forgotten);
   * the rest go to the inner verifier and are not remembered (no later apply asks for them again).
   */
  verifyAtApply(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    return this.check(checks, false);
  }

  private async check(checks: readonly SignatureCheck[], remember: boolean): Promise<boolean[]> {
    const results: boolean[] = new Array(checks.length);
    const ask: SignatureCheck[] = [];
    const askAt: number[] = [];
    checks.forEach((c, i) => {
      const key = toHex(c.signature);
      const known = this.passed.get(key);
      if (known !== undefined && sameCheck(known, c)) {
        if (!remember) this.passed.delete(key);
        results[i] = true;
      } else {
        ask.push(c);
        askAt.push(i);
      }
    });
    if (ask.length > 0) {
      const answers = await this.inner.verify(ask);
      answers.forEach((ok, j) => {
        results[askAt[j]!] = ok;
        if (ok && remember) this.remember(ask[j]!);
      });
    }
    return results;
  }

  /** Checks remembered now (tests, metrics). */
  get size(): number {
    return this.passed.size;
  }

  close(): Promise<void> {
    this.passed.clear();
    return this.inner.close();
  }

  private remember(c: SignatureCheck): void {
    this.passed.set(toHex(c.signature), c);
    if (this.passed.size > this.limit) this.passed.delete(this.passed.keys().next().value!);
  }
}

function sameCheck(a: SignatureCheck, b: SignatureCheck): boolean {
  return (
    bytesEqual(a.signature, b.signature) && bytesEqual(a.publicKey, b.publicKey) && bytesEqual(a.message, b.message)
  );
}
