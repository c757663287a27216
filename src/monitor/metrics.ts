/**
 * Prometheus metrics of a node (prom-client; docs/operations.md §8 lists them with the alerts to set).
 * One registry per node (no module-level state). Gauges that mirror node state are read when scraped
 * (`collect`), so the hot paths only pay for the counters and histograms they feed: one request
 * observation per HTTP request, one write outcome per submission, one close time per saved block.
 *
 * Names carry their unit (`_seconds`, `_bytes`, `_total`); labels have small fixed sets of values (method
 * names of the API, LedgerError codes), never client-chosen strings.
 */
import { statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { WriteOutcome } from "../ledger/writeOutcome.js";
import { journalBytes } from "../store/journal.js";

/** What the scrape-time gauges read. */
export interface MetricsSources {
  ledger: {
    heights(): { directoryBlockHeight: number; leaderHeight: number };
    openBlock(): { startMs: number };
    /** counts of the open block's messages and of the held reveals */
    openBlockSizes(): { commits: number; reveals: number; transactions: number; held: number };
  };
  /** the LMDB directory (`<homedir>/<network>/db`) */
  dataDir: string;
  /** bytes kept free on the data directory's disk (the configured reserve, read per scrape) */
  reserveBytes(): number;
  /** share of the verify pool's capacity in use, 0..1 (undefined: verification runs inline) */
  verifyUtilization?(): number;
  /** wall clock, ms since epoch */
  now(): number;
}

/** What a JSON-RPC call ended as, for `ledgerd_rpc_requests_total{outcome}`. */
export type CallOutcome = "ok" | "client_error" | "server_error";

/** Methods counted under their own name; anything else a client sends is counted as "other". */
export type KnownMethods = ReadonlySet<string>;

/**
 * Request-duration buckets, seconds: reads answer in 0.1–2 ms, writes wait for a journal flush (1–10 ms),
 * a loaded node's tail reaches 100s of ms.
 */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Block-close buckets, seconds: an empty close takes ~1 ms, 10,000 entries ~0.3 s (docs/performance.md §"Block close"). */
const CLOSE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * REQUEST_BUCKETS as the property names of prom-client's `bucketValues`: indexing it by the number converted the
 * double to a string on every observation (~8 % of a loaded node's JavaScript answering `heights`).
 */
const REQUEST_BUCKET_KEYS = REQUEST_BUCKETS.map(String);

/** Calls of one (endpoint, method, outcome) not yet added to `ledgerd_rpc_requests_total`. */
interface PendingCalls {
  readonly labels: { endpoint: string; method: string; outcome: CallOutcome };
  n: number;
  /** in `NodeMetrics.pendingOrder` (once counted) */
  listed: boolean;
}

/** The labels of one `ledgerd_writes_total` series. */
interface WriteLabels {
  kind: string;
  outcome: "accepted" | "refused";
  reason: string;
}

/**
 * What one (endpoint, method label) feeds, found per request by two map lookups with strings whose hashes V8
 * keeps: no key string built per request (the keys `${endpoint} ${method} ${outcome}` were made and hashed
 * per call).
 */
interface RequestSeries {
  readonly endpoint: string;
  readonly method: string;
  readonly ok: PendingCalls;
  readonly clientError: PendingCalls;
  readonly serverError: PendingCalls;
  /** prom-client's entry of `requestSeconds` for the label set, updated in place (`observeRequest`) */
  timing: { key: string; entry: HistogramEntry } | undefined;
}

/** prom-client 15's own record of one label set of a histogram (`Histogram.hashMap` values). */
interface HistogramEntry {
  labels: Record<string, string>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

export class NodeMetrics {
  readonly registry = new Registry();
  private readonly requestSeconds: Histogram<"endpoint" | "method">;
  /**
   * Calls per (endpoint, method, outcome) not yet added to `ledgerd_rpc_requests_total`, in the order they were
   * first counted: added when the metrics are read (the counter's `collect`). prom-client hashes and validates
   * the labels on every `inc` and `observe`: ~2 µs of main thread per HTTP request, 14 % of a loaded node
   * answering `heights` (docs/performance.md §Reads).
   */
  private readonly pendingOrder: PendingCalls[] = [];
  /** endpoint → method label (a known method or "other") → what its requests feed */
  private readonly series = new Map<string, Map<string, RequestSeries>>();
  /** endpoint → the timing of its batches (method="batch"; apart, since a client may call a method "batch") */
  private readonly batches = new Map<string, RequestSeries>();
  /**
   * `ledgerd_writes_total`'s counts by kind (accepted) or kind and reason (refused), added to the counter when it
   * is scraped: a write is one number added, where prom-client's `inc` hashes and checks its label set and
   * allocated ~320 bytes per write (two writes per entry; kinds and reasons are the code's own few words)
   */
  private readonly writeCounts = new Map<string, { labels: WriteLabels; n: number }>();
  private readonly closeSeconds: Histogram;

  constructor(
    sources: MetricsSources,
    private readonly methods: KnownMethods,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: "ledgerd_" });
    dropTotalGauges(this.registry);
    const s = sources;

    new Gauge({
      name: "ledgerd_directory_block_height",
      help: "height of the newest saved directory block",
      registers,
      collect() {
        this.set(s.ledger.heights().directoryBlockHeight);
      },
    });
    new Gauge({
      name: "ledgerd_leader_height",
      help: "height of the open block",
      registers,
      collect() {
        this.set(s.ledger.heights().leaderHeight);
      },
    });
    new Gauge({
      name: "ledgerd_block_age_seconds",
      help: "seconds since the newest block closed (the open block's age)",
      registers,
      collect() {
        this.set(Math.max(0, (s.now() - s.ledger.openBlock().startMs) / 1000));
      },
    });
    new Gauge({
      name: "ledgerd_process_list_messages",
      help: "messages in the open block, by kind",
      labelNames: ["kind"],
      registers,
      collect() {
        const sizes = s.ledger.openBlockSizes();
        this.set({ kind: "commit" }, sizes.commits);
        this.set({ kind: "reveal" }, sizes.reveals);
        this.set({ kind: "transaction" }, sizes.transactions);
      },
    });
    new Gauge({
      name: "ledgerd_holding_queue_messages",
      help: "messages held for a later match (reveals waiting for their commit)",
      registers,
      collect() {
        this.set(s.ledger.openBlockSizes().held);
      },
    });
    new Gauge({
      name: "ledgerd_store_file_bytes",
      help: "disk space the store's files take, bytes (data.mdb of the blocks; the journal's files)",
      labelNames: ["file"],
      registers,
      collect() {
        this.set({ file: "data" }, fileSize(join(s.dataDir, "data.mdb")));
        this.set({ file: "journal" }, journalBytes(s.dataDir));
      },
    });
    new Gauge({
      name: "ledgerd_disk_free_bytes",
      help: "bytes free for the node on the data directory's file system",
      registers,
      collect() {
        try {
          const f = statfsSync(s.dataDir);
          this.set(Number(f.bavail) * Number(f.bsize));
        } catch {
          // a file system that cannot tell: leave the series out
        }
      },
    });
    new Gauge({
      name: "ledgerd_disk_reserve_bytes",
      help: "bytes kept free on the data directory's disk; writes are refused below it (-minfreemb)",
      registers,
      collect() {
        this.set(s.reserveBytes());
      },
    });
    if (s.verifyUtilization !== undefined) {
      const utilization = s.verifyUtilization;
      new Gauge({
        name: "ledgerd_verify_pool_utilization_ratio",
        help: "share of the signature-verification pool's capacity in use since it started, 0..1",
        registers,
        collect() {
          this.set(utilization());
        },
      });
    }

    const pendingCalls = this.pendingOrder;
    new Counter({
      name: "ledgerd_rpc_requests_total",
      help: "JSON-RPC calls by endpoint, method and outcome (client_error: a JSON-RPC error for the caller; server_error: -32603)",
      labelNames: ["endpoint", "method", "outcome"],
      registers,
      collect() {
        for (const p of pendingCalls)
          if (p.n > 0) {
            this.inc(p.labels, p.n);
            p.n = 0;
          }
      },
    });
    this.requestSeconds = new Histogram({
      name: "ledgerd_rpc_request_duration_seconds",
      help: "time from an HTTP request's arrival to its answer, by endpoint and method (a batch: method=batch)",
      labelNames: ["endpoint", "method"],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    const writeCounts = this.writeCounts;
    new Counter({
      name: "ledgerd_writes_total",
      help: "submitted commits, reveals and transactions by outcome (accepted, refused) and refusal reason",
      labelNames: ["kind", "outcome", "reason"],
      registers,
      collect() {
        for (const c of writeCounts.values())
          if (c.n > 0) {
            this.inc(c.labels, c.n);
            c.n = 0;
          }
      },
    });
    this.closeSeconds = new Histogram({
      name: "ledgerd_block_close_seconds",
      help: "main-thread time to close a block: build and pack, until handed to the writer thread",
      buckets: CLOSE_BUCKETS,
      registers,
    });
  }

  /**
   * One HTTP request on `endpoint` ("/v2", "/debug") answered after `seconds`, with the method and JSON-RPC
   * error code (undefined: success) of each call it held.
   */
  requestServed(
    endpoint: string,
    calls: readonly { method: string | undefined; code?: number }[],
    seconds: number,
  ): void {
    let byMethod = this.series.get(endpoint);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.series.set(endpoint, byMethod);
    }
    for (const c of calls) {
      const s = this.seriesOf(byMethod, endpoint, c.method);
      const code = c.code;
      this.count(code === undefined ? s.ok : code === -32603 ? s.serverError : s.clientError);
    }
    let timed = calls.length === 1 ? this.seriesOf(byMethod, endpoint, calls[0]!.method) : this.batches.get(endpoint);
    if (timed === undefined) {
      timed = newSeries(endpoint, "batch");
      this.batches.set(endpoint, timed);
    }
    this.observeRequest(timed, seconds);
  }

  /**
   * The series of `method` on an endpoint: its own for a known method, "other" for anything else a client sends
   * (so the map holds no client-chosen string).
   */
  private seriesOf(byMethod: Map<string, RequestSeries>, endpoint: string, method: string | undefined): RequestSeries {
    const found = method === undefined ? undefined : byMethod.get(method);
    if (found !== undefined) return found;
    const label = this.label(method);
    let s = byMethod.get(label);
    if (s === undefined) {
      s = newSeries(endpoint, label);
      byMethod.set(label, s);
    }
    return s;
  }

  private count(p: PendingCalls): void {
    p.n++;
    if (!p.listed) {
      p.listed = true;
      this.pendingOrder.push(p);
    }
  }

  /**
   * `requestSeconds.observe({endpoint, method}, seconds)` without prom-client's per-call label hashing: its
   * entry for the label set is found once and then counted in place, as `observe` itself does. Boundary:
   * prom-client 15's `hashMap` layout (test/unit/monitor/metrics.test.ts compares the exposition with
   * `observe`'s); a reset of the histogram is noticed (the entry is no longer in its map) and the entry made again.
   */
  private observeRequest(s: RequestSeries, seconds: number): void {
    const histogram = this.requestSeconds as unknown as { hashMap: Record<string, HistogramEntry> };
    let t = s.timing;
    if (t === undefined || histogram.hashMap[t.key] !== t.entry) {
      const labels = { endpoint: s.endpoint, method: s.method };
      this.requestSeconds.zero(labels);
      const found = Object.entries(histogram.hashMap).find(([, e]) => e.labels === labels);
      if (found === undefined) {
        this.requestSeconds.observe(labels, seconds); // an unknown layout: prom-client's own way
        return;
      }
      t = { key: found[0], entry: found[1] };
      s.timing = t;
    }
    const e = t.entry;
    e.sum += seconds;
    e.count += 1;
    for (let i = 0; i < REQUEST_BUCKETS.length; i++)
      if (seconds <= REQUEST_BUCKETS[i]!) {
        e.bucketValues[REQUEST_BUCKET_KEYS[i]!]! += 1;
        break;
      }
  }

  /** A write the ledger accepted, or refused with a LedgerError code (node.ts subscribes it to writeOutcomes). */
  write(o: WriteOutcome): void {
    const key = o.refused === undefined ? o.kind : `${o.kind} ${o.refused}`;
    const count = this.writeCounts.get(key);
    if (count !== undefined) count.n++;
    else
      this.writeCounts.set(key, {
        labels: { kind: o.kind, outcome: o.refused === undefined ? "accepted" : "refused", reason: o.refused ?? "" },
        n: 1,
      });
  }

  /** A block closed in `seconds` of main-thread time. */
  blockClosed(seconds: number): void {
    this.closeSeconds.observe(seconds);
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private label(method: string | undefined): string {
    return method !== undefined && this.methods.has(method) ? method : "other";
  }
}

/**
 * Bytes `path` takes on disk: the blocks allocated, not the length. The store's data.mdb is sparse up to LMDB's
 * map size (store/environment.ts, the write map), so its length overstates what it holds.
 */
function fileSize(path: string): number {
  try {
    return statSync(path).blocks * 512;
  } catch {
    return 0;
  }
}

/** The series of one (endpoint, method label), nothing counted yet. */
function newSeries(endpoint: string, method: string): RequestSeries {
  const pending = (outcome: CallOutcome): PendingCalls => ({
    labels: { endpoint, method, outcome },
    n: 0,
    listed: false,
  });
  return {
    endpoint,
    method,
    ok: pending("ok"),
    clientError: pending("client_error"),
    serverError: pending("server_error"),
    timing: undefined,
  };
}

/**
 * prom-client's default metrics include three gauges named `…_total` (`nodejs_active_handles_total`,
 * `…_requests_total`, `…_resources_total`), which `promtool check metrics` refuses ("non-counter metrics should
 * not have _total suffix"), failing a CI gate on the exposition. They are left out: each is the sum of the
 * per-type gauge beside it (`sum(ledgerd_nodejs_active_handles)`), which stays.
 */
function dropTotalGauges(registry: Registry): void {
  for (const name of [
    "ledgerd_nodejs_active_handles_total",
    "ledgerd_nodejs_active_requests_total",
    "ledgerd_nodejs_active_resources_total",
  ])
    registry.removeSingleMetric(name);
}

/** What the limit metrics read when scraped: the live feed's and the failed-login guard's counts. */
export interface LimitSources {
  live: {
    readonly size: number;
    readonly subscriptions: number;
    /** refusals and drops since start, by limit */
    counters(): Readonly<Record<string, number>>;
  };
  logins: { readonly failures: number; readonly throttled: number };
}

/**
 * The node's abuse limits on `registry` (docs/operations.md §8; security review 3, M3 and M4): every refusal
 * counted, so an alert sees a flood the log only sums up. Counters are set from the sources' own counts.
 */
export function registerLimitMetrics(registry: Registry, s: LimitSources): void {
  const registers = [registry];
  new Gauge({
    name: "ledgerd_live_connections",
    help: "open live feed (/live) connections, API port and control panel together",
    registers,
    collect() {
      this.set(s.live.size);
    },
  });
  new Gauge({
    name: "ledgerd_live_subscriptions",
    help: "chains, addresses and hashes the live feed's connections subscribed to, together",
    registers,
    collect() {
      this.set(s.live.subscriptions);
    },
  });
  new Counter({
    name: "ledgerd_live_refusals_total",
    help: "live feed refusals and drops by limit: connections (feed full), source_connections (one address's share), subscriptions (total budget), slow_consumer (dropped)",
    labelNames: ["limit"],
    registers,
    collect() {
      this.reset();
      for (const [limit, n] of Object.entries(s.live.counters())) this.inc({ limit }, n);
    },
  });
  new Counter({
    name: "ledgerd_failed_logins_total",
    help: "requests with a wrong or missing password, every port that takes the node's credentials",
    registers,
    collect() {
      this.reset();
      this.inc(s.logins.failures);
    },
  });
  new Counter({
    name: "ledgerd_login_throttled_total",
    help: "requests answered 429 because the failed-login budget of their address, or of all addresses, was spent",
    registers,
    collect() {
      this.reset();
      this.inc(s.logins.throttled);
    },
  });
}
