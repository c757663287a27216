// Asset transactions: wire-format §4 (factomd common/factoid/transaction.go, rcd1.go, signatureblock.go).
import { publicKeyFromSeed, signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { rcd1, rcd1Hash } from "./address.js";
import { ByteReader, ByteWriter, bytesEqual } from "./bytes.js";
import { ProtocolError } from "./errors.js";
import { sha256, sha256d } from "./hash.js";

/** Largest marshalled transaction, bytes (MAX_TRANSACTION_SIZE). */
export const MAX_TRANSACTION_SIZE = 10240;

/** The only transaction version the protocol defines (factomd `GetVersion() = 2`). */
export const TRANSACTION_VERSION = 2;

/** RCD type 1: `01 ‖ ed25519 public key`, authorised by one signature. Other types are rejected (BAD_RCD). */
export const RCD_TYPE_1 = 0x01;

/** Bytes of an RCD1 (type byte + 32-byte public key). */
export const RCD1_SIZE = 33;

/** Bytes of an ed25519 signature (the whole type-1 signature block). */
export const SIGNATURE_SIZE = 64;

/** Largest count of inputs, outputs or EC outputs: each count is one byte on the wire. */
export const MAX_IO_COUNT = 255;

/** Amounts and running sums must stay below 2^63 base units (factomd treats them as int64). */
export const AMOUNT_LIMIT = 1n << 63n;

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

function readIo(r: ByteReader, field: string): TxIo {
  const amount = r.varint(`${field}.amount`);
  if (amount >= AMOUNT_LIMIT)
    throw new ProtocolError(
      "BAD_VALUE",
      `${r.context}.${field}.amount`,
      `amount ${amount} is not below 2^63 base units`,
    );
  return { amount, address: r.bytesN(32, `${field}.address`).slice() };
}

/**
 * Parse one transaction starting at `offset`; reads never go past `bytes.length`.
 * `context` prefixes error field names (e.g. "assetBlock.transactions[3]").
 */
function readTransaction(bytes: Uint8Array, offset: number, context: string): { tx: Transaction; size: number } {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length)
    throw new ProtocolError("BAD_VALUE", context, `offset ${offset} outside 0..${bytes.length}`);
  const r = new ByteReader(bytes, context);
  r.offset = offset;
  const version = r.varint("version");
  if (version !== BigInt(TRANSACTION_VERSION))
    throw new ProtocolError("BAD_VERSION", `${context}.version`, `expected ${TRANSACTION_VERSION}, got ${version}`);
  const milliTimestamp = r.u48("milliTimestamp");
  const inputCount = r.u8("inputCount");
  const outputCount = r.u8("outputCount");
  const ecOutputCount = r.u8("ecOutputCount");
  const inputs: TxIo[] = [];
  for (let i = 0; i < inputCount; i++) inputs.push(readIo(r, `inputs[${i}]`));
  const outputs: TxIo[] = [];
  for (let i = 0; i < outputCount; i++) outputs.push(readIo(r, `outputs[${i}]`));
  const ecOutputs: TxIo[] = [];
  for (let i = 0; i < ecOutputCount; i++) ecOutputs.push(readIo(r, `ecOutputs[${i}]`));
  const signedEnd = r.offset;
  const rcds: Uint8Array[] = [];
  const signatures: Uint8Array[][] = [];
  for (let i = 0; i < inputCount; i++) {
    const type = r.u8(`rcds[${i}].type`);
    if (type !== RCD_TYPE_1)
      throw new ProtocolError("BAD_RCD", `${context}.rcds[${i}]`, `RCD type ${type} is not supported (only type 1)`);
    rcds.push(rcd1(r.bytesN(32, `rcds[${i}].publicKey`)));
    signatures.push([r.bytesN(SIGNATURE_SIZE, `signatures[${i}]`).slice()]);
  }
  const raw = bytes.slice(offset, r.offset);
  return {
    tx: {
      version: TRANSACTION_VERSION,
      milliTimestamp,
      inputs,
      outputs,
      ecOutputs,
      rcds,
      signatures,
      raw,
      signedPart: raw.subarray(0, signedEnd - offset),
    },
    size: r.offset - offset,
  };
}

