/**
 * `[App] ExchangeRate` is informational: the entry-credit rate of a network comes from its genesis block
 * (LOCAL and CUSTOM: 1000 base units per entry credit) and the rate changes recorded in its blocks, never
 * from a node's file — nodes of one network that disagreed on it would disagree on every balance. The field
 * stays in the file format and in `configuration` (the reference has it); a file that sets it to something
 * else than the default and than the network's rate gets a warning at start, so it never silently does nothing.
 */
import { fileInt } from "./ini.js";
/** The field's default (factomd's built-in configuration, "00100000"), base units per entry credit. */
const DEFAULT_EXCHANGE_RATE = 100_000;
/**
 * The warning for a configured ExchangeRate that differs from the default and from `networkRate` (base units
 * per entry credit, as the ledger reports it); undefined when there is nothing to say.
 */
export function exchangeRateWarning(config, networkRate) {
    const configured = fileInt(config.file, "App", "ExchangeRate");
    if (configured === null || configured === DEFAULT_EXCHANGE_RATE || BigInt(configured) === networkRate)
        return undefined;
    return {
        message: "[App] ExchangeRate is informational: the entry-credit rate comes from the network's blocks, not from the file",
        fields: { configured, networkRate: Number(networkRate) },
    };
}
//# sourceMappingURL=exchangeRate.js.map