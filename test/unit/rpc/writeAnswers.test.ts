/**
 * The write methods' answers written by hand (rpc/v2/submit.ts, issue 35 change 14) are the text JSON.stringify
 * writes for the same members: the same bytes a client parsed before.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { commitChainAnswer, commitEntryAnswer, revealAnswer } from "../../../src/rpc/v2/submit.js";

const hex = () => randomBytes(32).toString("hex");

test("commit-entry, commit-chain and reveal answers: JSON.stringify's text of the same members", () => {
  for (let i = 0; i < 50; i++) {
    const [txid, entryhash, other] = [hex(), hex(), hex()];
    assert.equal(
      commitEntryAnswer(txid, entryhash).text,
      JSON.stringify({ message: "Entry Commit Success", txid, entryhash }),
    );
    assert.equal(
      commitChainAnswer(txid, entryhash, other).text,
      JSON.stringify({ message: "Chain Commit Success", txid, entryhash, chainidhash: other }),
    );
    assert.equal(
      revealAnswer(entryhash, other).text,
      JSON.stringify({ message: "Entry Reveal Success", entryhash, chainid: other }),
    );
    assert.deepEqual(JSON.parse(revealAnswer(entryhash, other).text), {
      message: "Entry Reveal Success",
      entryhash,
      chainid: other,
    });
  }
});
