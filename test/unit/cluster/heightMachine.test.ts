/**
 * The federation's rules one record at a time (src/cluster/heightMachine.ts), synchronously, over a real
 * ledger (LMDB in a temp directory) and no log at all: who may sign each kind of record, the majority that
 * makes a boundary and its time, minute 0 waiting for the signatures, the close's admin entries, the fork
 * verdict, elections (grace height, live candidates) and the verdicts of client writes.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { AuthoritySet } from "../../../src/cluster/authorities.js";
import { badSignature } from "../../../src/cluster/clientSignatures.js";
import { signDirectoryBlock } from "../../../src/cluster/dbSig.js";
import { type CheckedWrite, type HeightEvents, HeightMachine } from "../../../src/cluster/heightMachine.js";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import type { LogMessage } from "../../../src/ledger/messages.js";
import type { AdminEntry } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { BOOT, BOOT_KEY, BOOT_SEED, NET, serverIdentity } from "../../support/memoryFederation.js";
import {
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  firstEntry,
  openNode,
  payment,
  type TestNode,
  tempDir,
} from "../ledger/harness.js";

const NO_SIG = new Uint8Array(64);
const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const X = serverIdentity(1);
const Y = serverIdentity(2);
const Z = serverIdentity(3);
const BOOT_SERVER = { identity: BOOT, seed: BOOT_SEED, publicKey: BOOT_KEY };
type Server = typeof BOOT_SERVER;

interface Events {
  signed: string[];
  forked: number[];
  votedOut: string[];
  bad: number[];
  opened: number[];
}

interface SetupOptions {
  /** admin entries folded in with the genesis admin block (servers federated from height 1) */
  extra?: AdminEntry[];
  /** "none": no events object at all; "empty": one without callbacks; default: every event recorded */
  events?: "none" | "empty";
  /** an existing node directory (reopened) and the store's free-space reserve, bytes */
  dir?: string;
  reserveBytes?: number;
}

function setup(o: SetupOptions = {}): { node: TestNode; machine: HeightMachine; events: Events; dir: string } {
  const dir = o.dir ?? tempDir("ledgerd-hm-");
  const node = openNode(dir, o.reserveBytes === undefined ? {} : { reserveBytes: o.reserveBytes });
  const authorities = new AuthoritySet({ identity: BOOT, publicKey: BOOT_KEY });
  authorities.applyAdminBlock(0, [...node.ledger.adminEntries(0), ...(o.extra ?? [])]);
  const events: Events = { signed: [], forked: [], votedOut: [], bad: [], opened: [] };
  const recorded: HeightEvents = {
    signed: (id) => events.signed.push(id),
    forked: (h) => events.forked.push(h),
    votedOut: (h, f, p) => events.votedOut.push(`${h}:${f.slice(0, 2)}→${p.slice(0, 2)}`),
    badSignature: (h) => events.bad.push(h),
    heightOpened: (hs) => events.opened.push(hs.height),
  };
  const machine = new HeightMachine(
    { networkId: NET, skeletonKey: BOOT_KEY },
    {
      ledger: node.ledger,
      authorities,
      ...(o.events === "none" ? {} : { events: o.events === "empty" ? {} : recorded }),
    },
  );
  return { node, machine, events, dir };
}

/** Admin entries that make `s` a federated server (with its key) from height 1. */
const federatedFromOne = (s: Server): AdminEntry[] => [
  { type: 0x05, identityChainId: s.identity, dbHeight: 1 },
  { type: 0x08, identityChainId: s.identity, keyPriority: 0, publicKey: s.publicKey, dbHeight: 1 },
];

const blockStart = (height: number, timeMs: number, s: Server = BOOT_SERVER): ClusterRecord =>
  signRecord({ kind: "blockStart", height, timeMs, proposer: s.identity, signature: NO_SIG }, NET, s.seed);
const eom = (height: number, minute: number, timeMs: number, s: Server = BOOT_SERVER): ClusterRecord =>
  signRecord({ kind: "endOfMinute", height, minute, timeMs, proposer: s.identity, signature: NO_SIG }, NET, s.seed);