/** Decode a full signed transaction; rejects trailing bytes, bad version, non-minimal varints, > 10240 bytes, unknown RCD types. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  if (bytes.length > MAX_TRANSACTION_SIZE)
    throw new ProtocolError("TOO_LARGE", "transaction", `${bytes.length} bytes, the limit is ${MAX_TRANSACTION_SIZE}`);
  const { tx, size } = readTransaction(bytes, 0, "transaction");
  if (size !== bytes.length)
    throw new ProtocolError("TRAILING_BYTES", "transaction", `${bytes.length - size} unexpected byte(s) after the end`);
  return tx;
}

/**
 * Decode one transaction at the reader's position within a block body (no trailing check); returns it and bytes consumed.
 * The 10240-byte limit is not applied here: it is a submission rule (decodeTransaction, validateTransaction).
 */
export function decodeTransactionAt(bytes: Uint8Array, offset: number): { tx: Transaction; size: number } {
  return readTransaction(bytes, offset, "transaction");
}

/** Same as decodeTransactionAt with error fields prefixed by `context` (block decoders). */
export function decodeTransactionIn(
  bytes: Uint8Array,
  offset: number,
  context: string,
): { tx: Transaction; size: number } {
  return readTransaction(bytes, offset, context);
}

type UnsignedFields = Pick<Transaction, "version" | "milliTimestamp" | "inputs" | "outputs" | "ecOutputs">;

function checkIoList(list: readonly TxIo[], field: string): void {
  if (list.length > MAX_IO_COUNT)
    throw new ProtocolError("TOO_LARGE", `transaction.${field}`, `${list.length} items, at most ${MAX_IO_COUNT}`);
  list.forEach((io, i) => {
    if (typeof io.amount !== "bigint" || io.amount < 0n || io.amount >= AMOUNT_LIMIT)
      throw new ProtocolError(
        "BAD_VALUE",
        `transaction.${field}[${i}].amount`,
        `amount ${io.amount} outside 0..2^63-1 base units`,
      );
    if (!(io.address instanceof Uint8Array) || io.address.length !== 32)
      throw new ProtocolError("BAD_LENGTH", `transaction.${field}[${i}].address`, "expected 32 bytes");
  });
}

function writeSignedPart(w: ByteWriter, tx: UnsignedFields): void {
  if (tx.version !== TRANSACTION_VERSION)
    throw new ProtocolError("BAD_VERSION", "transaction.version", `expected ${TRANSACTION_VERSION}, got ${tx.version}`);
  checkIoList(tx.inputs, "inputs");
  checkIoList(tx.outputs, "outputs");
  checkIoList(tx.ecOutputs, "ecOutputs");
  w.varint(tx.version).u48(tx.milliTimestamp).u8(tx.inputs.length).u8(tx.outputs.length).u8(tx.ecOutputs.length);
  for (const list of [tx.inputs, tx.outputs, tx.ecOutputs])
    for (const io of list) w.varint(io.amount).bytes(io.address);
}

/** The signed part (txid pre-image): version through the last EC output. What every RCD1 signature signs. */
export function encodeTransactionSignedPart(tx: UnsignedFields): Uint8Array {
  const w = new ByteWriter(64 + 41 * (tx.inputs.length + tx.outputs.length + tx.ecOutputs.length));
  writeSignedPart(w, tx);
  return w.finish().slice();
}

/** One RCD and one signature block per input (wire-format §4.1): the rule encode and validate share. */
function checkAuthorisationCounts(tx: Pick<Transaction, "inputs" | "rcds" | "signatures">): void {
  if (tx.rcds.length !== tx.inputs.length)
    throw new ProtocolError("BAD_RCD", "transaction.rcds", `${tx.rcds.length} RCD(s) for ${tx.inputs.length} input(s)`);
  if (tx.signatures.length !== tx.inputs.length)
    throw new ProtocolError(
      "BAD_SIGNATURE",
      "transaction.signatures",
      `${tx.signatures.length} signature block(s) for ${tx.inputs.length} input(s)`,
    );
}

