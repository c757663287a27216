/**
 * The federation's apply rules against a real ledger (LMDB in a temp directory) and a real JetStream log
 * (one nats-server): records are appended by hand, as a federated server would, and the node's state is read
 * back. Checked: the first block's start comes from the log; minute 0 waits for the majority of signatures;
 * a stale end of minute and one signed by a server that is not federated are skipped; a majority of
 * signatures over another block makes the node declare itself forked and refuse writes; the authority set is
 * kept in a file beside the saved blocks and a restart folds in no admin block (a damaged or foreign file: all).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { signDirectoryBlock } from "../../../src/cluster/dbSig.js";
import { Federation } from "../../../src/cluster/federation.js";
import { JetStreamLog } from "../../../src/cluster/jetStreamLog.js";
import { type ClusterRecord, encodeRecord, recordSubject, signRecord } from "../../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { consensusCheck } from "../../../src/monitor/health.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { decodeChainCommit } from "../../../src/protocol/commit.js";
import {
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { decodeTransaction } from "../../../src/protocol/transaction.js";
import { RememberingVerifier } from "../../../src/workers/rememberingVerifier.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
import { startNatsCluster, stopAllNats } from "../../support/natsServer.js";
import { waitUntil } from "../../support/waitFor.js";
import {
  assetKey,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  firstEntry,
  openNode,
  payment,
  rcdHashOf,
  sand,
  tempDir,
} from "../ledger/harness.js";

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const NET = networkId("LOCAL");
const BOOT = fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX);
const SEED = fromHex(LOCAL_BOOTSTRAP_SEED_HEX);
const NO_SIG = new Uint8Array(64);

async function setup(stream: string) {
  const nats = await startNatsCluster(1);
  const log = await JetStreamLog.open(
    { servers: nats.urls, stream, subjectPrefix: `ledger.${stream.toLowerCase()}`, replicas: 1 },
    { log: quiet },
  );
  const dir = tempDir();
  const node = openNode(dir);
  const authorityFile = join(dir, "authorities.json");
  /** what the federation logged: message and fields */
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const keep = (msg: string, fields?: Record<string, unknown>): void => {
    lines.push({ msg, ...(fields === undefined ? {} : { fields }) });
  };
  const logger = { debug: keep, info: keep, warn: keep, error: keep };
  const newFederation = () =>
    new Federation(
      {
        role: "follower",
        networkId: NET,
        blockTimeSeconds: 6,
        bootstrap: { identity: BOOT, publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX) },
        skeletonKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
        nodeName: "test",
        authorityFile,
      },
      { ledger: node.ledger, log, logger, signatures: new RememberingVerifier(new InlineVerifier()) },
    );
  let fed = newFederation();
  await fed.start();
  /** stop the federation and start a new one on the same ledger and log (a node restart without the process) */
  const restart = async (): Promise<void> => {
    await fed.stop();
    lines.length = 0;
    fed = newFederation();
    await fed.start();
  };
  const append = async (rec: ClusterRecord): Promise<void> => {
    const { seq } = await log.append(recordSubject(rec.kind), encodeRecord(rec));
    await waitUntil(`record ${seq} applied`, () => fed.status().appliedSequence >= seq, 10_000, 10);
  };
  const stop = async (): Promise<void> => {
    await fed.stop();
    await log.close();
    await closeNode(node);
    cleanup(dir);
    await nats.stop();
  };
  return {
    node,
    get fed() {
      return fed;
    },
    append,
    stop,
    restart,
    lines,
    authorityFile,
  };
}

/** The bootstrap server's start of block `height` at `timeMs`. */
const blockStart = (height: number, timeMs: number) =>
  signRecord({ kind: "blockStart", height, timeMs, proposer: BOOT, signature: NO_SIG }, NET, SEED);
const eom = (height: number, minute: number, timeMs: number, seed = SEED, proposer = BOOT) =>
  signRecord({ kind: "endOfMinute", height, minute, timeMs, proposer, signature: NO_SIG }, NET, seed);

