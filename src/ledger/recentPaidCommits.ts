/**
 * Which entry hashes may have a paid commit in the store that is still live: a negative filter in front of the
 * saved paid-commit read (rules.ts `livePaidCommit`). Every new entry's commit asks the store for a paid commit of
 * its hash and finds none: an LMDB lookup that misses, walking a B-tree of every entry ever saved (~3–4 % of a
 * write-loaded main thread, `perf`, issue 35). The filter answers most of those misses without the store.
 *
 * Exact by construction, never by chance: it only ever says "none live" for a hash that cannot have a live
 * saved paid commit, and otherwise lets the store answer. Two facts carry that:
 * 1. every paid commit saved since this ledger opened its store is in one of the filter's generations (a block's
 *    paid commits are added at its close, before its save: `addBlock`); a Bloom filter has false positives,
 *    never false negatives, and a false positive only costs the store's read, as before;
 * 2. every other saved paid commit, the store's at open and those of a generation dropped since, has a
 *    timestamp ≤ `unfilteredMaxMs`: the store's bound at open (store.ts `paidCommitBound`, kept by every block
 *    save in the same transaction) raised to a dropped generation's latest timestamp. Such a commit is dead
 *    (COMMIT_LIFETIME_MS after its timestamp) once the rules' time passes that bound by the lifetime.
 * With no bound (a store that never kept one) the filter says nothing and every lookup reads the store.
 *
 * Deterministic: no clock, no randomness; its answers only decide whether the store is read, never what the rules
 * conclude. A hash is placed by its own bytes: entry hashes are sha256 outputs, and grinding entries whose
 * hashes share bits only makes more lookups read the store, as all of them did before.
 */
import { COMMIT_LIFETIME_MS } from "./constants.js";

/**
 * Bits of one generation: 2^24 (2 MiB). Blocked Bloom filter: a hash sets PROBES bits within one 512-bit block
 * (one cache line), so a lookup touches one line per generation.
 */
const GENERATION_BITS = 1 << 24;
/** u32 words of one 512-bit block */
const BLOCK_WORDS = 16;
/** Blocks of one generation: 2^15, so a block number is 15 bits of the hash. */
const BLOCKS = GENERATION_BITS / (BLOCK_WORDS * 32);
/** Bits set per hash, each within the hash's block. */
const PROBES = 4;
/**
 * Hashes per generation before the next starts: ~10 bits a hash, which keeps a blocked filter's false positives
 * near 2 % (each one a read of the store, as without the filter).
 */
export const GENERATION_HASHES = 1_600_000;
/**
 * Generations kept: 8 MiB at most, ~6.4 million hashes, about three hours at 600 entries/s. Past that the oldest
 * goes and raises the bound to its latest timestamp: under a heavier sustained load the filter answers less (the
 * bound is then recent) and the store answers, as it did without it.
 */
export const MAX_GENERATIONS = 4;

class Generation {
  // Stryker disable next-line ArithmeticOperator: a larger array (× 32) holds the same bits at the same places: memory only
  readonly words = new Uint32Array(GENERATION_BITS / 32);
  hashes = 0;
  /** the latest timestamp among its paid commits, ms */
  maxMilliTime = Number.NEGATIVE_INFINITY;

  add(bytes: Uint8Array, at: number): void {
    const block = blockOf(bytes, at);
    const words = this.words;
    // Stryker disable next-line EqualityOperator: a fifth probe (bytes 12–13) set and tested alike changes only the rate of false positives
    for (let p = 0; p < PROBES; p++) {
      const bit = probeBit(bytes, at, p);
      words[block + (bit >>> 5)]! |= 1 << (bit & 31);
    }
    this.hashes++;
  }

