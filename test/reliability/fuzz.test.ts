// Hostile input (issue "Reliability"): (a) every protocol decoder over random bytes and mutations of the
// vectors and of freshly signed objects — only ProtocolError may come out, and an accepted input must
// re-encode to itself; (b) the JSON-RPC dispatcher of a running node over HTTP — every answer is a
// well-formed JSON-RPC response, the node never dies, and invalid input changes no state.
//
// Case counts: CI 5,000 per decoder; LEDGERD_LONG=1 100,000 per decoder (make test-long). The seed is
// printed; LEDGERD_FUZZ_SEED=<n> replays a run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isValidAddress } from "../../src/protocol/address.js";
import { fuzzDecoder } from "../support/fuzz.js";
import { Random } from "../support/random.js";
import { buildCorpus, vectorAddressStrings, vectorBlobs } from "./corpus.js";
import { decoderTable } from "./decoderTable.js";
import { LONG, fuzzSeed } from "./mode.js";

/** Inputs per decoder: CI and long mode (issue: ≥ 5,000 in CI, ≥ 100,000 long). */
const CASES_PER_DECODER = LONG ? 100_000 : 5_000;
/** Share of the cases given to structure-aware variants (extreme field values, splices of two seeds). */
const STRUCTURED_SHARE = 0.25;
/** One decode must never take this long, ms: a decoder that loops or allocates by a hostile count is a bug. */
const MAX_CASE_MS = 2_000;

/** Big-endian extremes for 1-, 2-, 4- and 8-byte fields: counts, sizes, heights, amounts. */
const EXTREMES: readonly number[][] = [
  [0x00],
  [0xff],
  [0x80],
  [0x7f],
  [0xff, 0xff],
  [0x00, 0x00],
  [0x28, 0x01], // 10241: one over the entry payload limit
  [0xff, 0xff, 0xff, 0xff],
  [0x7f, 0xff, 0xff, 0xff],
  [0x00, 0x01, 0x86, 0xa1], // 100,001: one over the directory block entry limit
  [0x00, 0x00, 0x00, 0x00],
  [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
  [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], // a 10-byte varint
  [0x80, 0x01], // non-minimal varint
];

/** Inputs that keep most of a valid object: one field set to an extreme, or two objects spliced. */
function structuredVariants(rng: Random, seeds: readonly Uint8Array[], count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const a = rng.pick(seeds);
    if (rng.chance(0.7) || seeds.length < 2) {
      const ext = rng.pick(EXTREMES);
      const at = a.length === 0 ? 0 : rng.int(0, a.length - 1);
      const b = a.slice();
      for (let k = 0; k < ext.length && at + k < b.length; k++) b[at + k] = ext[k]!;
      out.push(b);
    } else {
      const b = rng.pick(seeds);
      out.push(Uint8Array.from([...a.subarray(0, rng.int(0, a.length)), ...b.subarray(rng.int(0, b.length))]));
    }
  }
  return out;
}

/** The vector blobs a decoder accepts: its "own" real-world inputs. */
function acceptedBy(decode: (b: Uint8Array) => unknown, blobs: readonly Uint8Array[]): Uint8Array[] {
  return blobs.filter((b) => {
    try {
      decode(b);
      return true;
    } catch {
      return false;
    }
  });
}

describe("protocol decoders under random and mutated input", { concurrency: false }, () => {
  const seed = fuzzSeed();
  const corpus = buildCorpus();
  corpus.addresses.push(...vectorAddressStrings().filter((a) => isValidAddress(a)));
  const blobs = vectorBlobs();
  const table = decoderTable(corpus);
  let total = 0;

  table.forEach((d, index) => {
    it(`${d.name}: ${CASES_PER_DECODER} cases, only ProtocolError`, () => {
      const rng = new Random(seed + index * 7919);
      const own = [...d.ownSeeds, ...acceptedBy(d.decode, blobs)];
      // every own seed must decode: otherwise the table or the corpus is wrong and the fuzz is blind
      for (const s of d.ownSeeds) d.decode(s);
      // a decoder without valid inputs of its own is fed every blob (cross-format bytes)
      const seeds = own.length > 0 ? own : blobs.slice();
      const structuredCases = Math.floor(CASES_PER_DECODER * STRUCTURED_SHARE);
      let slowest = 0;
      const timed = (b: Uint8Array): unknown => {
        const t0 = performance.now();
        try {
          return d.decode(b);
        } finally {
          const ms = performance.now() - t0;
          if (ms > slowest) slowest = ms;
          if (ms > MAX_CASE_MS) assert.fail(`seed ${rng.seed}: ${d.name} took ${Math.round(ms)} ms on ${b.length} bytes`);
        }
      };
      const onAccept = (value: unknown, bytes: Uint8Array): void => {
        try {
          d.onAccept?.(value as never, bytes);
        } catch (e) {
          assert.fail(`seed ${rng.seed}: ${d.name}: ${e instanceof Error ? e.message : String(e)}`);
        }
      };
      const accepted =
        fuzzDecoder(rng, timed, { seeds, cases: CASES_PER_DECODER - structuredCases, maxRandomLength: d.maxRandomLength, onAccept }) +
        fuzzDecoder(rng, timed, { seeds: structuredVariants(rng, seeds, 256), cases: structuredCases, onAccept });
      total += CASES_PER_DECODER;
      // Every case ran (fuzzDecoder fails on anything but ProtocolError); the accept count shows the fuzz
      // reached past the first checks for decoders that have valid inputs.
      if (own.length > 0) assert.ok(accepted > 0, `${d.name}: no mutated input was ever accepted (seed ${seed})`);
      assert.ok(slowest < MAX_CASE_MS);
    });
  });

  it("ran the issue's number of cases", () => {
    assert.ok(total >= (LONG ? 100_000 : 5_000), `${total} cases`);
    process.stdout.write(`# decoder fuzz: ${table.length} decoders, ${total} cases, seed ${seed}\n`);
  });
});
