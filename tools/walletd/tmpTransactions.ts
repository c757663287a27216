/**
 * Transactions under construction (new-transaction … sign-transaction, compose-transaction): named, in memory
 * only (as the reference's), in the order they were created. Inputs are the wallet's FA… addresses; outputs FA…,
 * EC outputs EC… addresses; amounts in base units. Changing a signed transaction drops its signatures.
 */

import type { WalletTransaction, WalletTxIo } from "../../src/client/walletMethods.js";
import { decodeAddress } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { sha256 } from "../../src/protocol/hash.js";
import {
  AMOUNT_LIMIT,
  buildTransaction,
  encodeTransactionSignedPart,
  RCD1_SIZE,
  SIGNATURE_SIZE,
  TRANSACTION_VERSION,
  type Transaction,
  transactionId,
} from "../../src/protocol/transaction.js";
import { invalidParams } from "./errors.js";

/** The reference's rule for a transaction name (wallet transaction.go NewTransaction): 1–32 of [A-Za-z0-9_-]. */
const NAME_RE = /^[A-Za-z0-9_-]{1,32}$/;
/** Most transactions under construction at once: each is small, but a caller must not grow memory without end. */
export const MAX_TMP_TRANSACTIONS = 1000;
/** Most inputs, outputs and EC outputs of one transaction (a u8 count each, wire-format §4.1). */
const MAX_IO = 255;

export interface TmpIo {
  /** FA… or EC… address as given */
  address: string;
  /** 32 bytes: RCD hash (FA) or EC public key */
  key: Uint8Array;
  amount: bigint;
}

export interface TmpTransaction {
  name: string;
  milliTimestamp: number;
  inputs: TmpIo[];
  outputs: TmpIo[];
  ecOutputs: TmpIo[];
  /** the signed transaction, while nothing changed since sign-transaction */
  signed: Transaction | undefined;
}

/** An amount param: a safe non-negative JSON integer or a decimal string, below 2^63 base units. */
export function parseAmount(value: unknown, field = "amount"): bigint {
  let n: bigint;
  if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^\d{1,19}$/.test(value)) n = BigInt(value);
  else
    throw invalidParams(
      `${field}: expected a whole number of base units (a JSON integer below 2^53, or a decimal string), got ${JSON.stringify(value)}`,
    );
  if (n < 0n || n >= AMOUNT_LIMIT) throw invalidParams(`${field}: ${n} is not in 0..2^63-1 base units`);
  return n;
}

/** A public address of `kind`, decoded, or -32602 naming the param and the reason. */
export function expectAddress(value: unknown, kind: "FA" | "EC", field = "address"): Uint8Array {
  if (typeof value !== "string") throw invalidParams(`${field}: expected an ${kind}… address string`);
  try {
    return decodeAddress(value, kind, field).key;
  } catch (e) {
    if (e instanceof ProtocolError)
      throw invalidParams(`${field}: ${value} is not a valid ${kind} address (${e.detail})`);
    throw e;
  }
}

export class TmpTransactions {
  private readonly byName = new Map<string, TmpTransaction>();

  create(name: unknown, now: number): TmpTransaction {
    if (typeof name !== "string" || !NAME_RE.test(name))
      throw invalidParams(`tx-name: ${JSON.stringify(name)} is not a valid name (1 to 32 of A-Z a-z 0-9 _ -)`);
    if (this.byName.has(name)) throw invalidParams(`tx-name: a transaction named ${name} already exists`);
    if (this.byName.size >= MAX_TMP_TRANSACTIONS)
      throw invalidParams(`tx-name: ${MAX_TMP_TRANSACTIONS} transactions are under construction; delete some first`);
    const tx: TmpTransaction = { name, milliTimestamp: now, inputs: [], outputs: [], ecOutputs: [], signed: undefined };
    this.byName.set(name, tx);
    return tx;
  }

  get(name: unknown): TmpTransaction {
    const tx = typeof name === "string" ? this.byName.get(name) : undefined;
    if (tx === undefined)
      throw invalidParams(
        `tx-name: no transaction named ${JSON.stringify(name)} is under construction (tmp-transactions lists them)`,
      );
    return tx;
  }