const addServer = (role: "federated" | "audit", s: Server, seed = BOOT_SEED): ClusterRecord =>
  signRecord(
    { kind: "addServer", role, identity: s.identity, publicKey: s.publicKey, timeMs: 0, signature: NO_SIG },
    NET,
    seed,
  );
const heartbeat = (height: number, s: Server, minute = 0): ClusterRecord =>
  signRecord({ kind: "heartbeat", height, minute, identity: s.identity, signature: NO_SIG }, NET, s.seed);
const faultVote = (height: number, faulted: Server, candidate: Server, voter: Server, round = 0): ClusterRecord =>
  signRecord(
    {
      kind: "faultVote",
      height,
      round,
      faulted: faulted.identity,
      candidate: candidate.identity,
      voter: voter.identity,
      signature: NO_SIG,
    },
    NET,
    voter.seed,
  );

/** Machines of one describe block: made by `make`, closed and removed after each test. */
function machines() {
  const open: { node: TestNode; dir: string }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await closeNode(o.node);
      cleanup(o.dir);
    }
  });
  const make = (o: SetupOptions = {}) => {
    const t = setup(o);
    open.push(t);
    return t;
  };
  return { make, open };
}

let seq = 0;
/** Apply a record that must not close the block (every such path answers `closed: false`). */
function apply(machine: HeightMachine, rec: ClusterRecord, writes?: CheckedWrite[]) {
  const r = machine.apply(rec, ++seq, writes);
  assert.equal(r.closed, false, `${rec.kind} closed nothing`);
  return r;
}
/** Apply a record that may close the block. */
function step(machine: HeightMachine, rec: ClusterRecord) {
  return machine.apply(rec, ++seq);
}

/** dbSigs of `servers` over the node's last block. */
function sign(t: { node: TestNode; machine: HeightMachine }, servers: Server[]): void {
  for (const s of servers)
    apply(t.machine, {
      kind: "dbSig",
      height: t.machine.height.height,
      identity: s.identity,
      publicKey: s.publicKey,
      signature: signDirectoryBlock(s.seed, t.node.ledger.lastDirectoryBlock()),
    });
}

/** Every minute of the open height proposed by each of `servers`; true when the last record closed it. */
function closeHeight(t: { node: TestNode; machine: HeightMachine }, servers: Server[], startMs: number): boolean {
  const h = t.machine.height.height;
  sign(t, servers);
  let closed = false;
  for (let m = 0; m < 10; m++)
    for (const s of servers) closed = step(t.machine, eom(h, m, startMs + 600 * (m + 1), s)).closed || closed;
  return closed;
}

