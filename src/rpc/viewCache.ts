/**
 * JSON views of saved blocks, remembered per decoded block object. The ledger keeps recently read blocks
 * decoded (ledger/decodedBlockCache.ts) and hands out the same object for the same block; a view built from
 * it is remembered here for as long as that object lives (a WeakMap: nothing to evict, nothing kept once
 * the ledger drops the block). Saved blocks never change, so a view can never be stale.
 *
 * Why: `dblock-by-height` spent most of its ~100 µs re-deriving the block's hashes (a Merkle tree) and hex
 * for every call (docs/performance.md §Reads); explorers ask for the same recent heights over and over.
 * Views are shared between answers and must be treated as read-only.
 */
export class ViewCache {
  private readonly views = new WeakMap<object, Map<string, unknown>>();

  /** The view `name` of `block`, computed by `build` on the first call for this block object. */
  get<V>(block: object, name: string, build: () => V): V {
    let byName = this.views.get(block);
    if (byName === undefined) {
      byName = new Map();
      this.views.set(block, byName);
    }
    if (byName.has(name)) return byName.get(name) as V;
    const view = build();
    byName.set(name, view);
    return view;
  }
}
