// JSON view of an entry-credit block (spec §2.4; reference api-behavior §4.6, §5.5; wire-format §7.4).
import { toHex } from "../bytes.js";
import { EC_CHAIN_ID } from "../chains.js";
import { ecBlockHashes, encodeECBlockBody } from "../ecblock.js";
function entryCommitToJson(c) {
    return {
        version: c.version,
        millitime: toHex(c.raw.subarray(1, 7)),
        entryhash: toHex(c.entryHash),
        credits: c.credits,
        ecpubkey: toHex(c.ecPublicKey),
        sig: toHex(c.signature),
    };
}
function chainCommitToJson(c) {
    return {
        version: c.version,
        millitime: toHex(c.raw.subarray(1, 7)),
        chainidhash: toHex(c.chainIdHash),
        weld: toHex(c.weld),
        entryhash: toHex(c.entryHash),
        credits: c.credits,
        ecpubkey: toHex(c.ecPublicKey),
        sig: toHex(c.signature),
    };
}
export function commitToJson(commit) {
    return commit.kind === "entry" ? entryCommitToJson(commit) : chainCommitToJson(commit);
}
/**
 * One body item. A balance increase's u64 `index`/`numec` become JSON numbers (exact up to 2^53; the item is
 * legacy and never produced by this node).
 */
export function ecBlockItemToJson(item) {
    switch (item.type) {
        case "serverIndex":
            return { serverindexnumber: item.number };
        case "minute":
            return { number: item.number };
        case "entryCommit":
            return entryCommitToJson(item.commit);
        case "chainCommit":
            return chainCommitToJson(item.commit);
        case "balanceIncrease":
            return {
                ecpubkey: toHex(item.ecPublicKey),
                txid: toHex(item.txId),
                index: Number(item.index),
                numec: Number(item.numEC),
            };
    }
}
/** The `ecblock` object (header, body entries, headerhash, fullhash), lowercase hex throughout. */
export function ecBlockToJson(block) {
    const { headerHash, fullHash } = ecBlockHashes(block);
    const chainId = toHex(EC_CHAIN_ID);
    return {
        header: {
            bodyhash: toHex(block.bodyHash),
            prevheaderhash: toHex(block.prevHeaderHash),
            prevfullhash: toHex(block.prevFullHash),
            dbheight: block.dbHeight,
            headerexpansionarea: toHex(block.headerExpansion),
            objectcount: block.items.length,
            bodysize: encodeECBlockBody(block.items).length,
            chainid: chainId,
            ecchainid: chainId,
        },
        body: { entries: block.items.map(ecBlockItemToJson) },
        headerhash: toHex(headerHash),
        fullhash: toHex(fullHash),
    };
}
//# sourceMappingURL=ecBlockJson.js.map