import { AckStatus } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../protocol/chains.js";
import { commitTxId, parseChainCommit, parseEntryCommit } from "../../protocol/commit.js";
import { entryHash, unmarshalEntry } from "../../protocol/entry.js";
import { ProtocolError } from "../../protocol/errors.js";
import { decodeTransaction, transactionId } from "../../protocol/transaction.js";
import { invalidParams, toRpcError } from "../errors.js";
import { expectString, hashFromText, Params } from "../params.js";
const EC_CHAIN = toHex(EC_CHAIN_ID);
const ASSET_CHAIN = toHex(ASSET_CHAIN_ID);
const ADMIN_CHAIN = toHex(ADMIN_CHAIN_ID);
/** `data` texts of the reference node for `ack` (they name the member already). */
const CHAIN_ID_TEXT = "ChainID must be 64 hex encoded characters";
const HASH_TEXT = "Hash must be 64 hex encoded characters";
const ADMIN_TEXT = "ChainID cannot be admin chain";
/** "YYYY-MM-DD hh:mm:ss" in the node's local time zone (the reference's format, no zone). */
export function dateString(ms) {
    const d = new Date(ms);
    const p = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
/** `{<name>date, <name>datestring}` for a time in ms, expressed in `unit`; nothing when unknown. */
function date(name, ms, unit) {
    if (ms === undefined || ms === 0)
        return {};
    return {
        [`${name}date`]: unit === "ms" ? ms : Math.floor(ms / 1000),
        [`${name}datestring`]: dateString(ms),
    };
}
/** The asset-transaction acknowledgement (spec §2.9), dates in ms. */
function assetAckJson(a) {
    return {
        txid: toHex(a.txId),
        ...date("transaction", a.transactionTimeMs, "ms"),
        ...date("block", a.blockTimeMs, "ms"),
        status: a.status,
    };
}
/** Bytes of a commit or an entry (ack's `fulltransaction` for chain `c` or an entry chain). */
function commitOrEntry(bytes) {
    try {
        if (bytes.length === 200)
            return { commit: parseChainCommit(bytes) };
        if (bytes.length === 136)
            return { commit: parseEntryCommit(bytes) };
    }
    catch (e) {
        if (!(e instanceof ProtocolError))
            throw e;
    }
    unmarshalEntry(bytes);
    return { entryHash: entryHash(bytes) };
}
/** Decode the `fulltransaction` hex member, mapping format errors to data naming it. */
function fullTransactionBytes(text) {
    if (!/^[0-9a-fA-F]*$/.test(text) || text.length % 2 !== 0)
        throw invalidParams("fulltransaction: expected an even number of hex characters");
    return Uint8Array.from(Buffer.from(text, "hex"));
}
function withParam(param, f) {
    try {
        return f();
    }
    catch (e) {
        throw toRpcError(e, param);
    }
}
/** The hash an ack looks up: `hash`, or derived from `fulltransaction` when `hash` is empty. */
function ackHash(p, chain) {
    const hash = expectString(p, "hash") ?? "";
    const full = expectString(p, "fulltransaction") ?? "";
    if (hash === "" && full !== "") {
        const bytes = fullTransactionBytes(full);
        return withParam("fulltransaction", () => {
            if (chain === ASSET_CHAIN)
                return transactionId(decodeTransaction(bytes));
            const item = commitOrEntry(bytes);
            if (chain === EC_CHAIN) {
                if (!("commit" in item))
                    throw invalidParams("fulltransaction: not a chain commit (200 bytes) or an entry commit (136 bytes)");
                return commitTxId(item.commit);
            }
            return "commit" in item ? item.commit.entryHash : item.entryHash;
        });
    }
    if (hash.length !== 64 || !/^[0-9a-fA-F]*$/.test(hash))
        throw invalidParams(HASH_TEXT);
    return hashFromText(hash, "hash");
}
/** Commit part, dates in `unit`. */
function commitData(c, unit) {
    return { ...date("transaction", c.transactionTimeMs, unit), ...date("block", c.blockTimeMs, unit), status: c.status };
}
/** Reveal part: blockdate only once confirmed, in `unit`. */
function entryData(e, unit) {
    return { ...(e.status === AckStatus.DBlockConfirmed ? date("block", e.blockTimeMs, unit) : {}), status: e.status };
}
/**
 * `ack` {hash, chainid, fulltransaction?}: chainid `f` → asset transaction acknowledgement; `c` → commit by
 * txid (or full hash); any other 64-hex chain id → entry by entry hash.
 */
export function ack(params, ctx) {
    const p = new Params(params);
    // Only the lower-case one-letter forms expand, as on the reference; 64-hex ids in either case.
    let chain = expectString(p, "chainid") ?? "";
    if (chain === "c")
        chain = EC_CHAIN;
    else if (chain === "f")
        chain = ASSET_CHAIN;
    if (chain.length !== 64 || !/^[0-9a-fA-F]*$/.test(chain))
        throw invalidParams(CHAIN_ID_TEXT);
    chain = chain.toLowerCase();
    if (chain === ADMIN_CHAIN)
        throw invalidParams(ADMIN_TEXT);
    const hash = ackHash(p, chain);
    if (chain === ASSET_CHAIN)
        return assetAckJson(ctx.ledger.transactionAck(hash));
    if (chain === EC_CHAIN) {
        const c = ctx.ledger.commitAck(hash);
        if (c.commit === undefined) {
            return {
                committxid: toHex(c.txId ?? hash),
                entryhash: "",
                commitdata: commitData(c, "s"),
                entrydata: { status: "" },
            };
        }
        const e = ctx.ledger.entryAck(c.commit.entryHash).entry;
        return {
            committxid: toHex(c.txId ?? hash),
            entryhash: toHex(c.commit.entryHash),
            commitdata: commitData(c, "s"),
            entrydata: entryData(e, "s"),
        };
    }
    const { commit, entry } = ctx.ledger.entryAck(hash);
    const confirmed = entry.status === AckStatus.DBlockConfirmed;
    return {
        committxid: commit.txId === undefined ? "" : toHex(commit.txId),
        entryhash: toHex(hash),
        commitdata: { ...date("transaction", commit.transactionTimeMs, confirmed ? "ms" : "s"), status: commit.status },
        entrydata: entryData(entry, "s"),
    };
}
/** The `txid`/`fulltransaction` pair of the deprecated acks; one is required. */
function legacyAckParams(params) {
    const p = new Params(params);
    const txid = expectString(p, "txid") ?? "";
    const full = expectString(p, "fulltransaction") ?? "";
    if (txid !== "")
        return { txid: hashFromText(txid, "txid") };
    if (full !== "")
        return { full: fullTransactionBytes(full) };
    throw invalidParams("txid: required (or fulltransaction)");
}
/** `asset-ack` {txid | fulltransaction} (deprecated; `ack` with chainid `f`): dates in ms. */
export function assetAck(params, ctx) {
    const { txid, full } = legacyAckParams(params);
    const id = txid ?? withParam("fulltransaction", () => transactionId(decodeTransaction(full)));
    return assetAckJson(ctx.ledger.transactionAck(id));
}
/**
 * `entry-ack` {txid | fulltransaction} (deprecated; use `ack`): `txid` may be an entry hash or a commit's
 * txid; all dates in ms. Nothing known → empty ids and `Unknown` statuses.
 */
export function entryAck(params, ctx) {
    const { txid, full } = legacyAckParams(params);
    let hash;
    if (txid !== undefined) {
        hash = ctx.ledger.commit(txid)?.commit.entryHash ?? txid;
    }
    else {
        const item = withParam("fulltransaction", () => commitOrEntry(full));
        hash = "commit" in item ? item.commit.entryHash : item.entryHash;
    }
    const { commit, entry } = ctx.ledger.entryAck(hash);
    if (commit.status === AckStatus.Unknown && entry.status === AckStatus.Unknown) {
        return {
            committxid: "",
            entryhash: "",
            commitdata: { status: AckStatus.Unknown },
            entrydata: { status: AckStatus.Unknown },
        };
    }
    return {
        committxid: commit.txId === undefined ? "" : toHex(commit.txId),
        entryhash: toHex(hash),
        commitdata: commitData(commit, "ms"),
        entrydata: entryData(entry, "ms"),
    };
}
//# sourceMappingURL=acks.js.map