  mayHave(bytes: Uint8Array): boolean {
    const block = blockOf(bytes, 0);
    const words = this.words;
    for (let p = 0; p < PROBES; p++) {
      const bit = probeBit(bytes, 0, p);
      if ((words[block + (bit >>> 5)]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** The first word of a hash's block: 15 bits of its bytes 0–1 as a block number. */
function blockOf(b: Uint8Array, at: number): number {
  return ((b[at]! | (b[at + 1]! << 8)) & (BLOCKS - 1)) * BLOCK_WORDS;
}

/**
 * Probe `p`'s bit within the block: 9 bits of the hash's bytes 4 + 2p and 5 + 2p. (Which bytes of the hash a
 * probe reads only matters to the rate of false positives, tested at a full generation: an add and a lookup read
 * the same ones.)
 */
function probeBit(b: Uint8Array, at: number, p: number): number {
  // Stryker disable next-line ArithmeticOperator: another of the hash's bytes per probe, read by add and lookup alike
  const i = at + 4 + 2 * p;
  // Stryker disable next-line ArithmeticOperator: byte 3 + 2p instead of 5 + 2p, read by add and lookup alike
  return (b[i]! | (b[i + 1]! << 8)) & (BLOCK_WORDS * 32 - 1);
}

/** The paid commits of one closed block, as `addBlock` reads them (ledger/processList.ts `forEachPaid`). */
export interface PaidCommitKeys {
  /** `fn` once per paid commit: its entry hash at `bytes[at…at + 32)`, its timestamp in ms */
  forEachPaid(fn: (bytes: Uint8Array, at: number, milliTime: number) => void): void;
}

export class RecentPaidCommits {
  /** oldest first */
  private readonly generations: Generation[] = [];
  /** every saved paid commit in no generation has a timestamp ≤ this, ms (+∞: unknown, the filter says nothing) */
  private unfilteredMaxMs: number;

  constructor(
    /** the store's bound at open (store.ts `paidCommitBound`): undefined when it has none */
    storeBoundMs: number | undefined,
    /** tests: hashes per generation and generations kept (GENERATION_HASHES, MAX_GENERATIONS) */
    private readonly limits = { generationHashes: GENERATION_HASHES, maxGenerations: MAX_GENERATIONS },
  ) {
    this.unfilteredMaxMs = storeBoundMs ?? Number.POSITIVE_INFINITY;
  }

  /** Hashes added to each generation kept, oldest first (tests). */
  get generationSizes(): number[] {
    return this.generations.map((g) => g.hashes);
  }

  /** The latest timestamp a saved paid commit outside the generations may have, ms (tests). */
  get boundMs(): number {
    return this.unfilteredMaxMs;
  }

  /** A block's paid commits, at its close: before its save makes them the store's. */
  addBlock(block: PaidCommitKeys): void {
    block.forEachPaid((bytes, at, milliTime) => {
      let g = this.generations[this.generations.length - 1];
      if (g === undefined || g.hashes >= this.limits.generationHashes) {
        g = new Generation();
        this.generations.push(g);
        if (this.generations.length > this.limits.maxGenerations) {
          const dropped = this.generations.shift()!;
          this.unfilteredMaxMs = Math.max(this.unfilteredMaxMs, dropped.maxMilliTime);
        }
      }
      g.add(bytes, at);
      // Stryker disable next-line EqualityOperator: >= assigns an equal value again
      if (milliTime > g.maxMilliTime) g.maxMilliTime = milliTime;
    });
  }

  /**
   * True when the store can hold no paid commit of `entryHash` live at `nowMs` (the rules' time, ms): one saved
   * outside the generations is dead by then, and no generation may hold the hash. False: ask the store.
   */
  noneLive(entryHash: Uint8Array, nowMs: number): boolean {
    // live while nowMs − milliTime ≤ COMMIT_LIFETIME_MS (rules.ts livePaidCommit)
    if (nowMs - COMMIT_LIFETIME_MS <= this.unfilteredMaxMs) return false;
    for (const g of this.generations) if (g.mayHave(entryHash)) return false;
    return true;
  }
}
