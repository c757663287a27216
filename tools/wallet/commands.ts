/**
 * The wallet's command line (docs/wallet.md): the table of commands, `main` — parse the line, run one command,
 * return the exit code (it never calls process.exit, so tests run it in-process too) — and the error report.
 * The commands themselves are in commands/, by topic.
 */
import {
  AuthError,
  ClientConfigError,
  ClientError,
  HttpError,
  RpcError,
  UnreachableError,
} from "../../src/client/errors.js";
import { didYouMean } from "../../src/config/suggest.js";
import { NODE_VERSION } from "../../src/version.js";
import { parseArgs } from "./args.js";
import { addEntry, chainHead, composeEntryCommand, getEntry } from "./commands/entry.js";
import { backup, encrypt, importKeys, list, newKey, restore } from "./commands/keys.js";
import { balance, composeTx, pay } from "./commands/pay.js";
import { proofCommand } from "./commands/proof.js";
import { history, queryEntries } from "./commands/query.js";
import { receipt } from "./commands/receipt.js";
import { describeRpc } from "./commands/submit.js";
import { watchCommand } from "./commands/watch.js";
import { type Command, Context, DEFAULT_NODE_URL, type Io } from "./context.js";
import { EXIT, type ExitCode, UsageError, WalletError } from "./errors.js";
import { helpPageText } from "./helpPages.js";

export { isBalanceError } from "./commands/submit.js";
export type { Io } from "./context.js";

const ENTRY_OPTS = "[--ext TEXT]... [--ext-hex HEX]... [--content TEXT | --content-hex HEX | --content-file FILE]";
const WAIT_OPTS = "[--wait-confirmed | --no-wait] [-timeout=SECONDS] [-q]";
const ENTRY = ["ext", "ext-hex", "content", "content-hex", "content-file"];
const WAIT = ["wait-confirmed", "no-wait", "timeout", "q", "quiet"];
const PAGE_OPTS = "[-limit=N] [-cursor=CURSOR] [--all] [-order=asc|desc]";
const PAGE = ["limit", "cursor", "all", "order"];
/** Options every command accepts. */
const GLOBAL_OPTS = new Set([
  "node",
  "rpcuser",
  "rpcpass",
  "cafile",
  "wallet",
  "passfile",
  "walletd",
  "walletduser",
  "walletdpass",
  "help",
  "h",
]);

