// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §4.

/** Largest marshalled transaction, bytes (MAX_TRANSACTION_SIZE). */
export const MAX_TRANSACTION_SIZE = 10240;

/** One input or output: an amount in base units and a 32-byte RCD hash (or EC public key for EC outputs). */
export interface TxIo {
  amount: bigint; // base units (10^-8 asset unit), < 2^63
  address: Uint8Array; // 32 bytes
}

/** A decoded asset transaction. `raw` is the full marshalled form, `signedPart` the txid pre-image. */
export interface Transaction {
  version: number; // 2
  milliTimestamp: number; // ms since epoch
  inputs: TxIo[];
  outputs: TxIo[];
  ecOutputs: TxIo[]; // address = EC public key
  rcds: Uint8Array[]; // one per input, each type byte + body (type 1 = 01 ‖ pubkey)
  signatures: Uint8Array[][]; // one signature block per input; type 1 = [one 64-byte signature]
  raw: Uint8Array;
  signedPart: Uint8Array;
}

/** Decode a full signed transaction; rejects trailing bytes, bad version, non-minimal varints, > 10240 bytes, unknown RCD types. */
export function decodeTransaction(_bytes: Uint8Array): Transaction {
  throw new Error("not implemented");
}
/** Decode one transaction at the reader's position within a block body (no trailing check); returns it and bytes consumed. */
export function decodeTransactionAt(_bytes: Uint8Array, _offset: number): { tx: Transaction; size: number } {
  throw new Error("not implemented");
}
/** Marshal a transaction (version … EC outputs, then RCD + signature block per input). */
export function encodeTransaction(_tx: Omit<Transaction, "raw" | "signedPart">): Uint8Array {
  throw new Error("not implemented");
}
/** txid = sha256(signed part). */
export function transactionId(_tx: Transaction): Uint8Array {
  throw new Error("not implemented");
}
/** Full hash = sha256(raw). For a coinbase (no inputs) equals the txid. */
export function transactionFullHash(_tx: Transaction): Uint8Array {
  throw new Error("not implemented");
}
/** Fee in EC: ceil(len(raw)/1024) + 10 × (outputs + EC outputs) + one per RCD1 signature. */
export function transactionFeeEC(_tx: Transaction): number {
  throw new Error("not implemented");
}
/**
 * Stateless validity (§4.3 rules 1, 3, 4 at `rate` base units per EC): ≥ 1 input; RCD count == input count;
 * input address == sha256d(RCD); sums < 2^63; inputs ≥ outputs + EC outputs + fee. Throws ProtocolError naming the rule.
 * Does NOT verify signatures (see verifyTransactionSignatures) — the ledger batches those in the worker pool.
 */
export function validateTransaction(_tx: Transaction, _rate: bigint): void {
  throw new Error("not implemented");
}
/** The (publicKey, message, signature) triples that must all verify for the transaction to be valid. */
export function transactionSignatureChecks(_tx: Transaction): { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }[] {
  throw new Error("not implemented");
}
/** True when every RCD1 signature verifies over the signed part (canonical rule). */
export function verifyTransactionSignatures(_tx: Transaction): boolean {
  throw new Error("not implemented");
}
/** Build and sign a transaction with RCD1 inputs (tools, tests, load generator). Amounts in base units. */
export function buildTransaction(_args: {
  milliTimestamp: number;
  inputs: { seed: Uint8Array; amount: bigint }[];
  outputs: TxIo[]; // address = RCD hash
  ecOutputs: TxIo[]; // address = EC public key
}): Transaction {
  throw new Error("not implemented");
}
