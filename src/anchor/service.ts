/**
 * The anchoring service of the node elected by configuration (`[Anchor] RpcUrl` + key files): every
 * `Interval` saved directory blocks it writes the Merkle root of the window of blocks not yet anchored into an
 * Ethereum transaction, waits for `Confirmations`, and records the anchor as a signed entry of the anchor
 * chain, submitted through the ledger's ordinary commit/reveal path (so the record is ordered like any entry
 * and every node's blocks hold it alike). One anchor is in flight at a time; blocks saved meanwhile join the
 * next window, which is how it catches up after the external chain was unreachable.
 */
import type { LedgerApi } from "../ledger/api.js";
import type { Logger } from "../log/logger.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { buildChainCommit, buildEntryCommit } from "../protocol/commit.js";
import { entryHash, marshalEntry } from "../protocol/entry.js";
import { AnchorError } from "./errors.js";
import { decodeSignedAnchor, type EthereumAnchorer, isTransportError, type SendLimits } from "./ethereum.js";
import type { AnchorIndex } from "./index.js";
import type { PendingAnchor, PendingAnchorFile } from "./pendingAnchor.js";
import { anchorChainFirstEntry, anchorRecordEntry, ETHEREUM_ANCHOR_CHAIN_ID } from "./record.js";

export interface AnchorServiceOptions {
  /** anchor once this many directory blocks past the last anchored one are saved (≥ 1) */
  intervalBlocks: number;
  /** most directory blocks in one window (a backlog is anchored in windows of this size) */
  maxWindow: number;
  /** external blocks, the transaction's own included, before the anchor is recorded */
  confirmations: number;
  limits: SendLimits;
  /** 0x address the transactions go to; "" = the paying account itself */
  to: string;
  /** ms between rounds */
  pollMs: number;
}

export interface AnchorServiceDependencies {
  ledger: Pick<LedgerApi, "chainHead" | "heights" | "entry" | "submitCommit" | "submitReveal">;
  index: AnchorIndex;
  ethereum: EthereumAnchorer;
  pending: PendingAnchorFile;
  /** ed25519 seed of the entry credit key: pays for the record entries and signs the records */
  ecSeed: Uint8Array;
  log: Logger;
  /** ms since epoch (commit timestamps) */
  now(): number;
}

/** Counters for `summary` (Prometheus-style names). */
export interface AnchorStats {
  anchor_transactions_sent_total: number;
  anchor_records_submitted_total: number;
  anchor_rpc_failures_total: number;
  /** 1 while the external chain does not answer */
  anchor_rpc_unreachable: number;
  /** highest directory block height the anchor chain covers (-1: none) */
  anchor_anchored_height: number;
}

/**
 * ms between re-sends of a transaction that is not mined yet. A node keeps a sent transaction in its pool for
 * hours; re-sending only covers one that was lost (a restarted or switched RPC node), so twice a minute is
 * plenty and stays far below any endpoint's rate limit.
 */
export const RESEND_MS = 30_000;

