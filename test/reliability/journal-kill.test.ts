// Group commit of the journal (store/journal.ts) under the load it is made for: 64 commit + reveal writers
// in flight, so each durable commit carries many records, then kill -9 in the middle of the writes. After a
// restart on the same data directory, every entry whose reveal was acknowledged before the kill must be in
// a saved entry block — an acknowledgement sent before its record's group was flushed would show up here as
// a lost entry. Entries are pre-signed with the load generator's signer (tools/loadgen/presign.ts) and sent
// over its client, so the load is real HTTP to a real node. ~15 s.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { freeLoopbackPort, NodeProcess } from "../../tools/loadgen/nodeProcess.js";
import { PhaseRecorder, runWorkers } from "../../tools/loadgen/phase.js";
import type { PresignedEntry } from "../../tools/loadgen/presign.js";
import { entryWriter } from "../../tools/loadgen/scenarios.js";
import { LoadSession } from "../../tools/loadgen/session.js";
import { sleep } from "../support/nodeProcess.js";

/** Writers in flight: the loadgen's default, what the performance figures are measured at. */
const CONCURRENCY = 64;
/** Acknowledged entries before the kill: enough for many multi-record commits, small enough to stay quick. */
const ACKED_BEFORE_KILL = 1500;

describe("journal group commit: kill -9 with 64 writes in flight", { concurrency: false }, () => {
  const homeDir = mkdtempSync(join(tmpdir(), "ledgerd-test-journal-kill-"));
  let node: NodeProcess | undefined;
  after(async () => {
    await node?.stop("SIGKILL");
    rmSync(homeDir, { recursive: true, force: true });
  });

  it("every entry acknowledged before the kill is in a saved block after the restart", async () => {
    node = await NodeProcess.start({
      homeDir,
      port: await freeLoopbackPort(),
      blockTimeSeconds: 2,
      extraArgs: [],
      nodeArgs: [],
      logPath: join(homeDir, "ledgerd.log"),
      startTimeoutMs: 60_000,
    });
    const session = new LoadSession(
      {
        url: node.url,
        concurrency: CONCURRENCY,
        chains: 5,
        contentBytes: 64,
        credits: 20_000,
        requestTimeoutMs: 30_000,
        ackSample: 20,
        waitChainsConfirmed: true,
      },
      { monitor: node.monitor, log: () => {} },
    );
    try {
      await session.setup();
      const entries = session.presign(10_000);
      const fromHeight = await session.openHeight();
      session.freshLoadClient();
      const rec = new PhaseRecorder();
      const acked: PresignedEntry[] = [];
      const writer = entryWriter(session, entries, rec, acked);
      // after the kill every request fails at once: the error budget ends the workers
      const writing = runWorkers({ concurrency: CONCURRENCY, durationMs: 60_000, maxErrors: 2_000 }, rec, writer.step);
      while (acked.length < ACKED_BEFORE_KILL && !writer.exhausted) await sleep(5);
      const running = node;
      await running.stop("SIGKILL");
      // only what was acknowledged before the process died counts (replies still in the socket buffers
      // after the kill may arrive a moment later; those were acknowledged before it too)
      const ackedAtKill = [...acked];
      await writing;
      assert.ok(ackedAtKill.length >= ACKED_BEFORE_KILL, `${ackedAtKill.length} entries acknowledged`);
      assert.ok(rec.errors > 0, "the kill cut writes in flight");

      node = await NodeProcess.start({ ...running.options });
      session.reconnect(node.url, node.monitor);
      const c = await session.confirm(ackedAtKill, fromHeight);
      assert.equal(c.checked, ackedAtKill.length);
      assert.deepEqual(
        { lost: c.lost, samples: c.lostSamples, statuses: c.lostStatuses },
        { lost: 0, samples: [], statuses: {} },
        "acknowledged entries missing after kill -9 and restart",
      );
      assert.deepEqual(Object.keys(c.ackSampleStatuses), ["DBlockConfirmed"]);
    } finally {
      session.close();
    }
  });
});