/** Marshal a transaction (version … EC outputs, then RCD + signature block per input). */
export function encodeTransaction(tx: Omit<Transaction, "raw" | "signedPart">): Uint8Array {
  const w = new ByteWriter(
    64 + 41 * (tx.inputs.length + tx.outputs.length + tx.ecOutputs.length) + 97 * tx.inputs.length,
  );
  writeSignedPart(w, tx);
  checkAuthorisationCounts(tx);
  tx.rcds.forEach((rcd, i) => {
    checkRcd1(rcd, i);
    w.bytes(rcd).bytes(signatureOf(tx.signatures[i]!, i));
  });
  return w.finish().slice();
}

/** The one signature of input `i`'s RCD1 signature block (encode, validate and the signature checks share it). */
function signatureOf(block: readonly Uint8Array[], i: number): Uint8Array {
  if (block.length !== 1 || block[0]!.length !== SIGNATURE_SIZE)
    throw new ProtocolError(
      "BAD_SIGNATURE",
      `transaction.signatures[${i}]`,
      "an RCD1 signature block holds exactly one 64-byte signature",
    );
  return block[0]!;
}

function checkRcd1(rcd: Uint8Array, i: number): void {
  if (rcd.length === 0 || rcd[0] !== RCD_TYPE_1)
    throw new ProtocolError("BAD_RCD", `transaction.rcds[${i}]`, `RCD type ${rcd[0]} is not supported (only type 1)`);
  if (rcd.length !== RCD1_SIZE)
    throw new ProtocolError("BAD_RCD", `transaction.rcds[${i}]`, `an RCD1 is ${RCD1_SIZE} bytes, got ${rcd.length}`);
}

/** txid = sha256(signed part). */
export function transactionId(tx: Transaction): Uint8Array {
  return sha256(tx.signedPart);
}

/** Full hash = sha256(raw). For a coinbase (no inputs) equals the txid. */
export function transactionFullHash(tx: Transaction): Uint8Array {
  return sha256(tx.raw);
}

/** Fee in EC: ceil(len(raw)/1024) + 10 × (outputs + EC outputs) + one per RCD1 signature. */
export function transactionFeeEC(tx: Transaction): number {
  return Math.ceil(tx.raw.length / 1024) + 10 * (tx.outputs.length + tx.ecOutputs.length) + tx.rcds.length;
}

function sumAmounts(list: readonly TxIo[], field: string, start = 0n): bigint {
  let sum = start;
  list.forEach((io, i) => {
    if (io.amount < 0n || io.amount >= AMOUNT_LIMIT)
      throw new ProtocolError(
        "BAD_VALUE",
        `transaction.${field}[${i}].amount`,
        `amount ${io.amount} outside 0..2^63-1 base units`,
      );
    sum += io.amount;
    if (sum >= AMOUNT_LIMIT)
      throw new ProtocolError("BAD_VALUE", `transaction.${field}`, "sum of amounts reaches 2^63 base units");
  });
  return sum;
}

/**
 * Stateless validity (§4.3 rules 1, 3, 4 at `rate` base units per EC): ≥ 1 input; RCD count == input count;
 * input address == sha256d(RCD); sums < 2^63; inputs ≥ outputs + EC outputs + fee. Throws ProtocolError naming the rule.
 * Does NOT verify signatures (see verifyTransactionSignatures) — the ledger batches those in the worker pool.
 */
