/**
 * Params and results of every node method: the method contract (rpc/methods.ts), re-exported for the
 * client library's users. Nothing is declared here, so the client and the server cannot drift.
 */
export type * from "../rpc/methods.js";
