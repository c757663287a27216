/**
 * CONTRACT: signature verification service used by ledger/ (implemented in-thread here and by the
 * piscina pool in workers/pool.ts). One suite of tests runs over both and must get identical results.
 */
import { verifyEd25519 } from "../crypto/ed25519.js";

/** One ed25519 check: does `signature` by `publicKey` sign `message`? */
export interface SignatureCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

export interface Verifier {
  /** Results in the order of `checks`; never rejects for a bad signature (false instead). */
  verify(checks: readonly SignatureCheck[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** Verifies on the calling thread (node:crypto, canonical rule). */
export class InlineVerifier implements Verifier {
  async verify(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    return checks.map((c) => verifyEd25519(c.publicKey, c.message, c.signature));
  }
  async close(): Promise<void> {}
}
