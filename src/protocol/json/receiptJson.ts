// JSON view of a receipt (spec §2.8; reference api-behavior §4.4, wire-format §5.6).
import { fromHex, toHex } from "../bytes.js";
import { ProtocolError } from "../errors.js";
import type { MerkleNode } from "../merkle.js";
import type { Receipt } from "../receipt.js";

/** `receipt` object of the `receipt` method (the rpc layer wraps it as `{receipt: …}`). */
export interface ReceiptJson {
  entry: {
    entryhash: string;
    /** seconds since epoch: end of the entry's minute; present when known and not 0 (as the reference) */
    timestamp?: number;
    /** the marshalled entry as hex, only when asked for (`includerawentry`) */
    raw?: string;
  };
  merklebranch: { left: string; right: string; top: string }[];
  entryblockkeymr: string;
  directoryblockkeymr: string;
  /** no anchoring into an external chain exists: always "" */
  anchortransactionhash: string;
  /** no anchoring into an external chain exists: always "" */
  anchorblockhash: string;
  directoryblockheight: number;
}

/** JSON of `receipt`; `raw` = the marshalled entry when the caller asked for it. */
export function receiptToJson(receipt: Receipt, options: { raw?: Uint8Array } = {}): ReceiptJson {
  const entry: ReceiptJson["entry"] = { entryhash: toHex(receipt.entryHash) };
  if (receipt.entryTimestamp !== undefined && receipt.entryTimestamp !== 0) entry.timestamp = receipt.entryTimestamp;
  if (options.raw !== undefined) entry.raw = toHex(options.raw);
  return {
    entry,
    merklebranch: receipt.merkleBranch.map((n) => ({ left: toHex(n.left), right: toHex(n.right), top: toHex(n.top) })),
    entryblockkeymr: toHex(receipt.entryBlockKeyMR),
    directoryblockkeymr: toHex(receipt.directoryBlockKeyMR),
    anchortransactionhash: "",
    anchorblockhash: "",
    directoryblockheight: receipt.directoryBlockHeight,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hash(obj: Record<string, unknown>, key: string, field: string): Uint8Array {
  const v = obj[key];
  if (typeof v !== "string") throw new ProtocolError("BAD_VALUE", field, "expected a 64-character hex string");
  return fromHex(v, field, 32);
}

/**
 * Read a receipt in the JSON shape above (or the reference node's, whose full-detail nodes are the same and
 * whose anchor fields are ignored) so that it can be checked with verifyReceipt. Throws ProtocolError naming
 * the field on anything malformed; `directoryblockheight` defaults to 0 when absent (the reference omits 0).
 */
export function receiptFromJson(json: unknown): Receipt {
  if (!isObject(json)) throw new ProtocolError("BAD_VALUE", "receipt", "expected an object");
  const entry = json.entry;
  if (!isObject(entry)) throw new ProtocolError("BAD_VALUE", "receipt.entry", "expected an object");
  const branch = json.merklebranch;
  if (!Array.isArray(branch)) throw new ProtocolError("BAD_VALUE", "receipt.merklebranch", "expected an array");
  const merkleBranch: MerkleNode[] = branch.map((node: unknown, i) => {
    const field = `receipt.merklebranch[${i}]`;
    if (!isObject(node)) throw new ProtocolError("BAD_VALUE", field, "expected an object");
    return {
      left: hash(node, "left", `${field}.left`),
      right: hash(node, "right", `${field}.right`),
      top: hash(node, "top", `${field}.top`),
    };
  });
  const height = json.directoryblockheight ?? 0;
  if (typeof height !== "number" || !Number.isSafeInteger(height) || height < 0)
    throw new ProtocolError("BAD_VALUE", "receipt.directoryblockheight", "expected a non-negative integer");
  const receipt: Receipt = {
    entryHash: hash(entry, "entryhash", "receipt.entry.entryhash"),
    merkleBranch,
    entryBlockKeyMR: hash(json, "entryblockkeymr", "receipt.entryblockkeymr"),
    directoryBlockKeyMR: hash(json, "directoryblockkeymr", "receipt.directoryblockkeymr"),
    directoryBlockHeight: height,
  };
  if (entry.timestamp !== undefined) {
    if (typeof entry.timestamp !== "number" || !Number.isSafeInteger(entry.timestamp))
      throw new ProtocolError("BAD_VALUE", "receipt.entry.timestamp", "expected an integer (seconds)");
    receipt.entryTimestamp = entry.timestamp;
  }
  return receipt;
}
