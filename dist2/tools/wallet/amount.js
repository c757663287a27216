/**
 * Asset amounts as exact decimals. Users type asset units ("1.5"); the protocol counts base units
 * (10^-8 asset unit, spec §1 rule 6). Conversion is string ↔ bigint only, never through a float.
 */
/** Base units per asset unit (spec §1 rule 6). */
export const BASE_UNITS_PER_ASSET = 100000000n;
/** Decimal places of an asset amount. */
export const ASSET_DECIMALS = 8;
/** Amounts and sums of a transaction must stay below 2^63 (wire-format §4.1). */
export const MAX_AMOUNT = (1n << 63n) - 1n;
/** Why an amount string was refused; `message` is a full sentence naming the field. */
export class AmountError extends Error {
    constructor(message) {
        super(message);
        this.name = "AmountError";
    }
}
const DECIMAL_RE = /^(\d*)(?:\.(\d*))?$/;
/**
 * Parse an asset amount in asset units ("10", "1.5", "0.00000001", ".5") into base units.
 * Refuses signs, exponents, separators, more than 8 decimals, zero (unless allowZero), and ≥ 2^63.
 * @param field name used in messages, e.g. "amount"
 */
export function parseAssetAmount(text, field = "amount", allowZero = false) {
    const s = text.trim();
    const m = DECIMAL_RE.exec(s);
    if (s === "" || s === "." || m === null)
        throw new AmountError(`${field}: ${JSON.stringify(text)} is not a decimal number of asset units (examples: 10, 1.5, 0.001)`);
    const whole = m[1] ?? "";
    const frac = m[2] ?? "";
    if (frac.length > ASSET_DECIMALS)
        throw new AmountError(`${field}: ${JSON.stringify(text)} has ${frac.length} decimal places; at most ${ASSET_DECIMALS} are possible (1 base unit = 0.00000001)`);
    const base = BigInt(whole === "" ? "0" : whole) * BASE_UNITS_PER_ASSET +
        BigInt((frac + "0".repeat(ASSET_DECIMALS)).slice(0, ASSET_DECIMALS));
    if (base === 0n && !allowZero)
        throw new AmountError(`${field}: must be greater than 0`);
    if (base > MAX_AMOUNT)
        throw new AmountError(`${field}: ${text} is larger than the protocol allows (below 2^63 base units)`);
    return base;
}
/** Base units → asset units as a decimal string without trailing zeros ("150000000" → "1.5", "0" → "0"). */
export function formatAssetAmount(baseUnits) {
    const negative = baseUnits < 0n;
    const abs = negative ? -baseUnits : baseUnits;
    const whole = abs / BASE_UNITS_PER_ASSET;
    const frac = (abs % BASE_UNITS_PER_ASSET).toString().padStart(ASSET_DECIMALS, "0").replace(/0+$/, "");
    return `${negative ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`;
}
/** Parse a whole number of entry credits (> 0). */
export function parseEcAmount(text, field = "entry credits") {
    const s = text.trim();
    if (!/^\d+$/.test(s))
        throw new AmountError(`${field}: ${JSON.stringify(text)} is not a whole number of entry credits`);
    const n = BigInt(s);
    if (n === 0n)
        throw new AmountError(`${field}: must be greater than 0`);
    if (n > MAX_AMOUNT)
        throw new AmountError(`${field}: ${text} is too large`);
    return n;
}
//# sourceMappingURL=amount.js.map