/**
 * Edges of protocol/genesis.ts that its first mutation run (bfc2b53) left open (docs/testing.md): the
 * CUSTOM genesis builder's refusals with their texts (an allocation count, an address size, a total at
 * 2^63, an identity of the wrong size, a CUSTOM network without its genesis, the fixed-block function asked
 * for CUSTOM), their limits (255 allocations, a total of 2^63 − 1), and that the hashes of the genesis
 * blocks are copies: writing into a returned block must not change the shared zero hash or chain IDs.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ZERO_HASH } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { customGenesisAssetBlock, genesisAssetBlock, genesisBlocks } from "../../../src/protocol/genesis.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));
const alloc = (i: number, amount: bigint): { address: Uint8Array; amount: bigint } => ({
  address: h(`address ${i}`),
  amount,
});

describe("CUSTOM genesis edges", () => {
  test("allocations: 255 allowed, 256 refused; a 31-byte address refused", () => {
    const many = Array.from({ length: 255 }, (_, i) => alloc(i, 1n));
    assert.equal(customGenesisAssetBlock(many).periods[0]![0]!.outputs.length, 255);
    assert.equal(
      errorOf(() => customGenesisAssetBlock([...many, alloc(255, 1n)])),
      "BAD_VALUE allocations: at most 255 outputs, got 256",
    );
    assert.equal(
      errorOf(() => customGenesisAssetBlock([alloc(0, 1n), { address: h("x").subarray(0, 31), amount: 1n }])),
      "BAD_LENGTH allocations.address: expected 32 bytes",
    );
  });

  test("the total: 2^63 − 1 allowed, 2^63 refused with its text", () => {
    const ok = customGenesisAssetBlock([alloc(0, 2n ** 62n), alloc(1, 2n ** 62n - 1n)]);
    const outputs = ok.periods[0]![0]!.outputs;
    assert.equal(outputs[0]!.amount + outputs[1]!.amount, 2n ** 63n - 1n);
    assert.equal(
      errorOf(() => customGenesisAssetBlock([alloc(0, 2n ** 62n), alloc(1, 2n ** 62n)])),
      "BAD_VALUE allocations: the total 9223372036854775808 is not below 2^63 base units",
    );
  });

  test("an identity of the wrong size, a CUSTOM network without its genesis, the fixed block asked for CUSTOM", () => {
    assert.equal(
      errorOf(() => genesisBlocks("CUSTOM", "edges", { identityChainId: h("id").subarray(0, 31), allocations: [] })),
      "BAD_LENGTH customGenesis.identityChainId: expected 32 bytes",
    );
    assert.equal(
      errorOf(() => genesisBlocks("CUSTOM", "edges")),
      "BAD_VALUE customGenesis: a CUSTOM network needs its own genesis (bootstrap identity and allocations)",
    );
    assert.equal(
      errorOf(() => genesisAssetBlock("CUSTOM")),
      "BAD_VALUE network: a CUSTOM genesis asset block comes from customGenesisAssetBlock",
    );
  });

  test("the hashes of genesis blocks are copies of the shared constants", () => {
    const constants = [ZERO_HASH, ADMIN_CHAIN_ID, EC_CHAIN_ID, ASSET_CHAIN_ID];
    const before = constants.map((c) => c.slice());
    const identity = h("custom identity");
    for (const g of [
      genesisBlocks("TEST"),
      genesisBlocks("CUSTOM", "edges", { identityChainId: identity, allocations: [alloc(0, 5n)] }),
    ]) {
      const held = [
        g.admin.prevBackRefHash,
        g.ec.prevHeaderHash,
        g.ec.prevFullHash,
        g.asset.prevKeyMR,
        g.asset.prevLedgerKeyMR,
        g.directory.prevKeyMR,
        g.directory.prevFullHash,
        ...g.directory.entries.map((e) => e.chainId),
      ];
      const first = g.admin.entries[0];
      if (first !== undefined && "identityChainId" in first) held.push(first.identityChainId);
      for (const b of held) b.fill(0xee);
    }
    assert.deepEqual(constants, before);
    assert.deepEqual(identity, h("custom identity"), "the configured identity is copied too");
  });
});
