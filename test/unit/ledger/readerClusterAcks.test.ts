/**
 * A cluster node's acks (reader.ts; spec §3; docs/testing.md §Mutation testing): a write this node accepted
 * and the replicated log has not delivered back yet is NotConfirmed — a transaction, a commit, a reveal —
 * with the rest of its answer kept; once applied it has the status the rules give it; and an item already
 * applied keeps that status while a repeat of it waits in the log. Real ledger over LMDB in a temp directory,
 * wired to a real federation (follower) over a real JetStream log (one nats-server), as node.ts wires them.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { Federation } from "../../../src/cluster/federation.js";
import { JetStreamLog } from "../../../src/cluster/jetStreamLog.js";
import { AckStatus } from "../../../src/ledger/api.js";
import { Ledger } from "../../../src/ledger/ledger.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { commitTxId } from "../../../src/protocol/commit.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { LedgerStore } from "../../../src/store/store.js";
import { RememberingVerifier } from "../../../src/workers/rememberingVerifier.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
import { startNatsCluster, stopAllNats } from "../../support/natsServer.js";
import { waitUntil } from "../../support/waitFor.js";
import {
  chainCommit,
  cleanup,
  ecKey,
  firstEntry,
  LOCAL_RATE,
  ManualClock,
  MemoryLog,
  payment,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

after(() => stopAllNats());

test("a cluster node: NotConfirmed until the log delivers its write back; an applied item keeps its status", async () => {
  const nats = await startNatsCluster(1);
  const log = await JetStreamLog.open(
    { servers: nats.urls, stream: "READER_EDGES", subjectPrefix: "ledger.readeredges", replicas: 1 },
    { log: quiet },
  );
  const dir = tempDir();
  const clock = new ManualClock(T0);
  const store = LedgerStore.open({ path: join(dir, "db"), network: "LOCAL", networkId: networkId("LOCAL") });
  let fed: Federation | undefined;
  const ledger = Ledger.open(
    { network: "LOCAL", blockTimeSeconds: 6 },
    {
      store,
      verifier: new InlineVerifier(),
      log: new MemoryLog(),
      now: clock.now,
      replicated: { submit: (msg) => fed!.submit(msg), isPending: (h) => fed!.isPending(h) },
    },
  );
  const identity = fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX);
  const publicKey = fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX);
  fed = new Federation(
    {
      role: "follower",
      networkId: networkId("LOCAL"),
      blockTimeSeconds: 6,
      bootstrap: { identity, publicKey },
      skeletonKey: publicKey,
      nodeName: "reader-edges",
    },
    { ledger, log, logger: quiet, signatures: new RememberingVerifier(new InlineVerifier()) },
  );
  let stopped = false;
  try {
    // three writes accepted here while nothing applies the log (the federation is not started)
    const tx = payment({ milliTime: T0, ec: [{ to: ecKey, amount: 50n * LOCAL_RATE }] });
    const txId = transactionId(tx);
    const paid = firstEntry(["reader cluster edges", "paid"], "a");
    const commit = chainCommit(paid.raw, T0);
    const commitId = commitTxId(commit);
    const orphan = firstEntry(["reader cluster edges", "no commit"], "b");
    const orphanHash = entryHash(orphan.raw);
    const writes = [ledger.submitTransaction(tx), ledger.submitCommit(commit), ledger.submitReveal(orphan.raw)];
    const f = fed;
    await waitUntil(
      "the three writes are in the log",
      () => f.isPending(txId) && f.isPending(commitId) && f.isPending(orphanHash),
      10_000,
      5,
    );
    const t = ledger.transactionAck(txId);
    assert.deepEqual([t.status, toHex(t.txId)], [AckStatus.NotConfirmed, toHex(txId)]);
    assert.equal(ledger.commitAck(commitId).status, AckStatus.NotConfirmed);
    const r = ledger.entryAck(orphanHash);
    assert.deepEqual(
      [r.commit.status, r.entry.status, toHex(r.entry.entryHash)],
      [AckStatus.Unknown, AckStatus.NotConfirmed, toHex(orphanHash)],
      "the reveal waits in the log; no commit for it is known anywhere",
    );
    assert.equal(ledger.transactionAck(new Uint8Array(32).fill(9)).status, AckStatus.Unknown, "nothing else is");

    // the log delivers them: applied, the transaction and the commit are in the open block
    await fed.start();
    await Promise.all(writes);
    assert.equal(ledger.transactionAck(txId).status, AckStatus.TransactionACK);
    assert.equal(ledger.commitAck(commitId).status, AckStatus.TransactionACK);

    // the same transaction again while the log delivers nothing: it stays what it is, TransactionACK
    await fed.stop();
    stopped = true;
    void ledger.submitTransaction(tx).catch(() => {});
    await waitUntil("the repeat is in the log", () => f.isPending(txId), 10_000, 5);
    assert.equal(ledger.transactionAck(txId).status, AckStatus.TransactionACK);
  } finally {
    if (!stopped) await fed.stop();
    await log.close();
    await ledger.close();
    await store.close();
    cleanup(dir);
    await nats.stop();
  }
});
