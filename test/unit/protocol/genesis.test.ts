import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { publicKeyFromSeed, signEd25519, verifyEd25519, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { encodeAddress } from "../../../src/protocol/address.js";
import { ByteWriter, concat, fromHex, toHex } from "../../../src/protocol/bytes.js";
import { directoryBlockHashes, encodeDirectoryBlock } from "../../../src/protocol/dblock.js";
import { ecBlockHashes, encodeECBlock } from "../../../src/protocol/ecblock.js";
import {
  assetBlockHashes,
  assetBlockTransactions,
  decodeAssetBlock,
  encodeAssetBlock,
} from "../../../src/protocol/fblock.js";
import { LOCAL_GENESIS_ASSET_BLOCK_HEX } from "../../../src/protocol/genesis/data.js";
import {
  GENESIS_TIMESTAMP_MINUTES,
  genesisAssetBlock,
  genesisBlocks,
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
  localGenesisAddressesHex,
} from "../../../src/protocol/genesis.js";
import { adminBlockJson } from "../../../src/protocol/json/adminBlockJson.js";
import { assetBlockJson } from "../../../src/protocol/json/assetBlockJson.js";
import { directoryBlockJson } from "../../../src/protocol/json/directoryBlockJson.js";
import { networkId, networkNameOfId } from "../../../src/protocol/network.js";
import {
  transactionFeeEC,
  transactionId,
  validateTransaction,
  verifyTransactionSignatures,
} from "../../../src/protocol/transaction.js";
import { expectProtocolError } from "../../support/fuzz.js";
import { loadVectorFiles } from "../../support/vectors.js";

const vectors = new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
const expected = (id: string) => vectors.get(id)!.expected as Record<string, string>;
const sha = (b: Uint8Array): Uint8Array => new Uint8Array(createHash("sha256").update(b).digest());

describe("LOCAL bootstrap key and identity", () => {
  test("the seed's ed25519 public key is cc1985cd…e31a and it signs verifiably", () => {
    const seed = fromHex(LOCAL_BOOTSTRAP_SEED_HEX, "seed", 32);
    const pub = publicKeyFromSeed(seed);
    assert.equal(toHex(pub), "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a");
    assert.equal(toHex(pub), LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX);
    assert.ok(LOCAL_BOOTSTRAP_SEED_HEX.startsWith("4c38c72f") && LOCAL_BOOTSTRAP_SEED_HEX.endsWith("d26d"));
    const header = encodeDirectoryBlock(genesisBlocks("LOCAL").directory).subarray(0, 113);
    const sig = signEd25519(seed, header);
    assert.ok(verifyEd25519(pub, header, sig));
    assert.ok(verifyEd25519Noble(pub, header, sig));
  });

  test('the identity is sha256("FNode0") = 38bab145…7be9', () => {
    assert.equal(toHex(sha(new TextEncoder().encode("FNode0"))), LOCAL_BOOTSTRAP_IDENTITY_HEX);
    assert.ok(LOCAL_BOOTSTRAP_IDENTITY_HEX.startsWith("38bab145") && LOCAL_BOOTSTRAP_IDENTITY_HEX.endsWith("7be9"));
  });
});

describe("LOCAL genesis from first principles", () => {
  test("directory block keyMR built byte by byte equals the derived vector and genesisBlocks(LOCAL)", () => {
    const zero = new Uint8Array(32);
    const chain = (last: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 0));
    // Admin block: header (chain …0a, zero prev, height 0, no expansion, 1 entry, 37 body bytes) ‖ 05 ‖ identity ‖ u32 1.
    const identity = sha(new TextEncoder().encode("FNode0"));
    const admin = concat(
      new ByteWriter()
        .bytes(chain(0x0a))
        .bytes(zero)
        .u32(0)
        .u8(0)
        .u32(1)
        .u32(37)
        .u8(0x05)
        .bytes(identity)
        .u32(1)
        .finish(),
    );
    // EC block: empty body, so BodyHash = sha256("") and the header hash is the whole block's hash.
    const ec = new ByteWriter()
      .bytes(chain(0x0c))
      .bytes(sha(new Uint8Array(0)))
      .bytes(zero)
      .bytes(zero)
      .u32(0)
      .u8(0)
      .u64(0)
      .u64(0)
      .finish();
    // Asset block: the fixed LocalGenesisBlockStr bytes; keyMR = sha256(sha256(header) ‖ bodyMR).
    const asset = fromHex(LOCAL_GENESIS_ASSET_BLOCK_HEX);
    const assetHeaderLen = 32 * 4 + 8 + 4 + 1 + 4 + 4;
    const assetKeyMR = sha(concat(sha(asset.subarray(0, assetHeaderLen)), asset.subarray(32, 64)));
    const entries = [
      [chain(0x0a), sha(admin)],
      [chain(0x0c), sha(ec)],
      [chain(0x0f), assetKeyMR],
    ] as const;
    const leaves = entries.map(([c, k]) => sha(concat(c, k)));
    const bodyMR = sha(concat(sha(concat(leaves[0]!, leaves[1]!)), sha(concat(leaves[2]!, leaves[2]!)))); // 3 leaves: last paired with itself
    const header = new ByteWriter()
      .u8(0)
      .u32(0xfa92e5a4)
      .bytes(bodyMR)
      .bytes(zero)
      .bytes(zero)
      .u32(24018960)
      .u32(0)
      .u32(3)
      .finish();
    const keyMR = sha(concat(sha(header), bodyMR));

    const v = expected("dblock-local-genesis-derived");
    assert.equal(toHex(keyMR), v.dblockKeyMR);
    assert.equal(toHex(keyMR), "c1fdd8c0a09e55e8b5f5e92eacb695d915b83af79735236fbd9274e37b26adc7");
    const dblock = concat(header, ...entries.flat());
    assert.equal(toHex(dblock), v.dblockHex);
    assert.equal(toHex(sha(dblock)), v.dblockFullHash);

    const g = genesisBlocks("LOCAL");
    assert.equal(toHex(encodeAdminBlock(g.admin)), toHex(admin));
    assert.equal(toHex(encodeECBlock(g.ec)), toHex(ec));
    assert.equal(toHex(ecBlockHashes(g.ec).headerHash), toHex(sha(ec)));
    assert.equal(toHex(encodeAssetBlock(g.asset)), toHex(asset));
    assert.equal(toHex(encodeDirectoryBlock(g.directory)), toHex(dblock));
    assert.equal(toHex(directoryBlockHashes(g.directory).keyMR), toHex(keyMR));
    assert.equal(toHex(assetBlockHashes(g.asset).keyMR), toHex(assetKeyMR));
  });

  test("the funding transaction pays 25 addresses 2,000,000,000,000 base units each from the coinbase output", () => {
    const block = genesisAssetBlock("LOCAL");
    assert.equal(block.exchangeRate, 1000n);
    const [coinbase, funding, ...rest] = assetBlockTransactions(block);
    assert.equal(rest.length, 0);
    assert.equal(coinbase!.inputs.length, 0);
    assert.equal(coinbase!.outputs.length, 1);
    assert.equal(coinbase!.outputs[0]!.amount, 50000000253000n);
    assert.equal(coinbase!.milliTimestamp, 1441108800000);
    assert.equal(funding!.inputs.length, 1);
    assert.equal(toHex(funding!.inputs[0]!.address), toHex(coinbase!.outputs[0]!.address));
    assert.equal(funding!.inputs[0]!.amount, coinbase!.outputs[0]!.amount);
    assert.equal(funding!.outputs.length, 25);
    assert.equal(funding!.ecOutputs.length, 0);
    for (const o of funding!.outputs) assert.equal(o.amount, 2_000_000_000_000n);
    const funded = new Set(funding!.outputs.map((o) => encodeAddress("FA", o.address)));
    assert.equal(funded.size, 25, "25 distinct addresses");
    for (const a of [
      "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q", // sandbox key
      "FA1zT4aFpEvcnPqPCigB3fvGu4Q4mTXY22iiuV69DqE1pNhdF2MC", // zero seed
      "FA2egPv9XfBthJVBGRJF3oPuCypPFZPwHGtT41SWXktQqqra9LZm", // all-0xff seed
      "FA3EPZYqodgyEGXNMbiZKE5TS2x2J9wF8J9MvPZb52iGR78xMgCb", // tests_python wallet
    ])
      assert.ok(funded.has(a), a);
    assert.ok(verifyTransactionSignatures(funding!));
    // The 253000 base units left over are exactly the fee at the LOCAL rate: 2 EC (1096 bytes) + 25 × 10 + 1 signature.
    assert.equal(transactionFeeEC(funding!), 253);
    validateTransaction(funding!, 1000n);
    expectProtocolError(() => validateTransaction(funding!, 1001n), "BAD_VALUE");
    assert.equal(toHex(transactionId(funding!)), "914333898b4cd3a87091ced94d6276090a1a266e1f4b7578e2b036cfaf9aaf3e");
  });
});

