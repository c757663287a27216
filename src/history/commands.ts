/**
 * The three history commands (docs/export.md): `ledgerd-export`, `ledgerd-import` (tools/history/ starts them)
 * and `ledgerd verify` (src/cli.ts). Each takes the node's -homedir and -network (the configuration file in the
 * home is read as the node reads it: a CUSTOM network's name, genesis and bootstrap key come from there), works
 * on a STOPPED node's data directory (it takes the directory's lock, so a running node is a clear refusal), and
 * writes its result to the streams it is given. Exit codes: 0 done, 1 refused or failed (the reason on stderr,
 * naming the first bad height), 2 a bad command line.
 */
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { open as openFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { networkBootstrap } from "../cluster/clusterConfig.js";
import { customLedgerOptions } from "../config/customNetwork.js";
import { ConfigError, loadConfig } from "../config/index.js";
import { didYouMean } from "../config/suggest.js";
import type { NodeConfig } from "../config/types.js";
import { NodeError } from "../errors.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { genesisBlocks } from "../protocol/genesis.js";
import { networkId } from "../protocol/network.js";
import { DirectoryLock } from "../store/directoryLock.js";
import { DirectoryReader } from "../store/directoryReader.js";
import { LedgerStore } from "../store/store.js";
import { NODE_VERSION } from "../version.js";
import { type CheckedHeight, type CheckerOptions, HistoryChecker } from "./checker.js";
import { HistoryError } from "./errors.js";
import { HistoryWriter, readHistory } from "./format.js";
import { Progress } from "./progress.js";
import { readHeightSet } from "./storedHeights.js";
import { verifyDirectory } from "./verify.js";

/** Exit code of a bad command line (as the node's, Go's flag package). */
const EXIT_USAGE = 2;
/** Exit code of a refusal or a failure. */
const EXIT_FAILED = 1;
/** Read size of an import file, bytes: large reads, few turns. */
const READ_CHUNK_BYTES = 1 << 20;

export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
}

interface FlagSpec {
  name: string;
  arg?: string;
  help: string;
}

const COMMON: FlagSpec[] = [
  { name: "homedir", arg: "DIR", help: "the node's home directory (its data is DIR/<network>/db); default ~/.ledgerd" },
  {
    name: "network",
    arg: "NET",
    help: "MAIN, TEST, LOCAL or CUSTOM; default as the node's (-network, the file, MAIN)",
  },
  { name: "q", help: "quiet: no progress on stderr" },
  { name: "h", help: "this page" },
];

const PAGES = {
  export: {
    usage: "ledgerd-export -homedir=DIR -network=NET [-o FILE] [-q]",
    text: `Write a stopped node's history — every height's block set as the protocol's raw bytes (directory, admin,
EC and asset block, each entry block with its entries), in height order — as one export file (docs/export.md:
framed records, a crc32 per record, a trailer with the counts and the file's sha256). To standard output unless
-o is given; -o writes FILE.partial and renames it to FILE once complete. Progress goes to stderr: a bar on a
terminal, a line every 5 s otherwise, nothing with -q.`,
    flags: [
      ...COMMON.slice(0, 2),
      { name: "o", arg: "FILE", help: "write the file here (default: standard output)" },
      ...COMMON.slice(2),
    ],
    example: "ledgerd-export -homedir=/var/lib/ledgerd -network=LOCAL -o ledger.hist",
  },
  import: {
    usage: "ledgerd-import -homedir=DIR -network=NET [-q] [FILE]",
    text: `Build a node's data directory from an export file (standard input without FILE), verifying every height
before it is saved: hashes, Merkle roots and body hashes recomputed, every previous-block link, entries against
their entry blocks, transaction and commit signatures, and on LOCAL and CUSTOM the directory-block signatures of
a majority of the servers federated at each height. Blocks are saved through the node's own block-set save
path (one transaction per height). The first bad height is refused with the reason; nothing is left behind
(the directory is built aside as <db>.importing-<pid> and moved into place only when every height checked).
The home must hold no data directory for the network yet: import does not extend or overwrite one.`,
    flags: COMMON,
    example: "ledgerd-import -homedir=/var/lib/ledgerd-new -network=LOCAL ledger.hist",
  },
  verify: {
    usage: "ledgerd verify -homedir=DIR -network=NET [-q]",
    text: `Check a stopped node's data directory from end to end: every page readable; every height's blocks
(hashes, Merkle roots, links, signatures as ledgerd-import checks them); every record saved for a height (height
index, block aliases, entry, transaction and commit locations, paid commits, the query index) equal to what the
blocks imply; balances and EC balances recomputed from the blocks equal to the saved ones; chain heads; the query
index's counts. Reports the first problem with its height; exit 0 when clean. Writes nothing.`,
    flags: COMMON,
    example: "ledgerd verify -homedir=/var/lib/ledgerd -network=LOCAL",
  },
} as const;

