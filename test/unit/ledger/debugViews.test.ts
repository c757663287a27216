/**
 * The /debug views of the ledger, exactly (debugViews.ts; docs/testing.md §Mutation testing): the process
 * list snapshot field by field, the held reveals with their expiry, the federated servers of a producing
 * network (copies of the bootstrap identity and key) and of one it does not produce for, the journal as text
 * only with journaling on (a damaged record saying why), and the stats' held/height/minute. Real ledger
 * over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOLD_EXPIRY_MS } from "../../../src/ledger/constants.js";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { commitTxId } from "../../../src/protocol/commit.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../../src/protocol/genesis.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  entryCommit,
  entryRaw,
  firstEntry,
  ManualClock,
  openNode,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** factomd util/config.go LocalServerPublicKey: the key LOCAL's bootstrap identity signs with */
const LOCAL_SERVER_PUBLIC_KEY = "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a";

/** Uint8Array fields as hex, for comparing whole views. */
function hexed(v: unknown): unknown {
  if (v instanceof Uint8Array) return toHex(v);
  if (Array.isArray(v)) return v.map(hexed);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hexed(x)]));
  return v;
}

describe("debug views", () => {
  test("the process list snapshot, the held reveals and the stats, field by field", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const buy = await buyEC(n, ecKey, 100n);
      const a = firstEntry(["debug views", "a"], "x");
      const cc = chainCommit(a.raw, n.clock.ms);
      await n.ledger.submitCommit(cc);
      await n.ledger.submitReveal(a.raw);
      await endMinutes(n, 1);
      const second = entryRaw(a.chainId, ["second"], "y");
      const ec = entryCommit(second, n.clock.ms, ecKey, 2);
      await n.ledger.submitCommit(ec);
      await n.ledger.submitReveal(second);
      const held = firstEntry(["debug views", "held"], "z").raw;
      await n.ledger.submitReveal(held);
      assert.deepEqual(hexed(n.ledger.processList()), {
        height: h,
        minute: 1,
        startMs: T0,
        minuteStartMs: T0 + 600,
        commits: [
          { txId: toHex(commitTxId(cc)), entryHash: toHex(entryHash(a.raw)), credits: 11, kind: "chain" },
          { txId: toHex(commitTxId(ec)), entryHash: toHex(entryHash(second)), credits: 2, kind: "entry" },
        ],
        entries: [
          { entryHash: toHex(entryHash(a.raw)), chainId: toHex(a.chainId) },
          { entryHash: toHex(entryHash(second)), chainId: toHex(a.chainId) },
        ],
        transactions: [{ txId: toHex(transactionId(buy)) }],
        entryBlocks: [{ chainId: toHex(a.chainId), items: 3, newChain: true }],
        held: 1,
      });
      assert.deepEqual(hexed(n.ledger.holdingQueue()), [
        { kind: "reveal", hash: toHex(entryHash(held)), receivedMs: T0 + 600, expiresMs: T0 + 600 + HOLD_EXPIRY_MS },
      ]);
      const s = n.ledger.stats();
      assert.deepEqual([s.held, s.height, s.minute], [1, h - 1, 1]);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("federated servers: the bootstrap identity on a producing network (copies), none on TEST", async () => {
    const local = openNode(tempDir());
    const testnet = openNode(tempDir(), { network: "TEST" });
    try {
      const servers = local.ledger.federatedServers();
      assert.deepEqual(hexed(servers), [
        { chainId: LOCAL_BOOTSTRAP_IDENTITY_HEX, name: "", online: true, signingKey: LOCAL_SERVER_PUBLIC_KEY },
      ]);
      servers[0]!.chainId.fill(0);
      servers[0]!.signingKey.fill(0);
      assert.deepEqual(hexed(local.ledger.federatedServers()), [
        { chainId: LOCAL_BOOTSTRAP_IDENTITY_HEX, name: "", online: true, signingKey: LOCAL_SERVER_PUBLIC_KEY },
      ]);
      assert.deepEqual(testnet.ledger.federatedServers(), []);
    } finally {
      await closeNode(local);
      await closeNode(testnet);
      cleanup(local.dir);
      cleanup(testnet.dir);
    }
  });

  test("the journal as text: only with journaling on, a damaged record saying why", async () => {
    const off = openNode(tempDir(), { clock: new ManualClock(T0) });
    const on = openNode(tempDir(), { clock: new ManualClock(T0), journaling: true });
    try {
      for (const n of [off, on]) {
        await endMinutes(n, 1);
        await n.store.appendJournal(n.ledger.openBlock().height, 1, Uint8Array.of(9, 0, 0, 0, 0, 0, 0));
        await n.store.appendJournal(n.ledger.openBlock().height, 2, encodeMessage({ kind: "blockStart", timeMs: T0 }));
      }
      assert.deepEqual(off.ledger.journalMessages(), []);
      const h = on.ledger.openBlock().height;
      assert.deepEqual(on.ledger.journalMessages(), [
        JSON.stringify({ height: h, seq: 0, timems: T0 + 600, type: "endOfMinute", minute: 1 }),
        JSON.stringify({ height: h, seq: 1, error: "ProtocolError: journal message.kind: unknown kind 9" }),
        JSON.stringify({ height: h, seq: 2, timems: T0, type: "blockStart" }),
      ]);
    } finally {
      await closeNode(off);
      await closeNode(on);
      cleanup(off.dir);
      cleanup(on.dir);
    }
  });
});