export const COMMANDS: Record<string, Command> = {
  "new-fa": {
    usage: "new-fa",
    summary: "the seed's next asset key pair; prints its FA… address",
    args: [0, 0],
    opts: [],
    wallet: true,
    run: (c) => newKey(c, "FA"),
  },
  "new-ec": {
    usage: "new-ec",
    summary: "the seed's next entry credit key pair; prints its EC… address",
    args: [0, 0],
    opts: [],
    wallet: true,
    run: (c) => newKey(c, "EC"),
  },
  import: {
    usage: "import <Fs…|Es…>... | import -",
    summary: 'add private keys ("-": read them from stdin, one per line); prints their public addresses',
    args: [1, 1000],
    opts: [],
    wallet: true,
    run: importKeys,
  },
  restore: {
    usage: "restore < mnemonic.txt",
    summary: "give the wallet the seed of a 12-word mnemonic (from stdin); new-fa/new-ec then re-derive its keys",
    args: [0, 0],
    opts: [],
    wallet: true,
    run: restore,
  },
  backup: {
    usage: "backup",
    summary: "print the seed's 12 words and every private key, as JSON (keep it offline)",
    args: [0, 0],
    opts: [],
    wallet: true,
    run: backup,
  },
  list: {
    usage: "list [--json]",
    summary: "public addresses in the wallet",
    args: [0, 0],
    opts: ["json"],
    wallet: true,
    run: list,
  },
  encrypt: {
    usage: "encrypt",
    summary: "encrypt a plain wallet file with a passphrase (scrypt + AES-256-GCM); keys unchanged",
    args: [0, 0],
    opts: [],
    run: encrypt,
  },
  balance: {
    usage: "balance <FA…|EC…>...",
    summary: "balance: asset units for FA…, entry credits for EC…",
    args: [1, 1000],
    opts: [],
    run: balance,
  },
  "buy-ec": {
    usage: `buy-ec <fromFA> <toEC> <entry credits> ${WAIT_OPTS}`,
    summary: "convert assets into entry credits at the node's current rate",
    args: [3, 3],
    opts: WAIT,
    wallet: true,
    run: (c) => pay(c, "buy-ec"),
  },
  send: {
    usage: `send <fromFA> <toFA> <amount in asset units, e.g. 1.5> ${WAIT_OPTS}`,
    summary: "send assets",
    args: [3, 3],
    opts: WAIT,
    wallet: true,
    run: (c) => pay(c, "send"),
  },
  "compose-chain": {
    usage: `compose-chain ${ENTRY_OPTS} <EC…>`,
    summary: "print the commit-chain and reveal-chain requests, without sending",
    args: [1, 1],
    opts: ENTRY,
    wallet: true,
    run: (c) => composeEntryCommand(c, "chain"),
  },
  "compose-entry": {
    usage: `compose-entry --chain <chain ID> ${ENTRY_OPTS} <EC…>`,
    summary: "print the commit-entry and reveal-entry requests, without sending",
    args: [1, 1],
    opts: ["chain", ...ENTRY],
    wallet: true,
    run: (c) => composeEntryCommand(c, "entry"),
  },
  "compose-transaction": {
    usage: "compose-transaction <fromFA> <toFA|toEC> <amount | entry credits> [-rate=BASE_UNITS_PER_EC]",
    summary: "print the asset-submit request of a payment (to EC…: amount in entry credits), without sending",
    args: [3, 3],
    opts: ["rate"],
    wallet: true,
    run: composeTx,
  },
  "add-chain": {
    usage: `add-chain ${ENTRY_OPTS} ${WAIT_OPTS} <EC…>`,
    summary: "create a chain with its first entry, paid by the EC key",
    args: [1, 1],
    opts: [...ENTRY, ...WAIT],
    wallet: true,
    run: (c) => addEntry(c, "chain"),
  },
  "add-entry": {
    usage: `add-entry --chain <chain ID> ${ENTRY_OPTS} ${WAIT_OPTS} <EC…>`,
    summary: "add an entry to a chain, paid by the EC key",
    args: [1, 1],
    opts: ["chain", ...ENTRY, ...WAIT],
    wallet: true,
    run: (c) => addEntry(c, "entry"),
  },
  entry: {
    usage: "entry <entry hash> [--json]",
    summary: "show an entry",
    args: [1, 1],
    opts: ["json"],
    run: getEntry,
  },
  "chain-head": {
    usage: "chain-head <chain ID> [--json] [-q]",
    summary: "keymr of the chain's newest entry block",
    args: [1, 1],
    opts: ["json", "q", "quiet"],
    run: chainHead,
  },
  entries: {
    usage: `entries <chain ID> [--search TEXT]... [--search-hex HEX]... [--prefix] ${PAGE_OPTS} [--json]`,
    summary: "a chain's entries, oldest first, or those whose ext IDs start with --search (query index)",
    args: [1, 1],
    opts: ["json", "search", "search-hex", "prefix", ...PAGE],
    run: queryEntries,
  },
  history: {
    usage: `history <FA…|EC…> ${PAGE_OPTS} [--json]`,
    summary: "what the saved blocks did to an address: payments, EC purchases, commits (query index)",
    args: [1, 1],
    opts: ["json", ...PAGE],
    run: history,
  },
  receipt: {
    usage: "receipt <entry hash> [--verify [--anchor-rpc URL]] [--json]",
    summary: "the entry's Merkle receipt; --verify checks it locally, --anchor-rpc also its anchor in Ethereum",
    args: [1, 1],
    opts: ["verify", "json", "anchor-rpc"],
    run: receipt,
  },
  proof: {
    usage: "proof <entry hash> [--out FILE] | proof --verify FILE [--anchor-rpc URL] [--bootstrap-key HEX] [--json]",
    summary:
      "save the node's self-contained proof of an entry; --verify checks a saved one with no node (signatures, branch, authority set)",
    args: [1, 1],
    opts: ["verify", "out", "json", "anchor-rpc", "bootstrap-key"],
    run: proofCommand,
  },
  watch: {
    usage:
      "watch [--chain <chain ID>] [--address <FA…|EC…>]... [--hash <entry hash|txid>]... [--minutes] [--health] [--with-content] [-from=HEIGHT] [-count=N] [--json]",
    summary: "follow the node's live events (blocks, and what is subscribed), reconnecting by itself",
    args: [0, 0],
    opts: ["chain", "address", "hash", "minutes", "health", "with-content", "from", "count", "json"],
    run: watchCommand,
  },
};

