/**
 * tools/devnet/natsCluster.ts against real nats-server processes (the release `make test` builds, v2.15.2): a
 * 3-server JetStream cluster on free loopback ports comes up ready, an R3 file stream gets a leader the
 * helper finds, `kill -9` of that leader moves leadership to another server while the stream keeps
 * taking writes, and the crashed server restarts on its own store and holds every message again.
 * Runtime: ~10–15 s (most of it the Raft election after the crash, a random 4–9 s on 2.9.10).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { NatsCluster, natsServerConfig } from "../../tools/devnet/natsCluster.js";
import { commandLineOf, killAllAttached, sleep } from "../../tools/devnet/process.js";
import { natsRequest } from "../support/natsRequest.js";
import { waitUntil } from "../support/waitFor.js";

const STREAM = "DEVNET_TEST";

/** Publish until JetStream acknowledges (retrying through a leader election); returns the stream sequence. */
async function publishAcked(port: number, subject: string, body: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const r = await natsRequest(port, subject, body, 3000);
      if (r.status === 0) {
        const ack = JSON.parse(r.text) as { seq?: number; error?: { description: string } };
        if (ack.seq !== undefined) return ack.seq;
        last = ack.error?.description ?? r.text;
      } else last = `status ${r.status}`;
    } catch (e) {
      last = String(e);
    }
    await sleep(100);
  }
  throw new Error(
    `publish of ${JSON.stringify(body)} to ${subject} on port ${port} not acknowledged within ${timeoutMs} ms: ${last}`,
  );
}

/** Messages in the stream as one server's monitoring port reports them. */
async function storedMessages(httpPort: number): Promise<number | undefined> {
  const res = await fetch(`http://127.0.0.1:${httpPort}/jsz?accounts=true&streams=true`);
  const j = (await res.json()) as {
    account_details?: { stream_detail?: { name: string; state: { messages: number } }[] }[];
  };
  for (const a of j.account_details ?? [])
    for (const s of a.stream_detail ?? []) if (s.name === STREAM) return s.state.messages;
  return undefined;
}

describe("devnet: nats-server cluster", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-devnet-nats-"));
  after(async () => {
    await killAllAttached();
    rmSync(dir, { recursive: true, force: true });
  });

  test("configuration: loopback listeners, a file store per server, routes only in a cluster", () => {
    const layout = {
      clusterName: "c",
      servers: [0, 1].map((i) => ({
        name: `n${i}`,
        clientPort: 1000 + i,
        clusterPort: 2000 + i,
        httpPort: 3000 + i,
        dir: `/d/n${i}`,
      })),
    };
    const conf = natsServerConfig(layout, layout.servers[1]!, ["# extra"]);
    assert.match(conf, /^server_name: n1$/m);
    assert.match(conf, /^listen: 127\.0\.0\.1:1001$/m);
    assert.match(conf, /^http: 127\.0\.0\.1:3001$/m);
    assert.match(conf, /store_dir: "\/d\/n1\/store"/);
    assert.match(
      conf,
      /listen: 127\.0\.0\.1:2001, routes: \[nats-route:\/\/127\.0\.0\.1:2000, nats-route:\/\/127\.0\.0\.1:2001\]/,
    );
    assert.match(conf, /^# extra$/m);
    const single = natsServerConfig({ clusterName: "c", servers: [layout.servers[0]!] }, layout.servers[0]!, []);
    assert.doesNotMatch(single, /cluster/);
  });

  test("1 server: ready without a cluster block (no meta group), takes JetStream writes", async () => {
    const single = await NatsCluster.create({ dir: join(dir, "single"), size: 1 }, false);
    await single.startAll();
    const port = single.servers[0]!.layout.clientPort;
    const created = await natsRequest(
      port,
      `$JS.API.STREAM.CREATE.${STREAM}`,
      JSON.stringify({ name: STREAM, subjects: ["devnet.test.>"], num_replicas: 1, storage: "file" }),
    );
    assert.match(created.text, /"did_create":true/, created.text);
    assert.equal(await publishAcked(port, "devnet.test.a", "m1"), 1);
    await single.stopAll();
    assert.equal(single.servers[0]!.isRunning, false);
  });

  test("3 servers: ready, stream leader found, kill -9 of the leader, restart catches up", async () => {
    const cluster = await NatsCluster.create({ dir, size: 3 }, false);
    await cluster.startAll();
    assert.equal(cluster.servers.length, 3);
    const ports = new Set(
      cluster.servers.flatMap((s) => [s.layout.clientPort, s.layout.clusterPort, s.layout.httpPort]),
    );
    assert.equal(ports.size, 9, "every listener has its own port");
    for (const s of cluster.servers) {
      assert.ok(s.pid !== undefined, `${s.name} runs`);
      assert.ok(commandLineOf(s.pid)?.includes(join(s.layout.dir, "nats.conf")), `${s.name}'s pid runs its config`);
      assert.equal(await s.healthy(), true, `${s.name} healthy`);
      assert.match(readFileSync(join(s.layout.dir, "nats.conf"), "utf8"), new RegExp(`server_name: ${s.name}`));
    }
    assert.equal(await cluster.streamLeader(STREAM), undefined, "no such stream yet: no leader");

    const port0 = cluster.servers[0]!.layout.clientPort;
    const created = await natsRequest(
      port0,
      `$JS.API.STREAM.CREATE.${STREAM}`,
      JSON.stringify({ name: STREAM, subjects: ["devnet.test.>"], num_replicas: 3, storage: "file" }),
    );
    assert.match(created.text, /"did_create":true/, created.text);
    const leader = await cluster.waitStreamLeader(STREAM);
    assert.ok(
      cluster.servers.some((s) => s.name === leader),
      `leader ${leader} is one of ours`,
    );

    for (let i = 1; i <= 5; i++) assert.equal(await publishAcked(port0, "devnet.test.a", `m${i}`), i);

    // crash the stream leader; a survivor takes over and the stream takes writes again
    await cluster.kill(leader, "SIGKILL");
    assert.equal(cluster.server(leader).isRunning, false);
    const survivor = cluster.servers.find((s) => s.name !== leader)!;
    assert.equal(await publishAcked(survivor.layout.clientPort, "devnet.test.a", "m6"), 6);
    const newLeader = await cluster.waitStreamLeader(STREAM, { not: leader });
    assert.notEqual(newLeader, leader);
    assert.equal(await publishAcked(survivor.layout.clientPort, "devnet.test.a", "m7"), 7);

    // the crashed server restarts on its own store and catches up
    cluster.start(leader);
    await cluster.waitReady();
    const restarted = cluster.server(leader);
    let have: number | undefined;
    await waitUntil(
      `${leader} to hold all 7 messages after its restart`,
      async () => {
        have = await storedMessages(restarted.layout.httpPort);
        return have === 7;
      },
      20_000,
      100,
      () => `it holds ${have}`,
    );

    const pids = cluster.servers.map((s) => s.pid!);
    await cluster.stopAll();
    for (const [i, s] of cluster.servers.entries()) {
      assert.equal(s.isRunning, false);
      assert.equal(commandLineOf(pids[i]!)?.includes("nats.conf") ?? false, false, `${s.name} is gone`);
    }
  });
});
