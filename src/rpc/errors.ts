/**
 * The ONE place that turns failures into JSON-RPC error objects (spec §7, reference api-behavior §3).
 * Handlers throw RpcError (built with the helpers below), ProtocolError or LedgerError; `toRpcError`
 * maps each to `{code, message, data}`. A user mistake never becomes -32603.
 */
import { ConfigError } from "../config/errors.js";
import { NodeError } from "../errors.js";
import { LedgerError, type LedgerErrorType, REPEATED_COMMIT_INFO } from "../ledger/errors.js";
import { ProtocolError } from "../protocol/errors.js";

/** JSON-RPC error codes used by this node: the standard ones and the reference node's custom ones. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** implementation-defined server error: the node is in a state where it cannot serve the call */
  ServerError: -32000,
  NotFound: -32008,
  MissingChainHead: -32009,
  ReceiptCreation: -32010,
  RepeatedCommit: -32011,
  /**
   * The node cannot take a write now, through no fault of the write (stopping, not producing, not in the
   * federation, forked, storage refused, the replicated log unavailable): retryable, later or at another node.
   * Not -32001/-32003, which the wallet service answers (locked, wrong passphrase), nor the reference's -32008..-32011.
   */
  NodeUnavailable: -32050,
} as const;
export type RpcCode = (typeof RpcCode)[keyof typeof RpcCode];

/** The `error` member of a JSON-RPC response. `data` is omitted (never null) when absent. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A JSON-RPC error with everything the response needs. `nullId` makes the envelope answer with
 * `"id": null` (spec §7: -32700 and -32600 always do).
 */
export class RpcError extends NodeError {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
    readonly nullId = false,
  ) {
    super(data === undefined ? rpcMessage : `${rpcMessage}: ${typeof data === "string" ? data : JSON.stringify(data)}`);
    this.name = "RpcError";
  }

  toObject(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.rpcMessage }
      : { code: this.code, message: this.rpcMessage, data: this.data };
  }
}

/** -32700: the body is not JSON. */
export function parseError(data: string): RpcError {
  return new RpcError(RpcCode.ParseError, "Parse error", data, true);
}

/** -32600: the JSON is not a valid request object (id null). */
export function invalidRequest(data?: string): RpcError {
  return new RpcError(RpcCode.InvalidRequest, "Invalid Request", data, true);
}

/** -32601 with the method name (or what was wrong with it) in `data`. */
export function methodNotFound(data: string): RpcError {
  return new RpcError(RpcCode.MethodNotFound, "Method not found", data);
}

/** -32602 with `data` naming the parameter and the problem, e.g. "chainid: expected 64 hex characters, got 63". */
export function invalidParams(data: unknown): RpcError {
  return new RpcError(RpcCode.InvalidParams, "Invalid params", data);
}

/** -32603: a failure of the node itself (never a user mistake). `data` is a short, secret-free hint. */
export function internalError(data?: string): RpcError {
  return new RpcError(RpcCode.InternalError, "Internal error", data);
}

/** -32000: the node cannot serve this call in its current state (e.g. `messages` without journaling). */
export function serverError(message: string, data: string): RpcError {
  return new RpcError(RpcCode.ServerError, message, data);
}

/**
 * -32050: a node condition refused the write (`data` says which); the write itself may be fine, and the same
 * request may succeed later or at another node. Nothing changed.
 */
export function nodeUnavailable(message: string, data: string): RpcError {
  return new RpcError(RpcCode.NodeUnavailable, message, data);
}

/** What was looked up and not found: the three -32008 messages of the reference node. */
export type NotFoundKind = "Block" | "Entry" | "Object";

/** -32008 `Block not found` / `Entry not found` / `Object not found` (no data, as the reference). */
export function notFound(kind: NotFoundKind): RpcError {
  return new RpcError(RpcCode.NotFound, `${kind} not found`);
}

/** -32009 `Missing Chain Head`: the chain is neither saved nor in the process list. */
export function missingChainHead(): RpcError {
  return new RpcError(RpcCode.MissingChainHead, "Missing Chain Head");
}

/** -32010 `Receipt creation error`: the entry is unknown or not yet in a saved block. */
export function receiptCreationError(): RpcError {
  return new RpcError(RpcCode.ReceiptCreation, "Receipt creation error");
}

/** -32011 `Repeated Commit` with data {entryhash, info} (spec §7). */
export function repeatedCommit(entryHash: string, info: string): RpcError {
  return new RpcError(RpcCode.RepeatedCommit, "Repeated Commit", { entryhash: entryHash, info });
}

