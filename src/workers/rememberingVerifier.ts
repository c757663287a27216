/**
 * A verifier that remembers the ed25519 checks the node's submit passed (ledger.ts `submitCommit`,
 * `submitTransaction`), so that a cluster node checking the same writes again when it applies the log
 * (cluster/clientSignatures.ts) does not pay twice for the writes it took itself. A remembered answer is the
 * answer the check gives: it is used only for a byte-identical (key, message, signature) triple, once.
 */
import { bytesEqual, concat, toHex } from "../protocol/bytes.js";
import type { SignatureCheck, Verifier } from "./verifier.js";

/**
 * Passed checks kept for the apply of the node that made them. A write is applied within a second or so of
 * its check (one append, one delivery); 65,536 triples cover ~10 s of this node's measured peak intake
 * (~6,900 writes/s), ~14 MiB at most (a triple: 32 + ≤ 200 + 64 bytes, with the map's overhead).
 */
export const REMEMBERED_CHECKS = 65_536;

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
    // kept for seconds: a copy of its own, not views of a request's bytes (the write path decodes without
    // copying, rpc/v2/submit.ts), which would keep their 8 KiB buffer-pool slabs alive
    const own = concat(c.publicKey, c.signature, c.message);
    const kept: SignatureCheck = {
      publicKey: own.subarray(0, c.publicKey.length),
      signature: own.subarray(c.publicKey.length, c.publicKey.length + c.signature.length),
      message: own.subarray(c.publicKey.length + c.signature.length),
    };
    this.passed.set(toHex(c.signature), kept);
    if (this.passed.size > this.limit) this.passed.delete(this.passed.keys().next().value!);
  }
}

function sameCheck(a: SignatureCheck, b: SignatureCheck): boolean {
  return (
    bytesEqual(a.signature, b.signature) && bytesEqual(a.publicKey, b.publicKey) && bytesEqual(a.message, b.message)
  );
}