type CommandName = keyof typeof PAGES;

/** The command's `-h` page. */
export function helpPage(command: CommandName): string {
  const p = PAGES[command];
  const lines = [`Usage: ${p.usage}`, "", p.text, "", "Flags (one or two dashes; -flag=value or -flag value):"];
  for (const f of p.flags) {
    lines.push(`  -${f.name}${f.arg === undefined ? "" : `=${f.arg}`}`);
    lines.push(`        ${f.help}`);
  }
  lines.push("", "Exit codes: 0 done, 1 refused or failed (the reason on stderr), 2 a bad command line.");
  lines.push("", `Example: ${p.example}`);
  return `${lines.join("\n")}\n`;
}

class UsageError extends NodeError {}

interface Parsed {
  values: Map<string, string>;
  positional: string[];
}

/** Go-style flags of `specs`; throws UsageError with a "did you mean" for an unknown one. */
function parse(command: CommandName, argv: readonly string[]): Parsed {
  const specs = PAGES[command].flags as readonly FlagSpec[];
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("-") || a === "-") {
      positional.push(a);
      continue;
    }
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = (eq < 0 ? body : body.slice(0, eq)).toLowerCase();
    const spec = name === "help" ? specs.find((s) => s.name === "h") : specs.find((s) => s.name === name);
    if (spec === undefined)
      throw new UsageError(
        `unknown flag -${name}${didYouMean(
          name,
          specs.map((s) => s.name),
          "-",
        )}`,
      );
    if (spec.arg === undefined) {
      values.set(spec.name, eq < 0 ? "true" : body.slice(eq + 1));
      continue;
    }
    let value: string | undefined = eq < 0 ? argv[++i] : body.slice(eq + 1);
    if (value === undefined || value === "") throw new UsageError(`-${spec.name} needs a value (${spec.arg})`);
    value = value.trim();
    values.set(spec.name, value);
  }
  return { values, positional };
}

/** What every command needs from the configuration. */
interface Target {
  config: NodeConfig;
  dataDir: string;
  networkId: number;
  checker: CheckerOptions;
}

function target(values: Map<string, string>): Target {
  const argv: string[] = [];
  for (const name of ["homedir", "network"]) {
    const v = values.get(name);
    if (v !== undefined) argv.push(`-${name}=${v}`);
  }
  const config = loadConfig(argv);
  const id = networkId(config.network, config.customNet);
  // MAIN's and TEST's federated servers are the reference network's: their keys are not in this node's genesis
  const bootstrap = config.network === "LOCAL" || config.network === "CUSTOM" ? networkBootstrap(config) : undefined;
  return {
    config,
    // node.ts dataDirectory: `${homeDir}/${network lowercase}/db`
    dataDir: join(config.homeDir, config.network.toLowerCase(), "db"),
    networkId: id,
    checker: { networkId: id, ...(bootstrap === undefined ? {} : { bootstrap }) },
  };
}