describe("the federation's rules (heightMachine.ts), record by record", () => {
  const { make } = machines();

  it("the first block starts when a federated server proposes it; others, strangers, forgeries and repeats are skipped", () => {
    const t = make();
    assert.deepEqual(t.events.opened, [1]);
    apply(t.machine, blockStart(2, T0));
    apply(t.machine, blockStart(1, T0, X)); // X is no server yet
    apply(t.machine, {
      ...(blockStart(1, T0) as Extract<ClusterRecord, { kind: "blockStart" }>),
      signature: new Uint8Array(64).fill(1),
    });
    assert.equal(t.machine.height.startFixed, false);
    apply(t.machine, eom(1, 0, T0 + 600));
    assert.equal(t.node.ledger.openBlock().minute, 0, "no minute ends before the block started");
    apply(t.machine, blockStart(1, T0));
    assert.equal(t.machine.height.startFixed, true);
    assert.equal(t.node.ledger.openBlock().startMs, T0);
    apply(t.machine, blockStart(1, T0 + 5000));
    assert.equal(t.node.ledger.openBlock().startMs, T0, "a second start changes nothing");
  });

  it("minute 0 waits for a majority of dbSigs; a close carries 05/06, the signatures, then 08; the new server has its grace height", () => {
    const t = make();
    apply(t.machine, blockStart(1, T0));
    apply(t.machine, eom(1, 0, T0 + 600));
    assert.deepEqual(t.machine.height.pendingMinuteZero, { timeMs: T0 + 600 });
    apply(t.machine, eom(1, 0, T0 + 700));
    assert.deepEqual(
      t.machine.height.pendingMinuteZero,
      { timeMs: T0 + 600 },
      "a pending minute 0 takes no more proposals",
    );
    // dbSigs: another height, a stranger, a wrong key, then the real one (counted once)
    apply(t.machine, { ...(dbSigOf(t, BOOT_SERVER) as object), height: 2 } as ClusterRecord);
    apply(t.machine, dbSigOf(t, X));
    apply(t.machine, { ...(dbSigOf(t, BOOT_SERVER) as object), publicKey: X.publicKey } as ClusterRecord);
    assert.equal(t.node.ledger.openBlock().minute, 0);
    assert.deepEqual(t.events.signed, []);
    apply(t.machine, dbSigOf(t, BOOT_SERVER));
    assert.deepEqual(t.events.signed, [toHex(BOOT)]);
    assert.equal(t.node.ledger.openBlock().minute, 1, "the pending minute 0 ends with the majority");
    assert.equal(t.node.ledger.openBlock().minuteStartMs, T0 + 600);
    apply(t.machine, dbSigOf(t, BOOT_SERVER));
    assert.deepEqual(t.events.signed, [toHex(BOOT)], "a second dbSig of one server is not counted");
    // server changes: X federated, Z audit (skeleton-signed; a forgery, a repeat and a known server skipped)
    apply(t.machine, addServer("federated", X, X.seed));
    apply(t.machine, addServer("federated", X));
    apply(t.machine, addServer("federated", X));
    apply(t.machine, addServer("audit", Z));
    apply(t.machine, addServer("federated", BOOT_SERVER));
    let closed = false;
    for (let m = 1; m < 10; m++) closed = step(t.machine, eom(1, m, T0 + 600 * (m + 1))).closed;
    assert.equal(closed, true);
    const admin = t.node.ledger
      .adminBlockByHeight(1)!
      .block.entries.map((e) => ("forwardCompatible" in e ? 0 : e.type));
    assert.deepEqual(admin, [0x05, 0x06, 0x01, 0x08, 0x08]);
    assert.equal(t.machine.height.height, 2);
    assert.deepEqual(t.events.opened, [1, 2]);
    assert.deepEqual(
      t.machine.height.authorities.federated.map((a) => toHex(a.identity)).sort(),
      [toHex(BOOT), toHex(X.identity)].sort(),
    );
    assert.deepEqual([...t.machine.height.graced], [toHex(X.identity)], "X is federated from height 2: graced there");
    // at height 2 a vote against X is refused (grace); against BOOT it counts (Z alive at this height)
    apply(t.machine, heartbeat(2, Z));
    apply(t.machine, faultVote(2, X, Z, BOOT_SERVER));
    assert.equal(t.machine.height.election.votes.size, 0, "no vote against a server in its grace height");
    apply(t.machine, faultVote(2, BOOT_SERVER, Z, X));
    assert.equal(t.machine.height.election.votes.size, 1);
  });

  it("a boundary needs a majority of the federated servers' proposals and takes the earliest time: a fast clock steers nothing", () => {
    const t = make();
    apply(t.machine, blockStart(1, T0));
    apply(t.machine, addServer("federated", X));
    apply(t.machine, addServer("federated", Y));
    assert.equal(closeHeight(t, [BOOT_SERVER], T0), true);
    // height 2: BOOT, X, Y federated; majority 2
    const h2 = t.node.ledger.openBlock();
    sign(t, [BOOT_SERVER, X]);
    const fast = h2.minuteStartMs + 30_000;
    apply(t.machine, eom(2, 0, fast, X));
    apply(t.machine, eom(2, 0, fast + 1, X));
    assert.equal(t.node.ledger.openBlock().minute, 0, "one fast server (twice) is not a majority");
    apply(t.machine, eom(2, 1, h2.minuteStartMs + 600, BOOT_SERVER));
    assert.equal(t.node.ledger.openBlock().minute, 0, "a proposal for another minute is skipped");
    apply(t.machine, eom(2, 0, h2.minuteStartMs + 600, BOOT_SERVER));
    assert.equal(t.node.ledger.openBlock().minute, 1);
    assert.equal(t.node.ledger.openBlock().minuteStartMs, h2.minuteStartMs + 600, "the earliest proposal's time");
    // a slow clock: the boundary never goes back before the minute's start
    apply(t.machine, eom(2, 1, h2.minuteStartMs - 30_000, Y));
    apply(t.machine, eom(2, 1, h2.minuteStartMs + 1200, X));
    assert.equal(t.node.ledger.openBlock().minute, 2);
    assert.equal(t.node.ledger.openBlock().minuteStartMs, h2.minuteStartMs + 600);
    // the late third proposal of minute 1 does not count toward minute 2
    apply(t.machine, eom(2, 1, h2.minuteStartMs + 1300, BOOT_SERVER));
    apply(t.machine, eom(2, 2, h2.minuteStartMs + 1800, BOOT_SERVER));
    assert.equal(t.node.ledger.openBlock().minute, 2);
    assert.equal(t.machine.height.boundaryVotes.size, 1);
  });

  it("a fault vote counts only from a federated voter naming a live audit server; a majority decides 05/06", () => {
    const t = make();
    apply(t.machine, blockStart(1, T0));
    apply(t.machine, addServer("federated", X));
    apply(t.machine, addServer("federated", Y));
    apply(t.machine, addServer("audit", Z));
    closeHeight(t, [BOOT_SERVER], T0);
    closeHeight(t, [BOOT_SERVER, X, Y], t.node.ledger.openBlock().minuteStartMs);
    assert.equal(t.machine.height.height, 3);
    assert.equal(t.machine.height.graced.size, 0);
    apply(t.machine, faultVote(3, Y, Z, BOOT_SERVER));
    assert.equal(t.machine.height.election.votes.size, 0, "Z has no heartbeat at this height: not a candidate");
    apply(t.machine, heartbeat(2, Z));
    apply(t.machine, heartbeat(3, X));
    apply(t.machine, { ...(heartbeat(3, Z) as object), signature: new Uint8Array(64).fill(2) } as ClusterRecord);
    apply(t.machine, faultVote(3, Y, Z, BOOT_SERVER));
    assert.equal(t.machine.height.election.votes.size, 0, "stale, foreign and forged heartbeats do not count");
    apply(t.machine, heartbeat(3, Z));
    assert.deepEqual([...t.machine.height.alive], [toHex(Z.identity)]);
    apply(t.machine, faultVote(3, Y, Z, Z));
    apply(t.machine, faultVote(2, Y, Z, BOOT_SERVER));
    apply(t.machine, { ...(faultVote(3, Y, Z, X) as object), signature: new Uint8Array(64).fill(1) } as ClusterRecord);
    assert.equal(t.machine.height.election.votes.size, 0, "an audit voter, another height, a forgery: not counted");
    apply(t.machine, faultVote(3, Y, Z, BOOT_SERVER));
    assert.deepEqual(t.events.votedOut, []);
    apply(t.machine, faultVote(3, Y, Z, X));
    assert.deepEqual(t.events.votedOut, [`3:${toHex(Y.identity).slice(0, 2)}→${toHex(Z.identity).slice(0, 2)}`]);
    closeHeight(t, [BOOT_SERVER, X], t.node.ledger.openBlock().minuteStartMs);
    const admin = t.node.ledger.adminBlockByHeight(3)!.block.entries;
    assert.deepEqual(
      admin
        .filter((e) => !("forwardCompatible" in e) && e.type !== 0x01)
        .map((e) => [e.type, toHex((e as { identityChainId: Uint8Array }).identityChainId).slice(0, 2)]),
      [
        [0x05, toHex(Z.identity).slice(0, 2)],
        [0x06, toHex(Y.identity).slice(0, 2)],
      ],
    );
    assert.deepEqual([...t.machine.height.graced], [toHex(Z.identity)]);
  });

  it("a majority of dbSigs over another block: forked, once", () => {
    const t = make();
    const other = { ...t.node.ledger.lastDirectoryBlock(), timestamp: 1 };
    apply(t.machine, {
      kind: "dbSig",
      height: 1,
      identity: BOOT,
      publicKey: BOOT_KEY,
      signature: signDirectoryBlock(BOOT_SEED, other),
    });
    assert.equal(t.machine.forked, true);
    assert.deepEqual(t.events.forked, [0]);
    assert.deepEqual(t.events.signed, []);
  });

  it("client writes: refusals pass through, bad signatures are counted, a server message is not a client write, a good one applies", () => {
    const t = make();
    const tx = payment({ milliTime: T0, ec: [{ to: ecKey, amount: 10n * 1000n }] });
    const good: LogMessage = { kind: "transaction", timeMs: T0, tx };
    const refused = new LedgerError({ code: "INVALID", info: "malformed" });
    const r = apply(t.machine, { kind: "writes", messages: [] }, [
      badSignature(good, 0),
      refused,
      { kind: "endOfMinute", timeMs: T0, minute: 0 },
      good,
      good,
    ]);
    assert.equal(r.closed, false);
    const codes = r.writes!.map((w) => (w === undefined ? "ok" : w.type.code));
    assert.deepEqual(codes.slice(0, 4), ["BAD_SIGNATURE", "INVALID", "INVALID", "ok"]);
    assert.notEqual(codes[4], "ok", "the same transaction twice applies once");
    assert.equal(t.machine.badSignatures, 1);
    assert.deepEqual(t.events.bad, [1]);
    assert.equal(t.node.ledger.ecBalance(ecKey.publicKey).ack, 10n);
  });
});

