/**
 * The replicated log against real nats-servers: order, dedup by id, replay from a sequence, and a
 * `kill -9` of the stream leader of a 3-server cluster during appends with nothing acknowledged lost.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { encodeBlockSet } from "../../../src/cluster/blockSets.js";
import { JetStreamLog, type LogRecord } from "../../../src/cluster/jetStreamLog.js";
import { ensureCertificate } from "../../../src/rpc/tls.js";
import { startNatsCluster, stopAllNats } from "../../support/natsServer.js";
import { waitUntil } from "../../support/waitFor.js";

const quiet = { log: { info: () => {}, warn: () => {} } };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

async function collect(log: JetStreamLog, from: number, count: number): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  let resolve!: () => void;
  const enough = new Promise<void>((r) => {
    resolve = r;
  });
  const f = log.follow(from, (r) => {
    out.push(r);
    if (out.length === count) resolve();
  });
  await Promise.race([enough, f.done]);
  await f.stop();
  return out;
}

describe("JetStreamLog (real nats-server)", () => {
  after(() => stopAllNats());

  it("orders appends from two clients, stores an id once, replays from any sequence", async () => {
    const nats = await startNatsCluster(1);
    const opts = { servers: nats.urls, stream: "LEDGER_T1", subjectPrefix: "ledger.t1", replicas: 1 };
    const a = await JetStreamLog.open(opts, quiet);
    const b = await JetStreamLog.open(opts, quiet);
    try {
      const first = await a.append("tx", enc("a1"), "id-1");
      const again = await b.append("tx", enc("other bytes"), "id-1");
      assert.deepEqual(again, { seq: first.seq, duplicate: true });
      const all = await Promise.all([a.append("eom", enc("a2")), b.append("tx", enc("b1")), a.append("tx", enc("a3"))]);
      assert.deepEqual(
        all.map((x) => x.seq).sort((x, y) => x - y),
        [2, 3, 4],
      );
      assert.equal(await b.lastSequence(), 4);
      const fromOne = await collect(b, 1, 4);
      assert.deepEqual(
        fromOne.map((r) => r.seq),
        [1, 2, 3, 4],
      );
      assert.equal(dec(fromOne[0]!.data), "a1");
      assert.equal(fromOne[0]!.subject, "ledger.t1.tx");
      const fromThree = await collect(a, 3, 2);
      assert.deepEqual(
        fromThree.map((r) => r.seq),
        [3, 4],
      );
      assert.deepEqual(
        fromThree.map((r) => dec(r.data)),
        fromOne.slice(2).map((r) => dec(r.data)),
      );
    } finally {
      await a.close();
      await b.close();
      await nats.stop();
    }
  });

  it("a handler that throws ends the delivery with its error", async () => {
    const nats = await startNatsCluster(1);
    const log = await JetStreamLog.open(
      { servers: nats.urls, stream: "LEDGER_T2", subjectPrefix: "ledger.t2", replicas: 1 },
      quiet,
    );
    try {
      await log.append("tx", enc("x"));
      const f = log.follow(1, () => {
        throw new Error("apply failed");
      });
      await assert.rejects(f.done, /apply failed/);
    } finally {
      await log.close();
      await nats.stop();
    }
  });

  it("R3: kill -9 of the stream leader during appends loses nothing acknowledged and stores nothing twice", async () => {
    const nats = await startNatsCluster(3);
    const opts = { servers: nats.urls, stream: "LEDGER_T3", subjectPrefix: "ledger.t3", replicas: 3 };
    const log = await JetStreamLog.open(opts, quiet);
    const reader = await JetStreamLog.open({ ...opts, servers: [nats.urls[2]!, nats.urls[1]!, nats.urls[0]!] }, quiet);
    try {
      const acked = new Map<string, number>();
      let stop = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const id = `w${w}-${i}`;
          const r = await log.append("tx", enc(id), id);
          acked.set(id, r.seq);
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await waitUntil("200 appends acknowledged", () => acked.size >= 200, 60_000, 20);
      const leaderName = await log.streamLeader();
      const victim = nats.servers.find((s) => s.name === leaderName);
      assert.ok(victim, `stream leader ${JSON.stringify(leaderName)} is none of the servers`);
      await victim.kill9();
      const before = acked.size;
      await waitUntil("200 more appends acknowledged after the kill", () => acked.size >= before + 200, 60_000, 50);
      stop = true;
      await Promise.all(writers);
      const last = await reader.lastSequence();
      const records = await collect(reader, 1, last);
      const stored = records.map((r) => dec(r.data));
      assert.equal(new Set(stored).size, stored.length, "a record stored twice");
      const bySeq = new Map(records.map((r) => [r.seq, dec(r.data)]));
      for (const [id, seq] of acked) assert.equal(bySeq.get(seq), id, `acknowledged ${id} at ${seq} not stored there`);
      await victim.restart();
    } finally {
      await log.close();
      await reader.close();
      await nats.stop();
    }
  });

  it("R3: a follow goes on after the nats-server its connection is on is killed", async () => {
    const nats = await startNatsCluster(3);
    const opts = { servers: nats.urls, stream: "LEDGER_T4", subjectPrefix: "ledger.t4", replicas: 3 };
    const writer = await JetStreamLog.open(opts, quiet);
    const reader = await JetStreamLog.open(opts, quiet);
    try {
      const seen: number[] = [];
      const f = reader.follow(1, (r) => {
        seen.push(r.seq);
      });
      for (let i = 0; i < 20; i++) await writer.append("tx", enc(`a${i}`));
      await waitUntil("the first 20 records followed", () => seen.length >= 20, 30_000, 20);
      const on = reader.status().server;
      const victim = nats.servers.find((s) => on.endsWith(`:${s.url.split(":")[2]}`));
      assert.ok(victim, `the reader's server ${on} is none of the cluster's`);
      await victim.kill9();
      for (let i = 0; i < 20; i++) await writer.append("tx", enc(`b${i}`));
      await waitUntil(
        "40 records followed",
        () => seen.length >= 40,
        30_000,
        50,
        () => `seen ${seen.join(",")}`,
      );
      assert.deepEqual(
        seen,
        Array.from({ length: 40 }, (_, i) => i + 1),
        "every record once, in order",
      );
      await f.stop();
    } finally {
      await writer.close();
      await reader.close();
      await nats.stop();
    }
  });

  it("NATS users and TLS: the right password over TLS works; a wrong one fails at once, saying so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-natstls-"));
    const files = await ensureCertificate({
      keyFile: join(dir, "nats.key"),
      certFile: join(dir, "nats.crt"),
      hosts: ["127.0.0.1", "localhost"],
    });
    const nats = await startNatsCluster(1, {
      extraConfig: [
        `tls { cert_file: "${files.certFile}", key_file: "${files.keyFile}" }`,
        // one user with broad rights (the per-role users of docs/cluster.md §2.3: cluster-permissions.test.ts)
        "authorization { users: [ { user: ledgerd, password: s3cret, permissions: {" +
          ' publish: ["ledger.t5.>", "ledgersets.t5.>", "$JS.API.>", "_INBOX.>"],' +
          ' subscribe: ["ledger.t5.>", "ledgersets.t5.>", "_INBOX.>"] } } ] }',
      ],
      user: "ledgerd",
      pass: "s3cret",
      tls: { caFile: files.certFile },
    });
    const opts = {
      servers: nats.urls,
      stream: "LEDGER_T5",
      subjectPrefix: "ledger.t5",
      replicas: 1,
      tls: { caFile: files.certFile },
    };
    try {
      const log = await JetStreamLog.open({ ...opts, user: "ledgerd", pass: "s3cret" }, quiet);
      assert.equal((await log.append("tx", enc("x"))).seq, 1);
      assert.equal((await log.append("tx", enc("y"))).seq, 2);
      const got: string[] = [];
      const f = log.follow(1, (r) => {
        got.push(dec(r.data));
      });
      await waitUntil("both records followed", () => got.length >= 2, 30_000, 20);
      await f.stop();
      assert.deepEqual(got, ["x", "y"]);
      // the block-set archive works under the same permissions (its own subjects)
      const archive = await log.openArchive("LEDGER_T5_SETS", "ledgersets.t5");
      const parts = encodeBlockSet(7, 3, [{ seq: 1, data: enc("x") }], new Uint8Array(32), new Uint8Array(32).fill(1));
      await archive.put(3, parts);
      const hex = (xs: readonly Uint8Array[] | undefined) => xs?.map((x) => Buffer.from(x).toString("hex"));
      assert.deepEqual(hex(await archive.get(3)), hex(parts));
      assert.equal(await archive.has(4), false);
      await log.close();
      await assert.rejects(
        JetStreamLog.open({ ...opts, user: "ledgerd", pass: "wrong" }, quiet),
        /Authorization Violation/,
      );
      await assert.rejects(
        JetStreamLog.open({ ...opts, tls: undefined, user: "ledgerd", pass: "s3cret", appendDeadlineMs: 2000 }, quiet),
        /TLS|tls|certificate|secure/i,
      );
    } finally {
      await nats.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
