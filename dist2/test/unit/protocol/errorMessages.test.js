/**
 * The error every decoder gives for every truncation of a valid input (and for one trailing byte), against
 * test/fixtures/errors/decoders.json. The message is what a client reads in a JSON-RPC error's `data`
 * (`field: detail`, STYLE §5), so it must name the field where the input ended; tests that checked only
 * the error code let a decoder name the wrong field, or none, unseen (a mutation audit found ~100 such
 * mutants in the admin block alone, docs/testing.md).
 *
 * After a deliberate change of a message: LEDGERD_UPDATE_GOLDEN=1 node --test dist/test/unit/protocol/errorMessages.test.js
 * rewrites the file; review its diff like code.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { decodeAdminBlock, encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { decodeChainCommit, decodeEntryCommit, encodeCommit } from "../../../src/protocol/commit.js";
import { decodeDirectoryBlock, encodeDirectoryBlock } from "../../../src/protocol/dblock.js";
import { decodeEntryBlock, encodeEntryBlock } from "../../../src/protocol/eblock.js";
import { decodeECBlock, encodeECBlock } from "../../../src/protocol/ecblock.js";
import { marshalEntry, unmarshalEntry } from "../../../src/protocol/entry.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { decodeAssetBlock, encodeAssetBlock } from "../../../src/protocol/fblock.js";
import { decodeTransaction, encodeTransaction } from "../../../src/protocol/transaction.js";
import { buildCorpus } from "../../reliability/corpus.js";
import { decoderTable } from "../../reliability/decoderTable.js";
/** Source folder of the expected messages (the test runs from dist/). */
const GOLDEN_DIR = join(import.meta.dirname, "../../../../test/fixtures/errors");
/** Inputs longer than this are left out (block-sized genesis data would make the file huge). */
const MAX_SEED_BYTES = 700;
/**
 * What `decode` makes of `bytes`: "ok", or the error's code and message, with the count of bytes left
 * written as N and the input's own length as LEN (both follow from the truncation; without them one
 * field's messages would not form a single run).
 */
