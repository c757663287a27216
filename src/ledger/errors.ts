/**
 * Typed rejections of the ledger (rules that need state). rpc/errors.ts alone maps them to JSON-RPC.
 * Stateless format problems are ProtocolError (protocol/errors.ts).
 */
import { NodeError } from "../errors.js";

/** Which bound of the holding queue refused a reveal (ledger/holdingPolicy.ts). */
export type HoldingBound = "reveals" | "bytes" | "source reveals" | "source bytes";

export type LedgerErrorType =
  | { code: "BAD_SIGNATURE"; what: string } // signature does not verify
  | { code: "TIMESTAMP_OUT_OF_WINDOW"; what: string; timestampMs: number; nowMs: number; windowMs: number }
  | { code: "EC_BALANCE_LOW"; ecPublicKey: string; need: number; have: number }
  | { code: "REPEATED_COMMIT"; entryHash: string; info: string }
  | { code: "CREDITS_TOO_LOW"; entryHash: string; need: number; paid: number }
  | { code: "CHAIN_EXISTS"; chainId: string }
  | { code: "CHAIN_NOT_FOUND"; chainId: string }
  | { code: "CHAIN_ID_MISMATCH"; chainId: string; info: string }
  | { code: "DUPLICATE_ENTRY"; entryHash: string }
  | { code: "DUPLICATE_TRANSACTION"; txId: string }
  | { code: "ASSET_BALANCE_LOW"; address: string; need: bigint; have: bigint }
  | {
      code: "INSUFFICIENT_FEE";
      need: bigint;
      have: bigint;
      /** when the fee pays the previous block's rate, not the one in force (a rate change): both, base units per EC */
      rates?: { inForce: bigint; previous: bigint };
    }
  /** a bound of the holding queue (holdingPolicy.ts): its limit, and what was held (reveals or bytes) */
  | { code: "HOLDING_QUEUE_FULL"; bound: HoldingBound; limit: number; held: number }
  | { code: "NOT_PRODUCING"; info: string } // e.g. MAIN/TEST standalone
  | { code: "STORAGE_FULL"; info: string } // LMDB map/disk full: writes refused, reads served
  /**
   * the node cannot take writes now, through no fault of the write: it is stopping, is not in the federation,
   * has forked, or the replicated log did not take the write. The same write may succeed later or at another node.
   */
  | { code: "NODE_UNAVAILABLE"; info: string }
  | { code: "INVALID"; info: string };

/** The reference node's sentence for a repeated commit (spec §7): the `info` of REPEATED_COMMIT. */
export const REPEATED_COMMIT_INFO = "A commit with equal or greater payment already exists";

/** A write refused because of the node's condition (`info` says which), never because of the write. */
export function nodeUnavailable(info: string): LedgerError {
  return new LedgerError({ code: "NODE_UNAVAILABLE", info });
}

export class LedgerError extends NodeError {
  constructor(readonly type: LedgerErrorType) {
    super(type.code);
    this.name = "LedgerError";
  }
}
