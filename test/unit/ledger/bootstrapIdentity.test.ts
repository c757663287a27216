/**
 * The node's bootstrap identity and the genesis check at open (bootstrap.ts; docs/testing.md §Mutation
 * testing): LOCAL signs with the reference bootstrap key and identity, another network with the ones it is
 * given; a CUSTOM data directory opened with another genesis configuration is refused with a message naming
 * both genesis blocks (the same configuration opens it again; other networks' genesis is fixed); blocks
 * are signed by the signer given; and a damaged store missing a block of its saved height (a CUSTOM one its
 * genesis block too) is refused as CORRUPT, naming the block's kind and height. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { bootstrapSigner } from "../../../src/ledger/bootstrap.js";
import { Ledger } from "../../../src/ledger/ledger.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { directoryBlockHashes } from "../../../src/protocol/dblock.js";
import {
  type CustomGenesis,
  genesisBlocks,
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../../src/protocol/genesis.js";
import { networkId } from "../../../src/protocol/network.js";
import { openDatabases, openEnvironment } from "../../../src/store/environment.js";
import { StoreError } from "../../../src/store/errors.js";
import { BlockKind, heightKey } from "../../../src/store/keys.js";
import { LedgerStore } from "../../../src/store/store.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
import { cleanup, closeNode, finishBlock, ManualClock, MemoryLog, openNode, tempDir } from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

test("LOCAL signs with the reference bootstrap identity and key; a given bootstrap is used as given", () => {
  const local = bootstrapSigner();
  assert.deepEqual(
    [toHex(local.seed), toHex(local.publicKey), toHex(local.identityChainId)],
    [LOCAL_BOOTSTRAP_SEED_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, LOCAL_BOOTSTRAP_IDENTITY_HEX],
  );
  const seed = new Uint8Array(32).fill(7);
  const identityChainId = new Uint8Array(32).fill(8);
  const own = bootstrapSigner({ identityChainId, seed });
  assert.deepEqual(
    [toHex(own.seed), toHex(own.publicKey), toHex(own.identityChainId)],
    [toHex(seed), toHex(publicKeyFromSeed(seed)), toHex(identityChainId)],
  );
});

function custom(identityByte: number): CustomGenesis {
  return {
    identityChainId: new Uint8Array(32).fill(identityByte),
    allocations: [{ address: new Uint8Array(32).fill(1), amount: 5n }],
  };
}

/** Open a CUSTOM ledger over `dir` with `genesis`; returns it and its store, or throws what the open threw. */
function openCustom(dir: string, genesis: CustomGenesis): { ledger: Ledger; store: LedgerStore } {
  const store = LedgerStore.open({ path: join(dir, "db"), network: "CUSTOM", networkId: networkId("CUSTOM", "edges") });
  try {
    const ledger = Ledger.open(
      {
        network: "CUSTOM",
        customNet: "edges",
        customGenesis: genesis,
        bootstrap: { identityChainId: genesis.identityChainId, seed: new Uint8Array(32).fill(9) },
        blockTimeSeconds: 6,
      },
      { store, verifier: new InlineVerifier(), log: new MemoryLog(), now: () => T0 },
    );
    return { ledger, store };
  } catch (e) {
    void store.close();
    throw e;
  }
}

test("a CUSTOM directory opens again with its genesis configuration, and is refused with another", async () => {
  const dir = tempDir();
  try {
    let n = openCustom(dir, custom(3));
    const saved = toHex(directoryBlockHashes(n.ledger.directoryBlockByHeight(0)!.block).keyMR);
    await n.ledger.close();
    await n.store.close();
    n = openCustom(dir, custom(3));
    assert.equal(toHex(directoryBlockHashes(n.ledger.directoryBlockByHeight(0)!.block).keyMR), saved);
    await n.ledger.close();
    await n.store.close();
    const other = custom(4);
    const configured = toHex(directoryBlockHashes(genesisBlocks("CUSTOM", "edges", other).directory).keyMR);
    assert.notEqual(configured, saved);
    const path = join(dir, "db");
    assert.throws(
      () => openCustom(dir, other),
      (e: unknown) => {
        assert.ok(e instanceof StoreError);
        assert.deepEqual(e.type, {
          code: "GENESIS_MISMATCH",
          path,
          info:
            `${path} holds a CUSTOM network whose genesis block ${saved} is not the configured one ` +
            `(${configured}): the bootstrap identity or the genesis allocation changed since the directory ` +
            "was created; restore the configuration it was made with, or use another directory",
        });
        return true;
      },
    );
  } finally {
    cleanup(dir);
  }
});

