/**
 * NodeMetrics over a real ledger and store (no clock: blocks close only when the test ends minutes): the
 * gauges read the open block's lists, the writes counter counts through the wrapped submit methods, and a
 * saved block lands in the close histogram.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { NodeMetrics } from "../../../src/monitor/metrics.js";
import { countWrites } from "../../../src/monitor/writeOutcomes.js";
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
  const ledger = countWrites(n.ledger, metrics);

  it("counts the open block's messages and each write's outcome", async () => {
    await buyEC(n, ecKey, 20n); // one transaction, through the ledger itself (not counted as an API write)
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
    // reads pass through the wrapper to the ledger unchanged
    assert.deepEqual(ledger.heights(), n.ledger.heights());
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
