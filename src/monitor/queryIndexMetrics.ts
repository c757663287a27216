/**
 * The metrics of the query index's background rebuild (store/queryIndexRebuild.ts, docs/ledger.md §Query index,
 * "Rebuild"): how many saved heights still lack their index records, how fast the rebuild goes and how long it
 * has left. All 0 once the index is current; an alert on `ledgerd_query_index_rebuilding == 1` for longer than
 * the ETA says the rebuild stalled.
 */
import { Gauge, type Registry } from "prom-client";
import type { QueryIndexStatus } from "../store/queryIndexRebuild.js";

/** What the metrics read of the index (LedgerStore `queryIndexStatus()`). */
export interface QueryIndexSource {
  queryIndexStatus(): QueryIndexStatus;
}

/** Register the query index's gauges; each scrape reads the status once per gauge (a few meta reads). */
export function registerQueryIndexMetrics(registry: Registry, source: QueryIndexSource): void {
  const registers = [registry];
  new Gauge({
    name: "ledgerd_query_index_rebuilding",
    help: "1 while the query index is rebuilt in the background (the query methods answer -32000), else 0",
    registers,
    collect() {
      this.set(source.queryIndexStatus().rebuilding ? 1 : 0);
    },
  });
  new Gauge({
    name: "ledgerd_query_index_heights_behind",
    help: "saved heights the query index still lacks (0 when current)",
    registers,
    collect() {
      this.set(source.queryIndexStatus().heightsBehind);
    },
  });
  new Gauge({
    name: "ledgerd_query_index_rebuild_entries_per_second",
    help: "entries per second of this process's rebuild of the query index, averaged since it started (0: none)",
    registers,
    collect() {
      this.set(source.queryIndexStatus().entriesPerSecond);
    },
  });
  new Gauge({
    name: "ledgerd_query_index_rebuild_eta_seconds",
    help: "estimated seconds until the query index rebuild ends, at its average heights per second (0: current)",
    registers,
    collect() {
      this.set(source.queryIndexStatus().etaSeconds);
    },
  });
}
