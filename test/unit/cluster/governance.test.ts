/**
 * Governing a federation, record by record (src/cluster/heightMachine.ts, authorities.ts; docs/cluster.md
 * §1.5.1): promote / demote / remove signed by the skeleton key and key rotations signed by the server's key
 * in force, each active at the height it names. Over a real ledger (LMDB in a temp directory), real ed25519
 * signatures, no log: forged, past, far, replayed, out-of-order and majority-breaking records change nothing;
 * an accepted one is an admin entry of the block it lands in, with its activation height, and in force there.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { AuthoritySet } from "../../../src/cluster/authorities.js";
import { signDirectoryBlock } from "../../../src/cluster/dbSig.js";
import { HeightMachine, MAX_ACTIVATION_LEAD } from "../../../src/cluster/heightMachine.js";
import {
  type AuthorityChangeName,
  type ClusterRecord,
  decodeRecord,
  encodeRecord,
  signRecord,
} from "../../../src/cluster/records.js";
import type { AdminEntry } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { BOOT, BOOT_KEY, BOOT_SEED, NET, serverIdentity } from "../../support/memoryFederation.js";
import { cleanup, closeNode, openNode, type TestNode, tempDir } from "../ledger/harness.js";

const NO_SIG = new Uint8Array(64);
const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const BOOT_SERVER = { identity: BOOT, seed: BOOT_SEED, publicKey: BOOT_KEY };
type Server = typeof BOOT_SERVER;
const X = serverIdentity(1);
const Y = serverIdentity(2);
const Z = serverIdentity(3);
/** X's next key (same identity, another seed) */
const X2: Server = { ...serverIdentity(4), identity: X.identity };

interface T {
  node: TestNode;
  machine: HeightMachine;
  dir: string;
  refused: string[];
}

/** BOOT, X, Y federated and Z audit from height 1. */
function setup(): T {
  const dir = tempDir("ledgerd-gov-");
  const node = openNode(dir, {});
  const authorities = new AuthoritySet({ identity: BOOT, publicKey: BOOT_KEY });
  const extra: AdminEntry[] = [];
  for (const [s, type] of [
    [X, 0x05],
    [Y, 0x05],
    [Z, 0x06],
  ] as const)
    extra.push(
      { type, identityChainId: s.identity, dbHeight: 1 },
      { type: 0x08, identityChainId: s.identity, keyPriority: 0, publicKey: s.publicKey, dbHeight: 1 },
    );
  authorities.applyAdminBlock(0, [...node.ledger.adminEntries(0), ...extra]);
  const refused: string[] = [];
  const machine = new HeightMachine(
    { networkId: NET, skeletonKey: BOOT_KEY },
    { ledger: node.ledger, authorities, events: { refused: (h, kind, why) => refused.push(`${h} ${kind}: ${why}`) } },
  );
  return { node, machine, dir, refused };
}

const change = (c: AuthorityChangeName, s: Server, activationHeight: number, seed = BOOT_SEED): ClusterRecord =>
  signRecord(
    { kind: "authorityChange", change: c, identity: s.identity, activationHeight, signature: NO_SIG },
    NET,
    seed,
  );
const rotate = (s: Server, next: Server, activationHeight: number, seed = s.seed): ClusterRecord =>
  signRecord(
    { kind: "rotateKey", identity: s.identity, newKey: next.publicKey, activationHeight, signature: NO_SIG },
    NET,
    seed,
  );

let seq = 0;
/** Apply an operator's record; its refusal reason, or undefined when accepted. */
function apply(t: T, rec: ClusterRecord): string | undefined {
  const r = t.machine.apply(rec, ++seq);
  assert.equal(r.closed, false);
  return r.refused;
}

const dbSig = (t: T, s: Server): ClusterRecord => ({
  kind: "dbSig",
  height: t.machine.height.height,
  identity: s.identity,
  publicKey: s.publicKey,
  signature: signDirectoryBlock(s.seed, t.node.ledger.lastDirectoryBlock()),
});

