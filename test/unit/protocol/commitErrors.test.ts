/**
 * Edges of protocol/commit.ts that the first mutation run left open (docs/testing.md): the version rule's
 * error, the byte ranges of encodeCommit at both ends, and the builders' errors (seed length, credit
 * range naming the commit kind).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  buildChainCommit,
  buildEntryCommit,
  type Commit,
  encodeCommit,
  parseChainCommit,
  parseEntryCommit,
} from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, marshalEntry } from "../../../src/protocol/entry.js";
import { expectProtocolError } from "../../support/fuzz.js";

/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const extIds = [new TextEncoder().encode("commit edges")];
const entryRaw = marshalEntry({ version: 0, chainId: chainIdFromExtIds(extIds), extIds, content: new Uint8Array(3) });
const seed = new Uint8Array(32).fill(3);
const entry = buildEntryCommit({ entryRaw, milliTime: 1_700_000_000_000, ecSeed: seed });
const chain = buildChainCommit({ entryRaw, milliTime: 1_700_000_000_000, ecSeed: seed });

describe("commit edges", () => {
  test("a version other than 0 is BAD_VERSION naming the commit kind and the version", () => {
    for (const [c, parse, name] of [
      [entry, parseEntryCommit, "entry commit"],
      [chain, parseChainCommit, "chain commit"],
    ] as const) {
      const raw = c.raw.slice();
      raw[0] = 2;
      assert.equal(
        errorOf(() => parse(raw)),
        `BAD_VERSION ${name}.version: expected 0, got 2`,
      );
    }
  });

  test("encodeCommit takes any byte for version and credits (0 and 255), and refuses -1 and 256", () => {
    for (const c of [entry, chain] as Commit[]) {
      const name = c.kind === "entry" ? "entry commit" : "chain commit";
      for (const v of [0, 255]) {
        assert.equal(encodeCommit({ ...c, version: v })[0], v);
        assert.equal(encodeCommit({ ...c, credits: v }).length, c.raw.length);
      }
      for (const v of [-1, 256]) {
        assert.equal(
          errorOf(() => encodeCommit({ ...c, version: v })),
          `BAD_VERSION ${name}.version: must be a byte, got ${v}`,
        );
        assert.equal(
          errorOf(() => encodeCommit({ ...c, credits: v })),
          `BAD_VALUE ${name}.credits: must be a byte, got ${v}`,
        );
      }
    }
  });

  test("the builders name the seed length and the commit kind's credit range", () => {
    assert.equal(
      errorOf(() => buildEntryCommit({ entryRaw, milliTime: 1, ecSeed: new Uint8Array(31) })),
      "BAD_LENGTH ecSeed: expected 32 bytes, got 31",
    );
    assert.equal(
      errorOf(() => buildEntryCommit({ entryRaw, milliTime: 1, ecSeed: seed, credits: 11 })),
      "BAD_VALUE entry commit.credits: must be 1..10, got 11",
    );
    assert.equal(
      errorOf(() => buildChainCommit({ entryRaw, milliTime: 1, ecSeed: seed, credits: 10 })),
      "BAD_VALUE chain commit.credits: must be 11..20, got 10",
    );
  });
});
