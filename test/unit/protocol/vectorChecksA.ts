import type { VectorCheck } from "../../support/vectors.js";
/** Checks for entries.json, addresses.json, commits.json and the eblock/ecblock/merkle/receipt vectors of blocks.json. */
export const vectorChecksA: Record<string, VectorCheck> = {};
