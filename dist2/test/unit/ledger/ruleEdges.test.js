/**
 * Edges of the ledger rules that the first mutation run of src/ledger/rules.ts left open (docs/testing.md):
 * the credit range of each commit kind as the ledger checks it (a commit parsed without the decoder's
 * range check, as saved blocks and the journal hold them), and a held reveal that has expired but is not
 * yet swept (the sweep runs at the end of a minute): a commit or a resubmission meets it in between.
 * Real LMDB, real keys, real signatures.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { signEd25519 } from "../../../src/crypto/ed25519.js";
import { AckStatus } from "../../../src/ledger/api.js";
import { CHAIN_COMMIT_SIGNED_SIZE, ENTRY_COMMIT_SIGNED_SIZE, encodeCommit, parseChainCommit, parseEntryCommit, } from "../../../src/protocol/commit.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { buyEC, chainCommit, cleanup, closeNode, ecKey, entryCommit, entryRaw, firstEntry, openNode, tempDir, } from "./harness.js";
import { rejectedWithoutChange } from "./support.js";
/** One hour, ms: how long a reveal waits for its commit (ledger/constants.ts HOLD_EXPIRY_MS), written out. */
const HOLD_MS = 60 * 60 * 1000;
/** `c` with `credits`, signed again by ecKey and parsed without the decoder's credit range. */
function withCredits(c, credits) {
    const unsigned = encodeCommit({ ...c, credits });
    const signedSize = c.kind === "chain" ? CHAIN_COMMIT_SIGNED_SIZE : ENTRY_COMMIT_SIGNED_SIZE;
    const signature = signEd25519(ecKey.seed, unsigned.subarray(0, signedSize));
    const raw = encodeCommit({ ...c, credits, signature });
    return c.kind === "chain" ? parseChainCommit(raw) : parseEntryCommit(raw);
}
let seq = 0;
function newChain() {
    return firstEntry(["rule edges", String(seq++)], "first entry");
}
async function fresh(ec = 200n) {
    const n = openNode(tempDir());
    if (ec > 0n)
        await buyEC(n, ecKey, ec);
    return n;
}
async function done(n) {
    await closeNode(n);
    cleanup(n.dir);
}
describe("commit credits, as the ledger checks them", () => {
    test("a chain commit pays 11..20 credits: 10 and 21 are INVALID naming the range, 20 is accepted", async () => {
        const n = await fresh();
        try {
            const base = chainCommit(newChain().raw, n.clock.ms);
            for (const credits of [10, 21]) {
                const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(withCredits(base, credits)), "INVALID");
                assert.equal(t.info, `chain commit credits must be 11..20, got ${credits}`);
            }
            await n.ledger.submitCommit(withCredits(base, 20));
            assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 20n);
        }
        finally {
            await done(n);
        }
    });
    test("an entry commit pays 1..10 credits: 0 and 11 are INVALID naming the range, 10 is accepted", async () => {
        const n = await fresh();
        try {
            const chain = newChain();
            const base = entryCommit(entryRaw(chain.chainId, ["e"], "x"), n.clock.ms);
            for (const credits of [0, 11]) {
                const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(withCredits(base, credits)), "INVALID");
                assert.equal(t.info, `entry commit credits must be 1..10, got ${credits}`);
            }
            await n.ledger.submitCommit(withCredits(base, 10));
            assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 10n);
        }
        finally {
            await done(n);
        }
    });
});
describe("a held reveal past its hour, before the sweep", () => {
    test("at exactly 1 h a commit still releases it; 1 ms later the commit is accepted and releases nothing", async () => {
        const n = await fresh();
        try {
            const t0 = n.clock.ms;
            const onTime = newChain();
            const late = newChain();
            await n.ledger.submitReveal(onTime.raw);
            await n.ledger.submitReveal(late.raw);
            n.clock.ms = t0 + HOLD_MS;
            await n.ledger.submitCommit(chainCommit(onTime.raw, n.clock.ms));
            assert.equal(n.ledger.entryAck(entryHash(onTime.raw)).entry.status, AckStatus.TransactionACK);
            n.clock.ms = t0 + HOLD_MS + 1;
            await n.ledger.submitCommit(chainCommit(late.raw, n.clock.ms));
            assert.notEqual(n.ledger.entryAck(entryHash(late.raw)).entry.status, AckStatus.TransactionACK);
            assert.deepEqual(n.ledger.processList().entries, [
                {
                    entryhash: Buffer.from(entryHash(onTime.raw)).toString("hex"),
                    chainid: Buffer.from(onTime.chainId).toString("hex"),
                },
            ]);
            // the commit paid: the late entry revealed again now is accepted at once
            await n.ledger.submitReveal(late.raw);
            assert.equal(n.ledger.entryAck(entryHash(late.raw)).entry.status, AckStatus.TransactionACK);
        }
        finally {
            await done(n);
        }
    });
    test("a held commit's pairing is checked only while the reveal is live: an expired mismatching reveal does not block", async () => {
        const n = await fresh();
        try {
            const t0 = n.clock.ms;
            const c = newChain();
            await n.ledger.submitReveal(c.raw);
            n.clock.ms = t0 + HOLD_MS + 1;
            // an entry commit for a chain's first entry: refused CHAIN_NOT_FOUND while the reveal is live, but it
            // has expired, so the commit alone is judged (and pays)
            await n.ledger.submitCommit(entryCommit(c.raw, n.clock.ms));
            assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 200n - 1n);
        }
        finally {
            await done(n);
        }
    });
    test("resubmitted after its hour it is held again from the new arrival (a new journal record)", async () => {
        const n = await fresh(0n);
        try {
            const t0 = n.clock.ms;
            const c = newChain();
            await n.ledger.submitReveal(c.raw);
            const height = n.ledger.openBlock().height;
            const records = n.store.journalRecords(height).length;
            n.clock.ms = t0 + HOLD_MS;
            await n.ledger.submitReveal(c.raw); // still live: same answer, nothing journaled
            assert.equal(n.store.journalRecords(height).length, records);
            n.clock.ms = t0 + HOLD_MS + 1;
            await n.ledger.submitReveal(c.raw);
            assert.equal(n.store.journalRecords(height).length, records + 1);
            const held = n.ledger.holdingQueue();
            assert.equal(held.length, 1);
            assert.equal(held[0].receivedMs, t0 + HOLD_MS + 1);
            assert.equal(n.ledger.stats().revealsHeld, 2);
        }
        finally {
            await done(n);
        }
    });
});
//# sourceMappingURL=ruleEdges.test.js.map