/**
 * Cursors of the query extensions (rpc/queryCursor.ts): a round trip, and every refusal a -32602 naming
 * `cursor` — not text, not base64url, too short, of another version, of another method, for the other order.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RpcError } from "../../../src/rpc/errors.js";
import { Params } from "../../../src/rpc/params.js";
import { encodeCursor, expectCursor } from "../../../src/rpc/queryCursor.js";

const position = Uint8Array.from({ length: 40 }, (_, i) => i * 7);

function refused(
  cursor: unknown,
  method: Parameters<typeof expectCursor>[1],
  order: "asc" | "desc",
  data: RegExp,
): void {
  assert.throws(
    () => expectCursor(new Params({ cursor }), method, order),
    (e: unknown) => e instanceof RpcError && e.code === -32602 && data.test(String(e.data)),
  );
}

describe("query cursors", () => {
  test("round trip; absent and empty mean the first page; the end is the empty string", () => {
    const text = encodeCursor("chain-entries", "desc", position);
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(expectCursor(new Params({ cursor: text }), "chain-entries", "desc"), position);
    assert.equal(expectCursor(new Params({}), "chain-entries", "asc"), undefined);
    assert.equal(expectCursor(new Params({ cursor: "" }), "chain-entries", "asc"), undefined);
    assert.equal(encodeCursor("search-entries", "asc", undefined), "");
  });

  test("refusals name the cursor and what is wrong", () => {
    const text = encodeCursor("chain-entries", "asc", position);
    refused(5, "chain-entries", "asc", /^cursor: expected a string/);
    refused("not base64!", "chain-entries", "asc", /^cursor: malformed/);
    refused("AAA", "chain-entries", "asc", /^cursor: malformed/);
    refused("x".repeat(200), "chain-entries", "asc", /^cursor: malformed/);
    const otherVersion = Buffer.from(text, "base64url");
    otherVersion[0] = 9;
    refused(otherVersion.toString("base64url"), "chain-entries", "asc", /^cursor: malformed/);
    const unknownMethod = Buffer.from(text, "base64url");
    unknownMethod[1] = 77;
    refused(unknownMethod.toString("base64url"), "chain-entries", "asc", /^cursor: malformed/);
    refused(text, "address-history", "asc", /^cursor: a cursor of chain-entries, not of address-history/);
    refused(text, "chain-entries", "desc", /^cursor: made for order "asc", asked with order "desc"/);
  });

  test("a cursor of the query index's first layout: still read for chain-entries and address-history, refused for searches", () => {
    // version 1 ‖ method tag ‖ order ‖ position: what nodes answered before layout 2 (docs/api.md §5.8)
    const v1 = (tag: number, order: number): string =>
      Buffer.concat([Uint8Array.of(1, tag, order), position]).toString("base64url");
    assert.deepEqual(expectCursor(new Params({ cursor: v1(1, 1) }), "chain-entries", "desc"), position);
    assert.deepEqual(expectCursor(new Params({ cursor: v1(4, 0) }), "address-history", "asc"), position);
    for (const [tag, method] of [
      [2, "search-entries"],
      [3, "search-chains"],
    ] as const)
      refused(
        v1(tag, 0),
        method,
        "asc",
        new RegExp(
          `^cursor: made by an earlier layout of this node's query index, whose ${method} positions no longer exist: start again without a cursor$`,
        ),
      );
    // the current version is 2
    assert.equal(Buffer.from(encodeCursor("search-entries", "asc", position), "base64url")[0], 2);
  });
});
