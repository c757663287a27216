/**
 * Least privilege in NATS (docs/cluster.md §2.3), against a real nats-server (the release `make test` builds,
 * v2.15.2; written against 2.9.10) with TLS and the devnet's users (tools/devnet/natsSecurity.ts: bcrypt hashes,
 * the permissions of src/cluster/natsPermissions.ts):
 *
 * * every role does what it must through JetStreamLog: the federated user creates the streams, appends and
 *   writes block sets; the audit user appends and writes block sets; the follower user follows the log with an
 *   ordered consumer, reads the newest end of minute and block sets (direct gets) without creating anything;
 * * the follower user can neither append to the log (publish and `append`) nor write a block set; no node
 *   user can purge, delete or update a stream or delete a message; the admin user can (so the refusals are
 *   the permissions', not a broken request);
 * * a follower's write is forwarded (writeForwarding.ts): a server re-checks its signatures and appends it
 *   byte for byte, a retry with the same record id is answered with the same sequence, and a record with a
 *   forged signature, or a server record, is refused and stored nowhere.
 *
 * Then the whole node path on a `--nats-auth` devnet (3 nats-servers with TLS, 2 federated, 1 audit,
 * 1 follower): the devnet's files are 0600 and hold no clear password where none belongs; the follower's own
 * credential (from its ledgerd.conf) cannot append or purge; writes sent to the follower node are confirmed
 * (forwarded); and the nats-server the follower is connected to is paused (SIGSTOP; when it leads the log's
 * stream, the leadership is handed over first): the follower leaves it within seconds (client pings) and its
 * writes are confirmed again (issue 28 item 5); an add-server message
 * sent to the follower is forwarded too. Runtime: ~40 s.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { connect, headers } from "@nats-io/transport-node";
import bcrypt from "bcryptjs";
import { clusterNames } from "../../src/cluster/clusterConfig.js";
import type { ClusterRole } from "../../src/cluster/federationTypes.js";
import { JetStreamLog, LogRefusedError } from "../../src/cluster/jetStreamLog.js";
import { inboxPrefix } from "../../src/cluster/natsPermissions.js";
import { encodeRecord, recordSubject } from "../../src/cluster/records.js";
import { ForwardedWriteServer, ForwardingLog, ForwardRefusedError } from "../../src/cluster/writeForwarding.js";
import { encodeMessage } from "../../src/ledger/messages.js";
import { keyPairFromSeed } from "../../src/protocol/address.js";
import { fromHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_SEED_HEX } from "../../src/protocol/genesis.js";
import { sha256 } from "../../src/protocol/hash.js";
import { networkId } from "../../src/protocol/network.js";
import { decodeTransaction } from "../../src/protocol/transaction.js";
import { InlineVerifier } from "../../src/workers/verifier.js";
import { addServerMessage, natsUsersBlock, newIdentity } from "../../tools/cluster/commands.js";
import { createNatsSecurity, type NatsSecurity, natsClientSecurityConfig } from "../../tools/devnet/natsSecurity.js";
import { composeTransaction } from "../../tools/wallet/compose.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import { GENESIS_KEY } from "../support/ledgerWrites.js";
import { type NatsCluster, startNatsCluster, stopAllNats } from "../support/natsServer.js";
import { startTestDevnet, type TestDevnet } from "../support/testDevnet.js";
import { waitFor } from "../support/waitFor.js";

const names = clusterNames({ network: "LOCAL", customNet: "" });
const quiet = { info: () => {}, warn: () => {} };

/** A signed transaction from the LOCAL genesis key to an EC address, as a client would submit it. */
function signedTransaction(label: string) {
  const ec = keyPairFromSeed("EC", sha256(new TextEncoder().encode(label)));
  return composeTransaction({
    inputSeed: GENESIS_KEY.seed,
    outputs: [],
    ecOutputs: [{ address: ec.publicKey, amount: 1_000_000n }],
    rate: 1000n,
    milliTimestamp: Date.now(),
  }).tx;
}

/** The `writes` record of one client message. */
function writesRecord(tx: ReturnType<typeof signedTransaction>): Uint8Array {
  return encodeRecord({ kind: "writes", messages: [encodeMessage({ kind: "transaction", timeMs: Date.now(), tx })] });
}

