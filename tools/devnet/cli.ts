/**
 * `ledgerd-devnet`: a development cluster in one command (README "A devnet on one machine",
 * docs/cluster.md).
 *
 *   ledgerd-devnet up --dir DIR [--federated 3] [--audit 1] [--followers 1] [--nats 3] [--blktime 6]
 *                     [--faulttimeout S] [--roundtimeout S] [--nats-auth] [--custom NAME]
 *   ledgerd-devnet status --dir DIR
 *   ledgerd-devnet restart NAME --dir DIR
 *   ledgerd-devnet down --dir DIR
 *   ledgerd-devnet resume --dir DIR
 *   ledgerd-devnet add follower|audit|federated --dir DIR
 *
 * Exit codes: 0 done, 1 the devnet failed (a process would not start, …), 2 a bad command line.
 */
import { resolve } from "node:path";
import { didYouMean } from "../../src/config/suggest.js";
import { type ClusterInfo, Devnet, type DevnetOptions, validateDevnetOptions } from "./devnet.js";
import { NODE_ROLES, type NodeRole } from "./ledgerdNode.js";

/** The commands, for "did you mean" after a typo. */
const DEVNET_COMMANDS = ["up", "status", "restart", "add", "resume", "down"];

const USAGE = `usage:
  ledgerd-devnet up --dir DIR [--federated 3] [--audit 1] [--followers 1] [--nats 3] [--blktime 6]
                    [--faulttimeout S] [--roundtimeout S] [--nats-auth] [--custom NAME]
      start nats-servers and nodes on free loopback ports, each with its own directory under DIR;
      prints the table and writes DIR/devnet.json; NATS has one user per role and an admin user
      (passwords in DIR/devnet-state.json, 0600); --nats-auth: NATS with TLS as well (DIR/tls/);
      --custom NAME: a CUSTOM network with its own bootstrap key and genesis (DIR/genesis-key.txt)
  ledgerd-devnet status --dir DIR         the table with each node's heights
  ledgerd-devnet restart NAME --dir DIR   start one process again with its old arguments and data
  ledgerd-devnet down --dir DIR           stop every process the devnet started (by pid)
  ledgerd-devnet resume --dir DIR         start every process of a stopped devnet again (after down)
  ledgerd-devnet add ROLE --dir DIR       add a node with an empty directory: follower, or audit/federated
                                          (a fresh identity, added to the chain's authority set)
`;

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

/** Options that take a value; every one is written --name VALUE or --name=VALUE. */
const VALUE_OPTIONS = [
  "dir",
  "federated",
  "audit",
  "followers",
  "nats",
  "blktime",
  "faulttimeout",
  "roundtimeout",
  "custom",
];
/** Options without a value. */
const FLAG_OPTIONS = ["nats-auth"];

interface Parsed {
  command: string;
  positionals: string[];
  values: Map<string, string>;
  flags: Set<string>;
}

