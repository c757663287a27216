/**
 * The fuzz corpus: valid encodings of every protocol object, to be mutated by the fuzzers. Two sources:
 * every hex string found anywhere in the shared test vectors (real blocks, commits, transactions and
 * entries of the public network), and objects built here with real keys and real signatures (commits,
 * transactions, entry blocks, EC and asset blocks holding them, the genesis blocks of every network).
 * Deterministic: the same corpus on every run, so a failing case replays from its seed.
 */
import { encodeAdminBlock } from "../../src/protocol/ablock.js";
import { decodeAddress, keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { ByteWriter } from "../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../src/protocol/chains.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { buildDirectoryBlock, encodeDirectoryBlock } from "../../src/protocol/dblock.js";
import { buildEntryBlock, encodeEntryBlock, minuteMarker } from "../../src/protocol/eblock.js";
import { buildECBlock, encodeECBlock } from "../../src/protocol/ecblock.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { buildAssetBlock, emptyCoinbase, encodeAssetBlock } from "../../src/protocol/fblock.js";
import { genesisBlocks } from "../../src/protocol/genesis.js";
import { sha256 } from "../../src/protocol/hash.js";
import { buildTransaction } from "../../src/protocol/transaction.js";
import { loadVectorFiles } from "../support/vectors.js";
/** The LOCAL network's genesis key: its address holds the 20,000 asset units of the LOCAL genesis block. */
export const GENESIS_PRIVATE_KEY = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
/** A deterministic 32-byte seed named `label` (test keys only). */
export function testSeed(label) {
    return sha256(new TextEncoder().encode(`ledgerd reliability ${label}`));
}
/** Fixed timestamp of the built corpus objects, ms since epoch (any value; nothing here checks windows). */
const CORPUS_TIME_MS = 1_700_000_000_000;
const HEX_STRING = /^(?:[0-9a-fA-F]{2})+$/;
/** Every even-length hex string of at least `minBytes` bytes found in the vector files (deduplicated). */
export function vectorBlobs(minBytes = 8) {
    const seen = new Set();
    const visit = (v) => {
        if (typeof v === "string") {
            if (v.length >= minBytes * 2 && HEX_STRING.test(v))
                seen.add(v.toLowerCase());
        }
        else if (Array.isArray(v)) {
            v.forEach(visit);
        }
        else if (typeof v === "object" && v !== null) {
            Object.values(v).forEach(visit);
        }
    };
    for (const vectors of loadVectorFiles().values())
        for (const vector of vectors)
            visit([vector.input, vector.expected]);
    return [...seen].sort().map((h) => new Uint8Array(Buffer.from(h, "hex")));
}
/** Every string in the vector files that looks like a human-readable address (FA, Fs, EC, Es prefixes). */
export function vectorAddressStrings() {
    const seen = new Set();
    const visit = (v) => {
        if (typeof v === "string") {
            if (/^(FA|Fs|EC|Es)[1-9A-HJ-NP-Za-km-z]{10,}$/.test(v))
                seen.add(v);
        }
        else if (Array.isArray(v))
            v.forEach(visit);
        else if (typeof v === "object" && v !== null)
            Object.values(v).forEach(visit);
    };
    for (const vectors of loadVectorFiles().values())
        for (const vector of vectors)
            visit([vector.input, vector.expected]);
    return [...seen].sort();
}
/** Bytes of a server fault (admin entry 0x0a after its type byte) with two signatures. */
export function serverFault() {
    const w = new ByteWriter().u48(1_700_000_000_000).bytes(testSeed("fault server")).bytes(testSeed("fault audit"));
    w.u8(3).u32(70_000).u32(5).u32(2);
    for (let i = 0; i < 2; i++)
        w.bytes(testSeed(`fault key ${i}`)).bytes(new Uint8Array(64).fill(i + 1));
    return w.finish().slice();
}
/** An admin block holding one entry of every defined type and a forward-compatible one. */
export function everyAdminEntry() {
    const h = (label) => testSeed(label);
    return {
        prevBackRefHash: h("prev"),
        dbHeight: 9,
        headerExpansion: Uint8Array.of(1, 2),
        entries: [
            { type: 0x00, minute: 3 },
            { type: 0x01, identityAdminChainId: h("id"), publicKey: h("pk"), signature: new Uint8Array(64).fill(7) },
            { type: 0x02, identityChainId: h("id2"), hash: h("mhash") },
            { type: 0x03, identityChainId: h("id3"), hash: h("mhash3") },
            { type: 0x04, amount: 2 },
            { type: 0x05, identityChainId: h("id5"), dbHeight: 10 },
            { type: 0x06, identityChainId: h("id6"), dbHeight: 11 },
            { type: 0x07, identityChainId: h("id7"), dbHeight: 12 },
            { type: 0x08, identityChainId: h("id8"), keyPriority: 1, publicKey: h("pk8"), dbHeight: 13 },
            { type: 0x09, identityChainId: h("id9"), keyPriority: 2, keyType: 0, ecdsaPublicKey: new Uint8Array(20).fill(9) },
            { type: 0x0a, raw: serverFault() },
            {
                type: 0x0b,
                outputs: [
                    { amount: 5n, address: h("out0") },
                    { amount: 2n ** 40n, address: h("out1") },
                ],
            },
            { type: 0x0c, descriptorHeight: 300n, descriptorIndex: 4n },
            { type: 0x0d, identityChainId: h("id13"), assetAddress: h("asset") },
            { type: 0x0e, identityChainId: h("id14"), efficiency: 4000 },
            { type: 0x20, data: Uint8Array.of(1, 2, 3), forwardCompatible: true },
        ],
    };
}
/** Build the corpus (a few ms; every signature is a real ed25519 signature). */
export function buildCorpus() {
    const ecSeed = testSeed("corpus ec");
    const genesis = keyPairFromPrivate(GENESIS_PRIVATE_KEY);
    const other = keyPairFromSeed("FA", testSeed("corpus fa"));
    const ec = keyPairFromSeed("EC", ecSeed);
    const chainExtIds = [new TextEncoder().encode("corpus"), Uint8Array.of(0, 1, 2)];
    const chainId = chainIdFromExtIds(chainExtIds);
    const entries = [
        marshalEntry({ version: 0, chainId, extIds: chainExtIds, content: new TextEncoder().encode("first entry") }),
        marshalEntry({ version: 0, chainId, extIds: [], content: new Uint8Array(0) }),
        marshalEntry({
            version: 0,
            chainId,
            extIds: [new Uint8Array(0), Uint8Array.of(7)],
            content: new Uint8Array(1100).fill(0x61),
        }),
    ];
    const chainCommit = buildChainCommit({ entryRaw: entries[0], milliTime: CORPUS_TIME_MS, ecSeed });
    const entryCommits = entries
        .slice(1)
        .map((raw, i) => buildEntryCommit({ entryRaw: raw, milliTime: CORPUS_TIME_MS + i, ecSeed }));
    const txs = [
        buildTransaction({
            milliTimestamp: CORPUS_TIME_MS,
            inputs: [{ seed: genesis.seed, amount: 1000000000n }],
            outputs: [{ address: keyRcdHash(other.publicAddress), amount: 899000000n }],
            ecOutputs: [{ address: ec.publicKey, amount: 1000000n }],
        }),
        buildTransaction({
            milliTimestamp: CORPUS_TIME_MS + 1,
            inputs: [
                { seed: genesis.seed, amount: 5n },
                { seed: other.seed, amount: 2n ** 62n },
            ],
            outputs: [],
            ecOutputs: [{ address: ec.publicKey, amount: 0n }],
        }),
    ];
    const entryBlock = buildEntryBlock({
        chainId,
        prevKeyMR: new Uint8Array(32),
        prevFullHash: new Uint8Array(32),
        sequence: 0,
        dbHeight: 7,
        items: [entryHash(entries[0]), minuteMarker(1), entryHash(entries[1]), entryHash(entries[2]), minuteMarker(10)],
    });
    const ecBlock = buildECBlock({
        prevHeaderHash: testSeed("prev ec header"),
        prevFullHash: testSeed("prev ec full"),
        dbHeight: 7,
        headerExpansion: new Uint8Array(0),
        items: [
            { type: "serverIndex", number: 0 },
            { type: "chainCommit", commit: chainCommit },
            { type: "minute", number: 1 },
            ...entryCommits.map((commit) => ({ type: "entryCommit", commit })),
            { type: "balanceIncrease", ecPublicKey: ec.publicKey, txId: testSeed("tx"), index: 0n, numEC: 300n },
            { type: "minute", number: 10 },
        ],
    });
    const periods = Array.from({ length: 10 }, () => []);
    periods[0].push(emptyCoinbase(CORPUS_TIME_MS), txs[0]);
    periods[4].push(txs[1]);
    const assetBlock = buildAssetBlock({
        prevKeyMR: testSeed("prev fblock"),
        prevLedgerKeyMR: testSeed("prev ledger"),
        exchangeRate: 1000n,
        dbHeight: 7,
        headerExpansion: new Uint8Array(0),
        periods,
    });
    const directory = buildDirectoryBlock({
        version: 0,
        networkId: 0xfa92e5a4,
        prevKeyMR: testSeed("prev dblock"),
        prevFullHash: testSeed("prev dblock full"),
        timestamp: 28_000_000,
        dbHeight: 7,
        entries: [
            { chainId: ADMIN_CHAIN_ID.slice(), keyMR: testSeed("ablock") },
            { chainId: EC_CHAIN_ID.slice(), keyMR: testSeed("ecblock") },
            { chainId: ASSET_CHAIN_ID.slice(), keyMR: testSeed("fblock") },
            { chainId, keyMR: testSeed("eblock") },
        ],
    });
    const out = {
        entries,
        entryCommits: entryCommits.map((c) => c.raw),
        chainCommits: [chainCommit.raw],
        transactions: [...txs.map((t) => t.raw), emptyCoinbase(CORPUS_TIME_MS).raw],
        entryBlocks: [encodeEntryBlock(entryBlock)],
        ecBlocks: [encodeECBlock(ecBlock)],
        assetBlocks: [encodeAssetBlock(assetBlock)],
        adminBlocks: [encodeAdminBlock(everyAdminEntry())],
        serverFaults: [serverFault()],
        directoryBlocks: [encodeDirectoryBlock(directory)],
        addresses: [
            genesis.publicAddress,
            genesis.privateAddress,
            other.publicAddress,
            ec.publicAddress,
            ec.privateAddress,
        ],
    };
    for (const network of ["MAIN", "TEST", "LOCAL"]) {
        const g = genesisBlocks(network);
        out.adminBlocks.push(encodeAdminBlock(g.admin));
        out.ecBlocks.push(encodeECBlock(g.ec));
        out.assetBlocks.push(encodeAssetBlock(g.asset));
        out.directoryBlocks.push(encodeDirectoryBlock(g.directory));
    }
    return out;
}
/** The RCD hash inside an FA address string. */
function keyRcdHash(fa) {
    return decodeAddress(fa, "FA").key;
}
//# sourceMappingURL=corpus.js.map