  delete(name: unknown): void {
    this.get(name);
    this.byName.delete(name as string);
  }

  all(): TmpTransaction[] {
    return [...this.byName.values()];
  }
}

/** Add to a list, or set the amount of the entry already there for that address (as the reference does). */
export function setIo(tx: TmpTransaction, list: "inputs" | "outputs" | "ecOutputs", io: TmpIo): void {
  const items = tx[list];
  const existing = items.find((i) => i.address === io.address);
  if (existing !== undefined) existing.amount = io.amount;
  else {
    if (items.length >= MAX_IO) throw invalidParams(`a transaction holds at most ${MAX_IO} ${list}`);
    items.push(io);
  }
  tx.signed = undefined;
}

export function total(list: readonly TmpIo[]): bigint {
  return list.reduce((s, io) => s + io.amount, 0n);
}

function unsignedFields(tx: TmpTransaction) {
  return {
    version: TRANSACTION_VERSION,
    milliTimestamp: tx.milliTimestamp,
    inputs: tx.inputs.map((i) => ({ amount: i.amount, address: i.key })),
    outputs: tx.outputs.map((o) => ({ amount: o.amount, address: o.key })),
    ecOutputs: tx.ecOutputs.map((o) => ({ amount: o.amount, address: o.key })),
  };
}

/** Hash of the signed part as the transaction stands: its txid once signed. */
export function tmpTxId(tx: TmpTransaction): string {
  return toHex(sha256(encodeTransactionSignedPart(unsignedFields(tx))));
}

/**
 * Entry credits of the fee (transactionFeeEC of the signed transaction): its size is known before signing, since
 * every input gets one RCD1 and one 64-byte signature.
 */
export function tmpFeeEC(tx: TmpTransaction): number {
  const size = encodeTransactionSignedPart(unsignedFields(tx)).length + tx.inputs.length * (RCD1_SIZE + SIGNATURE_SIZE);
  return Math.ceil(size / 1024) + 10 * (tx.outputs.length + tx.ecOutputs.length) + tx.inputs.length;
}

/** Sign with the inputs' seeds (in input order); the txid is checked against the one computed unsigned. */
export function signTmp(tx: TmpTransaction, seeds: Uint8Array[]): Transaction {
  const signed = buildTransaction({
    milliTimestamp: tx.milliTimestamp,
    inputs: tx.inputs.map((i, n) => ({ seed: seeds[n]!, amount: i.amount })),
    outputs: tx.outputs.map((o) => ({ amount: o.amount, address: o.key })),
    ecOutputs: tx.ecOutputs.map((o) => ({ amount: o.amount, address: o.key })),
  });
  if (toHex(transactionId(signed)) !== tmpTxId(tx))
    throw invalidParams(`tx-name: ${tx.name}: a key does not match its input`);
  tx.signed = signed;
  return signed;
}

function ioJson(list: readonly TmpIo[]): WalletTxIo[] {
  return list.map((io) => ({ address: io.address, amount: Number(io.amount) }));
}

/** The reference's factom.Transaction view of a transaction under construction. */
export function tmpTxJson(tx: TmpTransaction, rate: bigint | undefined): WalletTransaction {
  const ins = total(tx.inputs);
  const outs = total(tx.outputs);
  const ecs = total(tx.ecOutputs);
  const view: WalletTransaction = {
    name: tx.name,
    txid: tmpTxId(tx),
    timestamp: new Date(tx.milliTimestamp).toISOString(),
    signed: tx.signed !== undefined,
    totalinputs: Number(ins),
    totaloutputs: Number(outs),
    totalecoutputs: Number(ecs),
    inputs: ioJson(tx.inputs),
    outputs: ioJson(tx.outputs),
    ecoutputs: ioJson(tx.ecOutputs),
  };
  if (ins > outs + ecs) view.feespaid = Number(ins - outs - ecs);
  if (rate !== undefined) view.feesrequired = Number(BigInt(tmpFeeEC(tx)) * rate);
  return view;
}
