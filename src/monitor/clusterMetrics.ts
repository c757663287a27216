/**
 * The metrics of a cluster node's federation (docs/cluster.md): what it applied, and what it refused of the
 * log because a signature did not verify.
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** What the metrics read of a cluster node's federation (cluster/federation.ts `status()`). */
export interface ClusterCounters {
  status(): { appliedSequence: number; badSignatureWrites: number };
}

/** Register the federation's metrics; each scrape reads `status()`. */
export function registerClusterMetrics(registry: Registry, federation: ClusterCounters): void {
  const registers = [registry];
  new Gauge({
    name: "ledgerd_cluster_applied_sequence",
    help: "stream sequence of the last log record this node applied",
    registers,
    collect() {
      this.set(federation.status().appliedSequence);
    },
  });
  new Counter({
    name: "ledgerd_cluster_bad_signature_writes_total",
    help: "client writes in the replicated log skipped because a signature did not verify",
    registers,
    collect() {
      // the federation counts; the scrape copies its total (monotonic, so still a counter)
      this.reset();
      this.inc(federation.status().badSignatureWrites);
    },
  });
}