/** A dbSig record of `s` over the node's last block at the open height. */
function dbSigOf(t: { node: TestNode; machine: HeightMachine }, s: Server): ClusterRecord {
  return {
    kind: "dbSig",
    height: t.machine.height.height,
    identity: s.identity,
    publicKey: publicKeyFromSeed(s.seed),
    signature: signDirectoryBlock(s.seed, t.node.ledger.lastDirectoryBlock()),
  };
}

describe("the federation's rules: every path's answer, events optional, each guard on its own", () => {
  const { make, open } = machines();

  it("without event callbacks (none, or an empty object) the rules run the same", () => {
    for (const events of ["none", "empty"] as const) {
      const t = make({ events, extra: [...federatedFromOne(X), ...federatedFromOne(Y)] });
      const tx = payment({ milliTime: T0, ec: [{ to: ecKey, amount: 10n * 1000n }] });
      const r = apply(t.machine, { kind: "writes", messages: [] }, [
        badSignature({ kind: "transaction", timeMs: T0, tx }, 0),
      ]);
      assert.equal(r.writes![0]!.type.code, "BAD_SIGNATURE");
      assert.equal(t.machine.badSignatures, 1);
      sign(t, [BOOT_SERVER]);
      assert.equal(t.machine.height.sigs.size, 1);
      const other = { ...t.node.ledger.lastDirectoryBlock(), timestamp: 1 };
      for (const s of [X, Y])
        apply(t.machine, {
          kind: "dbSig",
          height: 1,
          identity: s.identity,
          publicKey: s.publicKey,
          signature: signDirectoryBlock(s.seed, other),
        });
      assert.equal(t.machine.forked, true, events);
    }
  });

  it("client writes: one bad signature among refusals is counted once; commits and reveals apply; an old write time is raised to the minute's start once the block started", () => {
    const t = make();
    const buy = payment({ milliTime: T0, ec: [{ to: ecKey, amount: 30n * 1000n }] });
    const { raw, chainId } = firstEntry(["hm writes"], "first");
    const commit = chainCommit(raw, T0);
    const refused = new LedgerError({ code: "INVALID", info: "malformed" });
    const r = apply(t.machine, { kind: "writes", messages: [] }, [
      refused,
      badSignature({ kind: "commit", timeMs: T0, commit }, 0),
      refused,
      { kind: "blockStart", timeMs: T0 },
      { kind: "transaction", timeMs: T0, tx: buy },
      { kind: "commit", timeMs: T0, commit },
      { kind: "reveal", timeMs: T0, entryRaw: raw },
    ]);
    assert.deepEqual(
      r.writes!.map((w) => (w === undefined ? "ok" : w.type.code)),
      ["INVALID", "BAD_SIGNATURE", "INVALID", "INVALID", "ok", "ok", "ok"],
    );
    assert.deepEqual((r.writes![3] as LedgerError).type, {
      code: "INVALID",
      info: "a blockStart is not a client write",
    });
    assert.equal(t.machine.badSignatures, 1);
    assert.deepEqual(t.events.bad, [1]);
    assert.equal(t.node.ledger.chainHead(chainId).inProcessList, true);
    // before the block's start is fixed a write keeps its own time: two hours old is outside the window
    const old = T0 - 2 * 3_600_000;
    const late = payment({ milliTime: T0 + 1, ec: [{ to: ecKey, amount: 1000n }] });
    const before = apply(t.machine, { kind: "writes", messages: [] }, [{ kind: "transaction", timeMs: old, tx: late }]);
    assert.notEqual(before.writes![0], undefined, "refused: its time is two hours before its timestamp");
    // once started at T0 + 5 s, the same write's time is raised to the minute's start, and it applies
    apply(t.machine, blockStart(1, T0 + 5000));
    assert.equal(t.node.ledger.openBlock().startMs, T0 + 5000);
    const after = apply(t.machine, { kind: "writes", messages: [] }, [{ kind: "transaction", timeMs: old, tx: late }]);
    assert.equal(after.writes![0], undefined);
    assert.equal(t.node.ledger.ecBalance(ecKey.publicKey).ack, 30n - 11n + 1n);
  });

  it("a store that refuses writes stops the apply (an error, never a verdict other nodes would not give)", async () => {
    const first = make();
    await closeNode(first.node);
    open.splice(0);
    const t = make({ dir: first.dir, reserveBytes: Number.MAX_SAFE_INTEGER });
    const tx = payment({ milliTime: T0, ec: [{ to: ecKey, amount: 1000n }] });
    assert.throws(
      () => t.machine.apply({ kind: "writes", messages: [] }, ++seq, [{ kind: "transaction", timeMs: T0, tx }]),
      (e: unknown) => !(e instanceof LedgerError) && e instanceof Error,
    );
  });

  it("the first block needs a majority of starts (two federated servers: both), at the earliest time; a repeat cannot lower a server's time", () => {
    const t = make({ extra: federatedFromOne(X) });
    apply(t.machine, blockStart(1, T0 + 9000));
    assert.equal(t.machine.height.startFixed, false, "one of two is no majority");
    apply(t.machine, blockStart(1, T0 + 1000));
    assert.equal(t.machine.height.startFixed, false, "a repeat of the same server counts once");
    apply(t.machine, blockStart(1, T0 + 7000, X));
    assert.equal(t.machine.height.startFixed, true);
    assert.equal(t.node.ledger.openBlock().startMs, T0 + 7000, "the earliest of the two servers' first proposals");
    // minute 0 with two federated servers: a stranger's proposal (forged or not) does not make the majority
    sign(t, [BOOT_SERVER, X]);
    apply(t.machine, eom(1, 0, T0 + 7600, Z));
    apply(t.machine, eom(1, 0, T0 + 7600));
    assert.equal(t.node.ledger.openBlock().minute, 0);
    assert.equal(t.machine.height.boundaryVotes.size, 1);
    apply(t.machine, eom(1, 0, T0 + 7700, X));
    assert.equal(t.node.ledger.openBlock().minute, 1);
  });

  it("forks only on a majority of differing signatures, once; a pending minute 0 waits for the majority of good ones", () => {
    const t = make({ extra: [...federatedFromOne(X), ...federatedFromOne(Y)] });
    apply(t.machine, blockStart(1, T0));
    apply(t.machine, blockStart(1, T0, X));
    apply(t.machine, eom(1, 0, T0 + 600));
    apply(t.machine, eom(1, 0, T0 + 600, X));
    assert.deepEqual(t.machine.height.pendingMinuteZero, { timeMs: T0 + 600 });
    sign(t, [BOOT_SERVER]);
    assert.equal(t.node.ledger.openBlock().minute, 0, "one signature of three is no majority");
    const other = { ...t.node.ledger.lastDirectoryBlock(), timestamp: 1 };
    const differing = (s: Server): ClusterRecord => ({
      kind: "dbSig",
      height: 1,
      identity: s.identity,
      publicKey: s.publicKey,
      signature: signDirectoryBlock(s.seed, other),
    });
    apply(t.machine, differing(X));
    assert.equal(t.machine.forked, false, "one differing signature of three");
    assert.deepEqual(t.events.forked, []);
    sign(t, [Y]);
    assert.equal(t.node.ledger.openBlock().minute, 1, "two good signatures: the pending minute 0 ends");
    assert.equal(t.node.ledger.openBlock().minuteStartMs, T0 + 600);
  });

  it("a fork is reported once however many differ", () => {
    const t = make({ extra: [...federatedFromOne(X), ...federatedFromOne(Y)] });
    const other = { ...t.node.ledger.lastDirectoryBlock(), timestamp: 1 };
    for (const s of [BOOT_SERVER, X, Y])
      apply(t.machine, {
        kind: "dbSig",
        height: 1,
        identity: s.identity,
        publicKey: s.publicKey,
        signature: signDirectoryBlock(s.seed, other),
      });
    assert.deepEqual(t.events.forked, [0]);
  });

  it("server changes: forged, repeated, already in the role, or already changed at this height are skipped; a known key is not recorded again; activations at h+1", () => {
    const t = make({ extra: [...federatedFromOne(X), ...federatedFromOne(Y)] });
    apply(t.machine, blockStart(1, T0));
    apply(t.machine, blockStart(1, T0, X));
    const W = serverIdentity(5);
    apply(t.machine, addServer("audit", W, W.seed)); // not the skeleton key's
    apply(t.machine, addServer("audit", Z));
    apply(t.machine, addServer("audit", Z));
    apply(t.machine, addServer("federated", Y)); // already federated
    closeHeight(t, [BOOT_SERVER, X, Y], T0);
    const at1 = t.node.ledger
      .adminBlockByHeight(1)!
      .block.entries.filter((e) => !("forwardCompatible" in e) && e.type !== 0x01);
    assert.deepEqual(
      at1.map((e) => [
        e.type,
        toHex((e as { identityChainId: Uint8Array }).identityChainId).slice(0, 2),
        (e as { dbHeight: number }).dbHeight,
      ]),
      [
        [0x06, toHex(Z.identity).slice(0, 2), 2],
        [0x08, toHex(Z.identity).slice(0, 2), 2],
      ],
    );
    // height 2: Z is an audit server with its key; adding it as audit again is skipped, as federated is a
    // promotion with no new key
    apply(t.machine, addServer("audit", Z));
    apply(t.machine, addServer("federated", Z));
    // a server whose role a decision of this height changes is not changed again
    apply(t.machine, heartbeat(2, Z));
    apply(t.machine, faultVote(2, Y, Z, BOOT_SERVER));
    assert.equal(t.machine.height.election.votes.size, 0, "Z's role already changes at this height");
    closeHeight(t, [BOOT_SERVER, X, Y], t.node.ledger.openBlock().minuteStartMs);
    const at2 = t.node.ledger
      .adminBlockByHeight(2)!
      .block.entries.filter((e) => !("forwardCompatible" in e) && e.type !== 0x01);
    assert.deepEqual(
      at2.map((e) => [e.type, (e as { dbHeight: number }).dbHeight]),
      [[0x05, 3]],
    );
    // a decided vote's entries are active at h+1 too
    const h = t.machine.height.height;
    apply(t.machine, addServer("audit", W));
    closeHeight(t, [BOOT_SERVER, X, Y, Z], t.node.ledger.openBlock().minuteStartMs);
    apply(t.machine, heartbeat(h + 1, W));
    apply(t.machine, faultVote(h + 1, Y, W, BOOT_SERVER));
    apply(t.machine, faultVote(h + 1, Y, W, X));
    apply(t.machine, faultVote(h + 1, Y, W, Z));
    assert.equal(t.events.votedOut.length, 1);
    apply(t.machine, addServer("audit", Y)); // Y's role already changes at this height (voted out)
    closeHeight(t, [BOOT_SERVER, X, Z], t.node.ledger.openBlock().minuteStartMs);
    const decided = t.node.ledger
      .adminBlockByHeight(h + 1)!
      .block.entries.filter((e) => !("forwardCompatible" in e) && e.type !== 0x01);
    assert.deepEqual(
      decided.map((e) => [e.type, (e as { dbHeight: number }).dbHeight]),
      [
        [0x05, h + 2],
        [0x06, h + 2],
      ],
    );
  });
});
