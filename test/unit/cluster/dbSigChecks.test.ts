/**
 * Directory-block signatures' edges (src/cluster/dbSig.ts), beside federationRules.test.ts's vectors: the
 * minute-0 VM index refuses a server outside the set, the reference order refuses a signature of a server
 * that is not federated, and a block's signature count ignores other entries, strangers, a server's signature
 * under another key and a second signature of one server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkBlockSignatures,
  minuteZeroVmIndex,
  orderedSignatureEntries,
  signDirectoryBlock,
} from "../../../src/cluster/dbSig.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import type { AdminEntry } from "../../../src/protocol/ablock.js";
import type { DirectoryBlock } from "../../../src/protocol/dblock.js";
import { genesisBlocks } from "../../../src/protocol/genesis.js";

const seedOf = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const idOf = (n: number): Uint8Array => new Uint8Array(32).fill(0x40 + n);
const servers = [1, 2, 3].map((n) => ({ identity: idOf(n), seed: seedOf(n), publicKey: publicKeyFromSeed(seedOf(n)) }));

describe("directory-block signatures: edges", () => {
  it("minute-0 VM index: a server index outside 0..n-1, or no servers, is refused naming the range", () => {
    assert.throws(() => minuteZeroVmIndex(-1, 3, 10), /fed index -1 out of 0\.\.2/);
    assert.throws(() => minuteZeroVmIndex(3, 3, 10), /fed index 3 out of 0\.\.2/);
    assert.throws(() => minuteZeroVmIndex(0, 0, 10), /fed index 0 out of 0\.\.-1/);
    assert.deepEqual(
      [0, 1, 2].map((f) => minuteZeroVmIndex(f, 3, 10)),
      [0, 1, 2].map((f) => (((f - ((10 * 131) % 3) - 1) % 3) + 3) % 3),
    );
  });

  it("the reference order refuses a signature of a server that is not federated at the height", () => {
    const sig = { identity: idOf(9), publicKey: servers[0]!.publicKey, signature: new Uint8Array(64) };
    assert.throws(
      () =>
        orderedSignatureEntries(
          [sig],
          servers.map((s) => s.identity),
          5,
        ),
      /a signature of a server that is not federated at this height/,
    );
  });

  it("a block's signatures: other entries, strangers, another key and a repeat do not count", () => {
    const previous: DirectoryBlock = genesisBlocks("LOCAL").directory;
    const federated = servers.map((s) => ({ identity: s.identity, publicKey: s.publicKey }));
    const entry = (s: (typeof servers)[number], key = s.publicKey, seed = s.seed): AdminEntry => ({
      type: 0x01,
      identityAdminChainId: s.identity,
      publicKey: key,
      signature: signDirectoryBlock(seed, previous),
    });
    const stranger = { identity: idOf(8), seed: seedOf(8), publicKey: publicKeyFromSeed(seedOf(8)) };
    // a server's signature made and presented with another key: not its recorded key, not counted
    const otherKey = entry(servers[1]!, stranger.publicKey, stranger.seed);
    const entries: AdminEntry[] = [
      { type: 0x05, identityChainId: servers[0]!.identity, dbHeight: 2 },
      entry(stranger),
      otherKey,
      entry(servers[0]!),
      entry(servers[0]!),
    ];
    assert.deepEqual(checkBlockSignatures(entries, previous, federated), { valid: 1, needed: 2, ok: false });
    assert.deepEqual(checkBlockSignatures([...entries, entry(servers[2]!)], previous, federated), {
      valid: 2,
      needed: 2,
      ok: true,
    });
    // a signature over another block does not count
    const other = { ...previous, timestamp: previous.timestamp + 1 };
    assert.deepEqual(
      checkBlockSignatures(
        servers.map((s) => entry(s)),
        other,
        federated,
      ),
      { valid: 0, needed: 2, ok: false },
    );
  });

  it("untilMajority: verification stops once a majority is in (valid counts no further), the verdict unchanged", () => {
    const previous: DirectoryBlock = genesisBlocks("LOCAL").directory;
    const five = [1, 2, 3, 4, 5].map((n) => ({
      identity: idOf(n),
      seed: seedOf(n),
      publicKey: publicKeyFromSeed(seedOf(n)),
    }));
    const federated = five.map((s) => ({ identity: s.identity, publicKey: s.publicKey }));
    const entryOf = (s: (typeof five)[number]): AdminEntry => ({
      type: 0x01,
      identityAdminChainId: s.identity,
      publicKey: s.publicKey,
      signature: signDirectoryBlock(s.seed, previous),
    });
    const all = five.map(entryOf);
    assert.deepEqual(checkBlockSignatures(all, previous, federated), { valid: 5, needed: 3, ok: true });
    assert.deepEqual(checkBlockSignatures(all, previous, federated, { untilMajority: false }), {
      valid: 5,
      needed: 3,
      ok: true,
    });
    assert.deepEqual(checkBlockSignatures(all, previous, federated, { untilMajority: true }), {
      valid: 3,
      needed: 3,
      ok: true,
    });
    // entries that do not count before the majority are passed over, not counted
    const mixed: AdminEntry[] = [
      all[0]!,
      all[0]!,
      { type: 0x05, identityChainId: idOf(1), dbHeight: 2 },
      all[1]!,
      all[2]!,
      all[3]!,
    ];
    assert.deepEqual(checkBlockSignatures(mixed, previous, federated, { untilMajority: true }), {
      valid: 3,
      needed: 3,
      ok: true,
    });
    // short of a majority: every entry is looked at, the same count either way
    assert.deepEqual(checkBlockSignatures(all.slice(0, 2), previous, federated, { untilMajority: true }), {
      valid: 2,
      needed: 3,
      ok: false,
    });
    // an invalid signature before the majority does not end the walk early
    const forged = { ...all[2]!, signature: new Uint8Array(64) } as AdminEntry;
    assert.deepEqual(
      checkBlockSignatures([all[0]!, forged, all[1]!, all[3]!], previous, federated, { untilMajority: true }),
      {
        valid: 3,
        needed: 3,
        ok: true,
      },
    );
  });

  it("a federated server with no key in force counts in the majority and signs nothing", () => {
    const previous: DirectoryBlock = genesisBlocks("LOCAL").directory;
    const entry = (s: (typeof servers)[number]): AdminEntry => ({
      type: 0x01,
      identityAdminChainId: s.identity,
      publicKey: s.publicKey,
      signature: signDirectoryBlock(s.seed, previous),
    });
    // 4 federated, the fourth with no key: a majority is 3 of 4, and its own signature is not counted
    const fourth = { identity: idOf(4), seed: seedOf(4), publicKey: publicKeyFromSeed(seedOf(4)) };
    const federated = [
      ...servers.map((s) => ({ identity: s.identity, publicKey: s.publicKey as Uint8Array | undefined })),
      { identity: fourth.identity, publicKey: undefined },
    ];
    for (const untilMajority of [false, true]) {
      assert.deepEqual(
        checkBlockSignatures([entry(fourth), entry(servers[0]!), entry(servers[1]!)], previous, federated, {
          untilMajority,
        }),
        { valid: 2, needed: 3, ok: false },
      );
      assert.deepEqual(checkBlockSignatures(servers.map(entry), previous, federated, { untilMajority }), {
        valid: 3,
        needed: 3,
        ok: true,
      });
    }
  });
});