test("blocks are signed by the bootstrap given", async () => {
  const dir = tempDir();
  try {
    const n = openCustom(dir, custom(5));
    try {
      const servers = n.ledger.federatedServers();
      assert.deepEqual(
        servers.map((s) => [toHex(s.chainId), toHex(s.signingKey)]),
        [[toHex(new Uint8Array(32).fill(5)), toHex(publicKeyFromSeed(new Uint8Array(32).fill(9)))]],
      );
    } finally {
      await n.ledger.close();
      await n.store.close();
    }
  } finally {
    cleanup(dir);
  }
});

test("a store missing a block of its saved height is refused as CORRUPT, naming the kind and the height", async () => {
  const dir = tempDir();
  try {
    const n = openNode(dir, { clock: new ManualClock(T0) });
    await finishBlock(n);
    const path = n.store.path;
    const asset = n.store.blockHashAt(BlockKind.asset, 1)!;
    await closeNode(n);
    const damage = async (edit: (dbs: ReturnType<typeof openDatabases>) => void): Promise<void> => {
      const env = openEnvironment(path);
      edit(openDatabases(env));
      await env.close();
    };
    /** Open a ledger over the damaged store: what it throws (the store is closed again). */
    const openError = async (): Promise<unknown> => {
      const store = LedgerStore.open({ path, network: "LOCAL", networkId: networkId("LOCAL", "test") });
      try {
        const ledger = Ledger.open(
          { network: "LOCAL", customNet: "test", blockTimeSeconds: 6 },
          { store, verifier: new InlineVerifier(), log: new MemoryLog(), now: () => T0 },
        );
        await ledger.close();
        return undefined;
      } catch (e) {
        return e;
      } finally {
        await store.close();
      }
    };
    const refusedWith = async (info: string): Promise<void> => {
      const e = await openError();
      assert.ok(e instanceof StoreError, `expected StoreError CORRUPT, got ${String(e)}`);
      assert.deepEqual(e.type, { code: "CORRUPT", path, info });
    };
    // the asset block itself is gone (its height still names it)
    await damage((dbs) => dbs.blocks.removeSync(asset));
    await refusedWith(`no block of kind ${BlockKind.asset} at the saved height 1`);
    // the admin block's height record is gone too: the first missing kind is named
    await damage((dbs) => dbs.heights.removeSync(heightKey(BlockKind.admin, 1)));
    await refusedWith(`no block of kind ${BlockKind.admin} at the saved height 1`);
  } finally {
    cleanup(dir);
  }
});

test("a CUSTOM store that lost its genesis block is refused as CORRUPT, not compared with the configuration", async () => {
  const dir = tempDir();
  try {
    const n = openCustom(dir, custom(6));
    await n.ledger.close();
    await n.store.close();
    const path = join(dir, "db");
    const env = openEnvironment(path);
    openDatabases(env).heights.removeSync(heightKey(BlockKind.directory, 0));
    await env.close();
    assert.throws(
      () => openCustom(dir, custom(6)),
      (e: unknown) => {
        assert.ok(e instanceof StoreError, `expected StoreError CORRUPT, got ${String(e)}`);
        assert.deepEqual(e.type, {
          code: "CORRUPT",
          path,
          info: `no block of kind ${BlockKind.directory} at the saved height 0`,
        });
        return true;
      },
    );
  } finally {
    cleanup(dir);
  }
});
