// Receipts: wire-format §5.6 (factomd receipts/receipts.go CreateReceipt, Receipt.Validate).
import { bytesEqual } from "./bytes.js";
import { directoryBlockBranchLeaves, directoryBlockHashes } from "./dblock.js";
import { entriesWithMinutes, entryBlockHashes, entryTimestampSeconds, markerMinute, } from "./eblock.js";
import { ProtocolError } from "./errors.js";
import { merkleBranch, merkleParent } from "./merkle.js";
/**
 * Receipt of `entryHash` in `eblock` recorded in `dblock`; throws ProtocolError BAD_VALUE if not contained.
 * Branch: entry hash → eblock BodyMR, {eblock header hash, BodyMR, KeyMR}, eblock KeyMR → dblock BodyMR over
 * the flat list [chain0, key0, chain1, key1, …], {dblock header hash, BodyMR, KeyMR}.
 */
export function buildReceipt(entryHash, eblock, dblock) {
    if (entryHash.length !== 32 || markerMinute(entryHash) !== 0)
        throw new ProtocolError("BAD_VALUE", "receipt.entryhash", "not an entry hash");
    const inBlock = entriesWithMinutes(eblock).find((e) => bytesEqual(e.entryHash, entryHash));
    if (inBlock === undefined)
        throw new ProtocolError("BAD_VALUE", "receipt.entryhash", "entry is not in the entry block");
    const eHashes = entryBlockHashes(eblock);
    const branch = merkleBranch(eblock.items, inBlock.index);
    branch.push({ left: eHashes.headerHash, right: eblock.bodyMR, top: eHashes.keyMR });
    const leaves = directoryBlockBranchLeaves(dblock);
    let at = -1;
    for (let i = 1; i < leaves.length; i += 2) {
        if (bytesEqual(leaves[i], eHashes.keyMR) && bytesEqual(leaves[i - 1], eblock.chainId)) {
            at = i;
            break;
        }
    }
    if (at < 0)
        throw new ProtocolError("BAD_VALUE", "receipt.entryblockkeymr", "entry block is not in the directory block");
    const dHashes = directoryBlockHashes(dblock);
    branch.push(...merkleBranch(leaves, at));
    branch.push({ left: dHashes.headerHash, right: dblock.bodyMR, top: dHashes.keyMR });
    return {
        entryHash,
        merkleBranch: branch,
        entryBlockKeyMR: eHashes.keyMR,
        directoryBlockKeyMR: dHashes.keyMR,
        directoryBlockHeight: dblock.dbHeight,
        entryTimestamp: entryTimestampSeconds(dblock.timestamp, inBlock.minute),
    };
}
/**
 * True when the branch leads from the entry hash through the entry block keymr to the directory block keymr:
 * every node's top is sha256(left ‖ right), the running hash is the node's left or right, some top before the
 * last is the entry block keyMR, and the last top is the directory block keyMR. Never throws on malformed
 * receipts (wrong sizes verify false).
 */
export function verifyReceipt(receipt) {
    const branch = receipt.merkleBranch;
    if (!Array.isArray(branch) || branch.length < 2)
        return false;
    let current = receipt.entryHash;
    let passedEntryBlock = false;
    for (let i = 0; i < branch.length; i++) {
        const node = branch[i];
        if (node.left?.length !== 32 || node.right?.length !== 32 || node.top?.length !== 32 || current.length !== 32)
            return false;
        if (!bytesEqual(current, node.left) && !bytesEqual(current, node.right))
            return false;
        if (!bytesEqual(merkleParent(node.left, node.right), node.top))
            return false;
        current = node.top;
        if (i < branch.length - 1 && bytesEqual(current, receipt.entryBlockKeyMR))
            passedEntryBlock = true;
    }
    return passedEntryBlock && bytesEqual(current, receipt.directoryBlockKeyMR);
}
//# sourceMappingURL=receipt.js.map