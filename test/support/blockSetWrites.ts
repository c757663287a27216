/**
 * The records of a block set that a store test does not exercise, all empty: spread into a `BlockSetWrite`
 * beside the height, blocks and whatever the test does save (the store does not interpret blocks).
 */
import type { BlockSetWrite } from "../../src/store/store.js";

export function noOtherRecords(): Omit<BlockSetWrite, "height" | "openBlockStartMs" | "blocks"> {
  return {
    entries: [],
    transactions: [],
    commits: [],
    paidCommits: [],
    chainHeads: [],
    assetBalances: [],
    ecBalances: [],
    journalCarry: [],
  };
}
