/**
 * Merkle roots of large trees off the main thread (DESIGN §1), equal to protocol merkleRoot.
 *
 * A tree of n leaves is cut into aligned subtrees of 2^k leaves; workers hash each up to height k
 * (merkleTask.ts) and the main thread hashes the few subtree roots that remain. Because the subtrees
 * are aligned, their nodes pair exactly as in the whole tree; only the last, partial one must be
 * lifted to height k by pairing its lone node with itself, which the task does.
 */
import { InvariantError } from "../errors.js";
import { merkleRoot } from "../protocol/merkle.js";
import { WorkerPoolError } from "./errors.js";
import type { SubtreeTask } from "./merkleTask.js";
import { createWorkerPool, reasonOf, type WorkerPool } from "./pool.js";

/**
 * Leaf count at and above which root() hashes in the pool. Below it the main thread is as fast or
 * faster: a pool root pays a copy of the leaves and a round trip (~45–113 µs) before any parallel gain.
 * Measured by `node dist/bench/calibrate.js` (2 threads on 2 shared cores; mean µs main vs pool, one run):
 * 256 leaves 269 vs 331, 512 → 512 vs 453, 768 → 681 vs 637, 1024 → 982 vs 766, 4096 → 4,014 vs 2,330.
 * Over seven runs the pool was faster from 512, 512, 512, 768, 768, 1024 and (under heavy contention)
 * 2048 leaves up; 1024 is where it wins in all but the most contended run. Above it the pool also
 * leaves the main thread free for requests during a block close.
 */
export const MERKLE_POOL_THRESHOLD = 1024;

/**
 * Fewest leaves per subtree task: 256 leaves are 255 hashes (~250 µs), several round trips' worth,
 * so a task's cost stays dominated by hashing.
 */
export const MERKLE_MIN_SUBTREE = 256;

/** Subtree tasks per thread: more than one so an uneven last subtree does not leave a thread idle. */
export const MERKLE_TASKS_PER_THREAD = 4;

/** Options of MerkleHasher. */
export interface MerkleHasherOptions {
  /** Worker threads of the pool it creates (ignored when a pool is given). */
  threads: number;
  /** Leaf count at and above which the pool hashes (default MERKLE_POOL_THRESHOLD; 0 = always the pool). */
  threshold?: number;
}

/** Optional dependencies: a pool shared with other workers/ services. It is not destroyed by close(). */
export interface MerkleHasherDependencies {
  pool?: WorkerPool;
}

const MERKLE_TASK = new URL("./merkleTask.js", import.meta.url).href;

/** Merkle roots (wire-format §0.7), on the main thread for small trees and in the pool for large ones. */
export class MerkleHasher {
  private readonly pool: WorkerPool;
  private readonly ownsPool: boolean;
  private readonly threshold: number;
  private closed = false;

  constructor(options: MerkleHasherOptions, dependencies: MerkleHasherDependencies = {}) {
    const threshold = options.threshold ?? MERKLE_POOL_THRESHOLD;
    if (!Number.isInteger(threshold) || threshold < 0)
      throw new RangeError(`threshold: expected an integer ≥ 0, got ${threshold}`);
    this.threshold = threshold;
    this.ownsPool = dependencies.pool === undefined;
    this.pool = dependencies.pool ?? createWorkerPool({ threads: options.threads });
  }

  /**
   * Root of 32-byte `leaves`: zero hash when empty, the leaf itself when alone (as merkleRoot).
   * @throws RangeError when a leaf is not 32 bytes; rejects with WorkerPoolError when the pool fails or is closed
   */
  async root(leaves: readonly Uint8Array[]): Promise<Uint8Array> {
    for (let i = 0; i < leaves.length; i++)
      if (leaves[i]!.length !== 32)
        throw new InvariantError(`leaves[${i}]: expected 32 bytes, got ${leaves[i]!.length}`);
    if (this.closed) throw new WorkerPoolError({ code: "POOL_CLOSED", what: "Merkle root" });
    const n = leaves.length;
    if (n < 2 || n < this.threshold) return merkleRoot(leaves);

    const { subtreeLeaves, height } = subtreeShape(n, this.pool.maxThreads);
    const roots: Promise<Uint8Array>[] = [];
    for (let from = 0; from < n; from += subtreeLeaves)
      roots.push(this.runSubtree(leaves, from, Math.min(n, from + subtreeLeaves), height));
    const top = await Promise.all(roots);
    return top.length === 1 ? top[0]! : merkleRoot(top);
  }

  /** Stop the pool (when owned). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.destroy();
  }

  private async runSubtree(
    leaves: readonly Uint8Array[],
    from: number,
    to: number,
    height: number,
  ): Promise<Uint8Array> {
    const packed = new Uint8Array((to - from) * 32);
    for (let i = from; i < to; i++) packed.set(leaves[i]!, (i - from) * 32);
    const task: SubtreeTask = { leaves: packed, height };
    try {
      const root: unknown = await this.pool.run(task, {
        filename: MERKLE_TASK,
        transferList: [packed.buffer as ArrayBuffer],
      });
      if (!(root instanceof Uint8Array) || root.length !== 32)
        throw new InvariantError("the task did not return a 32-byte node");
      return root;
    } catch (cause) {
      if (this.closed) throw new WorkerPoolError({ code: "POOL_CLOSED", what: "Merkle root" }, { cause });
      throw new WorkerPoolError({ code: "TASK_FAILED", what: "Merkle root", reason: reasonOf(cause) }, { cause });
    }
  }
}

/**
 * How to cut n ≥ 2 leaves: subtrees of 2^k leaves, k chosen for about MERKLE_TASKS_PER_THREAD tasks per
 * thread but no fewer than MERKLE_MIN_SUBTREE leaves each. When one subtree holds all the leaves its
 * height is the tree's own (⌈log2 n⌉), so its node is the root with no lifting.
 */
export function subtreeShape(n: number, threads: number): { subtreeLeaves: number; height: number } {
  const wanted = Math.max(MERKLE_MIN_SUBTREE, Math.ceil(n / (threads * MERKLE_TASKS_PER_THREAD)));
  const k = ceilLog2(wanted);
  if (2 ** k >= n) return { subtreeLeaves: n, height: ceilLog2(n) };
  return { subtreeLeaves: 2 ** k, height: k };
}

/** Smallest k with 2^k ≥ n (integer arithmetic, no floating-point log). */
function ceilLog2(n: number): number {
  let k = 0;
  while (2 ** k < n) k++;
  return k;
}