export function validateTransaction(tx: Transaction, rate: bigint): void {
  if (tx.raw.length > MAX_TRANSACTION_SIZE)
    throw new ProtocolError("TOO_LARGE", "transaction", `${tx.raw.length} bytes, the limit is ${MAX_TRANSACTION_SIZE}`);
  if (tx.inputs.length === 0)
    throw new ProtocolError(
      "BAD_VALUE",
      "transaction.inputs",
      "a transaction other than the coinbase needs at least one input",
    );
  checkAuthorisationCounts(tx);
  tx.rcds.forEach((rcd, i) => {
    checkRcd1(rcd, i);
    if (!bytesEqual(sha256d(rcd), tx.inputs[i]!.address))
      throw new ProtocolError("BAD_RCD", `transaction.inputs[${i}].address`, `does not match the hash of RCD ${i}`);
    signatureOf(tx.signatures[i]!, i);
  });
  const totalIn = sumAmounts(tx.inputs, "inputs");
  const totalOut = sumAmounts(tx.ecOutputs, "ecOutputs", sumAmounts(tx.outputs, "outputs"));
  if (rate < 0n) throw new ProtocolError("BAD_VALUE", "rate", `exchange rate ${rate} is negative`);
  const fee = BigInt(transactionFeeEC(tx)) * rate;
  if (totalIn < totalOut + fee)
    throw new ProtocolError(
      "BAD_VALUE",
      "transaction.inputs",
      `inputs ${totalIn} do not cover outputs ${totalOut} + fee ${fee} base units (${transactionFeeEC(tx)} EC at ${rate})`,
    );
}

/** The (publicKey, message, signature) triples that must all verify for the transaction to be valid. */
export function transactionSignatureChecks(
  tx: Transaction,
): { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }[] {
  if (tx.rcds.length !== tx.inputs.length || tx.signatures.length !== tx.inputs.length)
    throw new ProtocolError("BAD_RCD", "transaction.rcds", "every input needs one RCD and one signature block");
  return tx.rcds.map((rcd, i) => {
    checkRcd1(rcd, i);
    return {
      publicKey: rcd.subarray(1, RCD1_SIZE),
      message: tx.signedPart,
      signature: signatureOf(tx.signatures[i]!, i),
    };
  });
}

/** True when every RCD1 signature verifies over the signed part (canonical rule). */
export function verifyTransactionSignatures(tx: Transaction): boolean {
  let checks: ReturnType<typeof transactionSignatureChecks>;
  try {
    checks = transactionSignatureChecks(tx);
  } catch {
    return false;
  }
  return checks.every((c) => verifyEd25519(c.publicKey, c.message, c.signature));
}

/** Build and sign a transaction with RCD1 inputs (tools, tests, load generator). Amounts in base units. */
export function buildTransaction(args: {
  milliTimestamp: number;
  inputs: { seed: Uint8Array; amount: bigint }[];
  outputs: TxIo[]; // address = RCD hash
  ecOutputs: TxIo[]; // address = EC public key
}): Transaction {
  const keys = args.inputs.map((input, i) => {
    if (!(input.seed instanceof Uint8Array) || input.seed.length !== 32)
      throw new ProtocolError("BAD_LENGTH", `transaction.inputs[${i}].seed`, "expected a 32-byte ed25519 seed");
    return publicKeyFromSeed(input.seed);
  });
  const unsigned: UnsignedFields = {
    version: TRANSACTION_VERSION,
    milliTimestamp: args.milliTimestamp,
    inputs: args.inputs.map((input, i) => ({ amount: input.amount, address: rcd1Hash(keys[i]!) })),
    outputs: args.outputs.map((o) => ({ amount: o.amount, address: o.address.slice() })),
    ecOutputs: args.ecOutputs.map((o) => ({ amount: o.amount, address: o.address.slice() })),
  };
  const signedPart = encodeTransactionSignedPart(unsigned);
  const rcds = keys.map((k) => rcd1(k));
  const signatures = args.inputs.map((input) => [signEd25519(input.seed, signedPart)]);
  const raw = encodeTransaction({ ...unsigned, rcds, signatures });
  return { ...unsigned, rcds, signatures, raw, signedPart: raw.subarray(0, signedPart.length) };
}