/** Close the open height with `servers` signing and proposing every boundary; asserts it closed. */
function closeHeight(t: T, servers: Server[]): void {
  const h = t.machine.height.height;
  const startMs = T0 + h * 60_000;
  if (h === 1)
    for (const s of servers)
      t.machine.apply(
        signRecord(
          { kind: "blockStart", height: 1, timeMs: startMs, proposer: s.identity, signature: NO_SIG },
          NET,
          s.seed,
        ),
        ++seq,
      );
  for (const s of servers) t.machine.apply(dbSig(t, s), ++seq);
  let closed = false;
  for (let m = 0; m < 10; m++)
    for (const s of servers)
      closed =
        t.machine.apply(
          signRecord(
            {
              kind: "endOfMinute",
              height: h,
              minute: m,
              timeMs: startMs + 600 * (m + 1),
              proposer: s.identity,
              signature: NO_SIG,
            },
            NET,
            s.seed,
          ),
          ++seq,
        ).closed || closed;
  assert.ok(closed, `height ${h} closed`);
  assert.equal(t.machine.height.height, h + 1);
}

const ids = (list: readonly { identity: Uint8Array }[]): string[] => list.map((a) => toHex(a.identity)).sort();
const roleEntries = (t: T, height: number) =>
  t.node.ledger
    .adminEntries(height)
    .filter(
      (e) => !("forwardCompatible" in e) && (e.type === 0x05 || e.type === 0x06 || e.type === 0x07 || e.type === 0x08),
    )
    .map((e) => {
      const x = e as { type: number; identityChainId: Uint8Array; dbHeight: number };
      return `${x.type.toString(16).padStart(2, "0")} ${toHex(x.identityChainId).slice(0, 4)} @${x.dbHeight}`;
    });

