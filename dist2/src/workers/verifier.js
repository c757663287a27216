/**
 * CONTRACT: signature verification service used by ledger/ (implemented in-thread here and by the
 * piscina pool in workers/pool.ts). One suite of tests runs over both and must get identical results.
 */
import { verifyEd25519 } from "../crypto/ed25519.js";
/** Verifies on the calling thread (node:crypto, canonical rule). */
export class InlineVerifier {
    async verify(checks) {
        return checks.map((c) => verifyEd25519(c.publicKey, c.message, c.signature));
    }
    async close() { }
}
//# sourceMappingURL=verifier.js.map