const GLOBAL_USAGE = `usage: ledgerd-wallet [options] <command> [arguments]

commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.split(" ")[0]!.padEnd(21)}${c.summary}`)
  .join("\n")}

options (anywhere on the line; -name=value, --name value):
  -node=URL          node to talk to (default ${DEFAULT_NODE_URL}; env LEDGERD_NODE)
  -rpcuser=USER      HTTP Basic user (env LEDGERD_RPCUSER)
  -rpcpass=PASS      HTTP Basic password (env LEDGERD_RPCPASS)
  -cafile=FILE       certificate to trust for an https node (env LEDGERD_CAFILE)
  -wallet=FILE       wallet file (default ~/.ledgerd/wallet.json; env LEDGERD_WALLET)
  -passfile=FILE     passphrase of an encrypted wallet: the file's first line (env LEDGERD_WALLET_PASS;
                     on a terminal the wallet asks)
  -walletd=URL       use the keys of a wallet service (ledgerd-walletd) instead of a wallet file
                     (env LEDGERD_WALLETD); its credentials: -walletduser/-walletdpass
                     (env LEDGERD_WALLETD_RPCUSER / LEDGERD_WALLETD_RPCPASS)
  -h, --help         this text; "ledgerd-wallet help <command>" for one command
  -v, --version      the wallet's version

exit codes: 0 ok, 1 usage error, 2 the request failed (node or user error)`;

/** Help text of one command or of all. */
export function usage(command?: string): string {
  const c = command === undefined ? undefined : COMMANDS[command];
  return c === undefined ? GLOBAL_USAGE : `usage: ledgerd-wallet ${c.usage}\n  ${c.summary}${helpPageText(command!)}`;
}

/** A command that does not exist, with the nearest one when it looks like a typo. */
function unknownCommand(name: string): UsageError {
  return new UsageError(`unknown command ${JSON.stringify(name)}${didYouMean(name, Object.keys(COMMANDS))}`);
}

/** Run the wallet with `argv` (arguments after the script). Returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<ExitCode> {
  let ctx: Context | undefined;
  try {
    const args = parseArgs(argv, (name) => {
      const c = name === undefined ? undefined : COMMANDS[name];
      return c === undefined ? undefined : [...GLOBAL_OPTS, ...c.opts];
    });
    if (args.flags.has("version") || args.flags.has("v") || args.command === "version") {
      io.stdout.write(`ledgerd-wallet ${NODE_VERSION}\n`);
      return EXIT.OK;
    }
    if (args.command === undefined || args.command === "help" || args.flags.has("help") || args.flags.has("h")) {
      const topic = args.command === "help" ? args.positionals[0] : args.command;
      if (args.command === undefined && !args.flags.has("help") && !args.flags.has("h")) {
        io.stderr.write(`${usage()}\n`);
        return EXIT.USAGE;
      }
      if (topic !== undefined && COMMANDS[topic] === undefined) throw unknownCommand(topic);
      io.stdout.write(`${usage(topic)}\n`);
      return EXIT.OK;
    }
    const command = COMMANDS[args.command];
    if (command === undefined) throw unknownCommand(args.command);
    const n = args.positionals.length;
    if (n < command.args[0] || n > command.args[1])
      throw new UsageError(
        `${args.command} takes ${command.args[0] === command.args[1] ? command.args[0] : `${command.args[0]} or more`} argument(s), got ${n}`,
        args.command,
      );
    const used = [...args.values.keys(), ...args.flags, ...args.repeated.map((r) => r.name)];
    const stray = used.find((o) => !GLOBAL_OPTS.has(o) && !command.opts.includes(o));
    if (stray !== undefined) throw new UsageError(`${args.command} does not take -${stray}`, args.command);
    ctx = new Context(args, io);
    if (command.wallet === true && ctx.walletd() === undefined) await ctx.unlock();
    await command.run(ctx);
    return EXIT.OK;
  } catch (e) {
    const hint = e instanceof HttpError && e.status === 404 ? await notTheApiHint(e.url) : undefined;
    return report(e, io, ctx, hint);
  } finally {
    ctx?.close();
  }
}

/** Milliseconds the wallet waits for the panel's status while explaining a 404. */
const PANEL_PROBE_TIMEOUT_MS = 3000;

/**
 * What to say about a 404 at the API path: when the URL is a ledgerd control panel (its `/panel/status`
 * answers with the API's port), where the API is; else that nothing there answers JSON-RPC.
 */
async function notTheApiHint(url: string): Promise<string> {
  const u = new URL(url);
  try {
    const res = await fetch(`${u.origin}/panel/status`, { signal: AbortSignal.timeout(PANEL_PROBE_TIMEOUT_MS) });
    const status = (await res.json()) as { apiport?: unknown };
    if (typeof status.apiport === "number")
      return `that is the node's control panel (a web page for browsers); its JSON-RPC API is on port ${status.apiport}: -node=${u.protocol}//${u.hostname}:${status.apiport}`;
  } catch {
    // not a panel, or it did not answer: the general hint
  }
  return `nothing at ${u.origin} answers JSON-RPC on ${u.pathname}: is ${u.port || (u.protocol === "https:" ? "443" : "80")} the node's API port (-port, 8088 by default)?`;
}

