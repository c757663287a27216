// JSON view of an asset transaction (spec §2.5; reference/api-behavior.md §4.6, §5.6): the `assettransaction`
// member of `transaction`, and the items of `fblock.transactions`.
import { encodeAddress } from "../address.js";
import { toHex } from "../bytes.js";
import { type Transaction, type TxIo, transactionId } from "../transaction.js";

/**
 * A u64 for JSON: a plain number while it is exact (≤ 2^53−1), otherwise the bigint itself, which the rpc
 * serializer must write as a bare JSON integer (JSON.stringify alone cannot). Real amounts stay far below 2^53.
 */
export type JsonInteger = number | bigint;

/** `v` as a JSON integer (number when safe, bigint beyond 2^53−1). */
export function jsonInteger(v: bigint): JsonInteger {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v;
}

/** One input/output/EC output: amount in base units, raw 32-byte address hex, human-readable address. */
export interface TxIoJson {
  amount: JsonInteger; // base units
  address: string; // 64 hex: RCD hash (inputs, outputs) or EC public key (outecs)
  useraddress: string; // FA… (inputs, outputs) or EC… (outecs)
}

/** The reference node's factoid transaction shape, field order kept. */
export interface AssetTransactionJson {
  txid: string;
  blockheight: number; // always 0 in the reference (use includedindirectoryblockheight)
  millitimestamp: number; // ms since epoch
  inputs: TxIoJson[];
  outputs: TxIoJson[];
  outecs: TxIoJson[];
  rcds: string[]; // hex, RCD type byte first
  sigblocks: { signatures: string[] }[]; // hex, 64-byte signatures
}

/** One input/output as JSON; `kind` picks the human-readable prefix (FA for RCD hashes, EC for EC public keys). */
export function txIoJson(io: TxIo, kind: "FA" | "EC"): TxIoJson {
  return { amount: jsonInteger(io.amount), address: toHex(io.address), useraddress: encodeAddress(kind, io.address) };
}

/**
 * The asset transaction as the API shows it. Lists are `[]`, never null (the reference prints null for the
 * input-less coinbase in some places; clients treat both as empty).
 * @param blockHeight the `blockheight` member; the reference always reports 0
 */
export function assetTransactionJson(tx: Transaction, blockHeight = 0): AssetTransactionJson {
  return {
    txid: toHex(transactionId(tx)),
    blockheight: blockHeight,
    millitimestamp: tx.milliTimestamp,
    inputs: tx.inputs.map((io) => txIoJson(io, "FA")),
    outputs: tx.outputs.map((io) => txIoJson(io, "FA")),
    outecs: tx.ecOutputs.map((io) => txIoJson(io, "EC")),
    rcds: tx.rcds.map((rcd) => toHex(rcd)),
    sigblocks: tx.signatures.map((block) => ({ signatures: block.map((sig) => toHex(sig)) })),
  };
}
