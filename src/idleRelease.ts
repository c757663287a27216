/**
 * Caches that let go of what they hold when the node goes quiet (issue 16: anonymous RSS ≤ 200 MB at rest).
 * The caches of saved blocks and answers are bounded for a busy node (ledger/queries.ts: up to 16 MiB of raw
 * EC blocks and 8 MiB of entry blocks, several times that decoded; rpc/answerCache.ts: 8 MiB), and after a
 * load they stay full while nothing reads them: ~100–150 MB of live heap after a write run at ~6,000
 * entries/s whose acknowledgements were checked. monitor/idleCollector.ts releases them in the first quiet
 * second of a quiet period, right before its collection; the next read decodes again (one block: ~1–60 ms).
 * A leaf module (no imports) so that every layer may register its caches.
 */

/** A cache that can drop everything it holds; its answers stay the same, only their cost changes. */
export interface Releasable {
  releaseHeld(): void;
}

/** Every live registered cache (weakly: a cache that is otherwise gone is not kept by this list). */
const registered = new Set<WeakRef<Releasable>>();

/** Register `cache` to be released when the node goes quiet. */
export function releaseWhenIdle(cache: Releasable): void {
  registered.add(new WeakRef(cache));
}

/** Release every registered cache still alive; returns how many. */
export function releaseIdleCaches(): number {
  let released = 0;
  for (const ref of registered) {
    const cache = ref.deref();
    if (cache === undefined) {
      registered.delete(ref);
      continue;
    }
    cache.releaseHeld();
    released++;
  }
  return released;
}
