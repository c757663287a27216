/**
 * Debug methods that read or change settings (spec §4.2): configuration, reload-configuration, drop-rate,
 * set-drop-rate, delay, set-delay. Drop rate (per mille) and delay (ms) live in the API's message intake
 * and act on every write method from the next call on. Every change is logged at warning level with the
 * caller (a dropped or delayed write is refused or kept, never acknowledged and lost: intake.ts).
 */
import { configurationView } from "../../config/view.js";
import { MAX_DELAY_MS, MAX_DROP_RATE } from "../intake.js";
import { expectInteger, Params } from "../params.js";
import { callerOf } from "./access.js";
/** `configuration`: the spec §4.2.1 groups with the values in effect; secrets redacted. */
export function configuration(_params, ctx) {
    return configurationView(ctx.getConfig());
}
/**
 * `reload-configuration`: re-read the configuration file, apply what can change while running (log levels,
 * RPC credentials, CORS, drop rate, delay), and answer like `configuration`. Settings that need a restart
 * are logged at warning level. A bad file is an error and changes nothing.
 */
export function reloadConfiguration(_params, ctx) {
    const before = ctx.getConfig();
    // A broken file throws ConfigError, which rpc/errors.ts answers with its message (-32000).
    const result = ctx.reloadConfig();
    const after = result.config;
    if (after.dropRatePerMille !== before.dropRatePerMille)
        changeDropRate(ctx, after.dropRatePerMille, "reload-configuration");
    if (after.delayMs !== before.delayMs)
        changeDelay(ctx, after.delayMs, "reload-configuration");
    if (result.restartNeeded.length > 0)
        ctx.log.warn("configuration changes need a restart", { fields: result.restartNeeded });
    ctx.log.warn("configuration reloaded", { file: after.configFile, ...callerOf(ctx) });
    return configurationView(after);
}
/** `drop-rate`: {DropRate} — messages dropped per 1000. */
export function dropRate(_params, ctx) {
    return { DropRate: ctx.intake.dropRatePerMille };
}
/** `set-drop-rate` {DropRate: 0..1000}: {DropRate: the new value}. */
export function setDropRate(params, ctx) {
    const value = expectInteger(new Params(params), "DropRate", { min: 0, max: MAX_DROP_RATE });
    return { DropRate: changeDropRate(ctx, value, "set-drop-rate") };
}
/** `delay`: {Delay} — ms each submitted message waits before the ledger sees it. */
export function delay(_params, ctx) {
    return { Delay: ctx.intake.delayMs };
}
/** `set-delay` {Delay: 0..60000 ms}: {Delay: the new value}. */
export function setDelay(params, ctx) {
    const value = expectInteger(new Params(params), "Delay", { min: 0, max: MAX_DELAY_MS });
    return { Delay: changeDelay(ctx, value, "set-delay") };
}
function changeDropRate(ctx, perMille, method) {
    const from = ctx.intake.dropRatePerMille;
    const to = ctx.intake.setDropRate(perMille);
    ctx.log.warn("debug drop rate changed", { method, from, to, unit: "per mille", ...callerOf(ctx) });
    return to;
}
function changeDelay(ctx, ms, method) {
    const from = ctx.intake.delayMs;
    const to = ctx.intake.setDelay(ms);
    ctx.log.warn("debug delay changed", { method, from, to, unit: "ms", ...callerOf(ctx) });
    return to;
}
//# sourceMappingURL=settings.js.map