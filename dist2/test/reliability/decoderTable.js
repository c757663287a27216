/**
 * Every decoder of the protocol layer (and the journal's message decoder, which reads bytes back from disk)
 * as one table for the fuzzer: how to call it on bytes, which corpus objects are its valid inputs, and what
 * an accepted input must satisfy — re-encoding an accepted input gives the same bytes back, so no two
 * byte strings decode to one object (the bytes a node hashes are the bytes it was sent).
 *
 * Text decoders (addresses, base58, hex, receipts in JSON) get the fuzz bytes as Latin-1 text, so the
 * byte mutations of the fuzzer become character mutations.
 */
import assert from "node:assert/strict";
import { decodeMessage, encodeMessage } from "../../src/ledger/messages.js";
import { decodeAdminBlock, decodeServerFault, encodeAdminBlock } from "../../src/protocol/ablock.js";
import { decodeAddress, encodeAddress, keyPairFromPrivate } from "../../src/protocol/address.js";
import { base58Decode, base58Encode } from "../../src/protocol/base58.js";
import { ByteReader, encodeVarint, fromHex, toHex } from "../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../src/protocol/chains.js";
import { decodeChainCommit, decodeEntryCommit, encodeCommit, parseChainCommit, parseEntryCommit, } from "../../src/protocol/commit.js";
import { buildDirectoryBlock, decodeDirectoryBlock, encodeDirectoryBlock } from "../../src/protocol/dblock.js";
import { decodeEntryBlock, encodeEntryBlock, entryBlockHashes } from "../../src/protocol/eblock.js";
import { decodeECBlock, encodeECBlock } from "../../src/protocol/ecblock.js";
import { marshalEntry, unmarshalEntry } from "../../src/protocol/entry.js";
import { decodeAssetBlock, encodeAssetBlock } from "../../src/protocol/fblock.js";
import { receiptFromJson, receiptToJson } from "../../src/protocol/json/receiptJson.js";
import { buildReceipt, verifyReceipt } from "../../src/protocol/receipt.js";
import { decodeTransaction, decodeTransactionAt, encodeTransaction } from "../../src/protocol/transaction.js";
import { testSeed } from "./corpus.js";
const latin1 = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");
const bytesOf = (s) => new Uint8Array(Buffer.from(s, "latin1"));
function sameBytes(what, got, want) {
    if (toHex(got) !== toHex(want))
        assert.fail(`${what}: accepted input does not re-encode to itself\n input ${toHex(want)}\n again ${toHex(got)}`);
}
/** Journal messages of every kind, built from corpus objects. */
function journalSeeds(c) {
    const t = 1_700_000_000_000;
    return [
        encodeMessage({ kind: "commit", timeMs: t, commit: decodeEntryCommit(c.entryCommits[0]) }),
        encodeMessage({ kind: "commit", timeMs: t, commit: decodeChainCommit(c.chainCommits[0]) }),
        encodeMessage({ kind: "reveal", timeMs: t, entryRaw: c.entries[0] }),
        encodeMessage({ kind: "transaction", timeMs: t, tx: decodeTransaction(c.transactions[0]) }),
        encodeMessage({ kind: "endOfMinute", timeMs: t, minute: 9 }),
        encodeMessage({ kind: "blockStart", timeMs: t }),
    ];
}
/** A receipt (as JSON text) of the corpus' entry block, in a directory block built around it. */
function receiptSeed(c) {
    const eblock = decodeEntryBlock(c.entryBlocks[0]);
    const dblock = buildDirectoryBlock({
        version: 0,
        networkId: 0xfa92e5a4,
        prevKeyMR: testSeed("receipt prev"),
        prevFullHash: testSeed("receipt prev full"),
        timestamp: 28_000_000,
        dbHeight: 9,
        entries: [
            { chainId: ADMIN_CHAIN_ID.slice(), keyMR: testSeed("a") },
            { chainId: EC_CHAIN_ID.slice(), keyMR: testSeed("c") },
            { chainId: ASSET_CHAIN_ID.slice(), keyMR: testSeed("f") },
            { chainId: eblock.chainId, keyMR: entryBlockHashes(eblock).keyMR },
        ],
    });
    const receipt = buildReceipt(eblock.items[0], eblock, dblock);
    assert.ok(verifyReceipt(receipt), "the seed receipt verifies");
    return bytesOf(JSON.stringify(receiptToJson(receipt)));
}
/** The table. `c` provides the valid inputs. */
export function decoderTable(c) {
    const blockish = 4096;
    return [
        {
            name: "unmarshalEntry",
            decode: unmarshalEntry,
            ownSeeds: c.entries,
            onAccept: (e, b) => sameBytes("entry", marshalEntry(e), b),
            maxRandomLength: 400,
        },
        {
            name: "decodeEntryCommit",
            decode: decodeEntryCommit,
            ownSeeds: c.entryCommits,
            onAccept: (v, b) => sameBytes("entry commit", encodeCommit(v), b),
            maxRandomLength: 300,
        },
        {
            name: "decodeChainCommit",
            decode: decodeChainCommit,
            ownSeeds: c.chainCommits,
            onAccept: (v, b) => sameBytes("chain commit", encodeCommit(v), b),
            maxRandomLength: 300,
        },
        { name: "parseEntryCommit", decode: parseEntryCommit, ownSeeds: c.entryCommits, maxRandomLength: 300 },
        { name: "parseChainCommit", decode: parseChainCommit, ownSeeds: c.chainCommits, maxRandomLength: 300 },
        {
            name: "decodeTransaction",
            decode: decodeTransaction,
            ownSeeds: c.transactions,
            onAccept: (v, b) => {
                sameBytes("transaction.raw", v.raw, b);
                if (v.inputs.length === v.rcds.length &&
                    v.inputs.length === v.signatures.length &&
                    v.signatures.every((s) => s.length === 1))
                    sameBytes("transaction", encodeTransaction(v), b);
            },
            maxRandomLength: 600,
        },
        {
            name: "decodeTransactionAt",
            // a transaction inside a larger buffer (block bodies, send-raw-message): offset 1 past a type byte
            decode: (b) => decodeTransactionAt(b, 1),
            ownSeeds: c.transactions.map((t) => Uint8Array.of(0x09, ...t, 0xaa, 0xbb)),
            onAccept: (v, b) => assert.ok(v.size >= 1 && v.size <= b.length - 1, `size ${v.size} of ${b.length}`),
            maxRandomLength: 600,
        },
        {
            name: "decodeEntryBlock",
            decode: (b) => decodeEntryBlock(b),
            ownSeeds: c.entryBlocks,
            onAccept: (v, b) => sameBytes("entry block", encodeEntryBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "decodeEntryBlock(no bodyMR check)",
            decode: (b) => decodeEntryBlock(b, { verifyBodyMR: false }),
            ownSeeds: c.entryBlocks,
            onAccept: (v, b) => sameBytes("entry block", encodeEntryBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "decodeECBlock",
            decode: (b) => decodeECBlock(b),
            ownSeeds: c.ecBlocks,
            onAccept: (v, b) => sameBytes("ec block", encodeECBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "decodeECBlock(no body hash check)",
            decode: (b) => decodeECBlock(b, { verifyBodyHash: false }),
            ownSeeds: c.ecBlocks,
            onAccept: (v, b) => sameBytes("ec block", encodeECBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "decodeAssetBlock",
            decode: decodeAssetBlock,
            ownSeeds: c.assetBlocks,
            onAccept: (v, b) => sameBytes("asset block", encodeAssetBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "decodeAdminBlock",
            decode: decodeAdminBlock,
            ownSeeds: c.adminBlocks,
            onAccept: (v, b) => sameBytes("admin block", encodeAdminBlock(v), b),
            maxRandomLength: blockish,
        },
        { name: "decodeServerFault", decode: decodeServerFault, ownSeeds: c.serverFaults, maxRandomLength: 600 },
        {
            name: "decodeDirectoryBlock",
            decode: decodeDirectoryBlock,
            ownSeeds: c.directoryBlocks,
            onAccept: (v, b) => sameBytes("directory block", encodeDirectoryBlock(v), b),
            maxRandomLength: blockish,
        },
        {
            name: "ByteReader.varint",
            decode: (b) => {
                const r = new ByteReader(b, "fuzz");
                const v = r.varint("v");
                r.end();
                return v;
            },
            ownSeeds: [0n, 127n, 128n, 16383n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n].map((v) => encodeVarint(v)),
            onAccept: (v, b) => sameBytes("varint", encodeVarint(v), b),
            maxRandomLength: 14,
        },
        {
            name: "decodeMessage (journal)",
            decode: decodeMessage,
            ownSeeds: journalSeeds(c),
            onAccept: (v, b) => sameBytes("journal message", encodeMessage(v), b),
            maxRandomLength: 400,
        },
        {
            name: "decodeAddress",
            decode: (b) => decodeAddress(latin1(b)),
            ownSeeds: c.addresses.map(bytesOf),
            onAccept: (v, b) => assert.equal(encodeAddress(v.kind, v.key), latin1(b)),
            maxRandomLength: 60,
        },
        {
            name: "keyPairFromPrivate",
            decode: (b) => keyPairFromPrivate(latin1(b)),
            ownSeeds: c.addresses.filter((a) => a.startsWith("Fs") || a.startsWith("Es")).map(bytesOf),
            maxRandomLength: 60,
        },
        {
            name: "base58Decode",
            decode: (b) => base58Decode(latin1(b), "fuzz"),
            ownSeeds: c.addresses.map(bytesOf),
            onAccept: (v, b) => assert.equal(base58Encode(v), latin1(b)),
            maxRandomLength: 80,
        },
        {
            name: "fromHex",
            decode: (b) => fromHex(latin1(b), "fuzz"),
            ownSeeds: [bytesOf(toHex(c.entryCommits[0])), bytesOf("00"), bytesOf("AbCdEf")],
            onAccept: (v, b) => assert.equal(toHex(v), latin1(b).toLowerCase()),
            maxRandomLength: 80,
        },
        {
            name: "receiptFromJson",
            // Text that is not JSON is handed over as the string itself: the decoder must refuse it too.
            decode: (b) => {
                const text = latin1(b);
                let json;
                try {
                    json = JSON.parse(text);
                }
                catch {
                    json = text;
                }
                return receiptFromJson(json);
            },
            ownSeeds: [receiptSeed(c)],
            onAccept: (v) => {
                verifyReceipt(v); // must not throw on whatever was accepted
            },
            maxRandomLength: 200,
        },
    ];
}
//# sourceMappingURL=decoderTable.js.map