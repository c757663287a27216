/**
 * isDirectoryBlockSignature, which only the block tests of the ledger used (the first mutation run of
 * protocol/ablock.ts found it unexecuted by the protocol tests): true for a type-01 entry only, and never
 * for an entry in forward-compatible form.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type AdminEntry, isDirectoryBlockSignature } from "../../../src/protocol/ablock.js";

describe("isDirectoryBlockSignature", () => {
  test("a type-01 entry is one; other types and forward-compatible forms are not", () => {
    const h = new Uint8Array(32);
    const sig: AdminEntry = { type: 0x01, identityAdminChainId: h, publicKey: h, signature: new Uint8Array(64) };
    assert.equal(isDirectoryBlockSignature(sig), true);
    assert.equal(isDirectoryBlockSignature({ type: 0x02, identityChainId: h, hash: h }), false);
    assert.equal(isDirectoryBlockSignature({ type: 0x00, minute: 1 }), false);
    assert.equal(isDirectoryBlockSignature({ type: 0x01, data: new Uint8Array(1), forwardCompatible: true }), false);
  });
});
