/**
 * A CUSTOM network's own genesis and bootstrap key, from the operator's configuration file:
 *
 * - `[App] CustomBootstrapIdentity`: the bootstrap identity chain ID the genesis admin block names;
 * - `[App] LocalServerPrivKey`: this node's ed25519 seed (hex), which signs its blocks;
 * - `[App] CustomBootstrapKey`: the bootstrap public key. A standalone node is the bootstrap server, so it must
 *   be LocalServerPrivKey's; in a cluster each server signs with its own key (docs/cluster.md) and the
 *   bootstrap key is the network's skeleton key;
 * - `[App] CustomGenesisAllocation`: `ADDRESS:AMOUNT` lines, the genesis coinbase's outputs.
 *
 * The reference defaults of these fields are LOCAL's, whose keys are published (the README prints the key of
 * LOCAL's genesis address): a CUSTOM network refuses every one of them, so its supply and its blocks belong to
 * its operator alone. LOCAL ignores these fields and keeps its reference genesis and key.
 */
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { decodeAddress } from "../protocol/address.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, LOCAL_BOOTSTRAP_SEED_HEX, localGenesisAddressesHex, } from "../protocol/genesis.js";
import { AMOUNT_LIMIT, MAX_IO_COUNT } from "../protocol/transaction.js";
import { fileString, fileValue } from "./ini.js";
/** Base units per whole unit of the asset (8 decimals). */
const BASE_UNITS_PER_UNIT = 100000000n;
const HEX32 = /^[0-9a-fA-F]{64}$/;
/**
 * The CUSTOM network settings of `raw`, checked. `fieldError(key, message)` builds the error naming the file
 * line of `key` ("App.Field").
 */
export function customNetworkSettings(raw, fieldError, mode) {
    const hex32 = (field) => {
        const v = fileString(raw, "App", field).trim();
        if (!HEX32.test(v))
            throw fieldError(`App.${field}`, `[App] ${field}: expected 64 hex characters, got ${v.length} characters`);
        return v.toLowerCase();
    };
    const identity = hex32("CustomBootstrapIdentity");
    if (identity === LOCAL_BOOTSTRAP_IDENTITY_HEX)
        throw fieldError("App.CustomBootstrapIdentity", "a CUSTOM network needs its own [App] CustomBootstrapIdentity: the default is LOCAL's well-known " +
            'sha256("FNode0"), which anyone can claim');
    const seed = hex32("LocalServerPrivKey");
    // a cluster follower signs nothing: its key is never used
    if (mode.signs && seed === LOCAL_BOOTSTRAP_SEED_HEX)
        throw fieldError("App.LocalServerPrivKey", "a CUSTOM network needs its own [App] LocalServerPrivKey (a secret 32-byte ed25519 seed, hex): the " +
            "default is LOCAL's published key, with which anyone could sign this network's blocks");
    const publicKey = toHex(publicKeyFromSeed(Buffer.from(seed, "hex")));
    const bootstrapKey = hex32("CustomBootstrapKey");
    if (bootstrapKey === LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX || (mode.standalone && bootstrapKey !== publicKey))
        throw fieldError("App.CustomBootstrapKey", `[App] CustomBootstrapKey must be ${mode.standalone ? "" : "the network's own bootstrap key; on a standalone node, "}` +
            `the public key of LocalServerPrivKey, ${publicKey} ` +
            `(got ${bootstrapKey === LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX ? "LOCAL's well-known key" : bootstrapKey})`);
    return {
        identityChainIdHex: identity,
        signingSeedHex: seed,
        publicKeyHex: publicKey,
        allocations: allocations(raw, fieldError),
    };
}
function allocations(raw, fieldError) {
    const key = "App.CustomGenesisAllocation";
    const lines = fileValue(raw, "App", "CustomGenesisAllocation") ?? [];
    if (lines.length === 0)
        throw fieldError(key, "a CUSTOM network needs [App] CustomGenesisAllocation = ADDRESS:AMOUNT (one line per address): " +
            "without it nobody holds any units");
    if (lines.length > MAX_IO_COUNT)
        throw fieldError(key, `[App] CustomGenesisAllocation: at most ${MAX_IO_COUNT} addresses, got ${lines.length}`);
    const local = localGenesisAddressesHex();
    const seen = new Set();
    let total = 0n;
    const out = [];
    for (const [i, line] of lines.entries()) {
        const where = `[App] CustomGenesisAllocation #${i + 1}`;
        const m = /^\s*([A-Za-z0-9]+)\s*:\s*([0-9]+)(?:\.([0-9]{1,8}))?\s*$/.exec(line);
        if (m === null)
            throw fieldError(key, `${where}: expected ADDRESS:AMOUNT (AMOUNT in units, up to 8 decimals), got a malformed line`);
        let address;
        try {
            address = decodeAddress(m[1], "FA", "address").key;
        }
        catch (e) {
            throw fieldError(key, `${where}: ${e instanceof Error ? e.message : String(e)}`);
        }
        const hex = toHex(address);
        if (local.has(hex))
            throw fieldError(key, `${where}: ${m[1]} is paid by LOCAL's genesis and its key is public; use your own address`);
        if (seen.has(hex))
            throw fieldError(key, `${where}: ${m[1]} is listed twice`);
        seen.add(hex);
        const amount = BigInt(m[2]) * BASE_UNITS_PER_UNIT + BigInt((m[3] ?? "").padEnd(8, "0"));
        if (amount === 0n)
            throw fieldError(key, `${where}: the amount is zero`);
        total += amount;
        if (total >= AMOUNT_LIMIT)
            throw fieldError(key, `${where}: the total passes 2^63 base units`);
        out.push({ addressHex: hex, amount: amount.toString() });
    }
    return out;
}
/** The ledger options of a CUSTOM configuration (its genesis, its signer); nothing on other networks. */
export function customLedgerOptions(config) {
    const c = config.custom;
    if (c === undefined)
        return {};
    const identityChainId = fromHex(c.identityChainIdHex, "CustomBootstrapIdentity", 32);
    return {
        bootstrap: { identityChainId, seed: fromHex(c.signingSeedHex, "LocalServerPrivKey", 32) },
        customGenesis: {
            identityChainId,
            allocations: c.allocations.map((a) => ({
                address: fromHex(a.addressHex, "allocation", 32),
                amount: BigInt(a.amount),
            })),
        },
    };
}
//# sourceMappingURL=customNetwork.js.map