import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, test } from "node:test";
import type { AckStatus } from "../../../src/client/types.js";
import { WalletError } from "../../../tools/wallet/errors.js";
import { waitForStatus } from "../../../tools/wallet/progress.js";

/** A non-terminal stderr whose text the test can read. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const s = new PassThrough();
  let text = "";
  s.on("data", (d: Buffer) => (text += d.toString()));
  return { stream: s as unknown as NodeJS.WriteStream, text: () => text };
}

describe("waiting for an acknowledgement", () => {
  test("polls until the target state (or a later one); one line per status change off a terminal", async () => {
    const statuses: (AckStatus | "")[] = [
      "",
      "Unknown",
      "NotConfirmed",
      "NotConfirmed",
      "TransactionACK",
      "DBlockConfirmed",
    ];
    let polls = 0;
    const out = capture();
    const final = await waitForStatus(async () => statuses[polls++]!, {
      target: "DBlockConfirmed",
      timeoutMs: 10_000,
      label: "entry abc",
      stream: out.stream,
      pollMs: 1,
    });
    assert.equal(final, "DBlockConfirmed");
    assert.equal(polls, 6);
    const lines = out.text().trim().split("\n");
    assert.deepEqual(
      lines.map((l) => l.replace(/ \(\d+s\)$/, "")),
      [
        "waiting for DBlockConfirmed: entry abc — Unknown",
        "waiting for DBlockConfirmed: entry abc — NotConfirmed",
        "waiting for DBlockConfirmed: entry abc — TransactionACK",
        "entry abc: DBlockConfirmed",
      ],
    );
  });

  test("a later state than the target also ends the wait", async () => {
    const out = capture();
    assert.equal(
      await waitForStatus(async () => "DBlockConfirmed", {
        target: "TransactionACK",
        timeoutMs: 1000,
        label: "tx",
        stream: out.stream,
      }),
      "DBlockConfirmed",
    );
    assert.match(out.text(), /^tx: DBlockConfirmed \(0s\)\n$/);
  });

  test("gives up after the timeout with the last status", async () => {
    const out = capture();
    await assert.rejects(
      waitForStatus(async () => "NotConfirmed", {
        target: "TransactionACK",
        timeoutMs: 50,
        label: "tx 1",
        stream: out.stream,
        pollMs: 5,
      }),
      (e: unknown) =>
        e instanceof WalletError &&
        /timed out after 0 s waiting for TransactionACK of tx 1; last status: NotConfirmed/.test(e.message),
    );
  });
});