/** Run `command` with `argv` (its arguments only); resolves with the exit code. */
export async function runHistoryCommand(command: CommandName, argv: readonly string[], io: CommandIo): Promise<number> {
  const prefix = command === "verify" ? "ledgerd verify" : `ledgerd-${command}`;
  let parsed: Parsed;
  let t: Target;
  try {
    parsed = parse(command, argv);
    if (parsed.values.get("h") === "true") {
      io.stdout.write(helpPage(command));
      return 0;
    }
    if (parsed.positional.length > (command === "import" ? 1 : 0))
      throw new UsageError(`unexpected argument ${parsed.positional[command === "import" ? 1 : 0]}`);
    t = target(parsed.values);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      io.stderr.write(`${prefix}: ${e.message}\n${PAGES[command].usage}\n(${prefix} -h for the page)\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  const quiet = parsed.values.get("q") === "true";
  try {
    if (command === "export") await runExport(t, parsed.values.get("o"), quiet, io);
    else if (command === "import") await runImport(t, parsed.positional[0], quiet, io);
    else runVerify(t, quiet, io);
    return 0;
  } catch (e) {
    // a typed refusal, or the system's (a file that cannot be read or written: ENOENT, EACCES, ENOSPC, EPIPE)
    if (e instanceof NodeError || (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string")) {
      io.stderr.write(`${prefix}: ${e.message}\n`);
      return EXIT_FAILED;
    }
    throw e;
  }
}

/** The data directory must be there (a data.mdb in it) for export and verify. */
function requireData(dataDir: string): void {
  if (!existsSync(join(dataDir, "data.mdb")))
    throw new HistoryError({ code: "REFUSED", info: `no data directory at ${dataDir} (check -homedir and -network)` });
}

function rates(entries: number, bytes: number, ms: number): string {
  const s = Math.max(ms, 1) / 1000;
  return `${s.toFixed(1)} s, ${Math.round(entries / s)} entries/s${bytes > 0 ? `, ${(bytes / 2 ** 20 / s).toFixed(1)} MiB/s` : ""}`;
}

async function runExport(t: Target, file: string | undefined, quiet: boolean, io: CommandIo): Promise<void> {
  if (file === undefined && io.stdout.isTTY === true)
    throw new HistoryError({
      code: "REFUSED",
      info: "standard output is a terminal: give -o FILE, or redirect it (ledgerd-export … > FILE, or | ledgerd-import …)",
    });
  requireData(t.dataDir);
  const started = performance.now();
  const lock = DirectoryLock.acquire(t.dataDir);
  let reader: DirectoryReader | undefined;
  const partial = file === undefined ? undefined : `${file}.partial`;
  const handle = partial === undefined ? undefined : await openFile(partial, "w");
  try {
    reader = DirectoryReader.open(t.dataDir, { scan: false });
    const id = reader.identity();
    if (id.network !== t.config.network || id.networkId !== t.networkId)
      throw new HistoryError({
        code: "REFUSED",
        info: `${t.dataDir} holds the ${id.network} network (id 0x${id.networkId.toString(16)})`,
      });
    const sink =
      handle === undefined
        ? (chunk: Uint8Array): Promise<void> =>
            new Promise((resolve, reject) => {
              io.stdout.write(chunk, (e) => (e ? reject(e) : resolve()));
            })
        : async (chunk: Uint8Array): Promise<void> => {
            await handle.write(chunk);
          };
    const writer = new HistoryWriter(sink, {
      networkId: t.networkId,
      network: t.config.network,
      firstHeight: 0,
      lastHeight: id.savedHeight,
      producer: `ledgerd ${NODE_VERSION}`,
    });
    const progress = new Progress({ label: "export", total: id.savedHeight + 1, stream: io.stderr, quiet });
    let entries = 0;
    for (let h = 0; h <= id.savedHeight; h++) {
      const set = readHeightSet(reader, h);
      await writer.heightSet(set);
      for (const eb of set.entryBlocks) entries += eb.entries.length;
      progress.update(h + 1, entries);
    }
    progress.end();
    const trailer = await writer.finish(id.openBlockStartMs);
    if (handle !== undefined && partial !== undefined && file !== undefined) {
      await handle.sync();
      await handle.close();
      renameSync(partial, file);
    }
    io.stderr.write(
      `ledgerd-export: heights 0..${id.savedHeight}, ${trailer.entryBlocks} entry blocks, ${trailer.entries} entries, ` +
        `${writer.bytes} bytes to ${file ?? "standard output"} (sha256 ${toHex(trailer.sha256)}) in ${rates(trailer.entries, writer.bytes, performance.now() - started)}\n`,
    );
  } catch (e) {
    if (handle !== undefined) {
      await handle.close().catch(() => {});
      if (partial !== undefined) rmSync(partial, { force: true });
    }
    throw e;
  } finally {
    await reader?.close();
    lock.release();
  }
}

async function runImport(t: Target, file: string | undefined, quiet: boolean, io: CommandIo): Promise<void> {
  const started = performance.now();
  if (existsSync(t.dataDir) && readdirSync(t.dataDir).length > 0)
    throw new HistoryError({
      code: "REFUSED",
      info: `${t.dataDir} is not empty: ledgerd-import builds a new data directory and never extends or overwrites one; move it aside or give another -homedir`,
    });
  const temp = `${t.dataDir}.importing-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  // the outermost parent this import creates (home, network directory): removed again when it fails
  let created: string | undefined;
  for (let p = dirname(temp); !existsSync(p) && dirname(p) !== p; p = dirname(p)) created = p;
  mkdirSync(dirname(temp), { recursive: true });
  const lock = DirectoryLock.acquire(temp);
  const options = { path: temp, network: t.config.network, networkId: t.networkId, verify: false };
  let store: LedgerStore | undefined;
  let done = false;
  try {
    store = LedgerStore.open(options);
    const opened = store;
    const source = file === undefined ? io.stdin : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
    const items = readHistory(source as AsyncIterable<Uint8Array>);
    const checker = new HistoryChecker(t.checker);
    const custom = customLedgerOptions(t.config).customGenesis;
    const genesisKeyMR = directoryBlockHashes(
      genesisBlocks(t.config.network, t.config.customNet, custom).directory,
    ).keyMR;
    let progress: Progress | undefined;
    let pending: CheckedHeight | undefined;
    let entries = 0;
    let bytesIn = 0;
    // One save in flight while the next height is read and checked (the checker keeps its own state, so it
    // never reads what is being saved); saves stay in height order, each awaited before the next starts.
    let saving: Promise<void> = Promise.resolve();
    const save = async (c: CheckedHeight, openBlockStartMs: number): Promise<void> => {
      await saving;
      const write = { ...c.write, openBlockStartMs };
      if (write.height === 0) opened.initialize(options, write);
      else {
        saving = opened.packBlockSet(write).then((packed) => opened.savePacked(packed).then(() => {}));
        // a failure is thrown by the next `await saving`, not reported as unhandled meanwhile
        saving.catch(() => {});
      }
    };
    for (;;) {
      const r = await items.next();
      if (r.done === true) {
        if (pending !== undefined) await save(pending, r.value.openBlockStartMs);
        await saving;
        break;
      }
      const item = r.value;
      if (item.kind === "header") {
        const h = item.header;
        if (h.network !== t.config.network || h.networkId !== t.networkId)
          throw new HistoryError({
            code: "REFUSED",
            info: `the file holds the ${h.network} network (id 0x${h.networkId.toString(16)}), not ${t.config.network} (id 0x${t.networkId.toString(16)})`,
          });
        if (h.firstHeight !== 0)
          throw new HistoryError({
            code: "REFUSED",
            info: `the file starts at height ${h.firstHeight}: an import starts from genesis (height 0)`,
          });
        progress = new Progress({ label: "import", total: h.lastHeight + 1, stream: io.stderr, quiet });
        continue;
      }
      const set = item.set;
      const checked = checker.check(set);
      if (set.height === 0 && !bytesEqual(checked.keyMR, genesisKeyMR))
        throw new HistoryError({
          code: "BAD_BLOCK",
          height: 0,
          info: `the genesis directory block ${toHex(checked.keyMR)} is not this network's (${toHex(genesisKeyMR)})`,
        });
      // a height is saved once the next one is read: its open block starts with the next one's coinbase
      if (pending !== undefined) await save(pending, checked.startMs);
      pending = checked;
      entries += checked.entries;
      bytesIn += set.directory.length + set.admin.length + set.ec.length + set.asset.length;
      for (const eb of set.entryBlocks) {
        bytesIn += eb.raw.length;
        for (const e of eb.entries) bytesIn += e.length;
      }
      progress?.update(set.height + 1, entries);
    }
    progress?.end();
    await store.close();
    store = undefined;
    lock.release();
    if (existsSync(t.dataDir)) rmSync(t.dataDir, { recursive: true }); // empty (checked above)
    renameSync(temp, t.dataDir);
    done = true;
    io.stderr.write(
      `ledgerd-import: heights 0..${checker.nextHeight - 1}, ${entries} entries checked and saved to ${t.dataDir} in ${rates(entries, bytesIn, performance.now() - started)}\n`,
    );
  } finally {
    if (!done) {
      await store?.close().catch(() => {});
      lock.release();
      rmSync(temp, { recursive: true, force: true });
      if (created !== undefined) rmSync(created, { recursive: true, force: true });
    }
  }
}

function runVerify(t: Target, quiet: boolean, io: CommandIo): void {
  requireData(t.dataDir);
  const lock = DirectoryLock.acquire(t.dataDir);
  let reader: DirectoryReader | undefined;
  try {
    reader = DirectoryReader.open(t.dataDir, { scan: true });
    const total = reader.identity().savedHeight + 1;
    const progress = new Progress({ label: "verify", total, stream: io.stderr, quiet });
    const r = verifyDirectory(reader, { network: t.config.network, ...t.checker }, progress);
    io.stdout.write(
      `ledgerd verify: ${t.dataDir} is clean: heights 0..${r.heights - 1}, ${r.entries} entries in ${rates(r.entries, 0, r.ms)}\n`,
    );
    if (r.queryIndexed < r.heights)
      io.stdout.write(
        `ledgerd verify: the query index holds ${r.queryIndexed === 0 ? "no height" : `heights 0..${r.queryIndexed - 1} (checked)`}; ${r.heights - r.queryIndexed} ` +
          "heights are not indexed yet (the node ran with -queryindex=false, or its rebuild had not finished): a node " +
          "with the index on indexes them at its next start\n",
      );
  } finally {
    void reader?.close();
    lock.release();
  }
}