function report(e: unknown, io: Io, ctx: Context | undefined, hint?: string): ExitCode {
  // a URL's password (-node=http://user:pass@…) never reaches the terminal
  const err = (line: string) =>
    io.stderr.write(`${line.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s"]*@/gi, "$1<credentials hidden>@")}\n`);
  if (e instanceof UsageError) {
    err(`error: ${e.message}`);
    const command = e.command ?? ctx?.args.command;
    err(
      command !== undefined && COMMANDS[command] !== undefined
        ? usage(command)
        : 'run "ledgerd-wallet --help" for the commands and options',
    );
    return EXIT.USAGE;
  }
  if (e instanceof WalletError) {
    err(`error: ${e.message}`);
    if (e.hint !== undefined) err(`  ${e.hint}`);
    return EXIT.FAILED;
  }
  if (e instanceof AuthError) {
    err(`error: ${e.message}`);
    err(
      e.sentCredentials
        ? "  check -rpcuser and -rpcpass (or LEDGERD_RPCUSER / LEDGERD_RPCPASS)"
        : "  pass -rpcuser=USER -rpcpass=PASS (or set LEDGERD_RPCUSER / LEDGERD_RPCPASS)",
    );
    return EXIT.FAILED;
  }
  if (e instanceof UnreachableError) {
    err(`error: ${e.message}`);
    err(
      e.reason === "tls"
        ? "  pass the node's certificate with -cafile=FILE"
        : e.reason === "reset" && e.url.startsWith("http://")
          ? `  the node closed the connection without answering: if it serves HTTPS (-tls), use -node=${e.url.replace(/^http:/, "https:").replace(/\/v2$/, "")} with -cafile=<its home>/tls/node.crt`
          : e.url.startsWith("https://") && (e.reason === "reset" || e.reason === "timeout")
            ? `  no TLS handshake from ${new URL(e.url).host}: if the node serves plain HTTP (no -tls), use -node=${e.url.replace(/^https:/, "http:").replace(/\/v2$/, "")}`
            : "  start the node, or point the wallet at it with -node=URL (or LEDGERD_NODE)",
    );
    return EXIT.FAILED;
  }
  if (e instanceof RpcError) {
    err(`error: the node refused ${e.method}: ${describeRpc(e)}`);
    return EXIT.FAILED;
  }
  if (e instanceof HttpError || e instanceof ClientError || e instanceof ClientConfigError) {
    err(`error: ${e.message}`);
    if (hint !== undefined) err(`  ${hint}`);
    return EXIT.FAILED;
  }
  err(`error: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return EXIT.FAILED;
}