describe("federation apply rules (real ledger, real JetStream)", () => {
  after(() => stopAllNats());

  it("block start from the log; minute 0 waits for the majority of signatures; stale or foreign markers are skipped", async () => {
    const t = await setup("LEDGER_F1");
    try {
      const start = 1_760_000_000_000;
      await t.append(blockStart(1, start));
      assert.equal(t.node.ledger.openBlock().startMs, start, "the first block starts at the log's time");
      await t.append(eom(1, 0, start + 600));
      assert.equal(t.node.ledger.openBlock().minute, 0, "minute 0 does not end before a signature is in");
      await t.append({
        kind: "dbSig",
        height: 1,
        identity: BOOT,
        publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
        signature: signDirectoryBlock(SEED, t.node.ledger.lastDirectoryBlock()),
      });
      assert.equal(t.node.ledger.openBlock().minute, 1, "the pending end of minute 0 applies with the majority");
      assert.deepEqual(t.fed.status().signatures, [LOCAL_BOOTSTRAP_IDENTITY_HEX]);
      await t.append(eom(1, 5, start + 1200));
      assert.equal(t.node.ledger.openBlock().minute, 1, "an end of minute for another minute is skipped");
      const stranger = new Uint8Array(32).fill(7);
      await t.append(eom(1, 1, start + 1200, stranger, stranger));
      assert.equal(
        t.node.ledger.openBlock().minute,
        1,
        "an end of minute by a server that is not federated is skipped",
      );
      await t.append({ ...eom(1, 1, start + 1200), signature: new Uint8Array(64).fill(1) });
      assert.equal(t.node.ledger.openBlock().minute, 1, "a badly signed end of minute is skipped");
      await t.append(eom(1, 1, start + 1200));
      assert.equal(t.node.ledger.openBlock().minute, 2);
      assert.equal(t.fed.status().forked, false);
      assert.equal(consensusCheck(t.fed).check(Date.now()).ok, true);

      // a skeleton-signed add-server: admin block 1 gets 05 first, the signatures, then the key (08)
      const newId = new Uint8Array(32).fill(0x55);
      const newKey = publicKeyFromSeed(new Uint8Array(32).fill(0x56));
      await t.append(
        signRecord(
          {
            kind: "addServer",
            role: "federated",
            identity: newId,
            publicKey: newKey,
            timeMs: start,
            signature: NO_SIG,
          },
          NET,
          SEED,
        ),
      );
      for (let m = 2; m < 10; m++) await t.append(eom(1, m, start + 600 * (m + 1)));
      await t.node.ledger.closeSaved();
      const admin = t.node.ledger.adminBlockByHeight(1)!.block.entries;
      assert.deepEqual(
        admin.map((e) => e.type),
        [0x05, 0x01, 0x08],
      );
      assert.deepEqual((admin[0] as { identityChainId: Uint8Array; dbHeight: number }).dbHeight, 2);
      assert.deepEqual(
        t.fed.authorityView().federated.map((a) => toHex(a.identity)),
        [toHex(BOOT), toHex(newId)],
      );
      // the authority set is kept beside the saved blocks: a restart reads no admin block (O(1) in height)
      const loaded = () => t.lines.find((l) => l.msg === "authority set loaded")?.fields;
      await t.restart();
      assert.deepEqual(loaded(), { fromFile: true, adminBlocksRead: 0 });
      assert.deepEqual(
        t.fed.authorityView().federated.map((a) => [toHex(a.identity), toHex(a.publicKey!)]),
        [
          [toHex(BOOT), LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX],
          [toHex(newId), toHex(newKey)],
        ],
      );
      // a damaged file, or one of other blocks, is not used: the set is rebuilt from the admin blocks
      writeFileSync(t.authorityFile, "{not json");
      await t.restart();
      assert.deepEqual(loaded(), { fromFile: false, adminBlocksRead: 2 });
      assert.ok(t.lines.some((l) => l.msg.startsWith("authority file not used")));
      assert.equal(t.fed.authorityView().federated.length, 2);
      const kept = JSON.parse(readFileSync(t.authorityFile, "utf8")) as { keyMR: string };
      writeFileSync(t.authorityFile, JSON.stringify({ ...kept, keyMR: "ab".repeat(32) }));
      await t.restart();
      assert.deepEqual(loaded(), { fromFile: false, adminBlocksRead: 2 });
      assert.ok(t.lines.some((l) => l.msg.startsWith("authority file belongs to other blocks")));
      assert.equal(t.fed.authorityView().federated.length, 2);
      // two federated servers now: one signature is not a majority, minute 0 of block 2 waits
      await t.append(eom(2, 0, start + 7000));
      await t.append({
        kind: "dbSig",
        height: 2,
        identity: BOOT,
        publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
        signature: signDirectoryBlock(SEED, t.node.ledger.lastDirectoryBlock()),
      });
      assert.deepEqual(t.node.ledger.openBlock(), { ...t.node.ledger.openBlock(), height: 2, minute: 0 });
      await t.append({
        kind: "dbSig",
        height: 2,
        identity: newId,
        publicKey: newKey,
        signature: signDirectoryBlock(new Uint8Array(32).fill(0x56), t.node.ledger.lastDirectoryBlock()),
      });
      assert.equal(
        t.node.ledger.openBlock().minute,
        0,
        "both signatures in, but one server's end of minute is not a majority of two",
      );
      // the second server's proposal, 30 s ahead: the boundary takes the earlier time, not the fast clock's
      await t.append(eom(2, 0, start + 37_000, new Uint8Array(32).fill(0x56), newId));
      assert.equal(t.node.ledger.openBlock().minute, 1, "both proposals in: minute 0 ends");
      assert.equal(t.node.ledger.openBlock().minuteStartMs, start + 7000, "at the earliest proposal's time");
    } finally {
      await t.stop();
    }
  });

  it("a majority of signatures over another block: the node says it forked and refuses writes", async () => {
    const t = await setup("LEDGER_F2");
    try {
      const other = { ...t.node.ledger.lastDirectoryBlock(), timestamp: 1 };
      await t.append({
        kind: "dbSig",
        height: 1,
        identity: BOOT,
        publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
        signature: signDirectoryBlock(SEED, other),
      });
      assert.equal(t.fed.status().forked, true);
      // the node's /health consensus check (monitor/health.ts) on this real forked state
      const health = consensusCheck(t.fed).check(Date.now());
      assert.equal(health.ok, false);
      assert.match(health.detail, /^forked at height 1/);
      assert.deepEqual(t.fed.status().signatures, []);
      await assert.rejects(
        t.fed.submit({ kind: "reveal", timeMs: Date.now(), entryRaw: new Uint8Array(40) }),
        (e: unknown) =>
          e instanceof LedgerError &&
          e.type.code === "NODE_UNAVAILABLE" &&
          /differ from the signed majority/.test(e.type.info),
      );
    } finally {
      await t.stop();
    }
  });

  it("a synced node whose open height stays behind the log's newest minute fails its consensus check", async () => {
    // ends of minute of later heights are skipped by the rules (not the open height), but they are the stream's
    // newest: the node reads the network's height from them (every 2 s) and its /health says it stands behind
    const t = await setup("LEDGER_F4");
    try {
      const start = 1_760_000_000_000;
      await t.append(blockStart(1, start));
      assert.equal(t.fed.status().height, 1);
      await t.append(eom(3, 4, start + 600));
      await waitUntil("the network's height read", () => t.fed.status().networkHeight === 3, 10_000, 20);
      const level = consensusCheck(t.fed).check(Date.now());
      assert.deepEqual(level, { ok: true, detail: "in consensus at height 1" }, "two heights behind: within the limit");
      await t.append(eom(3, 9, start + 1200));
      await waitUntil("the network's height read", () => t.fed.status().networkHeight === 4, 10_000, 20);
      const behind = consensusCheck(t.fed).check(Date.now());
      assert.equal(behind.ok, false);
      assert.equal(
        behind.detail,
        `behind the network: open height 1 (0 of its 1 federated servers' signatures of block 0 applied), the log's ` +
          `newest minute is of height 4 (applied up to record ${t.fed.status().appliedSequence})`,
      );
      assert.equal(t.node.ledger.openBlock().height, 1, "the later heights' minutes were not applied");
    } finally {
      await t.stop();
    }
  });

  it("a client write with a bad signature in the log is skipped and counted; a well-signed one applies", async () => {
    const t = await setup("LEDGER_F3");
    try {
      const now = Date.now();
      const victim = rcdHashOf(sand);
      const thief = assetKey(9);
      const before = t.node.ledger.assetBalance(victim).saved;
      // a transfer of the victim's funds with an all-zero signature, appended straight to the log
      const honest = payment({ milliTime: now, outputs: [{ to: thief, amount: 89n * 100_000_000n }] });
      const forgedRaw = honest.raw.slice();
      forgedRaw.fill(0, forgedRaw.length - 64);
      const forged = decodeTransaction(forgedRaw);
      // a commit whose signature is of another key's
      const { raw } = firstEntry(["forged"], "x");
      const commit = chainCommit(raw, now);
      const badCommitRaw = commit.raw.slice();
      badCommitRaw.fill(3, badCommitRaw.length - 64);
      const badCommit = decodeChainCommit(badCommitRaw);
      await t.append({
        kind: "writes",
        messages: [
          encodeMessage({ kind: "transaction", timeMs: now, tx: forged }),
          encodeMessage({ kind: "commit", timeMs: now, commit: badCommit }),
        ],
      });
      assert.equal(t.fed.status().badSignatureWrites, 2, "both forged writes skipped and counted");
      assert.equal(t.node.ledger.assetBalance(rcdHashOf(thief)).ack, 0n, "the thief got nothing");
      assert.equal(t.node.ledger.assetBalance(victim).ack, before, "the victim lost nothing");
      assert.equal(t.node.ledger.ecBalance(ecKey.publicKey).ack, t.node.ledger.ecBalance(ecKey.publicKey).saved);
      assert.ok(t.lines.some((l) => l.msg.startsWith("a client write in the log has a bad signature")));
      // the same transfer, signed by the victim's key: applied (the check refuses only what is forged)
      await t.append({ kind: "writes", messages: [encodeMessage({ kind: "transaction", timeMs: now, tx: honest })] });
      assert.equal(t.fed.status().badSignatureWrites, 2);
      assert.equal(t.node.ledger.assetBalance(rcdHashOf(thief)).ack, 89n * 100_000_000n);
    } finally {
      await t.stop();
    }
  });
});
