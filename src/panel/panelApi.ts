/**
 * The control panel's own JSON views (GET /panel/<view>?…), for what the JSON-RPC API has no method for:
 * the node's status at a glance, pages of block summaries, search, a chain's entry blocks, an address's
 * balances (its history is the query index's address-history). Every list is paged and every scan bounded, so pages stay fast on a large node.
 */

import { statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { NodeConfig } from "../config/types.js";
import { NodeError } from "../errors.js";
import type { LedgerApi, LedgerDebugApi } from "../ledger/api.js";
import { decodeAddress } from "../protocol/address.js";
import { toHex } from "../protocol/bytes.js";
import { entriesWithMinutes } from "../protocol/eblock.js";
import { savedBlockItems } from "../rpc/live/events.js";
import { NODE_VERSION } from "../version.js";

/** Block summaries per page (each reads a directory block and its entry blocks). */
const MAX_BLOCKS_PER_PAGE = 50;
/** Entry blocks per chain page. */
const EBLOCKS_PER_PAGE = 10;
/** Longest text the search box takes as an ext ID, characters (an ext ID may be longer; nobody types one). */
const MAX_SEARCH_TEXT = 1000;

const HEX64 = /^[0-9a-fA-F]{64}$/;
const ZERO = "0".repeat(64);

/** A refused panel request: HTTP status and a sentence for the page. */
export class PanelRequestError extends NodeError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PanelApiDependencies {
  ledger: LedgerApi & LedgerDebugApi;
  getConfig(): NodeConfig;
  dataDir: string;
  apiPort(): number;
  /** federated and audit servers with Online, as the debug methods report them (a cluster's, or this node) */
  servers(): { federated: ServerRow[]; audit: ServerRow[] };
  /** a cluster node's scheduled changes (role changes, keys, rates, its signing window); absent on a single node */
  scheduled?(): unknown;
}

/** One server of `federated-servers` / `audit-servers`. */
export interface ServerRow {
  ChainID: string;
  Online: boolean;
}

type Query = Record<string, string | undefined>;

export class PanelApi {
  constructor(
    private readonly options: { setting: "readonly" | "readwrite" },
    private readonly deps: PanelApiDependencies,
  ) {}

  /** Answer GET /panel/<view>; throws PanelRequestError for a bad or unknown request. */
  get(view: string, q: Query): unknown {
    switch (view) {
      case "status":
        return this.status();
      case "blocks":
        return this.blocks(q);
      case "search":
        // Answered 200 either way: "not found" is an answer to a search, not a failed request.
        try {
          return { found: true, ...this.search(q.q ?? "") };
        } catch (e) {
          if (!(e instanceof PanelRequestError)) throw e;
          return { found: false, notfound: e.status === 404, message: e.message };
        }
      case "chain":
        return this.chain(q);
      case "address":
        return this.address(q);
      default:
        throw new PanelRequestError(404, `no panel view ${JSON.stringify(view)}`);
    }
  }

  private status(): unknown {
    const config = this.deps.getConfig();
    const ledger = this.deps.ledger;
    const minute = ledger.currentMinute();
    const stats = ledger.stats();
    let storage: Record<string, number> = {};
    try {
      const fs = statfsSync(this.deps.dataDir);
      storage = { freebytes: fs.bavail * fs.bsize, totalbytes: fs.blocks * fs.bsize };
      storage.databasebytes = statSync(join(this.deps.dataDir, "data.mdb")).size;
    } catch {
      // a missing file leaves the figure out
    }
    const open = ledger.pendingEntries();
    return {
      version: NODE_VERSION,
      network: config.network,
      setting: this.options.setting,
      apiport: this.deps.apiPort(),
      blocktimeseconds: config.blockTimeSeconds,
      heights: ledger.heights(),
      minute: minute.minute,
      blockstartms: Number(minute.currentBlockStartTimeNs / 1_000_000n),
      nowms: Number(minute.currentTimeNs / 1_000_000n),
      stalled: minute.stallDetected,
      booted: ledger.isBooted(),
      holdingqueue: stats.held ?? 0,
      processlist: { entries: open.length, transactions: ledger.pendingTransactions().length },
      storage: { ...storage, reservebytes: config.minFreeDiskMB * 2 ** 20 },
      ...servers(this.deps.servers()),
      ...(this.deps.scheduled === undefined ? {} : { scheduled: this.deps.scheduled() }),
      counters: stats,
    };
  }

  private blocks(q: Query): unknown {
    const saved = this.deps.ledger.heights().directoryBlockHeight;
    const limit = intParam(q, "limit", 20, 1, MAX_BLOCKS_PER_PAGE);
    const before = intParam(q, "before", saved, 0, Number.MAX_SAFE_INTEGER);
    const top = Math.min(before, saved);
    const blocks: unknown[] = [];
    for (let h = top; h >= 0 && blocks.length < limit; h--) {
      const items = savedBlockItems(this.deps.ledger, h);
      if (items !== undefined) blocks.push(items.summary);
    }
    return { saved, blocks, next: top - limit >= 0 ? top - limit : null };
  }

  /**
   * Resolve a search: a height, a hash of anything, a chain ID or an address → what it is and where; any other
   * text (or "text" in quotes) → an ext-ID search (kind "extid", the page asks the query index).
   */
  search(text: string): { kind: string; id: string } {
    const q = text.trim();
    const ledger = this.deps.ledger;
    if (q === "") throw new PanelRequestError(400, "type a height, a hash, a chain ID, an address or an ext ID");
    // "text" in quotes is an ext ID whatever it looks like (digits, 64 hex characters)
    if (q.length >= 2 && q.startsWith('"') && q.endsWith('"')) {
      const inner = q.slice(1, -1);
      if (inner === "" || inner.length > MAX_SEARCH_TEXT)
        throw new PanelRequestError(400, `an ext ID to search for has 1 to ${MAX_SEARCH_TEXT} characters`);
      return { kind: "extid", id: inner };
    }
    // 64 hex characters are always a hash, even all digits (a KeyMR or txid may begin with many zeros)
    if (/^\d+$/.test(q) && !HEX64.test(q)) {
      const d = ledger.directoryBlockByHeight(Number(q));
      if (d === undefined) throw new PanelRequestError(404, `no directory block at height ${q}`);
      return { kind: "dblock", id: q };
    }
    if (q.length === 52 && /^(FA|EC)/.test(q)) {
      try {
        decodeAddress(q);
      } catch (e) {
        throw new PanelRequestError(400, e instanceof Error ? e.message : String(e));
      }
      return { kind: "address", id: q };
    }
    if (!HEX64.test(q)) {
      // anything else is an external ID (the query index's search-chains/search-entries, on the page)
      if (q.length > MAX_SEARCH_TEXT)
        throw new PanelRequestError(400, `an ext ID to search for is at most ${MAX_SEARCH_TEXT} characters`);
      return { kind: "extid", id: q };
    }
    const h = Buffer.from(q, "hex");
    const id = q.toLowerCase();
    if (ledger.directoryBlockByHash(h)) return { kind: "dblock", id };
    if (ledger.entryBlockByHash(h)) return { kind: "eblock", id };
    if (ledger.adminBlockByHash(h)) return { kind: "ablock", id };
    if (ledger.ecBlockByHash(h)) return { kind: "ecblock", id };
    if (ledger.assetBlockByHash(h)) return { kind: "fblock", id };
    if (ledger.entry(h)) return { kind: "entry", id };
    if (ledger.transaction(h)) return { kind: "transaction", id };
    const commit = ledger.commit(h);
    if (commit) return { kind: "entry", id: toHex(commit.commit.entryHash) };
    const head = ledger.chainHead(h);
    if (head.head !== undefined || head.inProcessList) return { kind: "chain", id };
    throw new PanelRequestError(404, `not found: no block, entry, transaction or chain has the hash ${id}`);
  }

  private chain(q: Query): unknown {
    const id = hashParam(q, "id");
    const ledger = this.deps.ledger;
    const head = ledger.chainHead(Buffer.from(id, "hex"));
    if (head.head === undefined && !head.inProcessList) throw new PanelRequestError(404, `not found: no chain ${id}`);
    let at = q.from !== undefined ? hashParam(q, "from") : head.head === undefined ? ZERO : toHex(head.head);
    const eblocks: unknown[] = [];
    while (at !== ZERO && eblocks.length < EBLOCKS_PER_PAGE) {
      const eb = ledger.entryBlockByHash(Buffer.from(at, "hex"));
      if (eb === undefined) break;
      eblocks.push({
        keymr: at,
        height: eb.block.dbHeight,
        sequence: eb.block.sequence,
        entries: entriesWithMinutes(eb.block).length,
      });
      at = toHex(eb.block.prevKeyMR);
    }
    return {
      chainid: id,
      head: head.head === undefined ? null : toHex(head.head),
      inprocesslist: head.inProcessList,
      eblocks,
      next: at === ZERO ? null : at,
    };
  }

  private address(q: Query): unknown {
    const text = (q.a ?? "").trim();
    let kind: string;
    let key: Uint8Array;
    try {
      ({ kind, key } = decodeAddress(text, undefined, "a"));
    } catch (e) {
      throw new PanelRequestError(400, e instanceof Error ? e.message : String(e));
    }
    if (kind !== "FA" && kind !== "EC")
      throw new PanelRequestError(400, `a: expected an FA or EC address, got ${kind}`);
    const ledger = this.deps.ledger;
    const balance = kind === "FA" ? ledger.assetBalance(key) : ledger.ecBalance(key);
    // the history is the query index's (address-history, through the panel's /rpc/v2): no scan here
    return { address: text, kind, balance: { ack: balance.ack, saved: balance.saved }, seen: balance.seen };
  }
}

function servers(s: { federated: ServerRow[]; audit: ServerRow[] }): Record<string, unknown> {
  const rows = (l: ServerRow[]) => l.map((r) => ({ chainid: r.ChainID, online: r.Online }));
  return { federatedservers: rows(s.federated), auditservers: rows(s.audit) };
}

function intParam(q: Query, name: string, fallback: number, min: number, max: number): number {
  const v = q[name];
  if (v === undefined || v === "") return fallback;
  if (!/^\d+$/.test(v)) throw new PanelRequestError(400, `${name}: expected a whole number, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n < min || n > max) throw new PanelRequestError(400, `${name}: expected ${min}..${max}, got ${n}`);
  return n;
}

function hashParam(q: Query, name: string): string {
  const v = q[name] ?? "";
  if (!HEX64.test(v)) throw new PanelRequestError(400, `${name}: expected 64 hex characters, got ${JSON.stringify(v)}`);
  return v.toLowerCase();
}
