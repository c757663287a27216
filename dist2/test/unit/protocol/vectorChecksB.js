import assert from "node:assert/strict";
import { verifyEd25519, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { adminBlockHashes, decodeAdminBlock, encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { decodeAddress, encodeAddress, keyPairFromPrivate } from "../../../src/protocol/address.js";
import { ByteReader, ByteWriter, concat, encodeVarint, fromHex, toHex, varintSize, ZERO_HASH, } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildDirectoryBlock, decodeDirectoryBlock, directoryBlockBodyMR, directoryBlockHashes, encodeDirectoryBlock, encodeDirectoryBlockHeader, } from "../../../src/protocol/dblock.js";
import { ecBlockHashes, encodeECBlock } from "../../../src/protocol/ecblock.js";
import { assetBlockBodyMR, assetBlockHashes, assetBlockTransactions, decodeAssetBlock, encodeAssetBlock, } from "../../../src/protocol/fblock.js";
import { genesisAssetBlock, genesisBlocks, MAIN_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../../src/protocol/genesis.js";
import { sha256d } from "../../../src/protocol/hash.js";
import { adminBlockJson } from "../../../src/protocol/json/adminBlockJson.js";
import { assetBlockJson } from "../../../src/protocol/json/assetBlockJson.js";
import { directoryBlockJson, directoryBlockSimpleJson } from "../../../src/protocol/json/directoryBlockJson.js";
import { assetTransactionJson } from "../../../src/protocol/json/transactionJson.js";
import { buildTransaction, decodeTransaction, encodeTransaction, transactionFeeEC, transactionFullHash, transactionId, validateTransaction, verifyTransactionSignatures, } from "../../../src/protocol/transaction.js";
import { covers, eqHex, hexOf, loadVectorFiles, str, } from "../../support/vectors.js";
function notes(v) {
    assert.equal(typeof v.notes, "string", `${v.id}: notes`);
    return v.notes;
}
/** The 64-hex value that follows `label` in a notes sentence. */
function noteHash(v, label) {
    const m = new RegExp(`${label}\\s+([0-9a-f]{64})`).exec(notes(v));
    assert.ok(m, `${v.id}: notes mention ${label}`);
    return m[1];
}
/** Every vector of blocks.json / transactions.json by id (for checks that link two vectors). */
let vectorIndex;
function vectorById(id) {
    vectorIndex ??= new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
    const v = vectorIndex.get(id);
    assert.ok(v, `vector ${id} exists`);
    return v;
}
// ── transactions ─────────────────────────────────────────────────────────────────────────────────────────
/** Decode, re-encode byte-exactly (both the struct encoder and the kept raw bytes), and return the tx. */
function decodeTx(hex) {
    const tx = decodeTransaction(hex);
    eqHex(tx.raw, toHex(hex), "raw kept");
    eqHex(encodeTransaction(tx), toHex(hex), "re-encoded");
    eqHex(tx.signedPart, toHex(hex.subarray(0, tx.signedPart.length)), "signed part is a prefix");
    return tx;
}
function rcdsMatchInputs(tx) {
    return (tx.inputs.length === tx.rcds.length && tx.inputs.every((io, i) => toHex(sha256d(tx.rcds[i])) === toHex(io.address)));
}
/** Signature checks through node:crypto and, independently, @noble/ed25519. */
function signaturesValid(tx) {
    const nodeOk = verifyTransactionSignatures(tx);
    const nobleOk = tx.rcds.every((rcd, i) => verifyEd25519Noble(rcd.subarray(1), tx.signedPart, tx.signatures[i][0]));
    assert.equal(nodeOk, nobleOk, "node:crypto and noble agree");
    return nodeOk;
}
function checkCoinbase(v, txid, millis) {
    const tx = decodeTx(hexOf(v.input, "txHex"));
    eqHex(transactionId(tx), txid, "txid");
    eqHex(transactionFullHash(tx), txid, "coinbase full hash == txid");
    assert.equal(tx.inputs.length + tx.outputs.length + tx.ecOutputs.length, 0);
    if (millis !== undefined)
        assert.equal(tx.milliTimestamp, millis);
    return tx;
}
// ── blocks ───────────────────────────────────────────────────────────────────────────────────────────────
function decodeDBlock(hex) {
    const block = decodeDirectoryBlock(hex);
    eqHex(encodeDirectoryBlock(block), toHex(hex), "re-encoded");
    eqHex(directoryBlockBodyMR(block.entries), toHex(block.bodyMR), "stored bodyMR");
    return block;
}
/** JSON shapes agree with the block: full (minutes) and simplified (seconds). */
function checkDBlockJson(block) {
    const h = directoryBlockHashes(block);
    const full = directoryBlockJson(block);
    assert.equal(full.keymr, toHex(h.keyMR));
    assert.equal(full.dbhash, toHex(h.fullHash));
    assert.equal(full.headerhash, toHex(h.headerHash));
    assert.equal(full.header.timestamp, block.timestamp);
    assert.equal(full.header.networkid, block.networkId);
    assert.equal(full.header.blockcount, block.entries.length);
    assert.equal(full.header.chainid, `${"0".repeat(63)}d`);
    const simple = directoryBlockSimpleJson(block);
    assert.deepEqual(simple, {
        header: { prevblockkeymr: full.header.prevkeymr, sequencenumber: block.dbHeight, timestamp: block.timestamp * 60 },
        entryblocklist: full.dbentries,
    });
}
function checkStaticDBlock(v) {
    covers(v, ["keyMR", "hash", "storedBodyMRMatches"]);
    assert.equal(v.expected.storedBodyMRMatches, true);
    const block = decodeDBlock(hexOf(v.input, "dblockHex"));
    const h = directoryBlockHashes(block);
    eqHex(h.keyMR, v.expected.keyMR, "keyMR");
    eqHex(h.fullHash, v.expected.hash, "full hash");
    checkDBlockJson(block);
}
function decodeABlock(hex) {
    const block = decodeAdminBlock(hex);
    eqHex(encodeAdminBlock(block), toHex(hex), "re-encoded");
    return block;
}
/** Body size = block bytes minus the header (chain, prev, height, expansion, count, size). */
function adminBodySize(block, raw) {
    const header = 32 + 32 + 4 + varintSize(block.headerExpansion.length) + block.headerExpansion.length + 8;
    const stored = new ByteReader(raw.subarray(header - 4, header), "bodySize").u32("bodySize");
    assert.equal(raw.length - header, stored, "stored body size == actual body bytes");
    return stored;
}
/** Entry types from a description: "entry types [1,0]" (every entry) or "entry types 6,1,11" (first appearance). */
function describedTypes(v, block) {
    const types = block.entries.map((e) => e.type);
    const list = /entry types \[([\d,]+)\]/.exec(v.description);
    if (list) {
        assert.deepEqual(types, list[1].split(",").map(Number), "entry types");
        return;
    }
    const distinct = /entry types ([\d,]+)\)/.exec(v.description);
    if (distinct)
        assert.deepEqual([...new Set(types)], distinct[1].split(",").map(Number), "distinct entry types");
}
/** Hashes, JSON and description of an admin block vector; returns the block. */
function checkABlock(v, hexKey, keys) {
    covers(v, keys);
    const raw = hexOf(v.input, hexKey);
    const block = decodeABlock(raw);
    const h = adminBlockHashes(block);
    eqHex(h.lookupHash, v.expected.lookupHash, "lookup hash");
    eqHex(h.backReferenceHash, v.expected.backReferenceHash, "back-reference hash");
    const bodySize = adminBodySize(block, raw);
    if ("bodySize" in v.expected)
        assert.equal(bodySize, v.expected.bodySize);
    if ("bodySizeMatches" in v.expected)
        assert.equal(v.expected.bodySizeMatches, true);
    describedTypes(v, block);
    const json = adminBlockJson(block);
    assert.equal(json.lookuphash, toHex(h.lookupHash));
    assert.equal(json.backreferencehash, toHex(h.backReferenceHash));
    assert.equal(json.header.bodysize, bodySize);
    assert.equal(json.header.messagecount, block.entries.length);
    assert.deepEqual(json.abentries.map((e) => e.adminidtype), block.entries.map((e) => e.type));
    return block;
}
function decodeFBlock(hex) {
    const block = decodeAssetBlock(hex);
    eqHex(encodeAssetBlock(block), toHex(hex), "re-encoded");
    eqHex(assetBlockBodyMR(block.periods), toHex(block.bodyMR), "stored bodyMR");
    return block;
}
/** Body size field == transactions + 10 markers; tx count field == transactions. */
function checkFBlockSizes(block, raw) {
    const r = new ByteReader(raw, "fblock");
    r.offset = 32 * 4 + 8 + 4;
    const exp = Number(r.varint("exp"));
    r.offset += exp;
    const txs = assetBlockTransactions(block);
    assert.equal(r.u32("txCount"), txs.length, "tx count excludes markers");
    const bodySize = r.u32("bodySize");
    assert.equal(bodySize, txs.reduce((n, tx) => n + tx.raw.length, 0) + 10, "body size includes the 10 markers");
    assert.equal(raw.length - r.offset, bodySize);
}
function checkFBlockJson(block) {
    const h = assetBlockHashes(block);
    const json = assetBlockJson(block);
    assert.equal(json.keymr, toHex(h.keyMR));
    assert.equal(json.ledgerkeymr, toHex(h.ledgerKeyMR));
    assert.equal(json.bodymr, toHex(block.bodyMR));
    assert.equal(json.chainid, `${"0".repeat(63)}f`);
    assert.deepEqual(json.transactions.map((t) => t.txid), assetBlockTransactions(block).map((tx) => toHex(transactionId(tx))));
}
function checkStaticFBlock(v) {
    const raw = hexOf(v.input, "fblockHex");
    const block = decodeFBlock(raw);
    const h = assetBlockHashes(block);
    eqHex(h.keyMR, v.expected.keyMR, "keyMR");
    eqHex(h.ledgerKeyMR, v.expected.ledgerKeyMR, "ledgerKeyMR");
    if ("storedBodyMRMatches" in v.expected)
        assert.equal(v.expected.storedBodyMRMatches, true);
    if ("bodySizeMatches" in v.expected)
        assert.equal(v.expected.bodySizeMatches, true);
    checkFBlockSizes(block, raw);
    checkFBlockJson(block);
    for (const tx of assetBlockTransactions(block).slice(1)) {
        assert.ok(rcdsMatchInputs(tx), "every RCD matches its input");
        assert.ok(signaturesValid(tx), "every signature verifies");
    }
    return block;
}
const NETWORK_OF_GENESIS = {
    "fblock-genesis-local": "LOCAL",
    "fblock-genesis-test": "TEST",
    "fblock-genesis-main": "MAIN",
};
function checkGenesisFBlock(v) {
    covers(v, ["storedBodyMRMatches", "exchRate", "dbHeight", "bodySizeMatches"]);
    assert.equal(v.expected.storedBodyMRMatches, true);
    assert.equal(v.expected.bodySizeMatches, true);
    const raw = hexOf(v.input, "fblockHex");
    const block = decodeFBlock(raw);
    checkFBlockSizes(block, raw);
    assert.equal(block.exchangeRate, BigInt(v.expected.exchRate));
    assert.equal(block.dbHeight, v.expected.dbHeight);
    const h = assetBlockHashes(block);
    eqHex(h.keyMR, noteHash(v, "keyMR"), "keyMR (notes)");
    eqHex(h.ledgerKeyMR, noteHash(v, "ledgerKeyMR"), "ledgerKeyMR (notes)");
    const count = /(\d+) transactions/.exec(notes(v));
    assert.equal(assetBlockTransactions(block).length, Number(count?.[1]), "transaction count (notes)");
    // The embedded genesis constant is these very bytes.
    eqHex(encodeAssetBlock(genesisAssetBlock(NETWORK_OF_GENESIS[v.id])), toHex(raw), "embedded genesis block");
    checkFBlockJson(block);
    for (const tx of assetBlockTransactions(block).slice(1)) {
        assert.ok(rcdsMatchInputs(tx));
        assert.ok(signaturesValid(tx));
    }
}
/** LOCAL/TEST genesis built from first principles against the derived vector. */
function checkDerivedGenesis(v, network) {
    covers(v, [
        "adminLookupHash",
        "adminBackRefHash",
        "ecHeaderHash",
        "ecFullHash",
        "factoidKeyMR",
        "factoidLedgerKeyMR",
        "dblockHex",
        "dblockKeyMR",
        "dblockFullHash",
    ]);
    const g = genesisBlocks(network);
    eqHex(encodeAdminBlock(g.admin), str(v.input, "adminBlockHex"), "admin block bytes");
    eqHex(encodeECBlock(g.ec), str(v.input, "ecBlockHex"), "EC block bytes");
    eqHex(encodeAssetBlock(g.asset), str(v.input, "factoidBlockHex"), "asset block bytes");
    assert.deepEqual(decodeABlock(hexOf(v.input, "adminBlockHex")), g.admin, "admin block decodes to the built one");
    const a = adminBlockHashes(g.admin);
    eqHex(a.lookupHash, v.expected.adminLookupHash, "admin lookup hash");
    eqHex(a.backReferenceHash, v.expected.adminBackRefHash, "admin back-reference hash");
    const ec = ecBlockHashes(g.ec);
    eqHex(ec.headerHash, v.expected.ecHeaderHash, "EC header hash");
    eqHex(ec.fullHash, v.expected.ecFullHash, "EC full hash");
    const f = assetBlockHashes(g.asset);
    eqHex(f.keyMR, v.expected.factoidKeyMR, "asset keyMR");
    eqHex(f.ledgerKeyMR, v.expected.factoidLedgerKeyMR, "asset ledgerKeyMR");
    const raw = encodeDirectoryBlock(g.directory);
    eqHex(raw, v.expected.dblockHex, "directory block bytes");
    const d = directoryBlockHashes(decodeDBlock(raw));
    eqHex(d.keyMR, v.expected.dblockKeyMR, "directory keyMR");
    eqHex(d.fullHash, v.expected.dblockFullHash, "directory full hash");
    checkDBlockJson(g.directory);
}
export const vectorChecksB = {
    // ── transactions.json ──
    "tx-factomd-empty-coinbase": (v) => {
        covers(v, ["txid", "fullHash"]);
        eqHex(fromHex(str(v.expected, "fullHash")), str(v.expected, "txid"), "vector: full hash == txid");
        const ms = /parsed timestamp: (\d+) ms/.exec(notes(v));
        const tx = checkCoinbase(v, str(v.expected, "txid"), Number(ms?.[1]));
        assert.equal(tx.raw.length, 10);
    },
    "tx-factomd-1in-1ec": (v) => {
        covers(v, ["txid", "fullHash", "signaturesValid", "rcdsMatchInputs"]);
        const tx = decodeTx(hexOf(v.input, "txHex"));
        eqHex(transactionId(tx), v.expected.txid, "txid");
        eqHex(transactionFullHash(tx), v.expected.fullHash, "full hash");
        assert.equal(signaturesValid(tx), v.expected.signaturesValid);
        assert.equal(rcdsMatchInputs(tx), v.expected.rcdsMatchInputs);
        assert.deepEqual([tx.inputs.length, tx.outputs.length, tx.ecOutputs.length], [1, 0, 1], "description: 1 input, 1 EC output");
        const json = assetTransactionJson(tx);
        assert.equal(json.outecs[0].useraddress, encodeAddress("EC", tx.ecOutputs[0].address));
        assert.match(json.outecs[0].useraddress, /^EC/);
    },
    "tx-factomjs-2in-1fct-1ec": (v) => {
        covers(v, [
            "marshalBinarySigHex",
            "marshalBinaryHex",
            "feeEC",
            "feeFactoshisAtRate1000",
            "feesPaid",
            "inputAddress0",
            "inputAddress1",
        ]);
        const io = (list) => list.map(([addr, amount]) => ({ addr, amount: BigInt(amount) }));
        const inputs = io(v.input.inputs).map(({ addr, amount }) => ({ seed: keyPairFromPrivate(addr).seed, amount }));
        const tx = buildTransaction({
            milliTimestamp: v.input.millis,
            inputs,
            outputs: io(v.input.outputs).map(({ addr, amount }) => ({ amount, address: decodeAddress(addr, "FA").key })),
            ecOutputs: io(v.input.ecOutputs).map(({ addr, amount }) => ({ amount, address: decodeAddress(addr, "EC").key })),
        });
        eqHex(tx.signedPart, v.expected.marshalBinarySigHex, "signed part (deterministic signatures)");
        eqHex(tx.raw, v.expected.marshalBinaryHex, "full marshal");
        const decoded = decodeTx(tx.raw);
        assert.deepEqual(decoded, tx, "decode(build) == build");
        assert.equal(transactionFeeEC(tx), v.expected.feeEC);
        assert.equal(BigInt(transactionFeeEC(tx)) * 1000n, BigInt(v.expected.feeFactoshisAtRate1000));
        const sum = (l) => l.reduce((s, x) => s + x.amount, 0n);
        assert.equal(sum(tx.inputs) - sum(tx.outputs) - sum(tx.ecOutputs), BigInt(v.expected.feesPaid));
        assert.equal(encodeAddress("FA", tx.inputs[0].address), v.expected.inputAddress0);
        assert.equal(encodeAddress("FA", tx.inputs[1].address), v.expected.inputAddress1);
        eqHex(transactionId(tx), noteHash(v, "="), "txid (notes)");
        assert.ok(signaturesValid(tx));
        validateTransaction(tx, 1000n); // 14000000 paid ≥ 23000 required
        const json = assetTransactionJson(tx);
        assert.deepEqual(json.inputs.map((i) => i.useraddress), [v.expected.inputAddress0, v.expected.inputAddress1]);
    },
    "tx-golib-mainnet-20002-1": (v) => {
        covers(v, [
            "txid",
            "millis",
            "inputAmount",
            "inputAddressHex",
            "inputUserAddress",
            "outputAmount",
            "outputUserAddress",
            "rcdHex",
            "signatureHex",
            "signaturesValid",
            "rcdsMatchInputs",
        ]);
        const tx = decodeTx(hexOf(v.input, "txHex"));
        eqHex(transactionId(tx), v.expected.txid, "txid");
        assert.equal(tx.milliTimestamp, v.expected.millis);
        assert.equal(tx.inputs.length, 1);
        assert.equal(tx.outputs.length, 1);
        assert.equal(tx.inputs[0].amount, BigInt(v.expected.inputAmount));
        eqHex(tx.inputs[0].address, v.expected.inputAddressHex, "input address");
        assert.equal(tx.outputs[0].amount, BigInt(v.expected.outputAmount));
        eqHex(tx.rcds[0], v.expected.rcdHex, "rcd");
        eqHex(tx.signatures[0][0], v.expected.signatureHex, "signature");
        assert.equal(signaturesValid(tx), v.expected.signaturesValid);
        assert.equal(rcdsMatchInputs(tx), v.expected.rcdsMatchInputs);
        const json = assetTransactionJson(tx);
        assert.deepEqual(json, {
            txid: v.expected.txid,
            blockheight: 0,
            millitimestamp: v.expected.millis,
            inputs: [
                {
                    amount: v.expected.inputAmount,
                    address: v.expected.inputAddressHex,
                    useraddress: v.expected.inputUserAddress,
                },
            ],
            outputs: [
                {
                    amount: v.expected.outputAmount,
                    address: toHex(tx.outputs[0].address),
                    useraddress: v.expected.outputUserAddress,
                },
            ],
            outecs: [],
            rcds: [v.expected.rcdHex],
            sigblocks: [{ signatures: [v.expected.signatureHex] }],
        });
    },
    "tx-golib-mainnet-20002-coinbase": (v) => {
        covers(v, ["txid", "millis"]);
        const tx = checkCoinbase(v, str(v.expected, "txid"), v.expected.millis);
        assert.deepEqual(assetTransactionJson(tx), {
            txid: v.expected.txid,
            blockheight: 0,
            millitimestamp: v.expected.millis,
            inputs: [],
            outputs: [],
            outecs: [],
            rcds: [],
            sigblocks: [],
        });
    },
    "varint-factomjs": (v) => {
        const values = v.input.values;
        const lenKeys = Object.keys(v.expected).filter((k) => k.startsWith("len_"));
        covers(v, [...values, "roundTrip", ...lenKeys]);
        for (const text of values) {
            const value = BigInt(text);
            eqHex(encodeVarint(value), v.expected[text], `varint(${text})`);
            const r = new ByteReader(fromHex(str(v.expected, text)), "varint");
            assert.equal(r.varint("value"), value, `decode(${text})`);
            r.end();
        }
        assert.equal(v.expected.roundTrip, true);
        for (const k of lenKeys) {
            const value = BigInt(k.slice(4));
            assert.equal(varintSize(value), v.expected[k], k);
            assert.equal(encodeVarint(value).length, v.expected[k], k);
        }
    },
    "tx-local-genesis-funding": (v) => {
        covers(v, ["outputCount", "everyOutputFactoshis", "sandboxAddressFunded"]);
        const tx = decodeTx(hexOf(v.input, "txHex"));
        assert.equal(tx.outputs.length, v.expected.outputCount);
        for (const o of tx.outputs)
            assert.equal(o.amount, BigInt(str(v.expected, "everyOutputFactoshis")));
        const funded = tx.outputs.map((o) => encodeAddress("FA", o.address));
        assert.equal(funded.includes("FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q"), v.expected.sandboxAddressFunded);
        // Notes (parsed facts): txid, a valid signature, the RCD matches, no EC outputs, and the funded list in order.
        eqHex(transactionId(tx), noteHash(v, "txid"), "txid (notes)");
        assert.ok(signaturesValid(tx));
        assert.ok(rcdsMatchInputs(tx));
        assert.equal(tx.ecOutputs.length, 0);
        const listed = /Funded addresses: ((?:FA\w{50} ?)+)/.exec(notes(v));
        assert.ok(listed, "notes list the funded addresses");
        assert.deepEqual(funded, listed[1].trim().split(" "));
        // It spends exactly the genesis coinbase output (notes: 50000000253000 to FA2nmHSn…).
        assert.equal(tx.inputs[0].amount, 50000000253000n);
        assert.equal(encodeAddress("FA", tx.inputs[0].address), "FA2nmHSnesq3KQSDGXS2qMT9Jk4U4cJzWGxQ55urbJdcSRMmtXvG");
        // And it is tx[1] of the LOCAL genesis asset block.
        eqHex(assetBlockTransactions(genesisAssetBlock("LOCAL"))[1].raw, str(v.input, "txHex"), "in the LOCAL genesis block");
    },
    // ── blocks.json: directory blocks ──
    "dblock-factomd-static-1": checkStaticDBlock,
    "dblock-factomd-static-2": checkStaticDBlock,
    "dblock-factomd-timestamp-minutes": (v) => {
        covers(v, ["timestampMinutes", "timestampMillis"]);
        const block = decodeDBlock(hexOf(v.input, "dblockHex"));
        assert.equal(block.timestamp, v.expected.timestampMinutes);
        assert.equal(block.timestamp * 60_000, v.expected.timestampMillis);
        assert.equal(directoryBlockJson(block).header.timestamp, v.expected.timestampMinutes);
        assert.equal(directoryBlockSimpleJson(block).header.timestamp * 1000, v.expected.timestampMillis);
    },
    "dblock-factomd-keymrs-constructed": (v) => {
        covers(v, ["keyMR"]);
        const entries = v.input.entries.map((e) => ({
            chainId: hexOf(e, "chainId"),
            keyMR: hexOf(e, "keyMR"),
        }));
        // Not a valid block (no admin/EC/asset entries), so built by hand: header all zero, version 0, network 0.
        const block = {
            version: 0,
            networkId: 0,
            bodyMR: directoryBlockBodyMR(entries),
            prevKeyMR: ZERO_HASH,
            prevFullHash: ZERO_HASH,
            timestamp: 0,
            dbHeight: 0,
            entries,
        };
        eqHex(directoryBlockHashes(block).keyMR, v.expected.keyMR, "keyMR (5 leaves, odd-count rule)");
    },
    "dblock-factomd-new-empty": (v) => {
        covers(v, ["keyMR"]);
        assert.deepEqual(v.input.entries, ["..0a/0", "..0c/0", "..0f/0"]);
        const block = buildDirectoryBlock({
            version: 0,
            networkId: 0,
            prevKeyMR: ZERO_HASH,
            prevFullHash: ZERO_HASH,
            timestamp: 0,
            dbHeight: 0,
            entries: [ADMIN_CHAIN_ID, EC_CHAIN_ID, ASSET_CHAIN_ID].map((chainId) => ({ chainId, keyMR: ZERO_HASH })),
        });
        eqHex(directoryBlockHashes(block).keyMR, v.expected.keyMR, "keyMR");
        eqHex(encodeDirectoryBlock(decodeDBlock(encodeDirectoryBlock(block))), toHex(encodeDirectoryBlock(block)), "round trip");
    },
    "dblock-golib-mainnet-100": (v) => {
        covers(v, ["keyMR", "fullHash", "bodyMR", "networkId", "timestampMinutes"]);
        const block = decodeDBlock(hexOf(v.input, "rawDataHex"));
        const h = directoryBlockHashes(block);
        eqHex(h.keyMR, v.expected.keyMR, "keyMR");
        eqHex(h.fullHash, v.expected.fullHash, "full hash");
        eqHex(block.bodyMR, v.expected.bodyMR, "bodyMR");
        assert.equal(block.networkId, v.expected.networkId);
        assert.equal(block.timestamp, v.expected.timestampMinutes);
        assert.equal(block.dbHeight, 100, "description: block 100");
        checkDBlockJson(block);
    },
    // ── blocks.json: admin blocks ──
    "ablock-factomd-static-1": (v) => void checkABlock(v, "ablockHex", ["lookupHash", "backReferenceHash", "bodySizeMatches"]),
    "ablock-factomd-static-2": (v) => void checkABlock(v, "ablockHex", ["lookupHash", "backReferenceHash", "bodySizeMatches"]),
    "ablock-factomd-static-3": (v) => void checkABlock(v, "ablockHex", ["lookupHash", "backReferenceHash", "bodySizeMatches"]),
    "ablock-factomd-TestAdminBlockPreviousHash": (v) => {
        const block = checkABlock(v, "ablockHex", ["backReferenceHash", "lookupHash"]);
        assert.equal(block.entries.length, 0, "description: no entries");
    },
    "ablock-factomd-TestAdminBlockHash": (v) => {
        const block = checkABlock(v, "ablockHex", ["backReferenceHash", "lookupHash"]);
        assert.equal(block.entries.length, 0, "description: no entries");
    },
    "ablock-golib-mainnet-20000": (v) => {
        const block = checkABlock(v, "rawDataHex", ["lookupHash", "backReferenceHash"]);
        assert.equal(block.dbHeight, 20000);
        assert.deepEqual(block.entries.map((e) => e.type), [0x01, 0x00], "description: DB signature + legacy minute entry");
    },
    "ablock-factomjs-json-31096": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-json-30895": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-json-30942": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-json-30750": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-json-31095": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-json-46523": (v) => void checkABlock(v, "reencodedHex", ["lookupHash", "backReferenceHash", "bodySize"]),
    "ablock-factomjs-backref-link": (v) => {
        covers(v, ["prevBackRefOf31096"]);
        const [prev, next] = v.input.heights.map((h) => decodeABlock(hexOf(vectorById(`ablock-factomjs-json-${h}`).input, "reencodedHex")));
        eqHex(next.prevBackRefHash, v.expected.prevBackRefOf31096, "block 31096 header.prevbackrefhash");
        eqHex(adminBlockHashes(prev).backReferenceHash, v.expected.prevBackRefOf31096, "sha512half of block 31095");
        assert.notEqual(toHex(adminBlockHashes(prev).lookupHash), v.expected.prevBackRefOf31096, "not the lookup hash");
    },
    // ── blocks.json: asset blocks ──
    "fblock-factomd-static-1": (v) => {
        covers(v, ["keyMR", "ledgerKeyMR", "storedBodyMRMatches", "bodySizeMatches"]);
        const block = checkStaticFBlock(v);
        assert.equal(block.dbHeight, 1);
        assert.equal(block.exchangeRate, 666600n);
        assert.equal(assetBlockTransactions(block).length, 2);
    },
    "fblock-factomd-static-2": (v) => {
        covers(v, ["keyMR", "ledgerKeyMR", "storedBodyMRMatches", "bodySizeMatches"]);
        const block = checkStaticFBlock(v);
        assert.equal(block.dbHeight, 90050);
        assert.equal(block.exchangeRate, 50000n);
        assert.equal(assetBlockTransactions(block).length, 5);
    },
    "fblock-factomd-hash-parts": (v) => {
        covers(v, ["keyMR", "ledgerKeyMR", "ledgerMR", "bodyMR"]);
        const block = checkStaticFBlock(v);
        eqHex(block.bodyMR, v.expected.bodyMR, "bodyMR");
        eqHex(assetBlockBodyMR(block.periods), v.expected.bodyMR, "bodyMR recomputed");
        eqHex(assetBlockHashes(block).ledgerMR, v.expected.ledgerMR, "ledgerMR");
    },
    "fblock-golib-mainnet-20002": (v) => {
        covers(v, ["keyMR", "ledgerKeyMR", "bodyMR", "exchRate", "dbHeight"]);
        const raw = hexOf(v.input, "rawDataHex");
        const block = decodeFBlock(raw);
        const h = assetBlockHashes(block);
        eqHex(h.keyMR, v.expected.keyMR, "keyMR");
        eqHex(h.ledgerKeyMR, v.expected.ledgerKeyMR, "ledgerKeyMR");
        eqHex(block.bodyMR, v.expected.bodyMR, "bodyMR");
        assert.equal(block.exchangeRate, BigInt(v.expected.exchRate));
        assert.equal(block.dbHeight, v.expected.dbHeight);
        checkFBlockSizes(block, raw);
        const json = assetBlockJson(block);
        assert.equal(json.exchrate, v.expected.exchRate);
        assert.equal(json.dbheight, v.expected.dbHeight);
        assert.equal(json.keymr, v.expected.keyMR);
        assert.equal(json.ledgerkeymr, v.expected.ledgerKeyMR);
        // Its two transactions are the transactions.json vectors of the same block.
        const [coinbase, spend] = assetBlockTransactions(block);
        eqHex(coinbase.raw, str(vectorById("tx-golib-mainnet-20002-coinbase").input, "txHex"), "coinbase");
        eqHex(spend.raw, str(vectorById("tx-golib-mainnet-20002-1").input, "txHex"), "transaction 1");
        assert.deepEqual(json.transactions[1], assetTransactionJson(spend));
    },
    "fblock-genesis-local": (v) => checkGenesisFBlock(v),
    "fblock-genesis-test": (v) => checkGenesisFBlock(v),
    "fblock-genesis-main": (v) => checkGenesisFBlock(v),
    // ── blocks.json: genesis ──
    "dblock-mainnet-genesis-reconstructed": (v) => {
        covers(v, [
            "dbSigOverGenesisHeaderValid",
            "signerPubKey",
            "dblockHex",
            "dblockKeyMR",
            "dblockFullHash",
            "factoidKeyMRAsPrevOfBlock1",
        ]);
        const g = genesisBlocks("MAIN");
        const raw = encodeDirectoryBlock(g.directory);
        eqHex(raw, v.expected.dblockHex, "genesis directory block rebuilt byte-for-byte");
        const h = directoryBlockHashes(g.directory);
        eqHex(h.keyMR, v.expected.dblockKeyMR, "keyMR");
        eqHex(h.fullHash, v.expected.dblockFullHash, "full hash");
        eqHex(assetBlockHashes(g.asset).keyMR, v.expected.factoidKeyMRAsPrevOfBlock1, "genesis asset keyMR");
        // fblock-factomd-static-1 is mainnet asset block 1: its prevKeyMR links to the genesis asset block.
        const block1 = decodeAssetBlock(hexOf(vectorById("fblock-factomd-static-1").input, "fblockHex"));
        eqHex(block1.prevKeyMR, v.expected.factoidKeyMRAsPrevOfBlock1, "asset block 1 prevKeyMR");
        // Same bytes as the real mainnet block 0 (dblock-factomd-static-1).
        eqHex(raw, str(vectorById("dblock-factomd-static-1").input, "dblockHex"), "== mainnet block 0");
        // Notes: header bytes and the three sub-block hashes.
        const header = encodeDirectoryBlockHeader(g.directory);
        eqHex(header, /genesis dblock header ([0-9a-f]{226})/.exec(notes(v))?.[1], "header (notes)");
        eqHex(adminBlockHashes(g.admin).lookupHash, noteHash(v, "admin lookup"), "admin lookup (notes)");
        eqHex(ecBlockHashes(g.ec).headerHash, noteHash(v, "EC header hash"), "EC header hash (notes)");
        assert.equal(g.admin.entries.length, 0, "MAIN genesis admin block is empty");
        // The DB signature carried in mainnet admin block 1 signs this header.
        const entryBytes = hexOf(v.input, "dbSignatureEntryHex");
        const wrapped = concat(new ByteWriter().bytes(ADMIN_CHAIN_ID).bytes(ZERO_HASH).u32(1).varint(0).u32(1).u32(entryBytes.length).finish(), entryBytes);
        const entry = decodeAdminBlock(wrapped).entries[0];
        assert.ok(!("forwardCompatible" in entry) && entry.type === 0x01, "a DB signature entry");
        const sig = entry;
        eqHex(sig.publicKey, v.expected.signerPubKey, "signer");
        eqHex(sig.publicKey, MAIN_BOOTSTRAP_PUBLIC_KEY_HEX, "signer is the MAIN bootstrap key");
        assert.equal(verifyEd25519(sig.publicKey, header, sig.signature), v.expected.dbSigOverGenesisHeaderValid);
        assert.equal(verifyEd25519Noble(sig.publicKey, header, sig.signature), v.expected.dbSigOverGenesisHeaderValid);
        const tampered = header.slice();
        tampered[112] ^= 1;
        assert.equal(verifyEd25519(sig.publicKey, tampered, sig.signature), false, "a changed header does not verify");
    },
    "dblock-local-genesis-derived": (v) => checkDerivedGenesis(v, "LOCAL"),
    "dblock-test-genesis-derived": (v) => checkDerivedGenesis(v, "TEST"),
};
//# sourceMappingURL=vectorChecksB.js.map