/**
 * The authority fold (src/protocol/authorityFold.ts): the rules the federation and the offline proof verifier
 * share. Each admin entry 05/06/07/08 in force from max(entry DBHeight, block height); changes reach the set in
 * activation order, one height's in recorded order; the set a function of the blocks alone (asked at every
 * height, or once after folding many blocks, it is the same); `projected` changes nothing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvariantError } from "../../../src/errors.js";
import type { AdminEntry } from "../../../src/protocol/ablock.js";
import {
  AuthorityFold,
  type AuthorityView,
  authorityView,
  changesAuthority,
} from "../../../src/protocol/authorityFold.js";
import { toHex } from "../../../src/protocol/bytes.js";

const id = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const key = (n: number): Uint8Array => new Uint8Array(32).fill(0x40 + n);
const BOOT = { identity: id(0x38), publicKey: key(0x38) };

const role = (type: 0x05 | 0x06 | 0x07, who: number, dbHeight: number): AdminEntry => ({
  type,
  identityChainId: id(who),
  dbHeight,
});
const keyOf = (who: number, k: number, dbHeight: number): AdminEntry => ({
  type: 0x08,
  identityChainId: id(who),
  keyPriority: 0,
  publicKey: key(k),
  dbHeight,
});

/** A view as short text: "fed 38:78 01:- | audit 02:42" (identity byte : key byte or "-"). */
function show(v: AuthorityView): string {
  const one = (a: { identity: Uint8Array; publicKey: Uint8Array | undefined }) =>
    `${toHex(a.identity.subarray(0, 1))}:${a.publicKey === undefined ? "-" : toHex(a.publicKey.subarray(0, 1))}`;
  return `fed ${v.federated.map(one).join(" ")} | audit ${v.audit.map(one).join(" ")}`;
}

/** Admin blocks by height: the genesis naming the bootstrap server, then a mix of every change. */
const BLOCKS: [number, AdminEntry[]][] = [
  [0, [role(0x05, 0x38, 0)]],
  // a server added as the federation does it (05 and its key at the next height)
  [2, [role(0x05, 0x01, 3), keyOf(0x01, 0x01, 3)]],
  // an audit server, a key rotation far ahead, a removal recorded before a promotion that lands earlier
  [4, [role(0x06, 0x02, 5), keyOf(0x02, 0x02, 5), keyOf(0x01, 0x11, 9), role(0x07, 0x02, 8)]],
  // recorded after the removal above, in force before it: the promotion, then the removal (activation order)
  [5, [role(0x05, 0x02, 6)]],
  // one height, two changes of one server: in recorded order (demote, then promote again: federated)
  [6, [role(0x06, 0x01, 7), role(0x05, 0x01, 7)]],
];

