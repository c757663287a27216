/**
 * Balance methods (spec §4.1, §4.1.4; reference api-behavior §6.1–6.3). Asset amounts are base units
 * (10^-8 asset unit), entry credit amounts are entry credits.
 */
import type { Balance } from "../../ledger/api.js";
import { isValidAddress } from "../../protocol/address.js";
import { jsonInteger } from "../../protocol/json/transactionJson.js";
import type { RpcContext } from "../context.js";
import { invalidParams } from "../errors.js";
import { addressFromText, expectAddress, jsonType, Params, type PublicAddressKind } from "../params.js";

/** `entry-credit-balance` {address}: EC… or 64-hex public key → balance in entry credits, in-flight included. */
export function entryCreditBalance(params: unknown, ctx: RpcContext) {
  const { key, hex } = expectAddress(params, "address", "EC", ctx.addresses);
  return { balance: jsonInteger(ctx.ledger.ecBalance(key, hex).ack) };
}

/** `asset-balance` {address}: FA… or 64-hex RCD hash → balance in base units, in-flight included. */
export function assetBalance(params: unknown, ctx: RpcContext) {
  const { key, hex } = expectAddress(params, "address", "FA", ctx.addresses);
  return { balance: jsonInteger(ctx.ledger.assetBalance(key, hex).ack) };
}

/** Per-item `err` texts of spec §4.1.4 (clients compare them). */
export const BalanceListError = {
  notBooted: "Not fully booted",
  decoding: "Error decoding address",
  unused: "Address has not had a transaction",
} as const;

/** `data` of condition 4 (the reference node's texts). */
const PARAMS_NOT_OBJECT = "ERROR! Invalid params passed in";
const PARAMS_NO_ADDRESSES = "ERROR! Invalid params passed in, expected 'addresses'";

interface BalanceItem {
  ack: number | bigint;
  saved: number | bigint;
  err: string;
}

/**
 * Most addresses in one multiple-*-balances call. Each costs ~25 µs of main thread (decode, checksum, lookup):
 * a 1 MiB body of ~19,000 addresses held the main thread ~0.5 s and pushed two looping clients' median latency
 * to 722 ms (issue 19). 1000 keep one call near 25 ms; a batch yields between calls (jsonrpc.ts).
 */
export const MAX_BALANCE_ADDRESSES = 1000;

function onlyItem(err: string) {
  return { currentheight: 0, lastsavedheight: 0, balances: [{ ack: 0, saved: 0, err }] };
}

/**
 * Conditions of spec §4.1.4, checked in this order:
 * 4. params not an object, or no `addresses` member → -32602 with data saying so;
 * 5. `addresses` not an array of strings → -32602 naming the member (the reference: -32600 with id null, kept
 *    by the spec for JSON that cannot be read as a request; docs/compat.md);
 * 1. node still loading → heights 0 and one item "Not fully booted";
 * 2. any malformed address (human-readable form only; "" included) → heights 0 and one item "Error decoding address";
 * 3. an address never used → its item is {0, 0, "Address has not had a transaction"};
 * otherwise ack (in-flight included) and saved (last saved block), err "".
 */
function balanceList(params: unknown, ctx: RpcContext, kind: PublicAddressKind, lookup: (key: Uint8Array) => Balance) {
  if (params === null || typeof params !== "object" || Array.isArray(params)) throw invalidParams(PARAMS_NOT_OBJECT);
  const addresses = new Params(params).get("addresses");
  if (addresses === undefined) throw invalidParams(PARAMS_NO_ADDRESSES);
  if (!Array.isArray(addresses))
    throw invalidParams(`addresses: expected an array of address strings, got ${jsonType(addresses)}`);
  const bad = addresses.findIndex((a) => typeof a !== "string");
  if (bad >= 0) throw invalidParams(`addresses[${bad}]: expected an address string, got ${jsonType(addresses[bad])}`);
  if (addresses.length > MAX_BALANCE_ADDRESSES)
    throw invalidParams(
      `addresses: at most ${MAX_BALANCE_ADDRESSES} per call, got ${addresses.length}; split the list into several calls`,
    );
  const texts = addresses as string[];

  if (!ctx.ledger.isBooted()) return onlyItem(BalanceListError.notBooted);
  if (texts.some((t) => !isValidAddress(t, kind))) return onlyItem(BalanceListError.decoding);
  if (texts.length === 0) return { currentheight: 0, lastsavedheight: 0, balances: [] };

  const heights = ctx.ledger.heights();
  const balances: BalanceItem[] = texts.map((t) => {
    const b = lookup(addressFromText(t, "addresses", kind, false));
    if (!b.seen) return { ack: 0, saved: 0, err: BalanceListError.unused };
    return { ack: jsonInteger(b.ack), saved: jsonInteger(b.saved), err: "" };
  });
  return { currentheight: heights.leaderHeight, lastsavedheight: heights.directoryBlockHeight, balances };
}

/** `multiple-ec-balances` {addresses: [EC…]}. */
export function multipleEcBalances(params: unknown, ctx: RpcContext) {
  return balanceList(params, ctx, "EC", (k) => ctx.ledger.ecBalance(k));
}

/** `multiple-asset-balances` {addresses: [FA…]}: amounts in base units. */
export function multipleAssetBalances(params: unknown, ctx: RpcContext) {
  return balanceList(params, ctx, "FA", (k) => ctx.ledger.assetBalance(k));
}
