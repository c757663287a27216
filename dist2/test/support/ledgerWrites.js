/**
 * Writes against a running LOCAL node through its JSON-RPC API, signed with real keys: buy entry credits
 * with the genesis-funded key, create a chain, add entries. Used by the live feed and control panel tests.
 */
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { sha256 } from "../../src/protocol/hash.js";
import { composeChain, composeEntry, composeTransaction } from "../../tools/wallet/compose.js";
/** The LOCAL network's genesis-funded asset key (api-cases conventions). */
export const GENESIS_KEY = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
/** An EC key derived from a label (deterministic per test). */
export function ecKeyOf(label) {
    return keyPairFromSeed("EC", sha256(new TextEncoder().encode(label)));
}
const text = (s) => new TextEncoder().encode(s);
/** Buy `credits` entry credits for `ec` from the genesis key; resolves with the transaction ID (hex). */
export async function buyCredits(call, ec, credits) {
    const rate = BigInt((await call("entry-credit-rate")).rate);
    const tx = composeTransaction({
        inputSeed: GENESIS_KEY.seed,
        outputs: [],
        ecOutputs: [{ address: ec.publicKey, amount: BigInt(credits) * rate }],
        rate,
        milliTimestamp: Date.now(),
    });
    await call("asset-submit", { transaction: toHex(tx.tx.raw) });
    return tx.txId;
}
/** Create a chain named `name` paid by `ec`; resolves with its chain ID and first entry hash (hex). */
export async function createChain(call, ec, name, content = "first entry") {
    const c = composeChain({ extIds: [text(name)], content: text(content), ecSeed: ec.seed, milliTime: Date.now() });
    await call("commit-chain", c.commit.params);
    await call("reveal-chain", c.reveal.params);
    return { chainId: c.chainId, entryHash: c.entryHash };
}
/** Add an entry to `chainId` (hex) paid by `ec`; `order` "reveal-first" sends the reveal before its commit. */
export async function addEntry(call, ec, chainId, content, options = {}) {
    const e = composeEntry({
        chainId: Buffer.from(chainId, "hex"),
        extIds: (options.extIds ?? []).map(text),
        content: typeof content === "string" ? text(content) : content,
        ecSeed: ec.seed,
        milliTime: Date.now(),
    });
    if (options.order === "reveal-first") {
        await call("reveal-entry", e.reveal.params);
        await call("commit-entry", e.commit.params);
    }
    else {
        await call("commit-entry", e.commit.params);
        await call("reveal-entry", e.reveal.params);
    }
    return { entryHash: e.entryHash };
}
//# sourceMappingURL=ledgerWrites.js.map