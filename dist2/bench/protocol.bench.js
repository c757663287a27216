/**
 * Protocol functions on the request path: entry hashes (every reveal) and transaction decode + verify
 * (every asset-submit). Each case is guarded so the suite still runs while a function is a stub.
 */
import { publicKeyFromSeed } from "../src/crypto/ed25519.js";
import { rcd1Hash } from "../src/protocol/address.js";
import { entryHash, marshalEntry } from "../src/protocol/entry.js";
import { sha256 } from "../src/protocol/hash.js";
import { buildTransaction, decodeTransaction, verifyTransactionSignatures } from "../src/protocol/transaction.js";
import { guarded, runCases } from "./suite.js";
/** An entry of `payload` content bytes (no ext IDs), marshalled. */
function rawEntry(payload) {
    const content = new Uint8Array(payload);
    for (let i = 0; i < payload; i++)
        content[i] = (i * 13) & 0xff;
    return marshalEntry({ version: 0, chainId: sha256(Uint8Array.of(7)), extIds: [], content });
}
/** A real signed transaction: 1 RCD1 input, 1 output, 1 EC output (a typical asset-submit). */
function signedTransaction() {
    const seed = sha256(Uint8Array.of(0x7a));
    const to = rcd1Hash(publicKeyFromSeed(sha256(Uint8Array.of(0x7b))));
    const ec = publicKeyFromSeed(sha256(Uint8Array.of(0x7c)));
    const tx = buildTransaction({
        milliTimestamp: 1_700_000_000_000,
        inputs: [{ seed, amount: 2000000000n }],
        outputs: [{ amount: 1000000000n, address: to }],
        ecOutputs: [{ amount: 500000000n, address: ec }],
    });
    return tx.raw;
}
export async function protocolRows() {
    const cases = await Promise.all([
        guarded("protocol.entryhash.1k", "entry hash, 1 KiB payload", () => {
            const raw = rawEntry(1024);
            return { fn: () => entryHash(raw) };
        }),
        guarded("protocol.entryhash.10k", "entry hash, 10 KiB payload (largest entry)", () => {
            const raw = rawEntry(10240);
            return { fn: () => entryHash(raw) };
        }),
        guarded("protocol.tx.decode", "transaction decode (1 in, 1 out, 1 EC out)", () => {
            const raw = signedTransaction();
            return { fn: () => decodeTransaction(raw) };
        }),
        guarded("protocol.tx.decodeverify", "transaction decode + verify signatures (1 in, 1 out, 1 EC out)", () => {
            const raw = signedTransaction();
            return {
                fn: () => {
                    if (!verifyTransactionSignatures(decodeTransaction(raw)))
                        throw new Error("a valid transaction did not verify");
                },
                note: "bounded by the one ed25519 verify inside",
            };
        }),
    ]);
    return runCases("protocol", cases);
}
//# sourceMappingURL=protocol.bench.js.map