function outcome(decode, bytes) {
    try {
        decode(bytes);
        return "ok";
    }
    catch (e) {
        if (e instanceof ProtocolError)
            return `${e.code} ${e.message
                .replace(/(only|the) \d+ (byte\(s\) |bytes )?left/, "$1 N $2left")
                .replace(new RegExp(`got ${bytes.length}\\b`), "got LEN")}`;
        return `not a ProtocolError: ${String(e)}`;
    }
}
/** Every decoder's outcome per truncation length, runs of equal outcomes joined as "from-to". */
function observeDecoders(c) {
    const out = {};
    const inputs = decoderTable(c)
        // hex text alternates between valid and odd-length at every cut: nothing to learn from its truncations
        .filter((d) => d.name !== "fromHex")
        .map((d) => [d.name, d.decode, d.ownSeeds]);
    for (const [name, decode, seeds] of inputs)
        seeds.forEach((seed, s) => {
            if (seed.length > MAX_SEED_BYTES)
                return;
            const lines = [];
            let from = 0;
            let last = outcome(decode, seed.subarray(0, 0));
            for (let k = 1; k <= seed.length; k++) {
                const now = k === seed.length ? "(whole)" : outcome(decode, seed.subarray(0, k));
                if (now !== last) {
                    lines.push(`${from === k - 1 ? from : `${from}-${k - 1}`}: ${last}`);
                    from = k;
                    last = now;
                }
            }
            lines.push(`+1 byte: ${outcome(decode, Uint8Array.of(...seed, 0))}`);
            out[`${name} #${s} (${seed.length} bytes)`] = lines;
        });
    return out;
}
/** `value` with the leaf at `path` replaced by `leaf`. */
function replaced(value, path, leaf) {
    if (path.length === 0)
        return leaf;
    const [head, ...rest] = path;
    if (Array.isArray(value))
        return value.map((v, i) => (i === head ? replaced(v, rest, leaf) : v));
    const o = value;
    return { ...o, [head]: replaced(o[head], rest, leaf) };
}
/** Paths of the leaves of `value` (bytes, numbers, bigints), skipping `skip` keys. */
function leaves(value, skip, path = []) {
    if (value instanceof Uint8Array || typeof value === "number" || typeof value === "bigint")
        return [path];
    if (Array.isArray(value))
        return value.flatMap((v, i) => leaves(v, skip, [...path, i]));
    if (value !== null && typeof value === "object")
        return Object.entries(value).flatMap(([k, v]) => (skip.has(k) ? [] : leaves(v, skip, [...path, k])));
    return [];
}
/** A leaf made invalid: bytes one too long, a number or bigint of −1, a fraction, or past its type's range. */
function poisons(leaf) {
    if (leaf instanceof Uint8Array)
        return [["one byte longer", Uint8Array.of(...leaf, 0)]];
    if (typeof leaf === "number")
        return [
            ["-1", -1],
            ["0.5", 0.5],
            ["2^53", 2 ** 53],
        ];
    if (typeof leaf === "bigint")
        return [["-1", -1n]];
    return [];
}
/** Every encoder's outcome with each field of a valid object made invalid in turn. */
function observeEncoders(c) {
    /** Fields the encoders do not read (derived ones, the bytes they keep) or whose every value is valid. */
    const skip = new Set(["raw", "signedPart", "bodyMR", "bodyHash", "content", "data"]);
    const samples = [
        ["encodeAdminBlock", decodeAdminBlock(c.adminBlocks[0]), encodeAdminBlock],
        ["marshalEntry", unmarshalEntry(c.entries[0]), marshalEntry],
        ["encodeCommit (entry)", decodeEntryCommit(c.entryCommits[0]), encodeCommit],
        ["encodeCommit (chain)", decodeChainCommit(c.chainCommits[0]), encodeCommit],
        ["encodeTransaction", decodeTransaction(c.transactions[1]), encodeTransaction],
        ["encodeEntryBlock", decodeEntryBlock(c.entryBlocks[0]), encodeEntryBlock],
        ["encodeECBlock", decodeECBlock(c.ecBlocks[0]), encodeECBlock],
        ["encodeAssetBlock", decodeAssetBlock(c.assetBlocks[0]), encodeAssetBlock],
        ["encodeDirectoryBlock", decodeDirectoryBlock(c.directoryBlocks[0]), encodeDirectoryBlock],
    ];
    const out = {};
    for (const [name, sample, encode] of samples) {
        const lines = [];
        for (const path of leaves(sample, skip)) {
            const leaf = path.reduce((v, k) => v[k], sample);
            for (const [how, bad] of poisons(leaf)) {
                const result = outcome((_b) => encode(replaced(sample, path, bad)), new Uint8Array(0));
                lines.push(`${path.join(".")} ${how}: ${result}`);
            }
        }
        out[name] = lines;
    }
    return out;
}
/** Compare `seen` with the golden file `name` (rewritten first when LEDGERD_UPDATE_GOLDEN=1). */
function matchesGolden(name, seen) {
    const file = join(GOLDEN_DIR, name);
    if (process.env.LEDGERD_UPDATE_GOLDEN === "1")
        writeFileSync(file, `${JSON.stringify(seen, null, 1)}\n`);
    const expected = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(Object.keys(seen), Object.keys(expected), "the same decoders and inputs");
    for (const [key, lines] of Object.entries(expected))
        assert.deepEqual(seen[key], lines, key);
}
describe("protocol error messages", () => {
    const corpus = buildCorpus();
    test("every truncation of a valid input names the field where it ended (decoders.json)", () => {
        matchesGolden("decoders.json", observeDecoders(corpus));
    });
    test("each field of a valid object made invalid is named by the encoder's error (encoders.json)", () => {
        matchesGolden("encoders.json", observeEncoders(corpus));
    });
});
//# sourceMappingURL=errorMessages.test.js.map