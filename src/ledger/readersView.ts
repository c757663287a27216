/**
 * What the ledger's readers (reader.ts) see of its state while a close is on its way to disk.
 */
import type { PreClose } from "./close.js";
import type { LedgerState, LedgerView } from "./state.js";

/**
 * The state as readers see it: the writer's, except while a close's end of minute 10 is not durable yet
 * (`shown.current`): then the state just before that close, so no block, height or write of the next
 * height is shown that a kill -9 could undo (close.ts `PreClose`).
 */
export function readersView(state: LedgerState, shown: { current: PreClose | undefined }): LedgerView {
  return {
    get tip() {
      return shown.current?.tip ?? state.tip;
    },
    get pl() {
      return shown.current?.pl ?? state.pl;
    },
    get saved() {
      return shown.current?.saved ?? state.saved;
    },
    holding: state.holding,
    counters: state.counters,
  };
}
