/**
 * Where the query index stands for the main thread (docs/ledger.md §Query index, "Rebuild"): current, or being
 * rebuilt in the background on the block-set writer thread (blockSetWriterTask.ts). While it is rebuilt the
 * query methods refuse their reads (rpc/v2/queries.ts asks `rebuilding`), an answer from the part built so far being wrong for descending orders and searches; progress lines go to the store's log and the
 * figures to /metrics (monitor/queryIndexMetrics.ts) and /debug.
 */
import type { Databases } from "./environment.js";
import { QUERY_INDEX_VERSION, queryIndexBehind, type RebuildProgress, readMarker } from "./queryIndex.js";

/** Seconds between two progress lines of a rebuild: a line per ~10 s is enough to see it move, not a flood. */
const PROGRESS_LINE_SECONDS = 10;

/** What /metrics and /debug show of the index. */
export interface QueryIndexStatus {
  /** true while saved heights lack their index records (queries answer "rebuilding") */
  rebuilding: boolean;
  /** the next height the index will hold: heights below it are indexed */
  nextHeight: number;
  /** the saved height the rebuild runs to (it follows the saves) */
  savedHeight: number;
  /** heights of the rebuild still to index (0 when current) */
  heightsBehind: number;
  /** entries indexed by this process's rebuild so far */
  entriesIndexed: number;
  /** the rebuild's average since it started in this process; 0 when none ran */
  entriesPerSecond: number;
  /** estimated seconds to the end at the rebuild's average heights per second; 0 when current */
  etaSeconds: number;
  /** the longest rebuild step so far, ms on the writer thread: the most a block save waited behind one */
  longestStepMs: number;
  /** why the rebuild stopped, when a step failed (the index stays behind until the next start) */
  failed?: string;
}

export class QueryIndexRebuild {
  /** set once every saved height is indexed: saves keep it so, nothing reads the marker again */
  private current = false;
  private startedMs = 0;
  private firstNext = 0;
  private last: RebuildProgress | undefined;
  private entries = 0;
  private lastLineMs = 0;
  private failed: string | undefined;
  private longestStepMs = 0;

  constructor(
    private readonly options: { path: string; now?: () => number },
    private readonly deps: {
      dbs: Pick<Databases, "meta">;
      savedHeight: () => number | undefined;
      log: (line: string) => void;
    },
  ) {}

  /** True when saved heights lack their index records (the store starts the writer thread's rebuild). */
  get behind(): boolean {
    return !this.isCurrent();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private isCurrent(): boolean {
    // the marker and the saved height are read in this thread's one read snapshot: consistent with each other
    if (!this.current) this.current = !queryIndexBehind(this.deps.dbs, this.deps.savedHeight());
    return this.current;
  }

  /** The rebuild is starting on the writer thread. */
  started(): void {
    this.startedMs = this.now();
    this.lastLineMs = this.startedMs;
    // where the marker stands: a rebuild cut short (a kill, a stop) resumes there; another layout starts at 0
    const marker = readMarker(this.deps.dbs);
    this.firstNext = marker !== undefined && marker.version === QUERY_INDEX_VERSION ? marker.next : 0;
    const s = this.status();
    this.deps.log(
      `query index rebuilding in the background from height ${s.nextHeight} to ${s.savedHeight} ` +
        "(chain-entries, search-entries, search-chains, address-history answer -32000 until it is done)",
    );
  }

  /** A rebuild step committed (blockSetWriter.ts RebuildHandlers). */
  progress(p: RebuildProgress, ms: number): void {
    this.last = p;
    this.longestStepMs = Math.max(this.longestStepMs, ms);
    this.entries += p.entries;
    const now = this.now();
    if (p.done) {
      this.current = true;
      const seconds = (now - this.startedMs) / 1000;
      this.deps.log(
        `query index rebuilt: ${p.next - this.firstNext} heights, ${this.entries} entries in ${seconds.toFixed(1)} s ` +
          `(${Math.round(this.entries / Math.max(seconds, 0.001))} entries/s, longest step ${Math.round(this.longestStepMs)} ms); ` +
          "the query methods answer again",
      );
      return;
    }
    if (now - this.lastLineMs < PROGRESS_LINE_SECONDS * 1000) return;
    this.lastLineMs = now;
    const s = this.status();
    this.deps.log(
      `query index rebuilding: height ${s.nextHeight} of ${s.savedHeight}, ${s.entriesIndexed} entries, ` +
        `${s.entriesPerSecond} entries/s, about ${s.etaSeconds} s left`,
    );
  }

  /** The old index (missing marker, another layout) was dropped before the first step. */
  cleared(ms: number): void {
    this.deps.log(`query index: the previous index dropped in ${Math.round(ms)} ms; indexing the saved heights`);
  }

  /** A rebuild step failed: the index stays behind (queries keep answering "rebuilding") until a restart. */
  stopped(error: string): void {
    this.failed = error;
    this.deps.log(`query index rebuild stopped: ${error}; the query methods stay refused until the next start`);
  }

  status(): QueryIndexStatus {
    const savedHeight = this.deps.savedHeight() ?? -1;
    const current = this.isCurrent();
    const next = current ? savedHeight + 1 : Math.max(this.last?.next ?? 0, this.firstNext);
    const seconds = this.startedMs === 0 ? 0 : (this.now() - this.startedMs) / 1000;
    const heightsBehind = current ? 0 : Math.max(0, savedHeight + 1 - next);
    const heightsPerSecond = seconds > 0 ? (next - this.firstNext) / seconds : 0;
    return {
      rebuilding: !current,
      nextHeight: next,
      savedHeight,
      heightsBehind,
      entriesIndexed: this.entries,
      entriesPerSecond: seconds > 0 ? Math.round(this.entries / seconds) : 0,
      etaSeconds: current || heightsPerSecond <= 0 ? 0 : Math.round(heightsBehind / heightsPerSecond),
      longestStepMs: Math.round(this.longestStepMs),
      ...(this.failed === undefined ? {} : { failed: this.failed }),
    };
  }

  /** Undefined once every saved height is indexed; else how far the rebuild is (QueryIndexApi `rebuilding`). */
  rebuilding(): { nextHeight: number; savedHeight: number } | undefined {
    if (this.isCurrent()) return undefined;
    const s = this.status();
    return { nextHeight: s.nextHeight, savedHeight: s.savedHeight };
  }
}