function parse(argv: readonly string[]): Parsed {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help" || arg === "help") throw new UsageError("");
    const m = /^--?([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    if (m === null) {
      positionals.push(arg);
      continue;
    }
    const name = m[1]!;
    if (FLAG_OPTIONS.includes(name)) {
      if (m[2] !== undefined) throw new UsageError(`option --${name} takes no value`);
      flags.add(name);
      continue;
    }
    if (!VALUE_OPTIONS.includes(name)) throw new UsageError(`unknown option ${arg}`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`option --${name} needs a value`);
    values.set(name, value);
  }
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError("");
  return { command, positionals: rest, values, flags };
}

function intOption(p: Parsed, name: string, fallback: number): number;
function intOption(p: Parsed, name: string, fallback: undefined): number | undefined;
function intOption(p: Parsed, name: string, fallback: number | undefined): number | undefined {
  const v = p.values.get(name);
  if (v === undefined) return fallback;
  if (!/^[0-9]+$/.test(v)) throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

function dirOf(p: Parsed): string {
  const dir = p.values.get("dir");
  if (dir === undefined || dir === "") throw new UsageError(`${p.command}: --dir DIR is required`);
  return resolve(dir);
}

/** Columns padded to their widest cell. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) for (const [i, c] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, c.length);
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

/**
 * What the chain and the node say beyond the heights: forked, catching up, or a role the chain changed
 * (an audit server promoted, a faulted federated server now audit).
 */
function nodeNote(role: NodeRole, identity: string | undefined, c: ClusterInfo | undefined): string {
  if (c === undefined) return "";
  const notes: string[] = [];
  if (c.Forked === true) notes.push("FORKED: its blocks differ from the signed majority");
  if (c.Synced === false) notes.push("catching up");
  if (identity !== undefined) {
    const now = c.Federated?.includes(identity) ? "federated" : c.Audit?.includes(identity) ? "audit" : "no authority";
    if (now !== role) notes.push(`now ${now} (chain)`);
  }
  return notes.join("; ");
}

/** name, role, URL, pid of every process; with `heights`, the node's heights too. */
async function table(devnet: Devnet, withHeights: boolean): Promise<string> {
  const head = ["NAME", "ROLE", "URL", "PANEL", "PID"];
  if (withHeights) head.push("DBLOCK", "LEADER", "ENTRYBLOCK", "ENTRY", "NOTE");
  const rows: string[][] = [head];
  const stream = devnet.stream;
  const leader = withHeights ? await devnet.nats.streamLeader(stream) : undefined;
  for (const s of devnet.nats.servers) {
    const row = [s.name, "nats", s.url, "-", s.pid === undefined ? "-" : String(s.pid)];
    if (withHeights) {
      const state = s.isRunning ? ((await s.healthy()) ? "healthy" : "not healthy") : "down";
      row.push("", "", "", "", `${state}${leader === s.name ? `, leads ${stream}` : ""}`);
    }
    rows.push(row);
  }
  const heights = withHeights ? await devnet.heights() : undefined;
  for (const n of devnet.nodes) {
    const row = [n.name, n.role, n.url, n.panelUrl ?? "-", n.pid === undefined ? "-" : String(n.pid)];
    if (heights !== undefined) {
      const st = heights.get(n.name);
      if (st === undefined) row.push("-", "-", "-", "-", n.isRunning ? "not answering" : "down");
      else {
        const h = st.heights;
        row.push(
          String(h.directoryblockheight),
          String(h.leaderheight),
          String(h.entryblockheight),
          String(h.entryheight),
          nodeNote(n.role, n.identity, st.cluster),
        );
      }
    }
    rows.push(row);
  }
  return formatTable(rows);
}

async function main(argv: readonly string[]): Promise<number> {
  let p: Parsed;
  try {
    p = parse(argv);
    switch (p.command) {
      case "up": {
        const options: DevnetOptions = {
          dir: dirOf(p),
          federated: intOption(p, "federated", 3),
          audit: intOption(p, "audit", 1),
          followers: intOption(p, "followers", 1),
          nats: intOption(p, "nats", 3),
          blockTimeSeconds: intOption(p, "blktime", 6),
          faultTimeoutSeconds: intOption(p, "faulttimeout", undefined),
          roundTimeoutSeconds: intOption(p, "roundtimeout", undefined),
          natsAuth: p.flags.has("nats-auth"),
          ...(p.values.has("custom") ? { customNet: p.values.get("custom")! } : {}),
        };
        try {
          validateDevnetOptions(options);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        if (p.positionals.length > 0) throw new UsageError(`up: unexpected argument ${p.positionals[0]}`);
        const devnet = await Devnet.up(options, true, (line) => process.stderr.write(`ledgerd-devnet: ${line}\n`));
        devnet.writeDevnetJson();
        process.stdout.write(`${await table(devnet, false)}\n`);
        process.stdout.write(`devnet: ${resolve(options.dir, "devnet.json")}\n`);
        devnet.close();
        return 0;
      }
      case "status": {
        if (p.positionals.length > 0) throw new UsageError(`status: unexpected argument ${p.positionals[0]}`);
        const devnet = Devnet.open(dirOf(p), true);
        process.stdout.write(`${await table(devnet, true)}\n`);
        devnet.close();
        return 0;
      }
      case "restart": {
        const [name, ...more] = p.positionals;
        if (name === undefined) throw new UsageError("restart: which process? (a NAME from status)");
        if (more.length > 0) throw new UsageError(`restart: unexpected argument ${more[0]}`);
        const devnet = Devnet.open(dirOf(p), true);
        await devnet.restart(name);
        process.stdout.write(`${await table(devnet, false)}\n`);
        devnet.close();
        return 0;
      }
      case "add": {
        const [role, ...more] = p.positionals;
        if (role === undefined || !(NODE_ROLES as readonly string[]).includes(role))
          throw new UsageError(`add: which role? one of ${NODE_ROLES.join(", ")}`);
        if (more.length > 0) throw new UsageError(`add: unexpected argument ${more[0]}`);
        const devnet = Devnet.open(dirOf(p), true);
        const node = await devnet.addNode(role as NodeRole);
        process.stderr.write(`ledgerd-devnet: added ${node.name} (${node.role})\n`);
        process.stdout.write(`${await table(devnet, false)}\n`);
        devnet.close();
        return 0;
      }
      case "resume": {
        if (p.positionals.length > 0) throw new UsageError(`resume: unexpected argument ${p.positionals[0]}`);
        const devnet = Devnet.open(dirOf(p), true);
        await devnet.resume((line) => process.stderr.write(`ledgerd-devnet: ${line}\n`));
        process.stdout.write(`${await table(devnet, false)}\n`);
        devnet.close();
        return 0;
      }
      case "down": {
        if (p.positionals.length > 0) throw new UsageError(`down: unexpected argument ${p.positionals[0]}`);
        const devnet = Devnet.open(dirOf(p), true);
        const running = [...devnet.nats.servers, ...devnet.nodes].filter((x) => x.isRunning).length;
        await devnet.down();
        devnet.close();
        process.stdout.write(`stopped ${running} process(es)\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command ${p.command}${didYouMean(p.command ?? "", DEVNET_COMMANDS)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message !== "") process.stderr.write(`ledgerd-devnet: ${e.message}\n`);
      process.stderr.write(USAGE);
      return e.message === "" && argv.some((a) => /^(-h|--help|help)$/.test(a)) ? 0 : EXIT_USAGE;
    }
    process.stderr.write(`ledgerd-devnet: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_FAILED;
  }
}

process.exitCode = await main(process.argv.slice(2));
