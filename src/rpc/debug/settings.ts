/**
 * Debug methods that read or change settings (spec §4.2): configuration, reload-configuration, drop-rate,
 * set-drop-rate, delay, set-delay. Drop rate (per mille) and delay (ms) live in the API's message intake
 * and act on every write method from the next call on. Every change is logged at warning level with the
 * caller (a dropped or delayed write is refused or kept, never acknowledged and lost: intake.ts).
 */
import { ConfigError } from "../../config/errors.js";
import { GROUPS } from "../../config/fields.js";
import { configurationView } from "../../config/view.js";
import type { RpcContext } from "../context.js";
import { serverError } from "../errors.js";
import { MAX_DELAY_MS, MAX_DROP_RATE } from "../intake.js";
import { expectInteger, Params } from "../params.js";
import { callerOf } from "./access.js";

/** `configuration`: the spec §4.2.1 groups with the values in effect; secrets redacted. */
export function configuration(_params: unknown, ctx: RpcContext) {
  return configurationView(ctx.getConfig());
}

/**
 * `reload-configuration`: re-read the configuration file, apply what can change while running (log levels,
 * RPC credentials, CORS, drop rate, delay), and answer like `configuration`. Settings that need a restart
 * are logged at warning level. A bad file is an error and changes nothing.
 */
export function reloadConfiguration(_params: unknown, ctx: RpcContext) {
  const before = ctx.getConfig();
  let result: ReturnType<RpcContext["reloadConfig"]>;
  try {
    result = ctx.reloadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // The whole message (which may quote a line of the file, secrets included) goes to the node's log only.
    ctx.log.warn("reload-configuration: the file was refused, nothing changed", { error: e.message, ...callerOf(ctx) });
    throw serverError("Configuration error", valueFreeDescription(e));
  }
  const after = result.config;
  if (after.dropRatePerMille !== before.dropRatePerMille)
    changeDropRate(ctx, after.dropRatePerMille, "reload-configuration");
  if (after.delayMs !== before.delayMs) changeDelay(ctx, after.delayMs, "reload-configuration");
  if (result.restartNeeded.length > 0)
    ctx.log.warn("configuration changes need a restart", { fields: result.restartNeeded });
  ctx.log.warn("configuration reloaded", { file: after.configFile, ...callerOf(ctx) });
  return configurationView(after);
}

/** `drop-rate`: {DropRate} — messages dropped per 1000. */
export function dropRate(_params: unknown, ctx: RpcContext) {
  return { DropRate: ctx.intake.dropRatePerMille };
}

/** `set-drop-rate` {DropRate: 0..1000}: {DropRate: the new value}. */
export function setDropRate(params: unknown, ctx: RpcContext) {
  const value = expectInteger(new Params(params), "DropRate", { min: 0, max: MAX_DROP_RATE });
  return { DropRate: changeDropRate(ctx, value, "set-drop-rate") };
}

/** `delay`: {Delay} — ms each submitted message waits before the ledger sees it. */
export function delay(_params: unknown, ctx: RpcContext) {
  return { Delay: ctx.intake.delayMs };
}

/** `set-delay` {Delay: 0..60000 ms}: {Delay: the new value}. */
export function setDelay(params: unknown, ctx: RpcContext) {
  const value = expectInteger(new Params(params), "Delay", { min: 0, max: MAX_DELAY_MS });
  return { Delay: changeDelay(ctx, value, "set-delay") };
}

function changeDropRate(ctx: RpcContext, perMille: number, method: string): number {
  const from = ctx.intake.dropRatePerMille;
  const to = ctx.intake.setDropRate(perMille);
  ctx.log.warn("debug drop rate changed", { method, from, to, unit: "per mille", ...callerOf(ctx) });
  return to;
}

function changeDelay(ctx: RpcContext, ms: number, method: string): number {
  const from = ctx.intake.delayMs;
  const to = ctx.intake.setDelay(ms);
  ctx.log.warn("debug delay changed", { method, from, to, unit: "ms", ...callerOf(ctx) });
  return to;
}

/**
 * A refused configuration file, described without any value from it: file, line, field and what was
 * expected (the type, never the value found).
 */
function valueFreeDescription(e: ConfigError): string {
  const where = `${e.file ?? "the configuration file"}${e.line === undefined ? "" : `:${e.line}`}`;
  const expected = /(expected [^"]*?), got /.exec(e.message)?.[1];
  // a field name only when it is one of ours: a stray line (a pasted password) reads as an unknown name
  const known = e.field !== undefined && KNOWN_FIELDS.has(e.field.toLowerCase());
  return (
    `${where}: ${known ? `${e.field}: ` : ""}${expected ?? errorKind(e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message) ?? "invalid"}; nothing changed ` +
    "(values are not echoed here: the node's log at warning level says what is wrong)"
  );
}

/**
 * The kind of a syntax error or unknown name of config/ini.ts (`message` without its "file:line: ") in words of
 * our own (its message quotes the line or the name, which may be a pasted secret): "syntax error: a quoted
 * value has no closing quote", "unknown field name", …; undefined for other errors.
 */
function errorKind(message: string): string | undefined {
  const kinds: [RegExp, string][] = [
    [/^syntax error: missing closing quote/, "syntax error: a quoted value has no closing quote"],
    [/^syntax error: expected "Name = value"/, 'syntax error: expected "Name = value" or a group header such as [App]'],
    [/^syntax error: expected "=" after/, 'syntax error: expected "=" after the name'],
    [/^syntax error: invalid escape/, String.raw`syntax error: an escape other than \\, \", \n or \t`],
    [
      /^syntax error: the value of .* continues past the end of the file/,
      "syntax error: a value continues past the end of the file",
    ],
    [
      /^syntax error: field .* comes before any group header/,
      "syntax error: a field before any group header such as [App]",
    ],
    [
      /^syntax error: expected a group header|^syntax error: bad group name/,
      "syntax error: expected a group header such as [App]",
    ],
    [/^syntax error: subsections/, "syntax error: subsections ([Group name]) are not supported"],
    [/^unknown field /, "unknown field name (the log names it)"],
    [/^unknown group /, "unknown group name (the log names it)"],
  ];
  return kinds.find(([re]) => re.test(message))?.[1];
}

/** "group.field" of every configuration field, lower case. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set(
  GROUPS.flatMap((g) => g.fields.map((f) => `${g.name}.${f.name}`.toLowerCase())),
);