/** Human sentence of a ledger rejection (the `data` of its -32602). Amounts in base units or entry credits. */
function ledgerRejection(type: LedgerErrorType): string {
  switch (type.code) {
    case "BAD_SIGNATURE":
      return `${type.what}: signature does not verify`;
    case "TIMESTAMP_OUT_OF_WINDOW":
      return (
        `${type.what}: timestamp ${type.timestampMs} ms is outside the accepted window of ` +
        `±${type.windowMs} ms around the node's time ${type.nowMs} ms`
      );
    case "EC_BALANCE_LOW":
      return `entry credit balance of ${type.ecPublicKey} is ${type.have} EC, the commit needs ${type.need} EC`;
    case "CREDITS_TOO_LOW":
      return `entry ${type.entryHash} needs ${type.need} EC, its commit paid ${type.paid} EC`;
    case "CHAIN_EXISTS":
      return `chain ${type.chainId} already exists`;
    case "CHAIN_NOT_FOUND":
      return `chain ${type.chainId} does not exist`;
    case "CHAIN_ID_MISMATCH":
      return `chain ${type.chainId}: ${type.info}`;
    case "DUPLICATE_ENTRY":
      return `entry ${type.entryHash} was already revealed`;
    case "DUPLICATE_TRANSACTION":
      return `transaction ${type.txId} was already submitted`;
    case "ASSET_BALANCE_LOW":
      return `balance of ${type.address} is ${type.have} base units, the transaction spends ${type.need}`;
    case "INSUFFICIENT_FEE":
      return type.rates === undefined
        ? `fee paid is ${type.have} base units, at least ${type.need} base units are needed`
        : `fee paid is ${type.have} base units, priced at the previous entry-credit rate of ${type.rates.previous} ` +
            `base units per entry credit; the rate in force is ${type.rates.inForce}: at least ${type.need} base units are needed`;
    case "INVALID":
      return type.info;
    case "REPEATED_COMMIT":
    case "HOLDING_QUEUE_FULL":
    case "NOT_PRODUCING":
    case "STORAGE_FULL":
    case "NODE_UNAVAILABLE":
      return type.code;
  }
}

/**
 * Map a ledger rejection: the submission was wrong for the current state → -32602; the holding queue's bound
 * → -32000 "Node busy" (the sender's own reveals fill it); the node's conditions → -32050, retryable.
 */
function fromLedgerError(type: LedgerErrorType): RpcError {
  switch (type.code) {
    case "REPEATED_COMMIT":
      return repeatedCommit(type.entryHash, type.info || REPEATED_COMMIT_INFO);
    case "HOLDING_QUEUE_FULL":
      return serverError("Node busy", holdingQueueFull(type));
    case "NOT_PRODUCING":
      return nodeUnavailable("Not accepting submissions", type.info);
    case "STORAGE_FULL":
      return nodeUnavailable("Storage full", `${type.info}; reads are still served`);
    case "NODE_UNAVAILABLE":
      return nodeUnavailable("Node unavailable", type.info);
    default:
      return invalidParams(ledgerRejection(type));
  }
}

/**
 * Any thrown value → RpcError. `param` names the request member a ProtocolError came from, so `data`
 * reads "message: commit: expected 200 bytes, got 199". Unknown throwables become -32603 (the caller
 * logs them; `data` never carries a stack or a secret).
 */
export function toRpcError(e: unknown, param?: string): RpcError {
  if (e instanceof RpcError) return e;
  if (e instanceof ProtocolError) {
    const named =
      param === undefined || e.field === param || e.field.startsWith(`${param}.`) || e.field.startsWith(`${param}[`);
    const detail = named ? e.message : `${param}: ${e.message}`;
    return invalidParams(detail);
  }
  if (e instanceof LedgerError) return fromLedgerError(e.type);
  // An operator's broken configuration file (reload-configuration): say what is wrong; nothing changed.
  if (e instanceof ConfigError) return serverError("Configuration error", e.message);
  return internalError();
}

/** True when `e` is a failure of the node rather than of the request (these are logged at error level). */
export function isInternal(e: RpcError): boolean {
  return e.code === RpcCode.InternalError;
}

/** The data of a HOLDING_QUEUE_FULL answer: which bound (ledger/holdingPolicy.ts), its limit and what is held. */
function holdingQueueFull(type: Extract<LedgerErrorType, { code: "HOLDING_QUEUE_FULL" }>): string {
  const unit = type.bound.endsWith("bytes") ? "bytes" : "reveals";
  const whose = type.bound.startsWith("source") ? "from your address" : "in all";
  return (
    `holding queue full: ${type.held} ${unit} held ${whose}, the limit is ${type.limit} (bound: ${type.bound}); ` +
    "send the commit first, or retry once held reveals are paid or expire"
  );
}
