/**
 * A node of a federation (docs/cluster.md): it applies the replicated log (jetStreamLog.ts) to its ledger
 * in log order, and — as a federated server — proposes what the log needs to move on: the first block's
 * start, its directory-block signature for each height, and end-of-minute markers. Client writes sent to
 * this node are appended as `writes` records and answered once this node has applied them.
 *
 * JetStream orders; this file decides, with rules every node applies identically to the same records
 * (FEDERATION.md §4): a record that does not fit the open block (a stale end of minute, a signature of a
 * server that is not federated at that height, a second signature of one server) is skipped by every
 * node, so nothing depends on JetStream's dedup or on who proposed first.
 *
 * Per open height h (state reset at each close):
 * * dbSig records of the federated servers of h, verified over this node's own directory block h−1;
 * * end of minute 0 waits, pending, until ⌊F/2⌋+1 signatures are in (then the first valid EOM(h,0) ends it);
 * * addServer records (skeleton-signed) become admin entries 05/06 (+08 for a new key), active at h+1;
 * * the end of minute 9 closes the block with admin entries [05/06…, 01 signatures in factomd's minute-0
 *   VM order, 08…] and records the closing record's sequence with the saved block, where a restart resumes.
 */
import { randomBytes } from "node:crypto";
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { LedgerError } from "../ledger/errors.js";
import { decodeMessage, encodeMessage } from "../ledger/messages.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { commitTxId } from "../protocol/commit.js";
import { entryHash } from "../protocol/entry.js";
import { ProtocolError } from "../protocol/errors.js";
import { transactionId } from "../protocol/transaction.js";
import { AuthoritySet } from "./authorities.js";
import { majority, orderedSignatureEntries, signDirectoryBlock, verifyDirectoryBlockSignature, } from "./dbSig.js";
import { faultRound, newElectionState, roundCandidate, tallyFaultVote } from "./election.js";
import { MAX_RECORD_BYTES } from "./jetStreamLog.js";
import { decodeRecord, encodeRecord, recordSubject, signRecord, verifyRecord } from "./records.js";
/** Between two looks at whether a proposal is due, ms (a minute of a 6-s block is 600 ms). */
const PROPOSE_TICK_MS = 50;
/** A proposal not applied after this long is sent again (same id: a stored one is not stored twice), ms. */
const REPROPOSE_MS = 2_000;
/** Results of applied writes records kept for their proposer to collect (a proposer collects at once). */
const RESULTS_KEPT = 4096;
/** How often the network's leader height is read from the stream's newest end of minute, ms. */
const LEADER_HEIGHT_EVERY_MS = 2_000;
/** Pause before following again after the delivery stopped (disk full, a bug in apply), ms. */
const FOLLOW_RETRY_MS = 1_000;
export class Federation {
    options;
    deps;
    now;
    minuteMs;
    publicKey;
    authorities;
    hs;
    appliedSeq = 0;
    /** sequence the node must reach before it counts as synced and starts proposing */
    catchUpTarget = Number.POSITIVE_INFINITY;
    synced = false;
    forked = false;
    stopped = false;
    following;
    timer;
    proposedAt = new Map();
    // writes of this node waiting for their record
    batch = [];
    batchScheduled = false;
    bootNonce = randomBytes(6).toString("hex");
    writeCount = 0;
    results = new Map();
    /** hashes (hex) of writes accepted here and not yet applied from the log → how many such writes */
    pending = new Map();
    /**
     * The voter's observations (its own clock, never part of apply's decisions): when each federated server's
     * signature was last applied here, and the last height each audit server's heartbeat was seen at.
     */
    lastSigned = new Map();
    heartbeats = new Map();
    /** the height the network works on, from the stream's newest end-of-minute record (0: not known yet) */
    networkHeight = 0;
    leaderTimer;
    waiting = new Map();
    constructor(options, deps) {
        this.options = options;
        this.deps = deps;
        this.now = deps.now ?? Date.now;
        this.minuteMs = (options.blockTimeSeconds * 1000) / 10;
        if (options.role !== "follower") {
            if (options.identity?.length !== 32 || options.seed?.length !== 32)
                throw new RangeError(`a ${options.role} server needs a 32-byte identity and signing seed`);
            this.publicKey = publicKeyFromSeed(options.seed);
        }
        this.authorities = new AuthoritySet(options.bootstrap);
        this.faultTimeoutMs = (options.faultTimeoutSeconds ?? 120) * 1000;
        this.roundTimeoutMs = (options.roundTimeoutSeconds ?? 30) * 1000;
    }
    faultTimeoutMs;
    roundTimeoutMs;
    /** Load the authority set from the saved admin blocks, then follow the log from the saved block's record on. */
    async start() {
        const open = this.deps.ledger.openBlock();
        for (let h = 0; h < open.height; h++)
            this.authorities.applyAdminBlock(h, this.deps.ledger.adminEntries(h));
        this.resetHeight(open.height);
        this.appliedSeq = this.deps.ledger.savedLogSequence();
        this.catchUpTarget = await this.lastSequenceWithRetry();
        if (this.appliedSeq >= this.catchUpTarget)
            this.markSynced();
        this.follow();
        this.timer = setInterval(() => this.propose(), PROPOSE_TICK_MS);
        if (this.deps.log.lastOfKind !== undefined) {
            void this.readNetworkHeight();
            this.leaderTimer = setInterval(() => void this.readNetworkHeight(), LEADER_HEIGHT_EVERY_MS);
            this.leaderTimer.unref();
        }
    }
    /** The stream's last sequence; retried while the stream has no leader (a nats-server is restarting). */
    async lastSequenceWithRetry() {
        const deadline = this.now() + 60_000;
        for (;;) {
            try {
                return await this.deps.log.lastSequence();
            }
            catch (e) {
                if (this.now() > deadline)
                    throw e;
                await new Promise((r) => setTimeout(r, 250));
            }
        }
    }
    async stop() {
        this.stopped = true;
        if (this.timer !== undefined)
            clearInterval(this.timer);
        if (this.leaderTimer !== undefined)
            clearInterval(this.leaderTimer);
        await this.following?.stop();
        for (const b of this.batch)
            b.reject(new LedgerError({ code: "INVALID", info: "the node is stopping" }));
        this.batch = [];
    }
    follow() {
        if (this.stopped)
            return;
        const f = this.deps.log.follow(this.appliedSeq + 1, (r) => this.onRecord(r));
        this.following = f;
        f.done.then(() => { }, (e) => {
            if (this.stopped)
                return;
            this.deps.logger.error("applying the log stopped; retrying", {
                seq: this.appliedSeq + 1,
                error: e instanceof Error ? e.message : String(e),
            });
            setTimeout(() => this.follow(), FOLLOW_RETRY_MS).unref();
        });
    }
    markSynced() {
        if (this.synced)
            return;
        this.synced = true;
        this.deps.logger.info("caught up with the log", { seq: this.appliedSeq, height: this.hs.height });
    }
    // ───────────────────────────── writes ─────────────────────────────
    /**
     * Append a client message (already checked here: decode, signature, pre-checks) and resolve once this
     * node has applied it: rejects with the rule's LedgerError when the log order made it invalid.
     */
    submit(msg) {
        if (this.forked)
            return Promise.reject(new LedgerError({
                code: "INVALID",
                info: "this node's blocks differ from the signed majority: writes refused",
            }));
        const keys = pendingKeys(msg);
        for (const k of keys)
            this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
        const settle = () => {
            for (const k of keys) {
                const n = (this.pending.get(k) ?? 1) - 1;
                if (n <= 0)
                    this.pending.delete(k);
                else
                    this.pending.set(k, n);
            }
        };
        return new Promise((resolve, reject) => {
            this.batch.push({
                bytes: encodeMessage(msg),
                resolve: () => {
                    settle();
                    resolve();
                },
                reject: (e) => {
                    settle();
                    reject(e);
                },
            });
            if (!this.batchScheduled) {
                this.batchScheduled = true;
                setImmediate(() => this.flushBatch());
            }
        });
    }
    /** True while a write with this hash was accepted here and is not yet applied from the log (ack: NotConfirmed). */
    isPending(hash) {
        return this.pending.has(toHex(hash));
    }
    flushBatch() {
        this.batchScheduled = false;
        while (this.batch.length > 0) {
            const part = [];
            let bytes = 1;
            while (this.batch.length > 0 &&
                bytes + 4 + this.batch[0].bytes.length <= MAX_RECORD_BYTES &&
                part.length < 4096) {
                const w = this.batch.shift();
                bytes += 4 + w.bytes.length;
                part.push(w);
            }
            if (part.length === 0) {
                const w = this.batch.shift();
                w.reject(new LedgerError({ code: "INVALID", info: "message larger than a log record" }));
                continue;
            }
            void this.appendWrites(part);
        }
    }
    async appendWrites(part) {
        const data = encodeRecord({ kind: "writes", messages: part.map((p) => p.bytes) });
        const id = `w/${this.options.nodeName}/${this.bootNonce}/${this.writeCount++}`;
        let results;
        try {
            const { seq } = await this.deps.log.append(recordSubject("writes"), data, id);
            results = await this.resultsOf(seq);
        }
        catch (e) {
            const err = e instanceof LedgerError
                ? e
                : new LedgerError({
                    code: "INVALID",
                    info: `not confirmed: the replicated log did not take the message (${e instanceof Error ? e.message : String(e)})`,
                });
            for (const p of part)
                p.reject(err);
            return;
        }
        part.forEach((p, i) => {
            const r = results[i];
            if (r === undefined)
                p.resolve();
            else
                p.reject(r);
        });
    }
    resultsOf(seq) {
        const ready = this.results.get(seq);
        if (ready !== undefined) {
            this.results.delete(seq);
            return Promise.resolve(ready);
        }
        return new Promise((resolve) => this.waiting.set(seq, resolve));
    }
    /**
     * Append a skeleton-signed addServer record (send-raw-message type 0x16) and resolve once this node has
     * applied it: the server is an authority from the block after the one it went into. Throws LedgerError INVALID
     * when the skeleton signature does not verify.
     */
    async submitAddServer(rec) {
        if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
            throw new LedgerError({ code: "INVALID", info: "add server: the signature is not the network's skeleton key's" });
        const { seq } = await this.deps.log.append(recordSubject("addServer"), encodeRecord(rec));
        await new Promise((resolve) => {
            const check = () => {
                if (this.appliedSeq >= seq || this.stopped)
                    resolve();
                else
                    setTimeout(check, 20);
            };
            check();
        });
    }
    // ───────────────────────────── apply ─────────────────────────────
    async onRecord(r) {
        if (r.seq <= this.appliedSeq)
            return;
        // network testing: a record is applied `delay` ms after the stream stored it (not cumulative)
        const delayMs = this.deps.networkTesting?.().delayMs ?? 0;
        const wait = delayMs > 0 ? r.storedMs + delayMs - this.now() : 0;
        if (wait > 0)
            await new Promise((resolve) => setTimeout(resolve, wait));
        let rec;
        try {
            rec = decodeRecord(r.data);
        }
        catch (e) {
            this.deps.logger.warn("log record skipped: not a record", { seq: r.seq, error: String(e) });
        }
        let closed = false;
        if (rec !== undefined)
            closed = this.applyRecord(rec, r.seq);
        this.appliedSeq = r.seq;
        if (closed)
            await this.deps.ledger.closeSaved();
        if (!this.synced && this.appliedSeq >= this.catchUpTarget)
            this.markSynced();
    }
    /** Apply one record; true when it closed a block. Deterministic: reads only the record and the state. */
    applyRecord(rec, seq) {
        const hs = this.hs;
        switch (rec.kind) {
            case "writes": {
                const out = rec.messages.map((bytes) => this.applyWrite(bytes));
                const waiter = this.waiting.get(seq);
                if (waiter !== undefined) {
                    this.waiting.delete(seq);
                    waiter(out);
                }
                else {
                    this.results.set(seq, out);
                    if (this.results.size > RESULTS_KEPT)
                        this.results.delete(this.results.keys().next().value);
                }
                return false;
            }
            case "blockStart": {
                if (rec.height !== hs.height || hs.startFixed || this.deps.ledger.openBlock().minute !== 0)
                    return false;
                if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key)))
                    return false;
                this.deps.ledger.applyFromLog({ kind: "blockStart", timeMs: rec.timeMs });
                hs.startFixed = true;
                return false;
            }
            case "dbSig":
                return this.applyDbSig(rec, seq);
            case "endOfMinute": {
                const open = this.deps.ledger.openBlock();
                if (rec.height !== hs.height || rec.minute !== open.minute || !hs.startFixed)
                    return false;
                if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key)))
                    return false;
                const timeMs = Math.max(rec.timeMs, open.minuteStartMs);
                if (rec.minute === 0 && hs.sigs.size < majority(hs.authorities.federated.length)) {
                    hs.pendingMinuteZero ??= { timeMs };
                    return false;
                }
                return this.endMinute(rec.minute, timeMs, seq);
            }
            case "addServer": {
                if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
                    return false;
                const id = toHex(rec.identity);
                if (hs.added.has(id) || hs.election.changed.has(id))
                    return false;
                const list = rec.role === "federated" ? hs.authorities.federated : hs.authorities.audit;
                if (list.some((a) => bytesEqual(a.identity, rec.identity)))
                    return false;
                hs.added.add(id);
                hs.election = { ...hs.election, changed: new Set([...hs.election.changed, id]) };
                hs.adminFirst.push({
                    type: rec.role === "federated" ? 0x05 : 0x06,
                    identityChainId: rec.identity,
                    dbHeight: hs.height + 1,
                });
                const known = this.authorities.keyOf(rec.identity);
                if (known === undefined || !bytesEqual(known, rec.publicKey))
                    hs.adminLast.push({
                        type: 0x08,
                        identityChainId: rec.identity,
                        keyPriority: 0,
                        publicKey: rec.publicKey,
                        dbHeight: hs.height + 1,
                    });
                return false;
            }
            case "heartbeat": {
                const a = hs.authorities.audit.find((x) => bytesEqual(x.identity, rec.identity));
                if (rec.height !== hs.height || a?.publicKey === undefined)
                    return false;
                if (!verifyRecord(rec, this.options.networkId, a.publicKey))
                    return false;
                this.heartbeats.set(toHex(rec.identity), hs.height);
                return false;
            }
            case "faultVote": {
                if (rec.height !== hs.height)
                    return false;
                if (!this.isFederatedSigner(rec.voter, (key) => verifyRecord(rec, this.options.networkId, key)))
                    return false;
                const t = tallyFaultVote(hs.election, rec, hs.authorities.federated.map((a) => a.identity), hs.authorities.audit.map((a) => a.identity));
                hs.election = t.state;
                if (t.decision !== undefined) {
                    hs.adminFirst.push({ type: 0x05, identityChainId: t.decision.candidate, dbHeight: hs.height + 1 }, { type: 0x06, identityChainId: t.decision.faulted, dbHeight: hs.height + 1 });
                    this.deps.logger.warn("a federated server was voted out; an audit server takes its place next block", {
                        height: hs.height,
                        faulted: toHex(t.decision.faulted),
                        promoted: toHex(t.decision.candidate),
                    });
                }
                return false;
            }
        }
    }
    applyWrite(bytes) {
        let msg;
        try {
            msg = decodeMessage(bytes);
        }
        catch (e) {
            return new LedgerError({ code: "INVALID", info: `not a message: ${e instanceof Error ? e.message : String(e)}` });
        }
        if (msg.kind !== "commit" && msg.kind !== "reveal" && msg.kind !== "transaction")
            return new LedgerError({ code: "INVALID", info: `a ${msg.kind} is not a client write` });
        // Times never go back within the block (the block's start comes from the log from then on).
        if (this.hs.startFixed)
            msg = { ...msg, timeMs: Math.max(msg.timeMs, this.deps.ledger.openBlock().minuteStartMs) };
        try {
            this.deps.ledger.applyFromLog(msg);
            return undefined;
        }
        catch (e) {
            if (e instanceof LedgerError)
                return e;
            // a format problem of the message: the same bytes fail the same way on every node
            if (e instanceof ProtocolError)
                return new LedgerError({ code: "INVALID", info: e.message });
            // anything else (this node's disk refuses writes, a bug) stops applying here: skipping a record the
            // other nodes apply would fork this node
            throw e;
        }
    }
    applyDbSig(rec, seq) {
        const hs = this.hs;
        if (rec.height !== hs.height)
            return false;
        const id = toHex(rec.identity);
        if (hs.sigs.has(id) || hs.differing.has(id))
            return false;
        const fed = hs.authorities.federated.find((a) => bytesEqual(a.identity, rec.identity));
        if (fed?.publicKey === undefined || !bytesEqual(fed.publicKey, rec.publicKey))
            return false;
        if (!verifyDirectoryBlockSignature(rec.publicKey, this.deps.ledger.lastDirectoryBlock(), rec.signature)) {
            hs.differing.add(id);
            if (hs.differing.size >= majority(hs.authorities.federated.length) && !this.forked) {
                this.forked = true;
                this.deps.logger.error("a majority of federated servers signed a different block: this node has forked and stops writing", {
                    height: hs.height - 1,
                });
            }
            return false;
        }
        hs.sigs.set(id, { identity: rec.identity, publicKey: rec.publicKey, signature: rec.signature });
        this.lastSigned.set(id, this.now());
        const pending = hs.pendingMinuteZero;
        if (pending !== undefined && hs.sigs.size >= majority(hs.authorities.federated.length)) {
            hs.pendingMinuteZero = undefined;
            return this.endMinute(0, Math.max(pending.timeMs, this.deps.ledger.openBlock().minuteStartMs), seq);
        }
        return false;
    }
    /** End minute `minute` of the open block; minute 9 closes it. True when it closed. */
    endMinute(minute, timeMs, seq) {
        const hs = this.hs;
        if (minute < 9) {
            this.deps.ledger.applyFromLog({ kind: "endOfMinute", timeMs, minute });
            return false;
        }
        const adminEntries = [
            ...hs.adminFirst,
            ...orderedSignatureEntries([...hs.sigs.values()], hs.authorities.federated.map((a) => a.identity), hs.height),
            ...hs.adminLast,
        ];
        this.deps.ledger.applyFromLog({ kind: "endOfMinute", timeMs, minute }, { adminEntries, logSequence: seq });
        this.authorities.applyAdminBlock(hs.height, adminEntries);
        this.resetHeight(hs.height + 1);
        return true;
    }
    resetHeight(height) {
        const authorities = this.authorities.at(height);
        // the voter's clock starts for a server when it becomes federated (a new one has not signed anything yet)
        for (const f of authorities.federated)
            if (!this.lastSigned.has(toHex(f.identity)))
                this.lastSigned.set(toHex(f.identity), this.now());
        this.hs = {
            height,
            authorities,
            startFixed: height > 1,
            sigs: new Map(),
            differing: new Set(),
            pendingMinuteZero: undefined,
            adminFirst: [],
            adminLast: [],
            added: new Set(),
            election: newElectionState(),
        };
    }
    isFederatedSigner(identity, verify) {
        const fed = this.hs.authorities.federated.find((a) => bytesEqual(a.identity, identity));
        return fed?.publicKey !== undefined && verify(fed.publicKey);
    }
    // ───────────────────────────── proposals ─────────────────────────────
    /** As a federated server of the open height: propose what is due. Best effort; apply decides. */
    propose() {
        if (!this.synced || this.forked || this.stopped || this.options.role === "follower")
            return;
        const me = this.options.identity;
        const hs = this.hs;
        const now = this.now();
        const seed = this.options.seed;
        const net = this.options.networkId;
        const open = this.deps.ledger.openBlock();
        const auditMe = hs.authorities.audit.find((a) => bytesEqual(a.identity, me));
        if (auditMe?.publicKey !== undefined && bytesEqual(auditMe.publicKey, this.publicKey)) {
            // an audit server says it is alive once a minute
            this.send(`hb/${hs.height}/${open.minute}/${toHex(me)}`, now, () => signRecord({ kind: "heartbeat", height: hs.height, minute: open.minute, identity: me, signature: new Uint8Array(64) }, net, seed));
            return;
        }
        const mine = hs.authorities.federated.find((a) => bytesEqual(a.identity, me));
        if (mine === undefined || mine.publicKey === undefined || !bytesEqual(mine.publicKey, this.publicKey))
            return;
        this.proposeFaultVotes(now);
        if (!hs.startFixed)
            this.send(`start/${hs.height}`, now, () => signRecord({ kind: "blockStart", height: hs.height, timeMs: now, proposer: me, signature: new Uint8Array(64) }, net, seed));
        if (!hs.sigs.has(toHex(me)))
            this.send(`dbsig/${hs.height}/${toHex(me)}`, now, () => ({
                kind: "dbSig",
                height: hs.height,
                identity: me,
                publicKey: this.publicKey,
                signature: signDirectoryBlock(seed, this.deps.ledger.lastDirectoryBlock()),
            }));
        if (hs.startFixed && now >= open.minuteStartMs + this.minuteMs)
            this.send(`eom/${hs.height}/${open.minute}`, now, () => signRecord({
                kind: "endOfMinute",
                height: hs.height,
                minute: open.minute,
                timeMs: now,
                proposer: me,
                signature: new Uint8Array(64),
            }, net, seed));
    }
    /** Vote out each federated server silent (no signature applied here) for longer than the fault timeout. */
    proposeFaultVotes(now) {
        const hs = this.hs;
        const me = this.options.identity;
        for (const f of hs.authorities.federated) {
            const id = toHex(f.identity);
            if (bytesEqual(f.identity, me) || hs.sigs.has(id) || hs.election.decided.has(id))
                continue;
            const round = faultRound(now - (this.lastSigned.get(id) ?? now), this.faultTimeoutMs, this.roundTimeoutMs);
            if (round === undefined)
                continue;
            const candidate = this.candidateFor(round);
            if (candidate === undefined)
                continue;
            this.send(`fault/${hs.height}/${round}/${id}/${toHex(me)}`, now, () => signRecord({
                kind: "faultVote",
                height: hs.height,
                round,
                faulted: f.identity,
                candidate,
                voter: me,
                signature: new Uint8Array(64),
            }, this.options.networkId, this.options.seed));
        }
    }
    candidateFor(round) {
        const hs = this.hs;
        return roundCandidate(hs.authorities.audit.map((a) => a.identity), (id) => (this.heartbeats.get(toHex(id)) ?? -10) >= hs.height - 1, hs.height, round);
    }
    /**
     * The voter's view of each federated server of the open height: online unless silent past the fault
     * timeout, and the audit server this node would vote to replace it with.
     */
    faultView() {
        const now = this.now();
        const out = new Map();
        for (const f of this.hs.authorities.federated) {
            const id = toHex(f.identity);
            const silent = this.hs.sigs.has(id) ? 0 : now - (this.lastSigned.get(id) ?? now);
            const round = faultRound(silent, this.faultTimeoutMs, this.roundTimeoutMs);
            const candidate = round === undefined ? undefined : this.candidateFor(round);
            out.set(id, { online: round === undefined, replace: candidate === undefined ? undefined : toHex(candidate) });
        }
        return out;
    }
    /** Append a proposal under `id` unless it was sent less than REPROPOSE_MS ago. */
    send(id, now, build) {
        const last = this.proposedAt.get(id);
        if (last !== undefined && now - last < REPROPOSE_MS)
            return;
        this.proposedAt.set(id, now);
        if (this.proposedAt.size > 1024)
            this.proposedAt.delete(this.proposedAt.keys().next().value);
        const rec = build();
        const testing = this.deps.networkTesting?.();
        // factomd exempts election messages from its drop rate; so do we
        if (testing !== undefined && rec.kind !== "faultVote" && Math.random() * 1000 < testing.dropRatePerMille)
            return;
        const netId = this.options.networkId.toString(16);
        const publish = () => {
            this.deps.log.append(recordSubject(rec.kind), encodeRecord(rec), `${netId}/${id}`).catch((e) => {
                this.deps.logger.warn("a proposal was not appended", { id, error: e instanceof Error ? e.message : String(e) });
            });
        };
        if (testing !== undefined && testing.delayMs > 0)
            setTimeout(publish, Math.random() * testing.delayMs).unref();
        else
            publish();
    }
    // ───────────────────────────── views ─────────────────────────────
    /** Read the newest end of minute of the stream: the network is at its height (the next one after minute 10). */
    async readNetworkHeight() {
        try {
            const data = await this.deps.log.lastOfKind(recordSubject("endOfMinute"));
            if (data === undefined)
                return;
            const rec = decodeRecord(data);
            if (rec.kind === "endOfMinute")
                this.networkHeight = rec.minute === 9 ? rec.height + 1 : rec.height;
        }
        catch {
            // no server answers now: keep the last known height
        }
    }
    /**
     * The height the leaders work on (spec `leaderheight`): this node's open height, or the network's when the
     * stream shows it further on (a follower catching up).
     */
    leaderHeight() {
        return Math.max(this.hs.height, this.networkHeight);
    }
    status() {
        const hs = this.hs;
        return {
            role: this.options.role,
            stream: this.options.stream ?? "",
            identity: this.options.identity === undefined ? "" : toHex(this.options.identity),
            appliedSequence: this.appliedSeq,
            synced: this.synced,
            forked: this.forked,
            height: hs.height,
            federated: hs.authorities.federated.map((a) => toHex(a.identity)),
            audit: hs.authorities.audit.map((a) => toHex(a.identity)),
            signatures: [...hs.sigs.keys()],
            faultVotes: Object.fromEntries([...hs.election.votes].map(([k, v]) => [k, [...v]])),
        };
    }
    /** The authority set of the open height (federated-servers, audit-servers, authorities). */
    authorityView() {
        return this.hs.authorities;
    }
}
/** The hashes `ack` may be asked about for a client message: commit txid and entry hash, entry hash, txid. */
function pendingKeys(msg) {
    switch (msg.kind) {
        case "commit":
            return [toHex(commitTxId(msg.commit)), toHex(msg.commit.entryHash)];
        case "reveal":
            return [toHex(entryHash(msg.entryRaw))];
        case "transaction":
            return [toHex(transactionId(msg.tx))];
        default:
            return [];
    }
}
//# sourceMappingURL=federation.js.map