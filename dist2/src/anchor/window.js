/**
 * The anchored root of a window of directory blocks (anchormaker-eth api.GetMerkleRootOfDBlockWindow): the
 * Merkle root over the keyMRs of heights DBHeightMin..DBHeightMax in order — the keyMR itself for a window of
 * one block — and the branch from one keyMR up to that root (factomd BuildMerkleBranchForHash), which a
 * receipt carries so that its directory block can be tied to the root in the external transaction.
 */
import { merkleBranch, merkleRoot, verifyMerkleBranch } from "../protocol/merkle.js";
/** Root of a window: merkleRoot of the keyMRs (one keyMR → itself). */
export function windowRoot(keyMRs) {
    return merkleRoot(keyMRs);
}
/** Full-detail branch from keyMRs[index] to the window root; empty for a window of one block. */
export function windowBranch(keyMRs, index) {
    return merkleBranch(keyMRs, index);
}
/**
 * True when `branch` leads from `keyMR` to `root` (sizes checked first: the branch may come from a receipt).
 * An empty branch holds only when keyMR is the root (a window of one block).
 */
export function verifyWindowBranch(keyMR, branch, root) {
    if (keyMR.length !== 32 || root.length !== 32)
        return false;
    if (!branch.every((n) => n.left?.length === 32 && n.right?.length === 32 && n.top?.length === 32))
        return false;
    return verifyMerkleBranch(keyMR, branch, root);
}
//# sourceMappingURL=window.js.map