describe("authority fold", () => {
  it("each change in force from max(entry height, block height), activation order, ties in recorded order", () => {
    const f = new AuthorityFold(BOOT);
    const seen: string[] = [];
    let b = 0;
    for (let h = 0; h <= 10; h++) {
      while (b < BLOCKS.length && BLOCKS[b]![0] < h) {
        f.applyAdminBlock(BLOCKS[b]![0], BLOCKS[b]![1]);
        b++;
      }
      seen.push(`${h}: ${show(f.at(h))}`);
    }
    assert.deepEqual(seen, [
      "0: fed  | audit ",
      "1: fed 38:78 | audit ",
      "2: fed 38:78 | audit ",
      "3: fed 01:41 38:78 | audit ",
      "4: fed 01:41 38:78 | audit ",
      "5: fed 01:41 38:78 | audit 02:42",
      "6: fed 01:41 02:42 38:78 | audit ",
      "7: fed 01:41 02:42 38:78 | audit ",
      "8: fed 01:41 38:78 | audit ",
      "9: fed 01:51 38:78 | audit ",
      "10: fed 01:51 38:78 | audit ",
    ]);
  });

  it("the same set whether asked at every height or once after folding many blocks (a restart, a verifier)", () => {
    for (let ask = 1; ask <= 10; ask++) {
      const every = new AuthorityFold(BOOT);
      const once = new AuthorityFold(BOOT);
      let last: AuthorityView | undefined;
      for (let h = 0; h <= ask; h++) {
        const block = BLOCKS.find(([b]) => b === h - 1);
        if (block !== undefined) {
          every.applyAdminBlock(block[0], block[1]);
          once.applyAdminBlock(block[0], block[1]);
        }
        last = every.at(h);
      }
      const projected = once.projected(ask);
      assert.equal(show(once.at(ask)), show(last!), `at ${ask}`);
      assert.equal(show(projected), show(last!), `projected ${ask}`);
    }
  });

  it("a block's entry with an activation before the block is in force from the block's height", () => {
    const f = new AuthorityFold(BOOT);
    f.applyAdminBlock(0, [role(0x05, 0x38, 0)]);
    f.applyAdminBlock(4, [role(0x05, 0x01, 1), keyOf(0x01, 0x01, 2)]);
    assert.equal(show(f.projected(3)), "fed 38:78 | audit ");
    assert.equal(show(f.projected(4)), "fed 01:41 38:78 | audit ");
    assert.deepEqual(
      f.pendingChanges().map((c) => `${c.type}@${c.height}`),
      ["5@0", "5@4", "8@4"],
    );
  });

  it("skips entries of other types and unknown (forward-compatible) entries, even of a change's type number", () => {
    const f = new AuthorityFold(BOOT);
    const other: AdminEntry[] = [
      { type: 0x01, identityAdminChainId: id(9), publicKey: key(9), signature: new Uint8Array(64) },
      { type: 0x09, identityChainId: id(9), keyPriority: 0, keyType: 0, ecdsaPublicKey: new Uint8Array(20) },
      { type: 0x05, data: new Uint8Array(40), forwardCompatible: true },
      { type: 0x08, data: new Uint8Array(40), forwardCompatible: true },
    ];
    f.applyAdminBlock(0, other);
    assert.deepEqual(f.pendingChanges(), []);
    assert.equal(show(f.at(5)), "fed  | audit ");
    assert.equal(changesAuthority(other), false);
    for (const e of [role(0x05, 1, 0), role(0x06, 1, 0), role(0x07, 1, 0), keyOf(1, 1, 0)])
      assert.equal(changesAuthority([...other, e]), true, `type ${e.type}`);
    assert.equal(changesAuthority([{ type: 0x04, amount: 1 }]), false);
    assert.equal(changesAuthority([{ type: 0x09 + 0, data: new Uint8Array(1), forwardCompatible: true }]), false);
  });

  it("at: never lower than a height already asked; pending changes kept until their height", () => {
    const f = new AuthorityFold(BOOT);
    f.applyAdminBlock(0, [role(0x05, 0x38, 0), role(0x05, 0x01, 4), keyOf(0x01, 0x01, 4), keyOf(0x38, 0x39, 6)]);
    f.at(3);
    f.at(3);
    assert.throws(() => f.at(2), InvariantError);
    assert.deepEqual(
      f.pendingChanges().map((c) => `${c.type}@${c.height}`),
      ["5@4", "8@4", "8@6"],
    );
    f.at(4);
    assert.deepEqual(
      f.pendingChanges().map((c) => `${c.type}@${c.height}`),
      ["8@6"],
    );
    assert.throws(() => f.at(3), /authorities asked for 3 after 4/);
    assert.equal(show(f.at(5)), "fed 01:41 38:78 | audit ");
    assert.equal(show(f.at(6)), "fed 01:41 38:79 | audit ");
    assert.deepEqual(f.pendingChanges(), []);
  });

  it("projected changes nothing; it applies what is pending up to the height", () => {
    const f = new AuthorityFold(BOOT);
    f.applyAdminBlock(0, [role(0x05, 0x38, 0)]);
    f.at(1);
    f.applyAdminBlock(1, [role(0x06, 0x02, 3), keyOf(0x02, 0x02, 3), role(0x07, 0x02, 5), keyOf(0x38, 0x39, 4)]);
    const before = f.pendingChanges();
    assert.equal(show(f.projected(2)), "fed 38:78 | audit ");
    assert.equal(show(f.projected(3)), "fed 38:78 | audit 02:42");
    assert.equal(show(f.projected(4)), "fed 38:79 | audit 02:42");
    assert.equal(show(f.projected(5)), "fed 38:79 | audit ");
    assert.deepEqual(f.pendingChanges(), before);
    assert.equal(show(f.at(2)), "fed 38:78 | audit ", "the state is as before the projections");
  });

  it("keyOf: the key last recorded (pending ones first, latest wins), else the key in force", () => {
    const f = new AuthorityFold(BOOT);
    assert.deepEqual(f.keyOf(BOOT.identity), BOOT.publicKey);
    assert.equal(f.keyOf(id(1)), undefined);
    f.applyAdminBlock(0, [keyOf(1, 1, 2), keyOf(2, 2, 2), keyOf(1, 3, 4)]);
    assert.deepEqual(f.keyOf(id(1)), key(3));
    assert.deepEqual(f.keyOf(id(2)), key(2));
    f.at(4);
    assert.deepEqual(f.keyOf(id(1)), key(3));
    f.applyAdminBlock(4, [keyOf(2, 5, 9)]);
    assert.deepEqual(f.keyOf(id(1)), key(3), "another identity's pending key is not this one's");
    assert.deepEqual(f.keyOf(id(2)), key(5));
    assert.deepEqual(f.bootstrapIdentity(), BOOT.identity);
  });

  it("keeps each server's role by name (what the authority file and snapshots save: cluster/authorities.ts)", () => {
    /** The fold's state as a subclass sees it (AuthoritySet.snapshot writes exactly these names). */
    class Saved extends AuthorityFold {
      roles(): string[] {
        return [...this.role.values()].map((r) => `${toHex(r.identity.subarray(0, 1))}=${r.role}`);
      }
    }
    const f = new Saved(BOOT);
    f.applyAdminBlock(0, [role(0x05, 0x38, 0), role(0x06, 0x02, 1), role(0x05, 0x01, 1)]);
    f.at(1);
    assert.deepEqual(f.roles(), ["38=federated", "02=audit", "01=federated"]);
    f.applyAdminBlock(1, [role(0x05, 0x02, 2), role(0x06, 0x01, 2)]);
    f.at(2);
    assert.deepEqual(f.roles(), ["38=federated", "02=federated", "01=audit"]);
  });

  it("the view: each role sorted by identity, a server without a key shown with none", () => {
    const r = new Map<string, { identity: Uint8Array; role: "federated" | "audit" }>();
    for (const [n, k] of [
      [0xf0, "federated"],
      [0x10, "audit"],
      [0x20, "federated"],
      [0x05, "audit"],
      [0x01, "federated"],
    ] as const)
      r.set(toHex(id(n)), { identity: id(n), role: k });
    const v = authorityView(r, new Map([[toHex(id(0x20)), key(0x20)]]));
    assert.equal(show(v), "fed 01:- 20:60 f0:- | audit 05:- 10:-");
  });
});
