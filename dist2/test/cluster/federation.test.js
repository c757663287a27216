/**
 * The federation end to end (issue 15 "Tests"): a devnet of 3 nats-servers, 3 federated servers, 1 audit
 * server and 1 follower — real processes on loopback, 2-second blocks — and, in order:
 * byte-identical blocks on every node with majority signatures verified from the admin blocks; writes to
 * a follower and to different federated servers (and one message to two nodes, landing once); `kill -9`
 * of a federated server during writes, the audit server promoted in its place, the killed server back and
 * matching; `kill -9` of the stream-leader nats-server during writes; a follower started from an empty
 * directory; convergence with a 2,000 ms delay on one federated server. After every fault: every write a
 * node acknowledged is in a saved block, and every node holds the same blocks.
 * Runtime: ~2 minutes (107 s on a loaded 2-core machine).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { LOCAL_STREAM } from "../../tools/devnet/devnet.js";
import { sleep } from "../../tools/devnet/process.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import { assertIdenticalBlocks, assertSignatureMajority, federatedSetsFromChain, heightsOf, savedHashes, serverKeys, startTestDevnet, waitFor, waitSavedHeight, } from "../support/testDevnet.js";
/** Seconds per block: short, so that faults and catch-up show within seconds. */
const BLOCK_SECONDS = 2;
/** Seconds of silence before a federated server is faulted, and per election round. */
const FAULT_TIMEOUT_SECONDS = 6;
const ROUND_TIMEOUT_SECONDS = 4;
/**
 * Runs `during` while entries are written round-robin over `targets()` (a failed write is followed by a
 * short pause); the writes stop when `during` ends, however it ends.
 */