export class AnchorService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private unreachableSince: number | undefined;
  private lastProblem = "";
  private readonly counters = { sent: 0, recorded: 0, failures: 0 };
  /** the last (re)broadcast of the transaction in flight */
  private lastSend: { hash: string; ms: number } | undefined;

  constructor(
    private readonly options: AnchorServiceOptions,
    private readonly deps: AnchorServiceDependencies,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stop after the round in progress (a round never leaves the pending file half-done). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  stats(): AnchorStats {
    return {
      anchor_transactions_sent_total: this.counters.sent,
      anchor_records_submitted_total: this.counters.recorded,
      anchor_rpc_failures_total: this.counters.failures,
      anchor_rpc_unreachable: this.unreachableSince === undefined ? 0 : 1,
      anchor_anchored_height: this.deps.index.anchoredHeight(),
    };
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => this.schedule(this.options.pollMs));
    }, ms);
  }

  /** One round: never throws; problems are logged once each (and again when they change). */
  async round(): Promise<void> {
    try {
      await this.step();
      if (this.unreachableSince !== undefined) {
        this.deps.log.info("anchor: the Ethereum RPC answers again; catching up", {
          downSeconds: Math.round((this.deps.now() - this.unreachableSince) / 1000),
        });
        this.unreachableSince = undefined;
      }
      this.lastProblem = "";
    } catch (e) {
      this.counters.failures++;
      if (isTransportError(e)) {
        if (this.unreachableSince === undefined) {
          this.unreachableSince = this.deps.now();
          this.deps.log.warn(
            "anchor: the Ethereum RPC does not answer; blocks and receipts go on without anchors, and the blocks saved meanwhile are anchored once it answers",
            { error: shortMessage(e) },
          );
        }
        return;
      }
      const problem = shortMessage(e);
      if (problem !== this.lastProblem) {
        this.deps.log.error("anchor: round failed; retrying", { error: problem });
        this.lastProblem = problem;
      }
    }
  }

  private async step(): Promise<void> {
    const { ledger, index, pending } = this.deps;
    const chain = ledger.chainHead(ETHEREUM_ANCHOR_CHAIN_ID);
    if (chain.head === undefined && !chain.inProcessList) {
      await this.createAnchorChain();
      return;
    }
    index.refresh();
    const inFlight = pending.read();
    if (inFlight !== undefined) {
      await this.advance(inFlight);
      return;
    }
    const saved = ledger.heights().directoryBlockHeight;
    const last = index.anchoredHeight();
    if (saved - last < this.options.intervalBlocks) return;
    const min = last + 1;
    const max = Math.min(saved, last + this.options.maxWindow);
    const root = index.windowRootOf(min, max);
    if (root === undefined)
      throw new AnchorError({ code: "FAILED", info: `directory blocks ${min}..${max} are not all saved here` });
    const to = this.options.to === "" ? this.deps.ethereum.address() : this.options.to;
    const tx = await this.deps.ethereum.sign(max, root, to, this.options.limits);
    pending.write({ dbHeightMin: min, dbHeightMax: max, windowMR: toHex(root), tx });
    await this.deps.ethereum.send(tx);
    this.lastSend = { hash: tx.hash, ms: this.deps.now() };
    this.counters.sent++;
    this.deps.log.info("anchor: transaction sent", { window: `${min}..${max}`, tx: tx.hash, nonce: tx.nonce });
  }

  /**
   * Why the pending file cannot be this node's anchor (undefined when it is): its signed transaction must hash
   * to the recorded hash and carry setAnchor(dbHeightMax, windowMR), and windowMR must be the root of this
   * node's keyMRs over the window. Guards against a damaged or foreign file, whose anchor would otherwise be
   * recorded without checking.
   */
  private inconsistency(p: PendingAnchor): string | undefined {
    const tx = decodeSignedAnchor(p.tx.raw);
    if (tx === undefined) return "its transaction is not a setAnchor call";
    if (tx.hash !== p.tx.hash.toLowerCase()) return `its transaction hashes to ${tx.hash}, not ${p.tx.hash}`;
    if (tx.dbHeightMax !== p.dbHeightMax || toHex(tx.windowMR) !== p.windowMR.toLowerCase())
      return "its transaction anchors another window";
    if (p.dbHeightMin > p.dbHeightMax || p.dbHeightMin !== this.deps.index.anchoredHeight() + 1)
      return `its window ${p.dbHeightMin}..${p.dbHeightMax} does not follow the anchored height ${this.deps.index.anchoredHeight()}`;
    const root = this.deps.index.windowRootOf(p.dbHeightMin, p.dbHeightMax);
    if (root === undefined) return `directory blocks ${p.dbHeightMin}..${p.dbHeightMax} are not all saved here`;
    if (toHex(root) !== p.windowMR.toLowerCase()) return "its window root is not the root of this node's blocks";
    return undefined;
  }

  /** Move the anchor in flight on: re-send, wait for confirmations, record, and forget it once recorded. */
  private async advance(p: PendingAnchor): Promise<void> {
    const { ledger, index, pending, ethereum, log } = this.deps;
    if (index.hasTransaction(p.tx.hash)) {
      pending.clear();
      log.info("anchor: recorded in the anchor chain", { window: `${p.dbHeightMin}..${p.dbHeightMax}`, tx: p.tx.hash });
      return;
    }
    const problem = this.inconsistency(p);
    if (problem !== undefined) {
      log.error("anchor: the anchor in flight does not match this node's blocks; anchoring its window again", {
        file: pending.path,
        problem,
      });
      pending.clear();
      return;
    }
    if (p.recordEntry !== undefined) {
      const raw = fromHex(p.recordEntry, "recordEntry");
      if (ledger.entry(entryHash(raw)) !== undefined) return; // acknowledged; waits for its block
      await this.submitEntry(raw);
      return;
    }
    const mined = await ethereum.mined(p.tx.hash);
    if (mined === undefined) {
      // Not mined yet. The chain may have lost it, or never got it (a crash between writing the pending file
      // and sending): send the same bytes again — at once after a start, then every RESEND_MS.
      const now = this.deps.now();
      if (this.lastSend?.hash !== p.tx.hash || now - this.lastSend.ms >= RESEND_MS) {
        try {
          await ethereum.send(p.tx);
        } catch (e) {
          if (!(e instanceof AnchorError && e.type.code === "NONCE_USED")) throw e;
          // The account was used elsewhere (keep it for anchoring only): this transaction is dead, so the
          // window is anchored again by a new one rather than skipped.
          log.error("anchor: the transaction can never be mined; the window is anchored again", { error: e.message });
          pending.clear();
          return;
        }
        this.lastSend = { hash: p.tx.hash, ms: now };
      }
      return;
    }
    if (!mined.succeeded) {
      log.error("anchor: the transaction reverted; the window is anchored again", { tx: p.tx.hash });
      pending.clear();
      return;
    }
    if (mined.confirmations < this.options.confirmations) return;
    const entry = anchorRecordEntry(
      {
        dbHeightMin: p.dbHeightMin,
        dbHeightMax: p.dbHeightMax,
        windowMR: fromHex(p.windowMR, "windowMR", 32),
        recordHeight: ledger.heights().leaderHeight,
        ethereum: {
          contractAddress: p.tx.to,
          txId: p.tx.hash,
          blockHeight: mined.blockHeight,
          blockHash: mined.blockHash,
          txIndex: mined.txIndex,
        },
      },
      this.deps.ecSeed,
    );
    const raw = marshalEntry(entry);
    pending.write({ ...p, recordEntry: toHex(raw) });
    log.info("anchor: confirmed", {
      window: `${p.dbHeightMin}..${p.dbHeightMax}`,
      tx: p.tx.hash,
      block: mined.blockHeight,
      gasUsed: Number(mined.gasUsed),
    });
    await this.submitEntry(raw);
  }

  /** Commit (paid by the EC key) and reveal a record entry; a commit the ledger already holds is fine. */
  private async submitEntry(raw: Uint8Array): Promise<void> {
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: this.deps.now(), ecSeed: this.deps.ecSeed });
    await this.submitCommitTolerant(() => this.deps.ledger.submitCommit(commit));
    await this.deps.ledger.submitReveal(raw, { kind: "entry" });
    this.counters.recorded++;
  }

  private async createAnchorChain(): Promise<void> {
    const raw = marshalEntry(anchorChainFirstEntry());
    const commit = buildChainCommit({ entryRaw: raw, milliTime: this.deps.now(), ecSeed: this.deps.ecSeed });
    await this.submitCommitTolerant(() => this.deps.ledger.submitCommit(commit));
    await this.deps.ledger.submitReveal(raw, { kind: "chain" });
    this.deps.log.info("anchor: created the anchor chain", { chainId: toHex(ETHEREUM_ANCHOR_CHAIN_ID) });
  }

  private async submitCommitTolerant(submit: () => Promise<unknown>): Promise<void> {
    try {
      await submit();
    } catch (e) {
      const code = (e as { type?: { code?: string } }).type?.code;
      if (code !== "REPEATED_COMMIT") throw e;
    }
  }
}

/** One line of an error for the log (viem's messages carry multi-line details and request bodies). */
function shortMessage(e: unknown): string {
  if (e instanceof AnchorError) return e.message;
  if (e instanceof Error) {
    const short = (e as { shortMessage?: unknown }).shortMessage;
    const text = typeof short === "string" ? short : e.message;
    const type = (e as { type?: Record<string, unknown> }).type;
    if (type !== undefined && typeof type.code === "string") {
      // A LedgerError: its fields say what (e.g. EC_BALANCE_LOW need/have of the entry credit key).
      const details = Object.entries(type)
        .filter(([k]) => k !== "code")
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(" ");
      return `${type.code}${details === "" ? "" : ` (${details})`}`;
    }
    return text.split("\n")[0]!;
  }
  return String(e);
}
