/**
 * NodeMetrics over a real ledger and store (no clock: blocks close only when the test ends minutes): the
 * gauges read the open block's lists, the writes counter hears the ledger's write outcomes (as node.ts wires
 * it), and a saved block lands in the close histogram.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Counter, Histogram, Registry } from "prom-client";
import { NodeMetrics } from "../../../src/monitor/metrics.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  ecKeyN,
  finishBlock,
  firstEntry,
  openNode,
  tempDir,
} from "../ledger/harness.js";

const dir = tempDir("ledgerd-metrics-");
const n = openNode(dir);
after(async () => {
  await closeNode(n, true);
  cleanup(dir);
});

function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("node metrics over a real ledger", () => {
  const metrics = new NodeMetrics(
    {
      ledger: n.ledger,
      dataDir: join(dir, "local", "db"),
      reserveBytes: () => 5 * 2 ** 20,
      now: () => n.clock.ms,
    },
    new Set(["commit-chain"]),
  );
  const ledger = n.ledger;

  it("counts the open block's messages and each write's outcome", async () => {
    await buyEC(n, ecKey, 20n); // one transaction, submitted before the metrics subscribe: not counted
    const unsubscribe = ledger.writeOutcomes.subscribe((o) => metrics.write(o));
    after(unsubscribe);
    const { raw } = firstEntry(["metrics"], "x");
    await ledger.submitCommit(chainCommit(raw, n.clock.ms));
    await assert.rejects(ledger.submitCommit(chainCommit(firstEntry(["poor"], "y").raw, n.clock.ms, ecKeyN(9))));
    const text = (await metrics.exposition()).body;
    assert.equal(sample(text, 'ledgerd_process_list_messages{kind="commit"}'), 1);
    assert.equal(sample(text, 'ledgerd_process_list_messages{kind="transaction"}'), 1);
    assert.equal(sample(text, 'ledgerd_process_list_messages{kind="reveal"}'), 0);
    assert.equal(sample(text, 'ledgerd_writes_total{kind="commit",outcome="accepted",reason=""}'), 1);
    assert.equal(sample(text, 'ledgerd_writes_total{kind="commit",outcome="refused",reason="EC_BALANCE_LOW"}'), 1);
    assert.equal(sample(text, "ledgerd_disk_reserve_bytes"), 5 * 2 ** 20);
    assert.ok((sample(text, 'ledgerd_store_file_bytes{file="journal"}') ?? 0) > 0);
    assert.equal(sample(text, 'ledgerd_writes_total{kind="transaction",outcome="accepted",reason=""}'), undefined);
    // the ledger's own rejected counter hears the same event: the refused commit, once
    assert.equal(ledger.stats().rejected, 1);
  });

  it("a saved block empties the lists and is timed", async () => {
    await finishBlock(n);
    await n.ledger.flush();
    metrics.blockClosed(0.004);
    const text = (await metrics.exposition()).body;
    assert.equal(sample(text, 'ledgerd_process_list_messages{kind="commit"}'), 0);
    assert.equal(sample(text, "ledgerd_directory_block_height"), 1);
    assert.equal(sample(text, "ledgerd_block_close_seconds_count"), 1);
    assert.equal(sample(text, 'ledgerd_block_close_seconds_bucket{le="0.005"}'), 1);
  });
});

describe("request metrics", () => {
  /** Lines of one metric family in an exposition. */
  const family = (text: string, name: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith(name) || l.startsWith(`# HELP ${name}`) || l.startsWith(`# TYPE ${name}`))
      .join("\n");

  it("expose what prom-client's own inc/observe would, across reads and a reset", async () => {
    const metrics = new NodeMetrics(
      { ledger: n.ledger, dataDir: join(dir, "local", "db"), reserveBytes: () => 0, now: () => n.clock.ms },
      new Set(["heights", "entry"]),
    );
    // the same observations through prom-client's API, in a registry of its own
    const reference = new Registry();
    const refCalls = new Counter({
      name: "ledgerd_rpc_requests_total",
      help: "JSON-RPC calls by endpoint, method and outcome (client_error: a JSON-RPC error for the caller; server_error: -32603)",
      labelNames: ["endpoint", "method", "outcome"],
      registers: [reference],
    });
    const refSeconds = new Histogram({
      name: "ledgerd_rpc_request_duration_seconds",
      help: "time from an HTTP request's arrival to its answer, by endpoint and method (a batch: method=batch)",
      labelNames: ["endpoint", "method"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [reference],
    });
    const outcome = (code?: number) => (code === undefined ? "ok" : code === -32603 ? "server_error" : "client_error");
    const serve = (endpoint: string, calls: { method: string | undefined; code?: number }[], seconds: number) => {
      metrics.requestServed(endpoint, calls, seconds);
      const label = (m: string | undefined) => (m === "heights" || m === "entry" ? m : "other");
      for (const c of calls) refCalls.inc({ endpoint, method: label(c.method), outcome: outcome(c.code) });
      refSeconds.observe({ endpoint, method: calls.length === 1 ? label(calls[0]!.method) : "batch" }, seconds);
    };
    const same = async (what: string) => {
      const ours = (await metrics.exposition()).body;
      const theirs = await reference.metrics();
      for (const name of ["ledgerd_rpc_requests_total", "ledgerd_rpc_request_duration_seconds"])
        assert.equal(family(ours, name), family(theirs, name), `${what}: ${name}`);
    };
    const times = [0.0001, 0.0005, 0.0007, 0.003, 0.04, 0.3, 2.5, 7, 0.0005];
    times.forEach((t, i) => {
      serve("/v2", [{ method: i % 2 === 0 ? "heights" : "entry", code: i % 3 === 0 ? -32602 : undefined }], t);
    });
    serve("/v2", [{ method: "nope", code: -32601 }, { method: "heights" }], 0.002);
    serve("/debug", [{ method: "x", code: -32603 }], 0.01);
    await same("first read");
    serve("/v2", [{ method: "heights" }], 0.0002);
    await same("second read");
    assert.match(family((await metrics.exposition()).body, "ledgerd_rpc_request_duration_seconds"), /_count\{/);
    metrics.registry.resetMetrics();
    reference.resetMetrics();
    serve("/v2", [{ method: "entry" }], 0.001);
    await same("after a reset");
  });
});