async function whileWriting(writer, chainId, targets, during) {
    let stopped = false;
    const loop = (async () => {
        for (let i = 0; !stopped; i++) {
            const t = targets();
            if (!(await writer.addEntry(t[i % t.length], chainId)))
                await sleep(100);
        }
    })();
    try {
        return await during();
    }
    finally {
        stopped = true;
        await loop;
    }
}
describe("federation on a devnet (3 nats, 3 federated, 1 audit, 1 follower)", { timeout: 600_000 }, () => {
    let net;
    const writer = new ClusterWriter("federation");
    let chainId;
    const running = () => net.devnet.nodes.filter((n) => n.isRunning);
    const node = (name) => net.devnet.node(name);
    /** Lowest saved height over the running nodes. */
    async function savedHeight() {
        const hs = await Promise.all(running().map(heightsOf));
        return Math.min(...hs.map((h) => h?.directoryblockheight ?? -1));
    }
    /** Every acknowledged commit and reveal is in a saved block of `n`, and every running node holds the same blocks. */
    async function assertNothingAcknowledgedLost() {
        const h = await savedHeight();
        await waitSavedHeight(running(), h + 2); // writes acknowledged before now are in blocks ≤ h+2
        const to = await savedHeight();
        await assertIdenticalBlocks(running(), 1, to);
        const saved = await savedHashes(running()[0], to);
        const lostCommits = [...writer.acknowledged("commit")].filter((x) => !saved.commits.has(x));
        const lostReveals = [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x));
        assert.deepEqual(lostCommits, [], `acknowledged commits missing from blocks 1..${to} (${writer.summary()})`);
        assert.deepEqual(lostReveals, [], `acknowledged reveals missing from blocks 1..${to} (${writer.summary()})`);
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
    });
    after(() => net?.cleanup());
    test("every node holds byte-identical blocks, each admin block majority-signed over the previous header", async () => {
        const start = await savedHeight();
        await waitSavedHeight(net.devnet.nodes, start + 3);
        const to = await savedHeight();
        const compared = await assertIdenticalBlocks(net.devnet.nodes, 1, to);
        assert.ok(compared >= to * 4, `compared ${compared} objects over ${to} heights`);
        const sets = await federatedSetsFromChain(node("fed0"), to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
        const keys = serverKeys(net.devnet);
        const allFeds = new Set(net.devnet.nodesWithRole("federated").map((n) => n.identity));
        assert.deepEqual(sets.get(to), allFeds, `the chain's federated set at ${to} is the devnet's 3 servers`);
        const signedOnce = new Set();
        for (let h = 2; h <= to; h++)
            for (const id of await assertSignatureMajority(node("follower0"), h, sets.get(h), keys))
                if (sets.get(h).size === 3)
                    signedOnce.add(id);
        // every federated server signs (a late signature may miss one block's minute 0: not every block has 3)
        assert.deepEqual([...signedOnce].sort(), [...allFeds].sort(), "every federated server signed blocks");
    });
    test("writes sent to a follower and to different federated servers all land, a message sent twice lands once", async () => {
        assert.equal(await writer.buyCredits(node("fed1"), 5000), true, writer.records.at(-1)?.error);
        const created = await writer.createChain(node("follower0"), "main");
        assert.ok(created !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);
        chainId = created;
        for (const name of ["fed0", "fed1", "fed2", "follower0", "audit0", "fed2", "follower0"])
            assert.equal(await writer.addEntry(node(name), chainId), true, `${name}: ${writer.records.at(-1)?.error}`);
        // the same commit and reveal sent to two nodes at once: each may answer success, the ledger holds it once
        const m = writer.entryMessages(chainId, "sent to two nodes");
        await Promise.all([writer.sendEntry(node("fed0"), m), writer.sendEntry(node("fed2"), m)]);
        const hash = m.hash;
        assert.ok(writer.acknowledged("reveal").has(hash), `at least one node acknowledged it: ${writer.summary()}`);
        await assertNothingAcknowledgedLost();
        const to = await savedHeight();
        const saved = await savedHashes(node("fed1"), to);
        assert.ok(saved.entries.has(hash), "the entry sent to two nodes is in a block");
        // once: the EC blocks of all heights hold its commit exactly once
        let commitCount = 0;
        for (let h = 1; h <= to; h++) {
            const d = await node("fed1").client.call("dblock-by-height", { height: h });
            for (const ref of d.dblock.dbentries.filter((r) => r.chainid.endsWith("000c"))) {
                const ec = await node("fed1").client.call("entrycredit-block", { keymr: ref.keymr });
                commitCount += ec.ecblock.body.entries.filter((e) => e.entryhash === hash).length;
            }
        }
        assert.equal(commitCount, 1, "the commit sent to two nodes is in the EC blocks once");
    });
    test("kill -9 of a federated server during writes: blocks go on, nothing acknowledged is lost, the audit server is promoted", async () => {
        const fed2 = node("fed2");
        const audit0 = node("audit0");
        const atKill = await whileWriting(writer, chainId, () => [node("fed0"), node("fed1"), fed2, node("follower0")], async () => {
            await sleep(2 * BLOCK_SECONDS * 1000);
            const atKill = await savedHeight();
            await net.devnet.kill9("fed2");
            // blocks keep coming without it
            await waitSavedHeight(running(), atKill + 3);
            // after faulttimeout the audit server replaces it, in every node's view
            await waitFor(async () => {
                const views = await Promise.all(running().map((n) => n.client.call("federated-servers", undefined, "debug")));
                const ok = views.every((v) => {
                    const ids = (v.FederatedServers ?? []).map((s) => s.ChainID);
                    return ids.includes(audit0.identity) && !ids.includes(fed2.identity);
                });
                return ok ? true : undefined;
            }, (FAULT_TIMEOUT_SECONDS + 4 * ROUND_TIMEOUT_SECONDS) * 1000 + 30_000, async () => `federated-servers on fed0: ${JSON.stringify(await node("fed0").client.call("federated-servers", undefined, "debug"))}`);
            return atKill;
        });
        const failed = writer.records.filter((r) => r.node === "fed2" && !r.acknowledged).length;
        assert.ok(failed > 0, "some writes to the killed server were not acknowledged (the test did hit the crash)");
        await assertNothingAcknowledgedLost();
        // the chain says so: 05 for the audit server, 06 for the faulted one
        const to = await savedHeight();
        const sets = await federatedSetsFromChain(node("fed0"), to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
        assert.ok(sets.get(to).has(audit0.identity) && !sets.get(to).has(fed2.identity), "05/06 in the admin blocks");
        const keys = serverKeys(net.devnet);
        for (let h = atKill; h <= to; h++)
            await assertSignatureMajority(node("fed0"), h, sets.get(h), keys);
        // the killed server restarts, catches up and matches byte for byte
        await net.devnet.restart("fed2");
        await waitSavedHeight([fed2], to);
        await assertIdenticalBlocks(running(), 1, to);
    });
    test("kill -9 of the stream-leader nats-server during writes: nothing acknowledged is lost", async () => {
        const leader = await net.devnet.nats.waitStreamLeader(LOCAL_STREAM);
        const ackedAtNewLeader = await whileWriting(writer, chainId, () => [node("fed0"), node("fed1"), node("follower0")], async () => {
            await sleep(2 * BLOCK_SECONDS * 1000);
            const atKill = await savedHeight();
            await net.devnet.kill9(leader);
            await net.devnet.nats.waitStreamLeader(LOCAL_STREAM, { not: leader });
            const acked = writer.acknowledged("reveal").size;
            await waitSavedHeight(running(), atKill + 3, 90_000);
            return acked;
        });
        assert.ok(writer.acknowledged("reveal").size > ackedAtNewLeader, "writes were acknowledged after the new leader took over");
        await net.devnet.restart(leader);
        await assertNothingAcknowledgedLost();
    });
    test("a follower started with an empty directory catches up and matches", async () => {
        const fresh = await net.devnet.addNode("follower");
        const h = await savedHeight();
        await waitSavedHeight([fresh], h, 90_000);
        await assertIdenticalBlocks([node("fed0"), fresh], 1, h);
        assert.equal(await writer.addEntry(fresh, chainId), true, `write via the new follower: ${writer.records.at(-1)?.error}`);
        await assertNothingAcknowledgedLost();
    });
    test("with a 2,000 ms delay on one federated server the network still closes blocks and converges", async () => {
        const slow = node("fed1");
        await slow.client.call("set-delay", { Delay: 2000 }, "debug");
        try {
            await whileWriting(writer, chainId, () => [node("fed0"), slow, node("follower0")], async () => {
                const h = await savedHeight();
                await waitSavedHeight(running(), h + 4, 120_000);
            });
        }
        finally {
            await slow.client.call("set-delay", { Delay: 0 }, "debug");
        }
        await assertNothingAcknowledgedLost();
    });
});
//# sourceMappingURL=federation.test.js.map