import { isValidAddress } from "../../protocol/address.js";
import { jsonInteger } from "../../protocol/json/transactionJson.js";
import { invalidParams, invalidRequest } from "../errors.js";
import { addressFromText, expectAddress, jsonType, Params } from "../params.js";
/** `entry-credit-balance` {address}: EC… or 64-hex public key → balance in entry credits, in-flight included. */
export function entryCreditBalance(params, ctx) {
    return { balance: jsonInteger(ctx.ledger.ecBalance(expectAddress(params, "address", "EC")).ack) };
}
/** `asset-balance` {address}: FA… or 64-hex RCD hash → balance in base units, in-flight included. */
export function assetBalance(params, ctx) {
    return { balance: jsonInteger(ctx.ledger.assetBalance(expectAddress(params, "address", "FA")).ack) };
}
/** Per-item `err` texts of spec §4.1.4 (clients compare them). */
export const BalanceListError = {
    notBooted: "Not fully booted",
    decoding: "Error decoding address",
    unused: "Address has not had a transaction",
};
/** `data` of condition 4 (the reference node's texts). */
const PARAMS_NOT_OBJECT = "ERROR! Invalid params passed in";
const PARAMS_NO_ADDRESSES = "ERROR! Invalid params passed in, expected 'addresses'";
function onlyItem(err) {
    return { currentheight: 0, lastsavedheight: 0, balances: [{ ack: 0, saved: 0, err }] };
}
/**
 * Conditions of spec §4.1.4, checked in this order:
 * 4. params not an object, or no `addresses` member → -32602 with data saying so;
 * 5. `addresses` not an array of strings (the call's JSON is structurally broken) → -32600, id null;
 * 1. node still loading → heights 0 and one item "Not fully booted";
 * 2. any malformed address (human-readable form only; "" included) → heights 0 and one item "Error decoding address";
 * 3. an address never used → its item is {0, 0, "Address has not had a transaction"};
 * otherwise ack (in-flight included) and saved (last saved block), err "".
 */
function balanceList(params, ctx, kind, lookup) {
    if (params === null || typeof params !== "object" || Array.isArray(params))
        throw invalidParams(PARAMS_NOT_OBJECT);
    const addresses = new Params(params).get("addresses");
    if (addresses === undefined)
        throw invalidParams(PARAMS_NO_ADDRESSES);
    if (!Array.isArray(addresses))
        throw invalidRequest(`addresses: expected an array of address strings, got ${jsonType(addresses)}`);
    const bad = addresses.findIndex((a) => typeof a !== "string");
    if (bad >= 0)
        throw invalidRequest(`addresses[${bad}]: expected an address string, got ${jsonType(addresses[bad])}`);
    const texts = addresses;
    if (!ctx.ledger.isBooted())
        return onlyItem(BalanceListError.notBooted);
    if (texts.some((t) => !isValidAddress(t, kind)))
        return onlyItem(BalanceListError.decoding);
    if (texts.length === 0)
        return { currentheight: 0, lastsavedheight: 0, balances: [] };
    const heights = ctx.ledger.heights();
    const balances = texts.map((t) => {
        const b = lookup(addressFromText(t, "addresses", kind, false));
        if (!b.seen)
            return { ack: 0, saved: 0, err: BalanceListError.unused };
        return { ack: jsonInteger(b.ack), saved: jsonInteger(b.saved), err: "" };
    });
    return { currentheight: heights.leaderHeight, lastsavedheight: heights.directoryBlockHeight, balances };
}
/** `multiple-ec-balances` {addresses: [EC…]}. */
export function multipleEcBalances(params, ctx) {
    return balanceList(params, ctx, "EC", (k) => ctx.ledger.ecBalance(k));
}
/** `multiple-asset-balances` {addresses: [FA…]}: amounts in base units. */
export function multipleAssetBalances(params, ctx) {
    return balanceList(params, ctx, "FA", (k) => ctx.ledger.assetBalance(k));
}
//# sourceMappingURL=balances.js.map