describe("genesis per network", () => {
  test("MAIN is factomd's mainnet block 0; TEST matches its derived vector", () => {
    const main = genesisBlocks("MAIN");
    assert.equal(toHex(encodeDirectoryBlock(main.directory)), vectors.get("dblock-factomd-static-1")!.input.dblockHex);
    assert.equal(main.directory.timestamp, GENESIS_TIMESTAMP_MINUTES);
    assert.equal(main.admin.entries.length, 0);
    assert.equal(main.ec.items.length, 11, "server index + minutes 1..10");
    assert.equal(main.asset.exchangeRate, 666600n);
    const test = genesisBlocks("TEST");
    assert.equal(
      toHex(directoryBlockHashes(test.directory).keyMR),
      expected("dblock-test-genesis-derived").dblockKeyMR,
    );
    assert.equal(toHex((test.admin.entries[0] as { identityChainId: Uint8Array }).identityChainId), "00".repeat(32));
    assert.equal(test.asset.exchangeRate, 666600n);
    assert.equal(test.ec.items.length, 0);
  });

  test("CUSTOM: hashed network id, the operator's bootstrap identity and allocation, never LOCAL's block", () => {
    const id = networkId("CUSTOM", "gen");
    assert.equal(id, new DataView(sha(new TextEncoder().encode("gen")).buffer).getUint32(0));
    assert.equal(networkNameOfId(id), undefined);
    const identityChainId = fromHex("ab".repeat(32));
    const address = fromHex("cd".repeat(32));
    const custom = genesisBlocks("CUSTOM", "gen", {
      identityChainId,
      allocations: [{ address, amount: 7n * 10n ** 8n }],
    });
    const local = genesisBlocks("LOCAL");
    assert.equal(custom.directory.networkId, id);
    assert.notEqual(toHex(encodeAssetBlock(custom.asset)), toHex(encodeAssetBlock(local.asset)));
    assert.equal((custom.admin.entries[0] as { identityChainId: Uint8Array }).identityChainId.length, 32);
    assert.equal(toHex((custom.admin.entries[0] as { identityChainId: Uint8Array }).identityChainId), "ab".repeat(32));
    // one coinbase paying exactly the allocation, at the genesis time, LOCAL's exchange rate
    const txs = assetBlockTransactions(custom.asset);
    assert.equal(txs.length, 1);
    assert.equal(txs[0]!.inputs.length, 0);
    assert.deepEqual(
      txs[0]!.outputs.map((o) => [toHex(o.address), o.amount]),
      [["cd".repeat(32), 700000000n]],
    );
    assert.equal(txs[0]!.milliTimestamp, GENESIS_TIMESTAMP_MINUTES * 60_000);
    assert.equal(custom.asset.exchangeRate, 1000n);
    // the encoded block decodes to itself (a valid asset block)
    assert.equal(
      toHex(assetBlockHashes(custom.asset).keyMR),
      toHex(assetBlockHashes(decodeAssetBlock(encodeAssetBlock(custom.asset))).keyMR),
    );
    const other = genesisBlocks("CUSTOM", "gen", { identityChainId, allocations: [{ address, amount: 8n }] });
    assert.notEqual(
      toHex(directoryBlockHashes(other.directory).keyMR),
      toHex(directoryBlockHashes(custom.directory).keyMR),
    );
    expectProtocolError(() => networkId("CUSTOM"), "BAD_VALUE");
    expectProtocolError(() => genesisBlocks("CUSTOM", "gen"), "BAD_VALUE");
    expectProtocolError(
      () => genesisBlocks("CUSTOM", "gen", { identityChainId: new Uint8Array(5), allocations: [] }),
      "BAD_LENGTH",
    );
    expectProtocolError(
      () => genesisBlocks("CUSTOM", "gen", { identityChainId, allocations: [{ address, amount: 1n << 63n }] }),
      "BAD_VALUE",
    );
    // the well-known LOCAL addresses include the one of the published genesis key
    assert.ok(localGenesisAddressesHex().size >= 2);
  });

  test("fixed network ids", () => {
    assert.equal(networkId("MAIN"), 4203931042);
    assert.equal(networkId("TEST"), 4203931043);
    assert.equal(networkId("LOCAL"), 4203931044);
    assert.equal(networkNameOfId(4203931044), "LOCAL");
    expectProtocolError(() => networkId("MOON" as "MAIN"), "BAD_VALUE");
  });

  test("LOCAL genesis as the API shows it", () => {
    const g = genesisBlocks("LOCAL");
    const d = directoryBlockJson(g.directory);
    assert.equal(d.header.networkid, 4203931044);
    assert.equal(d.header.timestamp, 24018960);
    assert.equal(d.header.prevkeymr, "00".repeat(32));
    assert.deepEqual(
      d.dbentries.map((e) => e.chainid.slice(-1)),
      ["a", "c", "f"],
    );
    const a = adminBlockJson(g.admin);
    assert.deepEqual(a.abentries, [{ adminidtype: 5, identitychainid: LOCAL_BOOTSTRAP_IDENTITY_HEX, dbheight: 1 }]);
    assert.equal(a.lookuphash, d.dbentries[0]!.keymr);
    const f = assetBlockJson(g.asset);
    assert.equal(f.exchrate, 1000);
    assert.equal(f.keymr, d.dbentries[2]!.keymr);
    assert.equal(f.transactions.length, 2);
    assert.equal(f.transactions[1]!.outputs.length, 25);
  });
});
