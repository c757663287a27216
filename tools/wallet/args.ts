/**
 * Command-line parsing in the node's style: options may be written `-name=value`, `--name=value`,
 * `-name value` or `--name value`, anywhere on the line; `--` ends the options. Repeatable options
 * keep their order relative to each other (ext IDs given as text and as hex interleave).
 */

import { didYouMean } from "../../src/config/suggest.js";
import { UsageError } from "./errors.js";

/** How an option takes its value. */
export type OptionKind = "value" | "flag" | "repeat";

/** Every option the wallet knows, by name (without dashes). */
export const OPTIONS: Record<string, OptionKind> = {
  // global
  node: "value",
  rpcuser: "value",
  rpcpass: "value",
  cafile: "value",
  wallet: "value",
  // keys held by a wallet service instead of a file
  walletd: "value",
  walletduser: "value",
  walletdpass: "value",
  passfile: "value",
  timeout: "value",
  help: "flag",
  h: "flag",
  version: "flag",
  v: "flag",
  q: "flag",
  quiet: "flag",
  json: "flag",
  // entries
  ext: "repeat",
  "ext-hex": "repeat",
  content: "value",
  "content-hex": "value",
  "content-file": "value",
  chain: "value",
  "wait-confirmed": "flag",
  "no-wait": "flag",
  // receipt
  verify: "flag",
  "anchor-rpc": "value",
  // proof
  out: "value",
  "bootstrap-key": "value",
  // watch
  address: "repeat",
  hash: "repeat",
  minutes: "flag",
  health: "flag",
  "with-content": "flag",
  from: "value",
  count: "value",
  // compose-transaction without a node
  rate: "value",
  search: "repeat",
  "search-hex": "repeat",
  prefix: "flag",
  limit: "value",
  cursor: "value",
  all: "flag",
  order: "value",
};

export interface ParsedArgs {
  /** first positional: the command */
  command: string | undefined;
  /** remaining positionals */
  positionals: string[];
  /** last value of each "value" option */
  values: Map<string, string>;
  /** "flag" options present */
  flags: Set<string>;
  /** every "repeat" option occurrence, in command-line order */
  repeated: { name: string; value: string }[];
}

/**
 * Parse argv (without node and script) against `options` (the wallet's by default; ledgerd-walletd passes its
 * own). Throws UsageError for unknown options, a missing value, or a value option given twice.
 * @param optionsOf the options a command takes (with the global ones), so that "did you mean" offers only
 *   those; undefined (an unknown or no command): every option
 */
export function parseArgs(
  argv: readonly string[],
  optionsOf: (command: string | undefined) => readonly string[] | undefined = () => undefined,
  options: Record<string, OptionKind> = OPTIONS,
): ParsedArgs {
  const out: ParsedArgs = { command: undefined, positionals: [], values: new Map(), flags: new Set(), repeated: [] };
  const positionals: string[] = [];
  /** the first unknown option, refused once the command is known (its suggestion depends on it) */
  let unknown: { shown: string; name: string; dashes: string } | undefined;
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i++]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i));
      break;
    }
    // "-" (stdin) and negative numbers are values, not options; they are refused later with a clear reason.
    if (!arg.startsWith("-") || arg === "-" || /^-[\d.]/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    const kind = options[name];
    if (kind === undefined) {
      unknown ??= {
        shown: eq === -1 ? arg : arg.slice(0, arg.indexOf("=")),
        name,
        dashes: arg.startsWith("--") ? "--" : "-",
      };
      continue;
    }
    if (kind === "flag") {
      if (eq !== -1) {
        const v = body.slice(eq + 1);
        if (v === "true") out.flags.add(name);
        else if (v !== "false")
          throw new UsageError(`option -${name} is a switch: write -${name} (or -${name}=true / -${name}=false)`);
        continue;
      }
      out.flags.add(name);
      continue;
    }
    let value: string;
    if (eq !== -1) value = body.slice(eq + 1);
    else {
      if (i >= argv.length) throw new UsageError(`option -${name} needs a value`);
      value = argv[i++]!;
    }
    if (kind === "value") {
      // the last one winning silently hid a mistake (add-entry --content hi --content ho wrote "ho")
      if (out.values.has(name)) throw new UsageError(`option -${name} given twice: give it once`);
      out.values.set(name, value);
    } else out.repeated.push({ name, value });
  }
  out.command = positionals.shift();
  out.positionals = positionals;
  if (unknown !== undefined) {
    const candidates = optionsOf(out.command) ?? Object.keys(options);
    // a unique option the word begins (--wait → --wait-confirmed), else the nearest by edit distance
    const longer = candidates.filter((o) => o.startsWith(unknown.name) && unknown.name.length >= 3);
    const hint =
      longer.length === 1
        ? `; did you mean ${unknown.dashes}${longer[0]}?`
        : didYouMean(unknown.name, candidates, unknown.dashes);
    throw new UsageError(`unknown option ${unknown.shown}${hint}`);
  }
  return out;
}