describe("governance records (authorityChange, rotateKey), record by record", () => {
  const open: T[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await closeNode(o.node);
      cleanup(o.dir);
    }
  });
  const make = (): T => {
    const t = setup();
    open.push(t);
    return t;
  };
  const all = [BOOT_SERVER, X, Y];

  it("records round-trip through their bytes; a change byte no version wrote is refused naming the field", () => {
    for (const rec of [change("promote", Z, 7), change("demote", X, 9), change("remove", Y, 12), rotate(X, X2, 5)])
      assert.deepEqual(decodeRecord(encodeRecord(rec)), rec);
    const bytes = encodeRecord(change("promote", Z, 7));
    bytes[1] = 4;
    assert.throws(() => decodeRecord(bytes), /clusterRecord\.change.*got 4/);
  });

  it("promote: forged, past, too far and duplicate records are refused; the accepted one is 05 @H and in force at H", () => {
    const t = make();
    assert.equal(apply(t, change("promote", Z, 3, X.seed)), "the signature is not the network's skeleton key's");
    assert.match(apply(t, change("promote", Z, 1)) ?? "", /activation height 1 is not after the open height 1/);
    assert.match(apply(t, change("promote", Z, 2 + MAX_ACTIVATION_LEAD)) ?? "", /more than 10000 blocks/);
    assert.match(apply(t, change("promote", X, 3)) ?? "", /promote: the server is not an audit server at 3/);
    assert.deepEqual(t.machine.height.adminFirst, [], "refusals change nothing");
    assert.equal(apply(t, change("promote", Z, 3)), undefined);
    assert.equal(apply(t, change("promote", Z, 3)), "the server has a change recorded and not yet in force");
    closeHeight(t, all);
    assert.deepEqual(
      roleEntries(t, 1),
      [`05 ${toHex(Z.identity).slice(0, 4)} @3`],
      "the reference's 05 with DBHeight 3",
    );
    assert.deepEqual(ids(t.machine.height.authorities.audit), ids([Z]), "still audit at 2");
    closeHeight(t, all);
    assert.deepEqual(ids(t.machine.height.authorities.federated), ids([...all, Z]), "federated at 3");
    assert.deepEqual(t.machine.height.authorities.audit, []);
    assert.match(apply(t, change("promote", Z, 3)) ?? "", /not after the open height 3/, "a replay is past its height");
    assert.equal(t.refused.length, 6);
  });

  it("demote and remove: the majority rule, the order rule, and each in force at its height", () => {
    const t = make();
    // 3 federated: a majority is 2, so one may leave, not two
    assert.equal(apply(t, change("demote", Y, 3)), undefined);
    assert.equal(
      apply(t, change("remove", X, 3)),
      "remove would leave 1 federated server(s) at 3; a majority of the 3 federated at 1 is 2",
    );
    assert.match(apply(t, change("demote", X, 4)) ?? "", /demote would leave 1 federated/);
    assert.match(
      apply(t, change("promote", Z, 2)) ?? "",
      /activation height 2 is before a change already scheduled for 3/,
    );
    assert.match(apply(t, change("demote", Z, 3)) ?? "", /demote: the server is not a federated server at 3/);
    assert.equal(apply(t, change("remove", Z, 3)), undefined, "an audit server may go: no majority at stake");
    closeHeight(t, all);
    assert.deepEqual(roleEntries(t, 1), [
      `06 ${toHex(Y.identity).slice(0, 4)} @3`,
      `07 ${toHex(Z.identity).slice(0, 4)} @3`,
    ]);
    closeHeight(t, all);
    const hs = t.machine.height;
    assert.equal(hs.height, 3);
    assert.deepEqual(ids(hs.authorities.federated), ids([BOOT_SERVER, X]));
    assert.deepEqual(ids(hs.authorities.audit), ids([Y]));
    // Y, now audit, signs no more: the block closes with BOOT and X (2 of 2)
    closeHeight(t, [BOOT_SERVER, X]);
    assert.equal(roleEntries(t, 3).length, 0);
    // 2 federated: a majority of 2 is 2, so neither may go now
    assert.match(
      apply(t, change("demote", X, 6)) ?? "",
      /would leave 1 federated server\(s\) at 6; a majority of the 2/,
    );
    assert.equal(apply(t, change("promote", Y, 6)), undefined, "the demoted server comes back by decision");
  });

  it("changes recorded earlier in the open block count for the next ones: the majority, and a removal of no authority", () => {
    const t = make();
    // BOOT, X, Y federated: a majority of 3 is 2
    assert.equal(apply(t, change("demote", X, 3)), undefined);
    assert.match(
      apply(t, change("demote", Y, 3)) ?? "",
      /demote would leave 1 federated server\(s\) at 3; a majority of the 3/,
      "X's demotion, recorded in this very block, leaves BOOT and Y at 3",
    );
    assert.match(
      apply(t, change("remove", Y, 3)) ?? "",
      /remove would leave 1 federated server\(s\) at 3/,
      "so does a removal",
    );
    assert.equal(apply(t, change("remove", serverIdentity(9), 3)), "remove: the server is not an authority at 3");
  });

  it("a removal recorded earlier in the open block counts for the next change's majority", () => {
    const t = make();
    assert.equal(apply(t, change("remove", X, 3)), undefined);
    assert.match(apply(t, change("demote", Y, 3)) ?? "", /demote would leave 1 federated server\(s\) at 3/);
  });

  it("rotation: signed with the key in force, switched at its height; the old key's dbSigs and proposals refused from there; replays skipped", () => {
    const t = make();
    assert.equal(apply(t, rotate(X, X2, 3, BOOT_SEED)), "the signature is not the identity's key in force");
    assert.equal(apply(t, rotate(X, X2, 3, X2.seed)), "the signature is not the identity's key in force");
    assert.match(apply(t, rotate(X, X2, 1)) ?? "", /not after the open height/);
    assert.match(
      apply(t, rotate(X, X2, 2)) ?? "",
      /takes effect 2 or more heights after the open height 1, not at 2/,
      "at h + 1 the new key alone would sign the block recording it: no proof could check it",
    );
    assert.equal(apply(t, rotate(X, Y, 3)), "the new key is another authority's key");
    assert.equal(apply(t, rotate(X, X, 3)), "the new key is the key in force");
    assert.equal(
      apply(t, rotate({ ...serverIdentity(9) }, X2, 3)),
      "the identity is not an authority with a key at the open height",
    );
    assert.equal(apply(t, rotate(X, X2, 3)), undefined);
    assert.equal(apply(t, rotate(X, X2, 3)), "the identity has a key recorded and not yet in force", "replay before H");
    assert.equal(
      apply(t, rotate(X, serverIdentity(5), 4)),
      "the identity has a key recorded and not yet in force",
      "one rotation at a time: a second one waits for the first",
    );
    closeHeight(t, all);
    assert.deepEqual(roleEntries(t, 1), [`08 ${toHex(X.identity).slice(0, 4)} @3`]);
    // height 2: still the old key
    const atTwo = t.machine.height.authorities.federated.find((a) => toHex(a.identity) === toHex(X.identity));
    assert.equal(toHex(atTwo!.publicKey!), toHex(X.publicKey));
    assert.equal(
      apply(t, rotate(X, serverIdentity(5), 4)),
      "the identity has a key recorded and not yet in force",
      "the chain's pending rotation (recorded in a closed block, in force at 3) holds a second one back",
    );
    closeHeight(t, all);
    // height 3: the old key's dbSig and end of minute count for nothing; the new key's do
    const hs = t.machine.height;
    assert.equal(hs.height, 3);
    t.machine.apply(dbSig(t, X), ++seq);
    assert.equal(hs.sigs.has(toHex(X.identity)), false, "the old key's dbSig is refused from H");
    t.machine.apply(dbSig(t, X2), ++seq);
    assert.equal(t.machine.height.sigs.has(toHex(X.identity)), true, "the new key's dbSig counts");
    assert.equal(apply(t, rotate(X, X2, 5)), "the signature is not the identity's key in force", "a replay after H");
    closeHeight(t, [BOOT_SERVER, X2, Y]);
    // an end of minute signed with the old key does not count
    const h4 = t.machine.height.height;
    t.machine.apply(
      signRecord(
        { kind: "endOfMinute", height: h4, minute: 0, timeMs: T0 + 999_000, proposer: X.identity, signature: NO_SIG },
        NET,
        X.seed,
      ),
      ++seq,
    );
    assert.equal(t.machine.height.boundaryVotes.has(toHex(X.identity)), false);
  });

  it("the authority set keeps a pending key through a snapshot and switches it at its activation height, not before", () => {
    const set = new AuthoritySet({ identity: BOOT, publicKey: BOOT_KEY });
    set.applyAdminBlock(0, [
      { type: 0x05, identityChainId: X.identity, dbHeight: 1 },
      { type: 0x08, identityChainId: X.identity, keyPriority: 0, publicKey: X.publicKey, dbHeight: 1 },
    ]);
    assert.equal(
      toHex(set.at(1).federated.find((a) => toHex(a.identity) === toHex(X.identity))!.publicKey!),
      toHex(X.publicKey),
    );
    set.applyAdminBlock(1, [
      { type: 0x08, identityChainId: X.identity, keyPriority: 0, publicKey: X2.publicKey, dbHeight: 5 },
    ]);
    assert.equal(toHex(set.keyOf(X.identity)!), toHex(X2.publicKey), "keyOf answers the latest recorded key");
    const keyAt = (s: AuthoritySet, h: number) =>
      toHex(s.at(h).federated.find((a) => toHex(a.identity) === toHex(X.identity))!.publicKey!);
    assert.equal(keyAt(set, 4), toHex(X.publicKey), "the old key until H−1");
    const restored = AuthoritySet.restore(
      { identity: BOOT, publicKey: BOOT_KEY },
      JSON.parse(JSON.stringify(set.snapshot())),
    );
    assert.equal(keyAt(restored, 4), toHex(X.publicKey));
    assert.equal(keyAt(restored, 5), toHex(X2.publicKey), "the restored set switches at H");
    assert.equal(keyAt(set, 5), toHex(X2.publicKey));
    assert.throws(
      () =>
        AuthoritySet.restore({ identity: BOOT, publicKey: BOOT_KEY }, {
          ...set.snapshot(),
          pendingKeys: undefined,
        } as never),
      /no pendingKeys/,
    );
  });
});
