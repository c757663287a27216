/**
 * The federation under faults (issue 28, docs/cluster.md §1.3, §1.7, §1.12), shared by the fault test files
 * (test/cluster/faults-*.test.ts, each with a devnet of its own so that each file stays within the runner's
 * per-file timeout): a devnet of 3 nats-servers, 3 federated servers, 1 audit server and 1 follower — real
 * processes on loopback, 2-second blocks — with writes going on through the follower (never the victim) during
 * each fault. The faults: SIGSTOP of a federated server past the fault timeout; a federated server restarted
 * with its clock 30 s fast (libfaketime), then with a correct clock; the same 30 s slow; SIGSTOP of the
 * stream-leader nats-server; a federated server's NATS connections cut with nftables (a partition on
 * loopback); a rolling restart of every node. After each: 0 acknowledged writes lost, byte-identical blocks on
 * every running node, every new block signed by a majority of the servers federated at its height, no role
 * voted out at its first height after a promotion (no flap), and no block gap over 3 block times once the fault is healed.
 * Each fault's figures (lost, longest write gap, longest block gap, flaps) are printed as a `fault:` line.
 *
 * LEDGERD_LONG=1 (`make test-long`) runs each fault twice in a row.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { LOCAL_STREAM } from "../../tools/devnet/devnet.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { sleep } from "../../tools/devnet/process.js";
import { LONG } from "../reliability/mode.js";
import { ClusterWriter } from "./clusterWriter.js";
import {
  adminEntries,
  assertIdenticalBlocks,
  assertSignatureMajority,
  federatedSetsFromChain,
  heightsOf,
  savedHashes,
  serverKeys,
  startTestDevnet,
  type TestDevnet,
  waitSavedHeight,
} from "./testDevnet.js";
import { waitUntil } from "./waitFor.js";

const BLOCK_SECONDS = 2;
const FAULT_TIMEOUT_SECONDS = 6;
const ROUND_TIMEOUT_SECONDS = 4;
/** The longest block gap allowed once a fault is healed, ms (3 block times). */
const HEALED_BLOCK_GAP_MS = 3 * BLOCK_SECONDS * 1000;
/** libfaketime's thread-safe library (Debian `faketime`; tools/os/install-packages.sh). */
const FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";
/** nftables table of this test, removed in `finally` and at the end. */
const NFT_TABLE = "ledgerd_fault_test";
const ROUNDS = LONG ? 2 : 1;

interface FaultFigures {
  lost: number;
  writeGapMs: number;
  blockGapMs: number;
  healedBlockGapMs: number;
  flaps: string[];
}

/** The faults a file runs, in this order. */
export type FaultKind = "sigstop" | "skew" | "natsLeader" | "partition" | "rollingRestart";

