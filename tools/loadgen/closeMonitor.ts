/**
 * Block closes as the node reports them: polls the debug `summary` line during a phase and keeps the
 * main-thread time of each close (`lastCloseMs` with `blocksClosed` and `saved` in ledgerd's summary), its
 * longest single event-loop turn and the writer thread's save time. The node completes these figures over a
 * few turns after the close (packing, then the save), so each poll refreshes the latest close's figures
 * until the next close. The figures are the node's own measurements; the generator only collects them.
 */
import type { RpcClient } from "./rpcClient.js";

/** One closed block. */
export interface BlockClose {
  /** saved height after the close */
  height: number;
  /** main-thread time of the close, ms (the node's figure: build + packing the save) */
  closeMs: number;
  /** building the blocks (one event-loop turn), ms */
  buildMs?: number;
  /** longest single event-loop turn of the close, ms: what a request arriving meanwhile waits at most */
  longestTurnMs?: number;
  /** writer-thread time of the block save, ms (off the main thread; acknowledgements wait for it) */
  writeMs?: number;
}

export interface CloseFigures {
  /** false when the node's summary carries no close time */
  available: boolean;
  closes: BlockClose[];
  /** closes that happened between two polls and were not seen */
  missed: number;
  maxCloseMs?: number;
  maxLongestTurnMs?: number;
  maxWriteMs?: number;
}

/** ms between polls: 24 per 6-second block, light next to thousands of requests per second. */
const POLL_MS = 250;

function field(summary: string, name: string): number | undefined {
  const m = new RegExp(`\\b${name}=(\\d+(?:\\.\\d+)?)`).exec(summary);
  return m === null ? undefined : Number(m[1]);
}

export class CloseMonitor {
  private readonly closes: BlockClose[] = [];
  private available = false;
  private missed = 0;
  private lastCount: number | undefined;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private result: CloseFigures | undefined;

  constructor(
    private readonly client: RpcClient,
    /** polling stops by itself after this many ms even if stop() is never called */
    private readonly maxMs = 3_600_000,
  ) {}

  /** Start polling (records closes after the first poll). */
  start(): void {
    this.running = true;
    const until = performance.now() + this.maxMs;
    this.loop = (async () => {
      while (this.running && performance.now() < until) {
        await this.poll();
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();
  }

  private async poll(): Promise<void> {
    let summary: string;
    try {
      summary = (await this.client.call<{ Summary?: string }>("summary", undefined, "/debug")).Summary ?? "";
    } catch {
      return;
    }
    const count = field(summary, "blocksClosed");
    const closeMs = field(summary, "lastCloseMs");
    const height = field(summary, "saved");
    if (count === undefined || closeMs === undefined || height === undefined) return;
    this.available = true;
    const figures: BlockClose = { height, closeMs };
    const buildMs = field(summary, "lastCloseBuildMs");
    if (buildMs !== undefined) figures.buildMs = buildMs;
    const longestTurnMs = field(summary, "lastCloseLongestTurnMs");
    const writeMs = field(summary, "lastCloseWriteMs");
    if (longestTurnMs !== undefined) figures.longestTurnMs = longestTurnMs;
    if (writeMs !== undefined) figures.writeMs = writeMs;
    if (this.lastCount !== undefined && count > this.lastCount) {
      this.missed += count - this.lastCount - 1;
      this.closes.push(figures);
    } else if (this.lastCount === count && this.closes.length > 0) {
      // same close, figures completed since (a save commits a few turns after the close)
      this.closes[this.closes.length - 1] = figures;
    }
    this.lastCount = count;
  }

  /** Stop polling; the closes seen while it ran. Calling it again returns the same figures. */
  async stop(): Promise<CloseFigures> {
    if (this.result !== undefined) return this.result;
    this.running = false;
    await this.loop;
    await this.poll();
    const out: CloseFigures = { available: this.available, closes: [...this.closes], missed: this.missed };
    if (this.closes.length > 0) out.maxCloseMs = Math.max(...this.closes.map((c) => c.closeMs));
    const turns = this.closes.flatMap((c) => (c.longestTurnMs === undefined ? [] : [c.longestTurnMs]));
    if (turns.length > 0) out.maxLongestTurnMs = Math.max(...turns);
    const writes = this.closes.flatMap((c) => (c.writeMs === undefined ? [] : [c.writeMs]));
    if (writes.length > 0) out.maxWriteMs = Math.max(...writes);
    this.result = out;
    return out;
  }
}