describe("NATS permissions per role, against a real nats-server", () => {
  let dir: string;
  let security: NatsSecurity;
  let nats: NatsCluster;
  const logs: JetStreamLog[] = [];

  const open = async (role: ClusterRole): Promise<JetStreamLog> => {
    const u = security.users[role];
    const log = await JetStreamLog.open(
      {
        servers: nats.urls,
        stream: names.stream,
        subjectPrefix: names.subjectPrefix,
        replicas: 1,
        name: `test ${role}`,
        user: u.user,
        pass: u.password,
        tls: { caFile: security.certFile },
        createStreams: role === "federated",
        inboxPrefix: inboxPrefix(role),
        appendDeadlineMs: 5_000,
      },
      { log: quiet },
    );
    logs.push(log);
    return log;
  };
  const client = (user: keyof NatsSecurity["users"]) =>
    connect({
      servers: nats.urls,
      user: security.users[user].user,
      pass: security.users[user].password,
      tls: { caFile: security.certFile },
      inboxPrefix: user === "admin" ? "_INBOX" : inboxPrefix(user),
      reconnect: false,
      timeout: 5_000,
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ledgerd-natsperm-"));
    security = await createNatsSecurity(dir);
    const admin = security.users.admin;
    nats = await startNatsCluster(1, {
      extraConfig: natsClientSecurityConfig(security, names),
      user: admin.user,
      pass: admin.password,
      tls: { caFile: security.certFile },
    });
  });
  after(async () => {
    for (const l of logs) await l.close();
    await nats?.stop();
    stopAllNats();
    rmSync(dir, { recursive: true, force: true });
  });

  test("ledgerd-cluster nats-users prints the devnet's block; with hashes filled in, nats-server -t accepts it", () => {
    const template = natsUsersBlock("LOCAL", "").slice(1).join("\n");
    const devnet = natsClientSecurityConfig(security, names).slice(1).join("\n"); // without the tls line
    assert.equal(
      devnet.replace(/"\$2[ab]\$10\$[^"]{53}"/g, '"<hash>"'),
      template.replace(/"<bcrypt hash of the \w+ password>"/g, '"<hash>"'),
    );
    const filled = template.replace(/<bcrypt hash of the (\w+) password>/g, () => bcrypt.hashSync("pw", 10));
    const file = join(dir, "users-check.conf");
    writeFileSync(file, `listen: 127.0.0.1:4222\n${filled}\n`);
    execFileSync("nats-server", ["-t", "-c", file], { stdio: "pipe" }); // throws on a file it refuses
  });

  test("the configuration holds bcrypt hashes only, never a password", () => {
    const text = natsClientSecurityConfig(security, names).join("\n");
    for (const u of Object.values(security.users)) assert.ok(!text.includes(u.password), `${u.user}'s password`);
    assert.equal((text.match(/"\$2[ab]\$10\$/g) ?? []).length, 4, "four bcrypt hashes");
    assert.equal(statSync(security.keyFile).mode & 0o777, 0o600);
  });

  test("each role does its part; the follower only reads, and forwards its writes to a server", async () => {
    // a follower started first waits for the streams: it may not create them
    let followerOpened = false;
    const followerOpening = open("follower").then((l) => {
      followerOpened = true;
      return l;
    });
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(followerOpened, false, "the follower waits for a federated server to create the stream");

    const fed = await open("federated");
    const fedArchive = await fed.openArchive(names.setsStream, names.setsSubjectPrefix);
    const audit = await open("audit");
    const auditArchive = await audit.openArchive(names.setsStream, names.setsSubjectPrefix);
    const follower = await followerOpening;
    const followerArchive = await follower.openArchive(names.setsStream, names.setsSubjectPrefix);

    const first = await fed.append("eom", new Uint8Array([1]), "t/1");
    const second = await audit.append("heartbeat", new Uint8Array([2]), "t/2");
    assert.equal(second.seq, first.seq + 1);
    await fedArchive.put(1, [new Uint8Array([0, 0, 0, 1, 0, 0, 0, 0])]);
    await auditArchive.put(2, [new Uint8Array([0, 0, 0, 1, 0, 0, 0, 0])]);

    // the follower reads: the ordered consumer, stream info, direct gets on the log and the archive
    const seen: number[] = [];
    const following = follower.follow(1, (r) => {
      seen.push(r.seq);
    });
    await waitFor(
      "the follower's ordered consumer delivers",
      async () => (seen.length >= 2 ? true : undefined),
      20_000,
    );
    await following.stop();
    assert.deepEqual(seen.slice(0, 2), [first.seq, second.seq]);
    assert.deepEqual(Uint8Array.from((await follower.lastOfKind("eom")) ?? []), new Uint8Array([1]));
    assert.equal(await follower.lastSequence(), second.seq);
    assert.equal(await followerArchive.has(1), true);
    assert.equal(await followerArchive.has(2), true);

    // … and may not write: neither the log nor the archive
    await assert.rejects(follower.append("tx", writesRecord(signedTransaction("direct"))), (e: unknown) => {
      assert.ok(e instanceof LogRefusedError, String(e));
      assert.match((e as Error).message, /Permissions Violation for Publish to "ledger\.local\.tx"/);
      return true;
    });
    await assert.rejects(followerArchive.put(3, [new Uint8Array(8)]), LogRefusedError);
    assert.equal(await fed.lastSequence(), second.seq, "nothing the follower sent was stored");

    // forwarding: the audit server serves the intake; the follower's append goes through it
    const server = new ForwardedWriteServer(
      { intakeSubject: names.intakeSubject, networkId: 0, skeletonKey: new Uint8Array(32) },
      { transport: audit, verifier: new InlineVerifier(), logger: quiet },
    );
    server.start();
    try {
      const forwarding = new ForwardingLog(
        { intakeSubject: names.intakeSubject, deadlineMs: 10_000 },
        { log: follower, transport: follower },
      );
      const record = writesRecord(signedTransaction("forwarded"));
      const stored = await forwarding.append(recordSubject("writes"), record, "w/follower-test/abc/0");
      assert.equal(stored.seq, second.seq + 1);
      assert.equal(stored.duplicate, false);
      // byte for byte, under the log's writes subject
      const m = await waitFor(
        "the forwarded record in the log",
        async () => (await follower.lastOfKind(recordSubject("writes"))) ?? undefined,
        10_000,
      );
      assert.deepEqual(Uint8Array.from(m), record);
      // the same record id again (a retry after a lost answer): the same sequence, nothing stored twice
      const again = await forwarding.append(recordSubject("writes"), record, "w/follower-test/abc/0");
      assert.deepEqual(again, { seq: stored.seq, duplicate: true });

      // a forged signature (the last byte of the RCD signature flipped) is refused; nothing stored
      const good = signedTransaction("forged");
      const raw = Uint8Array.from(good.raw);
      raw[raw.length - 1] = raw[raw.length - 1]! ^ 0xff;
      await assert.rejects(
        forwarding.append(recordSubject("writes"), writesRecord(decodeTransaction(raw)), "w/follower-test/abc/1"),
        (e: unknown) => e instanceof ForwardRefusedError && /message 0: signature does not verify/.test(e.message),
      );
      // a record larger than the log takes is refused at once (not retried until the deadline)
      await assert.rejects(
        forwarding.append(recordSubject("writes"), new Uint8Array(600 * 1024).fill(1), "w/follower-test/abc/2"),
        (e: unknown) => e instanceof ForwardRefusedError && /exceeds/.test(e.message),
      );
      // a server record (here an end of minute) may not be forwarded at all
      const eom = encodeRecord({
        kind: "endOfMinute",
        height: 1,
        minute: 0,
        timeMs: Date.now(),
        proposer: new Uint8Array(32),
        signature: new Uint8Array(64),
      });
      const nc = await client("follower");
      try {
        const reply = await nc.request(names.intakeSubject, eom, {
          timeout: 5_000,
          headers: (() => {
            const h = headers();
            h.set("Ledgerd-Record-Id", "x/1");
            return h;
          })(),
        });
        assert.match(new TextDecoder().decode(reply.data), /refused.*may not forward a endOfMinute record/);
      } finally {
        await nc.close();
      }
      assert.equal(await fed.lastSequence(), stored.seq, "the refused records were stored nowhere");
      assert.deepEqual(server.stats, { appended: 2, refused: 3, unavailable: 0 });
    } finally {
      server.stop();
    }
  });

  test("a node whose user lacks what it needs stops at start, naming the subject (not a retry loop)", async () => {
    const u = security.users.follower;
    const started = Date.now();
    await assert.rejects(
      JetStreamLog.open(
        {
          servers: nats.urls,
          stream: names.stream,
          subjectPrefix: names.subjectPrefix,
          replicas: 1,
          user: u.user,
          pass: u.password,
          tls: { caFile: security.certFile },
          createStreams: false,
          inboxPrefix: inboxPrefix("federated"), // another role's inbox: the follower user may not subscribe there
        },
        { log: quiet },
      ),
      (e: unknown) =>
        e instanceof LogRefusedError &&
        /NATS refused user follower: Permissions Violation for Subscription to "_INBOX_federated\./.test(e.message),
    );
    assert.ok(Date.now() - started < 10_000, "refused at once");
  });

  test("no node user may purge, delete or update a stream or delete a message; the admin user may", async () => {
    const info = JSON.stringify({ name: names.stream, subjects: [`${names.subjectPrefix}.>`] });
    const attempts: [string, string][] = [
      [`$JS.API.STREAM.PURGE.${names.stream}`, "{}"],
      [`$JS.API.STREAM.DELETE.${names.setsStream}`, ""],
      [`$JS.API.STREAM.UPDATE.${names.stream}`, info],
      [`$JS.API.STREAM.MSG.DELETE.${names.stream}`, JSON.stringify({ seq: 1 })],
      [`$JS.API.STREAM.CREATE.OTHER`, JSON.stringify({ name: "OTHER", subjects: ["other.>"] })],
    ];
    for (const role of ["follower", "audit", "federated"] as const) {
      const nc = await client(role);
      try {
        for (const [subject, body] of attempts)
          await assert.rejects(
            nc.request(subject, new TextEncoder().encode(body), { timeout: 5_000 }),
            /Permissions Violation for Publish/,
            `${role}: ${subject}`,
          );
      } finally {
        await nc.close();
      }
    }
    const admin = await client("admin");
    try {
      const r = await admin.request(`$JS.API.STREAM.PURGE.${names.stream}`, new TextEncoder().encode("{}"), {
        timeout: 5_000,
      });
      const purged = JSON.parse(new TextDecoder().decode(r.data)) as { success?: boolean; purged?: number };
      assert.equal(purged.success, true, JSON.stringify(purged));
      assert.ok((purged.purged ?? 0) >= 2, "the records the first test stored");
    } finally {
      await admin.close();
    }
  });
});

/** The names of the client connections a nats-server has now (its monitoring port's /connz). */
async function connectionNames(httpPort: number): Promise<string[] | undefined> {
  try {
    const r = await fetch(`http://127.0.0.1:${httpPort}/connz`, { signal: AbortSignal.timeout(1_000) });
    const j = (await r.json()) as { connections?: { name?: string }[] };
    return (j.connections ?? []).map((c) => c.name ?? "");
  } catch {
    return undefined; // a paused server does not answer
  }
}

/** A NATS connection to the devnet's servers as its `user` (the credential the devnet wrote), with `options`. */
function devnetConnection(
  net: TestDevnet,
  user: "admin" | "follower",
  options: Partial<Parameters<typeof connect>[0]> = {},
): ReturnType<typeof connect> {
  const c = net.devnet.natsCredentials(user)!;
  return connect({
    servers: net.devnet.nats.urls,
    user: c.user,
    pass: c.password,
    tls: { caFile: c.caFile },
    timeout: 5_000,
    ...options,
  });
}

/**
 * Hand the log stream's leadership to another server when `server` has it ($JS.API.STREAM.LEADER.STEPDOWN as
 * the admin user: a clean handover, like a SIGTERM's) and wait until the others agree on the new leader.
 * True when it did so.
 */
async function moveStreamLeaderOff(net: TestDevnet, server: string): Promise<boolean> {
  const stream = net.devnet.stream;
  if ((await net.devnet.nats.waitStreamLeader(stream)) !== server) return false;
  const admin = await devnetConnection(net, "admin");
  try {
    const r = await admin.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, new Uint8Array(0), { timeout: 5_000 });
    const answer = JSON.parse(new TextDecoder().decode(r.data)) as { success?: boolean };
    assert.equal(answer.success, true, `stream leader step-down: ${JSON.stringify(answer)}`);
  } finally {
    await admin.close();
  }
  await net.devnet.nats.waitStreamLeader(stream, { not: server, timeoutMs: 60_000 });
  return true;
}

describe("a --nats-auth devnet: each node on its role's user", () => {
  let net: TestDevnet;
  const writer = new ClusterWriter("permissions");
  let chainId: string;
  before(async () => {
    net = await startTestDevnet({ federated: 2, audit: 1, followers: 1, nats: 3, blockTimeSeconds: 2, natsAuth: true });
  });
  after(() => net?.cleanup());

  test("nats.conf and devnet-state.json are 0600; nats.conf holds hashes, each node's file its role's user", () => {
    const d = net.devnet;
    for (const s of d.nats.servers) {
      const conf = join(s.layout.dir, "nats.conf");
      assert.equal(statSync(conf).mode & 0o777, 0o600, conf);
      const text = readFileSync(conf, "utf8");
      for (const u of ["federated", "audit", "follower", "admin"] as const)
        assert.ok(!text.includes(d.natsCredentials(u)!.password), `${u}'s password in ${conf}`);
    }
    assert.equal(statSync(join(d.dir, "devnet-state.json")).mode & 0o777, 0o600);
    for (const n of d.nodes) {
      const conf = readFileSync(join(n.layout.home, "ledgerd.conf"), "utf8");
      assert.match(conf, new RegExp(`^NatsUser = ${n.role}$`, "m"), n.name);
      assert.equal(statSync(join(n.layout.home, "ledgerd.conf")).mode & 0o777, 0o600);
      // NatsPassword is a secret field: a 0600 file gets no warning
      assert.doesNotMatch(n.process.logTail(20_000), /readable by other users/, n.name);
    }
  });

  test("the follower's credential can neither append to the log nor purge it", async () => {
    const nc = await devnetConnection(net, "follower", { inboxPrefix: inboxPrefix("follower"), reconnect: false });
    try {
      const forged = writesRecord(signedTransaction("straight to the log"));
      await assert.rejects(nc.request("ledger.local.tx", forged, { timeout: 5_000 }), /Permissions Violation/);
      await assert.rejects(
        nc.request(`$JS.API.STREAM.PURGE.${net.devnet.stream}`, new TextEncoder().encode("{}"), { timeout: 5_000 }),
        /Permissions Violation/,
      );
      await assert.rejects(
        nc.request(`$JS.API.STREAM.DELETE.${net.devnet.stream}_SETS`, new Uint8Array(0), { timeout: 5_000 }),
        /Permissions Violation/,
      );
    } finally {
      await nc.close();
    }
  });

  test("writes sent to the follower node are confirmed: forwarded to a server, applied from the log", async () => {
    const follower = net.devnet.node("follower0");
    assert.equal(await writer.buyCredits(follower, 1000), true, writer.records.at(-1)?.error);
    const created = await writer.createChain(follower, "least privilege");
    assert.ok(created !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);
    chainId = created;
    assert.equal(await writer.addEntry(follower, chainId), true, writer.records.at(-1)?.error);
    // the entry is on a federated server too: it went through the log
    const last = writer.records.at(-1)!;
    await waitFor(
      "the follower's entry on fed0",
      () =>
        net.devnet
          .node("fed0")
          .client.call("entry", { hash: last.hash })
          .then(() => true)
          .catch(() => undefined),
      30_000,
      200,
    );
  });

  test("the nats-server the follower is on is paused: it reconnects elsewhere within seconds, writes resume", async (t) => {
    const follower = net.devnet.node("follower0");
    const name = `ledgerd follower :${follower.layout.port}`;
    const where = await Promise.all(
      net.devnet.nats.servers.map(async (s) => ((await connectionNames(s.layout.httpPort)) ?? []).includes(name)),
    );
    const victim = net.devnet.nats.servers[where.indexOf(true)];
    assert.ok(victim !== undefined, `the follower's connection (${name}) on some server`);
    // What is paused is the follower's server, not the log's leader: a paused stream leader is the fault suite's
    // (test/support/clusterFaults.ts). Here, on 2.9.10, a paused stream leader left the federation without
    // blocks for over 60 s in 2 of 16 loaded runs: resumed 2 s after its successor's election, it stored records
    // again, and the replicas then held different records at the same sequences (docs/cluster.md
    // §"nats-server 2.9.10 and a paused stream leader"). Nothing in ledgerd can mend that.
    const moved = await moveStreamLeaderOff(net, victim.name);
    const leader = await net.devnet.nats.streamLeader(net.devnet.stream);
    const others = net.devnet.nats.servers.filter((s) => s !== victim);
    const pid = victim.pid!;
    const t0 = Date.now();
    process.kill(pid, "SIGSTOP");
    let reconnectMs: number | undefined;
    let writeMs: number | undefined;
    try {
      const reconnect = waitFor(
        "the follower's connection on another server",
        async () => {
          for (const s of others) if (((await connectionNames(s.layout.httpPort)) ?? []).includes(name)) return true;
          return undefined;
        },
        60_000,
        100,
      ).then(() => {
        reconnectMs = Date.now() - t0;
      });
      // one write after another through the follower until one is confirmed (each may wait for a forward)
      const writes = (async () => {
        while (Date.now() - t0 < 90_000) {
          if (await writer.addEntry(follower, chainId)) {
            writeMs = Date.now() - t0;
            return;
          }
        }
      })();
      await Promise.all([reconnect, writes]);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    // the next test starts from a healed cluster: every nats-server's JetStream up with one meta leader, and a
    // write through the follower confirmed again (JetStream may hold publishes a few seconds after the paused
    // server's return: measured up to ~10 s). Not every consumer replica current: on a busy machine the paused
    // server's copy of a node's consumer stayed "not current" for over 60 s (CI 2026-11-30 14:56), while the
    // stream took writes; the write below is what the next test needs.
    await net.devnet.nats.waitReady(60_000, "server");
    await waitFor(
      "a write through the follower after the heal",
      async () => ((await writer.addEntry(follower, chainId)) ? true : undefined),
      60_000,
      100,
    );
    t.diagnostic(
      `paused ${victim.name} (stream leader: ${leader ?? "none"}${moved ? `, handed over by ${victim.name}` : ""}); ` +
        `the follower reconnected after ${reconnectMs} ms; ` +
        `first write confirmed ${writeMs} ms after the pause`,
    );
    // client pings: 1 s × 3 unanswered ⇒ ~3–4 s; generous for a loaded machine
    assert.ok(reconnectMs !== undefined && reconnectMs < 15_000, `reconnected after ${reconnectMs} ms`);
    assert.ok(writeMs !== undefined, `no write confirmed after the pause: ${writer.records.at(-1)?.error}`);
  });

  test("an add-server message sent to the follower is forwarded (named by its bytes) and reaches the chain", async () => {
    const id = newIdentity();
    const follower = net.devnet.node("follower0");
    await follower.client
      .call("send-raw-message", {
        message: addServerMessage({
          role: "audit",
          identity: fromHex(id.identity),
          publicKey: fromHex(id.pubkey),
          skeletonSeed: fromHex(LOCAL_BOOTSTRAP_SEED_HEX),
          network: networkId("LOCAL"),
          timeMs: Date.now(),
        }),
      })
      .catch((e: unknown) => {
        // the test's HTTP client gives up after 10 s; the node goes on forwarding for 30 s, so a slow answer is
        // not yet a failure: the chain decides below
        if (!/no complete answer within/.test(String(e)))
          throw new Error(`send-raw-message at the follower: ${String(e)}\n${follower.process.logTail(3000)}`);
      });
    await waitFor(
      "the new audit server on fed0",
      async () => {
        const a = await net.devnet
          .node("fed0")
          .client.call<{ AuditServers: { ChainID: string }[] | null }>("audit-servers", undefined, "debug");
        return (a.AuditServers ?? []).some((x) => x.ChainID === id.identity) ? true : undefined;
      },
      60_000,
      250,
      () => follower.process.logTail(3000),
    );
  });
});