/** A suite of `kinds` on a devnet of its own. */
export function describeFaults(title: string, kinds: readonly FaultKind[]): void {
  describe(`federation faults: ${title} (3 nats, 3 federated, 1 audit, 1 follower; real processes)`, {
    timeout: 1_500_000,
  }, () => {
    let net: TestDevnet;
    const writer = new ClusterWriter("faults");
    let chainId = "";
    const running = (): LedgerdNode[] => net.devnet.nodes.filter((n) => n.isRunning);
    const node = (name: string): LedgerdNode => net.devnet.node(name);

    async function savedHeight(): Promise<number> {
      const hs = await Promise.all(running().map(heightsOf));
      return Math.min(...hs.map((h) => h?.directoryblockheight ?? -1));
    }

    async function highestHeight(): Promise<number> {
      const hs = await Promise.all(running().map(heightsOf));
      return Math.max(...hs.map((h) => h?.directoryblockheight ?? -1));
    }

    /** The names of the nodes that are federated servers now (as follower0 reads the chain's open height). */
    async function federatedNow(): Promise<LedgerdNode[]> {
      const info = await node("follower0").client.call<{ Cluster?: { Federated?: string[] } }>(
        "network-info",
        {},
        "debug",
      );
      const ids = new Set(info.Cluster?.Federated ?? []);
      return net.devnet
        .nodesWithRole("federated")
        .concat(net.devnet.nodesWithRole("audit"))
        .filter((n) => ids.has(n.identity!));
    }

    /**
     * After the paused stream leader's SIGCONT: every nats-server healthy, its streams and consumers current. When
     * that has not come in 60 s, JetStream and one meta leader on every server are enough: nats-server 2.9.10 has
     * left a consumer replica "not current" for good after such a pause (CI, 2026-11-30 20:40: one on nats0, for
     * over 60 s; docs/cluster.md §"nats-server 2.9.10 and a paused stream leader"). Whether the nodes
     * read the log again is what the checks after every fault measure: blocks go on, identical, 0 writes lost.
     */
    async function natsBackAfterPause(paused: string): Promise<void> {
      try {
        await net.devnet.nats.waitReady(60_000);
      } catch (e) {
        await net.devnet.nats.waitReady(30_000, "server");
        const why = (e instanceof Error ? e.message : String(e)).split("\n")[0];
        console.log(`fault: after ${paused}'s pause: ${why}; JetStream and its meta leader are back on every server`);
      }
    }

    /**
     * Run `fault` (which returns when the fault is healed) while writes go through follower0, then let two more
     * blocks pass; measure and check everything the header lists.
     */
    async function underFault(name: string, fault: () => Promise<void>): Promise<FaultFigures> {
      const from = await savedHeight();
      const acknowledgedBefore = writer.records.filter((r) => r.acknowledged).length;
      let stopped = false;
      const heights: { ms: number; height: number }[] = [];
      const sampler = (async () => {
        while (!stopped) {
          const h = await heightsOf(node("follower0"));
          if (h !== undefined && (heights.length === 0 || h.directoryblockheight > heights.at(-1)!.height))
            heights.push({ ms: Date.now(), height: h.directoryblockheight });
          await sleep(200);
        }
      })();
      const writes = (async () => {
        while (!stopped) if (!(await writer.addEntry(node("follower0"), chainId))) await sleep(100);
      })();
      let healedAt = Date.now();
      try {
        await fault();
        healedAt = Date.now();
        // three more blocks of the network (the victim may still be catching up: the highest node counts)
        const h = await highestHeight();
        await waitSavedHeight([node("follower0")], h + 3, 90_000);
      } finally {
        stopped = true;
        await Promise.all([sampler, writes]);
      }
      // every write acknowledged so far is in a block ≤ to + 2, on every running node
      const to = await highestHeight();
      await waitSavedHeight(running(), to + 2, 90_000);
      await assertIdenticalBlocks(running(), Math.max(1, from - 1), to);
      const saved = await savedHashes(node("follower0"), to + 2);
      const missing = [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x));
      const lost = missing.length;
      if (lost > 0) {
        // what the nodes say of the first few (in a block they never saw, held, unknown)
        for (const hash of missing.slice(0, 3))
          for (const n of running()) {
            const ack = await n.client.call("ack", { hash, chainid: chainId }).catch((e: unknown) => String(e));
            console.log(`fault: ${name}: missing ${hash} at ${n.name}: ${JSON.stringify(ack)}`);
          }
      }
      const sets = await federatedSetsFromChain(node("follower0"), to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
      const keys = serverKeys(net.devnet);
      for (let h = Math.max(2, from); h <= to; h++)
        await assertSignatureMajority(node("follower0"), h, sets.get(h)!, keys);
      const { changes, flaps } = await roleChanges(Math.max(1, from - 2), to);
      const gaps = (list: { ms: number }[]): number =>
        list.slice(1).reduce((m, x, i) => Math.max(m, x.ms - list[i]!.ms), 0);
      const acked = writer.records.filter((r) => r.acknowledged && r.atMs !== undefined).slice(acknowledgedBefore);
      const figures: FaultFigures = {
        lost,
        writeGapMs: gaps(acked.map((r) => ({ ms: r.atMs! }))),
        blockGapMs: gaps(heights),
        healedBlockGapMs: gaps(heights.filter((x) => x.ms >= healedAt)),
        flaps,
      };
      console.log(
        `fault: ${name} ${JSON.stringify(figures)} heights ${from}..${to}, role changes [${changes.join(" ")}]`,
      );
      assert.equal(lost, 0, `${name}: acknowledged entries missing from the blocks (${writer.summary()})`);
      assert.deepEqual(flaps, [], `${name}: a promoted server voted out at its first height (${changes.join(" ")})`);
      assert.ok(acked.length > 0, `${name}: writes through follower0 were acknowledged`);
      assert.ok(
        figures.healedBlockGapMs <= HEALED_BLOCK_GAP_MS,
        `${name}: a block gap of ${figures.healedBlockGapMs} ms after the heal (max ${HEALED_BLOCK_GAP_MS})`,
      );
      return figures;
    }

    /** Servers promoted (05) at h and demoted (06) within the next two heights, or the reverse: "h:identity". */
    /**
     * The role changes (05/06) of heights from..to as "h:05|06:identity", and the flaps among them: a server
     * promoted (05) in admin block h and demoted (06) in admin block h+1, i.e. voted out at the very start of
     * its first height as a federated server (the swap the review measured; the grace height forbids it). A
     * promoted server that is then silent for the whole fault timeout is voted out later: that is a fault.
     */
    async function roleChanges(from: number, to: number): Promise<{ changes: string[]; flaps: string[] }> {
      const changes: { h: number; type: number; id: string }[] = [];
      for (let h = from; h <= to; h++)
        for (const e of await adminEntries(node("follower0"), h))
          if (e.adminidtype === 5 || e.adminidtype === 6)
            changes.push({ h, type: e.adminidtype, id: String(e.identitychainid ?? "") });
      const flaps = changes
        .filter((c) => c.type === 5 && changes.some((d) => d.id === c.id && d.type === 6 && d.h === c.h + 1))
        .map((c) => `${c.h}:${c.id.slice(0, 8)}`);
      return { changes: changes.map((c) => `${c.h}:0${c.type}:${c.id.slice(0, 8)}`), flaps };
    }

    before(async () => {
      net = await startTestDevnet({
        federated: 3,
        audit: 1,
        followers: 1,
        nats: 3,
        blockTimeSeconds: BLOCK_SECONDS,
        faultTimeoutSeconds: FAULT_TIMEOUT_SECONDS,
        roundTimeoutSeconds: ROUND_TIMEOUT_SECONDS,
      });
      assert.equal(await writer.buyCredits(node("fed0"), 50_000), true, writer.records.at(-1)?.error);
      const created = await writer.createChain(node("fed1"), "faults");
      assert.ok(created !== undefined, writer.records.at(-1)?.error);
      chainId = created;
    });
    after(async () => {
      nft(["delete", "table", "inet", NFT_TABLE], true);
      await net?.cleanup();
    });

    for (let round = 1; round <= ROUNDS; round++) {
      if (kinds.includes("sigstop"))
        test(`SIGSTOP of a federated server past the fault timeout, then SIGCONT (round ${round})`, async () => {
          const victim = (await federatedNow())[0]!;
          await underFault(`sigstop ${victim.name}`, async () => {
            process.kill(victim.pid!, "SIGSTOP");
            try {
              await sleep((FAULT_TIMEOUT_SECONDS + ROUND_TIMEOUT_SECONDS + 2) * 1000);
            } finally {
              process.kill(victim.pid!, "SIGCONT");
            }
          });
        });

      for (const skew of kinds.includes("skew") ? ["+30s", "-30s"] : []) {
        test(`a federated server restarted with its clock ${skew}, then with a correct one (round ${round})`, async (t) => {
          if (!existsSync(FAKETIME_LIB)) {
            t.skip(`${FAKETIME_LIB} missing (make os-packages-test installs faketime)`);
            return;
          }
          const victim = (await federatedNow()).at(-1)!;
          let aheadMs = 0;
          await underFault(`skew ${skew} ${victim.name}`, async () => {
            await victim.process.kill("SIGTERM");
            victim.start(false, {
              LD_PRELOAD: FAKETIME_LIB,
              FAKETIME: skew,
              FAKETIME_DONT_FAKE_MONOTONIC: "1",
              FAKETIME_NO_CACHE: "1",
            });
            await victim.waitServing();
            const until = Date.now() + 16_000;
            while (Date.now() < until) {
              const pl = await node("follower0").client.call<{ ProcessList: { minutestartms: number } }>(
                "process-list",
                {},
                "debug",
              );
              aheadMs = Math.max(aheadMs, pl.ProcessList.minutestartms - Date.now());
              await sleep(250);
            }
            await victim.process.kill("SIGTERM");
            victim.start(false);
            await victim.waitServing();
          });
          assert.ok(
            aheadMs < 2_000,
            `the chain's open minute ran ${aheadMs} ms ahead of real time under a ${skew} server`,
          );
        });
      }

      if (kinds.includes("natsLeader"))
        test(`SIGSTOP of the stream-leader nats-server (round ${round})`, async () => {
          const leader = await net.devnet.nats.waitStreamLeader(LOCAL_STREAM);
          const server = net.devnet.nats.servers.find((s) => s.name === leader)!;
          await underFault(`nats leader sigstop ${leader}`, async () => {
            process.kill(server.process.pid!, "SIGSTOP");
            try {
              await sleep(12_000);
            } finally {
              process.kill(server.process.pid!, "SIGCONT");
            }
            await natsBackAfterPause(leader);
          });
        });

      if (kinds.includes("partition"))
        test(`a federated server cut from NATS with nftables, then healed (round ${round})`, async (t) => {
          if (!nftAvailable()) {
            t.skip("nft missing or not permitted (make os-packages-test installs nftables; needs root)");
            return;
          }
          const victim = (await federatedNow())[1]!;
          const clientPorts = net.devnet.nats.servers.map((s) => s.layout.clientPort);
          await underFault(`partition ${victim.name}`, async () => {
            const ports = await victimPorts(victim);
            assert.ok(ports.length > 0, `${victim.name}'s NATS connections in /connz`);
            nft(["add", "table", "inet", NFT_TABLE]);
            try {
              nft(["add", "chain", "inet", NFT_TABLE, "out", "{ type filter hook output priority 0 ; }"]);
              const set = `{ ${ports.join(", ")} }`;
              const servers = `{ ${clientPorts.join(", ")} }`;
              nft(["add", "rule", "inet", NFT_TABLE, "out", "tcp", "sport", set, "drop"]);
              nft(["add", "rule", "inet", NFT_TABLE, "out", "tcp", "dport", set, "drop"]);
              // no new connection to any NATS client port while cut (the others keep theirs)
              nft(["add", "rule", "inet", NFT_TABLE, "out", "tcp", "dport", servers, "tcp", "flags", "syn", "drop"]);
              await sleep(14_000);
            } finally {
              nft(["delete", "table", "inet", NFT_TABLE], true);
            }
            await waitUntil(
              `${victim.name} level with the others after the heal`,
              async () =>
                (await heightsOf(victim))?.directoryblockheight ===
                (await heightsOf(node("follower0")))?.directoryblockheight,
              60_000,
              50,
              // what the next reader of a failure needs: where each stood, and the victim's own account (CI,
              // 2026-12-01 04:31: fed1 never came level, and the five lines the next test's failure showed said little)
              async () =>
                `${victim.name} at ${JSON.stringify(await heightsOf(victim))}, follower0 at ` +
                `${JSON.stringify(await heightsOf(node("follower0")))}; ${victim.name}'s federation: ` +
                `${await victim.client
                  .call<{ Cluster?: unknown }>("network-info", {}, "debug")
                  .then(
                    (i) => JSON.stringify(i.Cluster),
                    String,
                  )}\n--- ${victim.name}\n${victim.process.logTail(8000)}`,
            );
          });
        });

      if (kinds.includes("rollingRestart"))
        test(`a rolling restart of every node (round ${round})`, async () => {
          await underFault("rolling restart", async () => {
            for (const n of net.devnet.nodes.filter((x) => x.name !== "follower0")) {
              await net.devnet.restart(n.name);
              await sleep(3_000);
            }
          });
        });
    }

    /** The local ports of `victim`'s NATS connections (the nats-servers' /connz, by connection name). */
    async function victimPorts(victim: LedgerdNode): Promise<number[]> {
      const ports: number[] = [];
      for (const s of net.devnet.nats.servers) {
        const res = await fetch(`http://127.0.0.1:${s.layout.httpPort}/connz?limit=1024`).catch(() => undefined);
        if (res === undefined || !res.ok) continue;
        const j = (await res.json()) as { connections?: { name?: string; port?: number }[] };
        for (const c of j.connections ?? [])
          if (c.name?.endsWith(`:${victim.layout.port}`) && c.port !== undefined) ports.push(c.port);
      }
      return ports;
    }
  });
}

/** Run nft; `quiet`: ignore a failure (removing a table that is not there). */
function nft(args: string[], quiet = false): void {
  try {
    execFileSync("nft", args, { stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    if (!quiet) throw e;
  }
}

function nftAvailable(): boolean {
  try {
    execFileSync("nft", ["list", "tables"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
