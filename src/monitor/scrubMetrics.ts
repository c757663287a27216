/**
 * The metrics of the background scrub of the store (store/scrub.ts, docs/ledger.md §5): how far the pass under
 * way is, how many passes completed, and whether one found a damaged page.
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { ScrubStatus } from "../store/scrub.js";

/** What the metrics read of the scrub (StoreScrub `status()`). */
export interface ScrubSource {
  status(): ScrubStatus;
}

/** Register the scrub's metrics; each scrape reads `status()`. */
export function registerScrubMetrics(registry: Registry, scrub: ScrubSource): void {
  const registers = [registry];
  new Gauge({
    name: "ledgerd_store_scrub_progress_ratio",
    help: "share of the records of the scrub pass under way read so far, 0..1 (1 between passes)",
    registers,
    collect() {
      this.set(scrub.status().progress);
    },
  });
  new Counter({
    name: "ledgerd_store_scrub_records_total",
    help: "LMDB records the background scrub read (every page of both environments once per pass)",
    registers,
    collect() {
      // the scrub counts; the scrape copies its total (monotonic, so still a counter)
      this.reset();
      this.inc(scrub.status().recordsWalked);
    },
  });
  new Counter({
    name: "ledgerd_store_scrub_passes_total",
    help: "complete scrub passes over the data directory (kept in its scrub.json across restarts)",
    registers,
    collect() {
      this.reset();
      this.inc(scrub.status().passes);
    },
  });
  new Gauge({
    name: "ledgerd_store_scrub_last_complete_timestamp_seconds",
    help: "end of the last complete scrub pass, seconds since epoch (0: none yet)",
    registers,
    collect() {
      this.set(scrub.status().lastCompleteMs / 1000);
    },
  });
  new Gauge({
    name: "ledgerd_store_scrub_damaged",
    help: "1 when a scrub pass found a damaged page (writes are refused; restore from a backup), else 0",
    registers,
    collect() {
      this.set(scrub.status().damaged === undefined ? 0 : 1);
    },
  });
}
