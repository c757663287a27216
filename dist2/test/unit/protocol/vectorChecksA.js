import assert from "node:assert/strict";
import { decodeAddress, encodeAddress, isValidAddress, keyPairFromPrivate, keyPairFromSeed, rcd1Hash, } from "../../../src/protocol/address.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit, commitFullHash, commitSignedPart, commitTxId, decodeChainCommit, decodeEntryCommit, encodeCommit, verifyCommitSignature, } from "../../../src/protocol/commit.js";
import { decodeEntryBlock, encodeEntryBlock, entryBlockHashes } from "../../../src/protocol/eblock.js";
import { decodeECBlock, ecBlockCommits, ecBlockHashes, encodeECBlock, encodeECBlockBody, } from "../../../src/protocol/ecblock.js";
import { chainIdFromExtIds, entryCreditCost, entryHash, entryKSize, entryPayloadSize, marshalEntry, unmarshalEntry, weld, } from "../../../src/protocol/entry.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { sha256, sha256d } from "../../../src/protocol/hash.js";
import { ecBlockToJson } from "../../../src/protocol/json/ecBlockJson.js";
import { entryToJson } from "../../../src/protocol/json/entryJson.js";
import { receiptFromJson, receiptToJson } from "../../../src/protocol/json/receiptJson.js";
import { merkleBranch, merkleParent, merkleRoot, verifyMerkleBranch } from "../../../src/protocol/merkle.js";
import { verifyReceipt } from "../../../src/protocol/receipt.js";
import { covers, eqHex, hexOf, str } from "../../support/vectors.js";
const utf8 = (s) => new Uint8Array(Buffer.from(s, "utf8"));
/** "'z' repeated 1024 times" (how the vectors spell long contents) or plain UTF-8 text. */
function contentText(text) {
    const m = /^'(.)' repeated (\d+) times$/.exec(text);
    return m ? utf8(m[1].repeat(Number(m[2]))) : utf8(text);
}
/** Entry fields from a vector input: chainIdHex?, extIdsUtf8 | extIdsHex, contentUtf8 | contentHex | contentLen. */
function entryFromInput(input, chainId) {
    const extIds = Array.isArray(input.extIdsUtf8)
        ? input.extIdsUtf8.map(utf8)
        : Array.isArray(input.extIdsHex)
            ? input.extIdsHex.map((h, i) => fromHex(h, `extIdsHex[${i}]`))
            : [];
    const content = typeof input.contentUtf8 === "string"
        ? contentText(input.contentUtf8)
        : typeof input.contentHex === "string"
            ? fromHex(input.contentHex, "contentHex")
            : typeof input.contentLen === "number"
                ? new Uint8Array(input.contentLen)
                : new Uint8Array(0);
    const id = chainId ??
        (typeof input.chainIdHex === "string" ? fromHex(input.chainIdHex, "chainIdHex", 32) : chainIdFromExtIds(extIds));
    return { version: 0, chainId: id, extIds, content };
}
/** Decoding `raw` and marshalling again gives the same bytes and fields. */
function entryRoundTrip(raw) {
    const entry = unmarshalEntry(raw);
    assert.deepEqual(marshalEntry(entry), raw, "entry re-marshals byte-exactly");
    return entry;
}
/** Build from fields, compare bytes with the vector when given, and decode back to the same fields. */
function entryBuilt(entry, expectedHex) {
    const raw = marshalEntry(entry);
    if (expectedHex !== undefined)
        eqHex(raw, expectedHex, "marshalled entry");
    const back = entryRoundTrip(raw);
    assert.deepEqual(back.extIds.map(toHex), entry.extIds.map(toHex));
    assert.equal(toHex(back.content), toHex(entry.content));
    assert.equal(toHex(back.chainId), toHex(entry.chainId));
    assert.deepEqual(entryToJson(back), {
        chainid: toHex(entry.chainId),
        content: toHex(entry.content),
        extids: entry.extIds.map(toHex),
    });
    return raw;
}
/** "YYYY-MM-DD hh:mm:ss" in UTC of a ms timestamp. */
const utcString = (ms) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
/** Decode/re-encode a commit and check every id the vector gives. */
function commitFrom(hex) {
    const bytes = fromHex(hex, "commit");
    const commit = bytes.length === 200 ? decodeChainCommit(bytes) : decodeEntryCommit(bytes);
    assert.deepEqual(commit.raw, bytes, "raw holds exactly the input bytes");
    assert.deepEqual(encodeCommit(commit), bytes, "commit re-encodes byte-exactly from its fields");
    assert.deepEqual(commitSignedPart(commit), bytes.subarray(0, commit.kind === "entry" ? 40 : 104));
    eqHex(commitTxId(commit), toHex(sha256(bytes.subarray(0, commit.kind === "entry" ? 40 : 104))), "txid = sha256(signed part)");
    eqHex(commitFullHash(commit), toHex(sha256(bytes)), "full hash = sha256(all bytes)");
    return commit;
}
/** Zero seed: its key pays in the factom-go vectors (pubkey 3b6a27bc…). */
const ZERO_SEED = new Uint8Array(32);
function checkEntryBlock(v, hexKey) {
    const raw = hexOf(v.input, hexKey);
    const block = decodeEntryBlock(raw);
    assert.deepEqual(encodeEntryBlock(block), raw, "entry block re-encodes byte-exactly");
    const stored = decodeEntryBlock(raw, { verifyBodyMR: false });
    assert.deepEqual(stored, block);
    const hashes = entryBlockHashes(block);
    eqHex(hashes.headerHash, toHex(sha256(raw.subarray(0, 140))), "header hash");
    eqHex(hashes.fullHash, toHex(sha256(raw)), "full hash");
    eqHex(hashes.keyMR, toHex(sha256(new Uint8Array([...sha256(raw.subarray(0, 140)), ...block.bodyMR]))), "keyMR");
    return { keyMR: hashes.keyMR, fullHash: hashes.fullHash, bodyMR: merkleRoot(block.items) };
}
function checkECBlock(v, hexKey) {
    const raw = hexOf(v.input, hexKey);
    const block = decodeECBlock(raw);
    assert.deepEqual(encodeECBlock(block), raw, "EC block re-encodes byte-exactly");
    const body = encodeECBlockBody(block.items);
    const hashes = ecBlockHashes(block);
    eqHex(hashes.headerHash, toHex(sha256(raw.subarray(0, raw.length - body.length))), "header hash");
    eqHex(hashes.fullHash, toHex(sha256(raw)), "full hash");
    // Header ends with u64 ObjectCount ‖ u64 BodySize: read the stored values straight from the bytes.
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const end = raw.length - body.length;
    const storedCount = view.getBigUint64(end - 16);
    const storedSize = view.getBigUint64(end - 8);
    const json = ecBlockToJson(block);
    assert.equal(json.headerhash, toHex(hashes.headerHash));
    assert.equal(json.fullhash, toHex(hashes.fullHash));
    assert.equal(json.header.objectcount, block.items.length);
    assert.equal(json.header.bodysize, body.length);
    assert.equal(json.body.entries.length, block.items.length);
    return {
        block,
        hashes,
        bodyHashMatches: toHex(sha256(body)) === toHex(block.bodyHash) && toHex(sha256(raw.subarray(end))) === toHex(block.bodyHash),
        bodySizeMatches: storedSize === BigInt(body.length) && storedSize === BigInt(raw.length - end),
        storedCount,
        storedSize,
    };
}
export const vectorChecksA = {
    // ───────────────────────────── entries.json ─────────────────────────────
    "entry-factomd-anchor-first-entry": (v) => {
        covers(v, ["entryHash", "chainIdFromExtIds", "weld", "contentHex"]);
        const raw = hexOf(v.input, "entryHex");
        const entry = entryRoundTrip(raw);
        eqHex(entryHash(raw), v.expected.entryHash, "entry hash");
        eqHex(chainIdFromExtIds(entry.extIds), v.expected.chainIdFromExtIds, "chain id from ext ids");
        assert.equal(toHex(entry.chainId), v.expected.chainIdFromExtIds, "first entry carries its derived chain id");
        eqHex(weld(entryHash(raw), entry.chainId), v.expected.weld, "weld");
        eqHex(entry.content, v.expected.contentHex, "content");
    },
    "entry-factomd-ksize-1024": (v) => {
        covers(v, ["kSize", "payloadSize"]);
        const raw = hexOf(v.input, "entryHex");
        const entry = entryRoundTrip(raw);
        assert.equal(entryKSize(raw.length), v.expected.kSize);
        assert.equal(raw.length - 35, v.expected.payloadSize);
        assert.equal(entryPayloadSize(entry), v.expected.payloadSize);
        assert.equal(entryCreditCost(raw.length, false), v.expected.kSize);
    },
    "entry-golib-test-entry": (v) => {
        covers(v, ["entryHex", "entryHash", "chainIdFromExtIds"]);
        const entry = entryFromInput(v.input);
        const raw = entryBuilt(entry, v.expected.entryHex);
        eqHex(entryHash(raw), v.expected.entryHash, "entry hash");
        eqHex(chainIdFromExtIds(entry.extIds), v.expected.chainIdFromExtIds, "chain id");
    },
    "entry-golib-reveal-test": (v) => {
        covers(v, ["entryHex", "entryHash", "ecCost"]);
        const raw = entryBuilt(entryFromInput(v.input), v.expected.entryHex);
        eqHex(entryHash(raw), v.expected.entryHash, "entry hash");
        assert.equal(entryCreditCost(raw.length, false), v.expected.ecCost);
    },
    "entry-factomjs-payloadhere-extid": (v) => {
        covers(v, ["entryHex"]);
        entryBuilt(entryFromInput(v.input), v.expected.entryHex);
    },
    "entry-factomjs-payloadhere-noextid": (v) => {
        covers(v, ["entryHex", "entryHash"]);
        const raw = entryBuilt(entryFromInput(v.input), v.expected.entryHex);
        eqHex(entryHash(raw), v.expected.entryHash, "entry hash");
    },
    "entry-factomjs-sizes": (v) => {
        covers(v, ["size", "payloadSize"]);
        const entry = entryFromInput(v.input);
        const raw = entryBuilt(entry);
        assert.equal(raw.length, v.expected.size);
        assert.equal(entryPayloadSize(entry), v.expected.payloadSize);
    },
    "entry-factomjs-eccost-boundary": (v) => {
        covers(v, ["e4EcCost", "e1EcCost"]);
        const e4 = entryBuilt(entryFromInput(v.input.e4));
        const e1 = entryBuilt(entryFromInput(v.input.e1));
        assert.equal(entryCreditCost(e4.length, false), v.expected.e4EcCost);
        assert.equal(entryCreditCost(e1.length, false), v.expected.e1EcCost);
        assert.equal(entryCreditCost(e4.length, true), v.expected.e4EcCost + 10);
    },
    "chainid-factomjs-factom-cli": (v) => {
        covers(v, ["chainId"]);
        eqHex(chainIdFromExtIds(entryFromInput(v.input).extIds), v.expected.chainId, "chain id");
    },
    "chainid-factomjs-first-entry-reveal": (v) => {
        covers(v, ["entryHex", "chainId"]);
        const entry = entryFromInput(v.input);
        eqHex(entry.chainId, v.expected.chainId, "chain id");
        entryBuilt(entry, v.expected.entryHex);
    },
    "chain-testspython-1st": (v) => {
        covers(v, ["chainId", "entryHash"]);
        const entry = entryFromInput(v.input);
        eqHex(entry.chainId, v.expected.chainId, "chain id");
        const raw = entryBuilt(entry);
        eqHex(entryHash(raw), v.expected.entryHash, "entry hash");
        assert.equal(entryCreditCost(raw.length, true), 12, "1038-byte payload: 2 EC + 10 for the chain");
    },
    "chain-testspython-1st-hex": (v) => {
        covers(v, ["chainId", "entryHash"]);
        const entry = entryFromInput(v.input);
        eqHex(entry.chainId, v.expected.chainId, "chain id");
        eqHex(entryHash(entryBuilt(entry)), v.expected.entryHash, "entry hash");
    },
    "chainid-testspython-2nd": (v) => {
        covers(v, ["chainId"]);
        eqHex(chainIdFromExtIds(entryFromInput(v.input).extIds), v.expected.chainId, "chain id");
    },
    "entry-testspython-3rd-over-2nd": (v) => {
        covers(v, ["entryHash"]);
        const entry = entryFromInput(v.input);
        assert.notEqual(toHex(chainIdFromExtIds(entry.extIds)), toHex(entry.chainId), "chain id is not derived from this entry");
        eqHex(entryHash(entryBuilt(entry)), v.expected.entryHash, "entry hash");
    },
    "chainid-testspython-2nd-hex": (v) => {
        covers(v, ["chainId"]);
        eqHex(chainIdFromExtIds(entryFromInput(v.input).extIds), v.expected.chainId, "chain id");
    },
    // ───────────────────────────── addresses.json ─────────────────────────────
    "addr-factomd-zero-all-prefixes": (v) => {
        covers(v, ["FA", "EC", "Fs", "Es"]);
        const key = hexOf(v.input, "key32Hex");
        for (const kind of ["FA", "EC", "Fs", "Es"]) {
            assert.equal(encodeAddress(kind, key), v.expected[kind], kind);
            const decoded = decodeAddress(v.expected[kind], kind);
            assert.equal(decoded.kind, kind);
            assert.deepEqual(decoded.key, key);
        }
    },
    "addr-zero-seed-ec-keypair": (v) => {
        covers(v, ["privateHuman", "publicKeyHex", "publicHuman"]);
        const pair = keyPairFromSeed("EC", hexOf(v.input, "seedHex"));
        assert.equal(pair.privateAddress, v.expected.privateHuman);
        eqHex(pair.publicKey, v.expected.publicKeyHex, "public key");
        assert.equal(pair.publicAddress, v.expected.publicHuman);
        assert.deepEqual(keyPairFromPrivate(v.expected.privateHuman), pair);
        assert.deepEqual(decodeAddress(v.expected.publicHuman, "EC").key, pair.publicKey, "EC holds the raw public key");
    },
    "addr-zero-seed-fct-keypair": (v) => {
        covers(v, ["privateHuman", "publicHuman"]);
        const pair = keyPairFromSeed("FA", hexOf(v.input, "seedHex"));
        assert.equal(pair.privateAddress, v.expected.privateHuman);
        assert.equal(pair.publicAddress, v.expected.publicHuman);
        assert.deepEqual(keyPairFromPrivate(v.expected.privateHuman), pair);
        assert.deepEqual(decodeAddress(v.expected.publicHuman, "FA").key, rcd1Hash(pair.publicKey), "FA holds the RCD hash");
    },
    "addr-local-sandbox-fct": (v) => {
        covers(v, ["publicHuman", "rcdHashHex"]);
        const pair = keyPairFromPrivate(str(v.input, "privateHuman"));
        assert.equal(pair.publicAddress, v.expected.publicHuman);
        eqHex(rcd1Hash(pair.publicKey), v.expected.rcdHashHex, "RCD hash");
        eqHex(decodeAddress(pair.publicAddress, "FA").key, v.expected.rcdHashHex, "FA payload");
    },
    "addr-factomjs-key-776b5c": (v) => {
        covers(v, [
            "keyToPublicFctAddress",
            "rcdHashToPublicFctAddress",
            "seedToPrivateFctAddress",
            "keyToPublicEcAddress",
            "seedToPrivateEcAddress",
        ]);
        const key = hexOf(v.input, "key32Hex");
        assert.equal(encodeAddress("FA", rcd1Hash(key)), v.expected.keyToPublicFctAddress);
        assert.equal(encodeAddress("FA", key), v.expected.rcdHashToPublicFctAddress);
        assert.equal(encodeAddress("Fs", key), v.expected.seedToPrivateFctAddress);
        assert.equal(encodeAddress("EC", key), v.expected.keyToPublicEcAddress);
        assert.equal(encodeAddress("Es", key), v.expected.seedToPrivateEcAddress);
        assert.deepEqual(keyPairFromPrivate(v.expected.seedToPrivateEcAddress).seed, key);
    },
    "addr-factomjs-priv-to-pub-Es": (v) => {
        covers(v, ["publicHuman", "publicKeyHex"]);
        const pair = keyPairFromPrivate(str(v.input, "privateHuman"));
        assert.equal(pair.publicAddress, v.expected.publicHuman);
        eqHex(pair.publicKey, v.expected.publicKeyHex, "public key");
        eqHex(decodeAddress(pair.publicAddress, "EC").key, v.expected.publicKeyHex, "EC payload");
    },
    "addr-factomjs-priv-to-pub-Fs": (v) => {
        covers(v, ["publicHuman", "seedHex"]);
        const pair = keyPairFromPrivate(str(v.input, "privateHuman"));
        assert.equal(pair.publicAddress, v.expected.publicHuman);
        eqHex(pair.seed, v.expected.seedHex, "seed");
        assert.equal(encodeAddress("Fs", pair.seed), v.input.privateHuman);
    },
    "addr-factomd-priv-ec9f1c": (v) => {
        covers(v, ["Fs", "Es", "publicKeyHex"]);
        const seed = hexOf(v.input, "seedHex");
        const fct = keyPairFromSeed("FA", seed);
        const ec = keyPairFromSeed("EC", seed);
        assert.equal(fct.privateAddress, v.expected.Fs);
        assert.equal(ec.privateAddress, v.expected.Es);
        eqHex(ec.publicKey, v.expected.publicKeyHex, "public key");
        assert.deepEqual(fct.publicKey, ec.publicKey);
    },
    "addr-factomd-fa-FA3ifuDtDg": (v) => checkFaVector(v),
    "addr-factomd-fa-FA23Lcqqm5": (v) => checkFaVector(v),
    "addr-factomd-fa-FA3JvZx1EK": (v) => checkFaVector(v),
    "addr-golib-invalid-strings": (v) => {
        covers(v, Object.keys(v.input));
        for (const [name, text] of Object.entries(v.input)) {
            assert.equal(v.expected[name], false);
            assert.equal(isValidAddress(text), false, name);
            assert.throws(() => decodeAddress(text), ProtocolError, name);
        }
    },
    "addr-golib-valid-strings": (v) => {
        covers(v, ["FA", "Fs"]);
        for (const kind of ["FA", "Fs"]) {
            assert.equal(isValidAddress(str(v.input, kind), kind), v.expected[kind]);
            assert.equal(encodeAddress(kind, decodeAddress(str(v.input, kind), kind).key), v.input[kind]);
        }
    },
    // ───────────────────────────── commits.json ─────────────────────────────
    "commitchain-factomd-static": (v) => {
        covers(v, ["txid", "fullHash", "signatureValid"]);
        const c = commitFrom(str(v.input, "commitHex"));
        assert.equal(c.kind, "chain");
        eqHex(commitTxId(c), v.expected.txid, "txid");
        eqHex(commitFullHash(c), v.expected.fullHash, "full hash");
        assert.equal(verifyCommitSignature(c), v.expected.signatureValid);
    },
    "commitchain-factomd-mainnet-28556": (v) => {
        covers(v, ["entryHash", "fullHash", "timestampUTC", "signatureValid", "badSigValid"]);
        const c = commitFrom(str(v.input, "commitHex"));
        assert.equal(c.kind, "chain");
        eqHex(c.entryHash, v.expected.entryHash, "entry hash");
        eqHex(commitFullHash(c), v.expected.fullHash, "full hash");
        assert.equal(utcString(c.milliTime), v.expected.timestampUTC);
        assert.equal(verifyCommitSignature(c), v.expected.signatureValid);
        const bad = commitFrom(str(v.input, "badSigCommitHex"));
        assert.equal(verifyCommitSignature(bad), v.expected.badSigValid);
    },
    "commitentry-factomd-mainnet-28556": (v) => {
        covers(v, ["txid", "fullHash", "entryHash", "timestampUTC", "credits", "signatureValid"]);
        const c = commitFrom(str(v.input, "commitHex"));
        assert.equal(c.kind, "entry");
        eqHex(commitTxId(c), v.expected.txid, "txid");
        eqHex(commitFullHash(c), v.expected.fullHash, "full hash");
        eqHex(c.entryHash, v.expected.entryHash, "entry hash");
        assert.equal(utcString(c.milliTime), v.expected.timestampUTC);
        assert.equal(c.credits, v.expected.credits);
        assert.equal(verifyCommitSignature(c), v.expected.signatureValid);
    },
    "commitchain-factomd-api-response": (v) => {
        covers(v, ["txid", "entryhash", "chainidhash", "signatureValid"]);
        const c = commitFrom(str(v.input, "message"));
        assert.ok(c.kind === "chain");
        eqHex(commitTxId(c), v.expected.txid, "txid");
        eqHex(c.entryHash, v.expected.entryhash, "entry hash");
        eqHex(c.chainIdHash, v.expected.chainidhash, "chain id hash");
        assert.equal(verifyCommitSignature(c), v.expected.signatureValid);
    },
    "commitentry-factomd-api-response": (v) => {
        covers(v, ["txid", "entryhash", "signatureValid"]);
        const c = commitFrom(str(v.input, "message"));
        assert.equal(c.kind, "entry");
        eqHex(commitTxId(c), v.expected.txid, "txid");
        eqHex(c.entryHash, v.expected.entryhash, "entry hash");
        assert.equal(verifyCommitSignature(c), v.expected.signatureValid);
    },
    "commitentry-factomjs-ab": (v) => {
        covers(v, ["commitHex", "ecPublicHuman"]);
        const pair = keyPairFromPrivate(str(v.input, "ecPrivate"));
        const c = buildEntryCommit({
            entryRaw: hexOf(v.input, "entryHex"),
            milliTime: v.input.millis,
            ecSeed: pair.seed,
        });
        eqHex(c.raw, v.expected.commitHex, "signed commit");
        assert.equal(encodeAddress("EC", c.ecPublicKey), v.expected.ecPublicHuman);
        assert.equal(pair.publicAddress, v.expected.ecPublicHuman);
        const decoded = commitFrom(str(v.expected, "commitHex"));
        assert.deepEqual(decoded, c);
        assert.ok(verifyCommitSignature(decoded));
        eqHex(decoded.entryHash, toHex(entryHash(hexOf(v.input, "entryHex"))), "entry hash");
    },
    "commitentry-factomjs-payloadhere": (v) => {
        covers(v, ["commitHex"]);
        const seed = keyPairFromPrivate(str(v.input, "ecPrivate")).seed;
        const c = buildEntryCommit({
            entryRaw: hexOf(v.input, "entryHex"),
            milliTime: v.input.millis,
            ecSeed: seed,
        });
        eqHex(c.raw, v.expected.commitHex, "signed commit");
        assert.ok(verifyCommitSignature(commitFrom(str(v.expected, "commitHex"))));
    },
    "commitentry-factomjs-txid": (v) => {
        covers(v, ["txid"]);
        // The txid covers only version ‖ time ‖ entry hash ‖ credits, so any paying key gives the same one.
        for (const seed of [ZERO_SEED, sha256(utf8("another key"))]) {
            const c = buildEntryCommit({
                entryRaw: hexOf(v.input, "entryHex"),
                milliTime: v.input.millis,
                ecSeed: seed,
            });
            eqHex(commitTxId(c), v.expected.txid, "txid");
            assert.ok(verifyCommitSignature(c));
        }
    },
    "commitchain-factomjs-my-ext-id": (v) => {
        covers(v, ["commitHex"]);
        const seed = keyPairFromPrivate(str(v.input, "ecPrivate")).seed;
        const entryRaw = hexOf(v.input, "entryHex");
        const c = buildChainCommit({ entryRaw, milliTime: v.input.millis, ecSeed: seed });
        eqHex(c.raw, v.expected.commitHex, "signed commit");
        const decoded = commitFrom(str(v.expected, "commitHex"));
        assert.deepEqual(decoded, c);
        assert.ok(verifyCommitSignature(decoded));
        const entry = unmarshalEntry(entryRaw);
        eqHex(c.chainIdHash, toHex(sha256d(entry.chainId)), "chain id hash");
        eqHex(c.weld, toHex(weld(entryHash(entryRaw), entry.chainId)), "weld");
        assert.equal(c.credits, 11);
    },
    "commitchain-factomjs-txid": (v) => {
        covers(v, ["txid"]);
        for (const seed of [ZERO_SEED, sha256(utf8("another key"))]) {
            const c = buildChainCommit({
                entryRaw: hexOf(v.input, "entryHex"),
                milliTime: v.input.millis,
                ecSeed: seed,
            });
            eqHex(commitTxId(c), v.expected.txid, "txid");
        }
    },
    "commitchain-golib-fixed-bytes": (v) => {
        covers(v, ["bytes7to136"]);
        const entryRaw = hexOf(v.input, "entryHex");
        eqHex(unmarshalEntry(entryRaw).chainId, v.input.chainIdHex, "the chain id is the entry's chain-id field");
        const c = buildChainCommit({ entryRaw, milliTime: Date.UTC(2024, 0, 1), ecSeed: ZERO_SEED });
        eqHex(c.raw.subarray(7, 136), v.expected.bytes7to136, "bytes 7..136");
    },
    "commitentry-golib-fixed-bytes": (v) => {
        covers(v, ["bytes7to72"]);
        const c = buildEntryCommit({
            entryRaw: hexOf(v.input, "entryHex"),
            milliTime: Date.UTC(2024, 0, 1),
            ecSeed: ZERO_SEED,
        });
        eqHex(c.raw.subarray(7, 72), v.expected.bytes7to72, "bytes 7..72");
    },
    // ───────────────────────────── blocks.json (share A) ─────────────────────────────
    "merkle-factomd-two-leaves": (v) => {
        covers(v, ["top"]);
        const left = hexOf(v.input, "left");
        const right = hexOf(v.input, "right");
        eqHex(merkleParent(left, right), v.expected.top, "node");
        eqHex(merkleRoot([left, right]), v.expected.top, "root of two leaves");
        const branch = merkleBranch([left, right], 1);
        assert.equal(branch.length, 1);
        eqHex(branch[0].left, toHex(left), "branch left");
        eqHex(branch[0].top, v.expected.top, "branch top");
        assert.ok(verifyMerkleBranch(right, branch, fromHex(v.expected.top)));
    },
    "receipt-golib-mainnet": (v) => {
        covers(v, ["branchConsistent", "reachesEntryBlockKeyMR", "reachesDirectoryBlockKeyMR", "finalTop"]);
        const json = v.input.receipt;
        const receipt = receiptFromJson(json);
        // Walk the branch independently of verifyReceipt.
        let current = toHex(receipt.entryHash);
        let consistent = true;
        const tops = [];
        for (const node of receipt.merkleBranch) {
            if (current !== toHex(node.left) && current !== toHex(node.right))
                consistent = false;
            if (toHex(sha256(new Uint8Array([...node.left, ...node.right]))) !== toHex(node.top))
                consistent = false;
            current = toHex(node.top);
            tops.push(current);
        }
        assert.equal(consistent, v.expected.branchConsistent);
        assert.equal(tops.includes(toHex(receipt.entryBlockKeyMR)), v.expected.reachesEntryBlockKeyMR);
        assert.equal(tops.includes(toHex(receipt.directoryBlockKeyMR)), v.expected.reachesDirectoryBlockKeyMR);
        assert.equal(tops.at(-1), v.expected.finalTop);
        assert.equal(verifyReceipt(receipt), true);
        const out = receiptToJson(receipt);
        assert.deepEqual(out.entry, json.entry);
        assert.deepEqual(out.merklebranch, json.merklebranch);
        assert.equal(out.entryblockkeymr, json.entryblockkeymr);
        assert.equal(out.directoryblockkeymr, json.directoryblockkeymr);
        // Any altered hash breaks it.
        for (let i = 0; i < receipt.merkleBranch.length; i++) {
            for (const side of ["left", "right", "top"]) {
                const broken = receiptFromJson(json);
                const node = broken.merkleBranch[i];
                node[side] = node[side].slice();
                node[side][5] ^= 0x01;
                assert.equal(verifyReceipt(broken), false, `node ${i} ${side} altered`);
            }
        }
    },
    "eblock-factomd-misc": (v) => {
        covers(v, ["hash", "keyMR", "bodyMR", "chainIdHashSha256d", "dbHeight"]);
        const r = checkEntryBlock(v, "eblockHex");
        const block = decodeEntryBlock(hexOf(v.input, "eblockHex"));
        eqHex(r.fullHash, v.expected.hash, "full hash");
        eqHex(r.keyMR, v.expected.keyMR, "keyMR");
        eqHex(r.bodyMR, v.expected.bodyMR, "computed bodyMR");
        eqHex(block.bodyMR, v.expected.bodyMR, "stored bodyMR");
        eqHex(sha256d(block.chainId), v.expected.chainIdHashSha256d, "sha256d(chain id)");
        assert.equal(block.dbHeight, v.expected.dbHeight);
    },
    "eblock-factomd-static-1": (v) => checkStaticEntryBlock(v, "eblockHex"),
    "eblock-factomd-static-2": (v) => checkStaticEntryBlock(v, "eblockHex"),
    "eblock-golib-raw-anchor-chain": (v) => {
        covers(v, ["keyMR", "nextBlockPrevKeyMR", "storedBodyMRMatches"]);
        const r = checkEntryBlock(v, "rawDataHex");
        eqHex(r.keyMR, v.expected.keyMR, "keyMR");
        eqHex(r.keyMR, v.expected.nextBlockPrevKeyMR, "the next block's prevkeymr");
        const stored = decodeEntryBlock(hexOf(v.input, "rawDataHex"), { verifyBodyMR: false }).bodyMR;
        assert.equal(toHex(stored) === toHex(r.bodyMR), v.expected.storedBodyMRMatches);
    },
    "ecblock-factomd-static-1": (v) => checkStaticECBlock(v),
    "ecblock-factomd-static-2": (v) => checkStaticECBlock(v),
    "ecblock-golib-mainnet-10199": (v) => {
        covers(v, ["headerHash", "fullHash", "bodyHash", "objectCount", "bodySize"]);
        const r = checkECBlock(v, "rawDataHex");
        eqHex(r.hashes.headerHash, v.expected.headerHash, "header hash");
        eqHex(r.hashes.fullHash, v.expected.fullHash, "full hash");
        eqHex(r.block.bodyHash, v.expected.bodyHash, "body hash");
        assert.ok(r.bodyHashMatches);
        assert.equal(r.block.items.length, v.expected.objectCount);
        assert.equal(Number(r.storedCount), v.expected.objectCount);
        assert.equal(Number(r.storedSize), v.expected.bodySize);
        assert.ok(r.bodySizeMatches);
        const types = new Set(r.block.items.map((i) => i.type));
        for (const t of ["serverIndex", "chainCommit", "entryCommit", "minute"])
            assert.ok(types.has(t), `has a ${t} item`);
    },
    "ecblock-factomjs-mainnet-132099": (v) => {
        covers(v, ["headerHash", "fullHash", "objectCount", "bodySize", "allCommitSignaturesValid"]);
        const r = checkECBlock(v, "rawDataHex");
        eqHex(r.hashes.headerHash, v.expected.headerHash, "header hash");
        eqHex(r.hashes.fullHash, v.expected.fullHash, "full hash");
        assert.equal(r.block.items.length, v.expected.objectCount);
        assert.equal(Number(r.storedSize), v.expected.bodySize);
        assert.ok(r.bodyHashMatches && r.bodySizeMatches);
        const commits = ecBlockCommits(r.block);
        assert.ok(commits.length > 0);
        assert.equal(commits.every(verifyCommitSignature), v.expected.allCommitSignaturesValid);
        assert.equal(r.block.items.filter((i) => i.type === "minute").length, 10, "M2 block: ten minute items");
    },
};
function checkFaVector(v) {
    covers(v, ["FA", "decodedRcdHashHex"]);
    const hash = hexOf(v.input, "rcdHashHex");
    assert.equal(encodeAddress("FA", hash), v.expected.FA);
    eqHex(decodeAddress(v.expected.FA, "FA").key, v.expected.decodedRcdHashHex, "decoded RCD hash");
}
function checkStaticEntryBlock(v, key) {
    covers(v, ["keyMR", "hash", "storedBodyMRMatches"]);
    const r = checkEntryBlock(v, key);
    eqHex(r.keyMR, v.expected.keyMR, "keyMR");
    eqHex(r.fullHash, v.expected.hash, "full hash");
    const stored = decodeEntryBlock(hexOf(v.input, key), { verifyBodyMR: false }).bodyMR;
    assert.equal(toHex(stored) === toHex(r.bodyMR), v.expected.storedBodyMRMatches);
}
function checkStaticECBlock(v) {
    covers(v, ["headerHash", "fullHash", "bodyHashMatches", "bodySizeMatches"]);
    const r = checkECBlock(v, "ecblockHex");
    eqHex(r.hashes.headerHash, v.expected.headerHash, "header hash");
    eqHex(r.hashes.fullHash, v.expected.fullHash, "full hash");
    assert.equal(r.bodyHashMatches, v.expected.bodyHashMatches);
    assert.equal(r.bodySizeMatches, v.expected.bodySizeMatches);
    assert.equal(Number(r.storedCount), r.block.items.length);
}
//# sourceMappingURL=vectorChecksA.js.map