/**
 * The yardstick of the read comparison (issue 16): a bare uWebSockets.js server — the same uWebSockets.js
 * build the node runs under hyper-express (package.json `overrides`) — that reads a POST body, parses it as
 * a JSON-RPC request and answers a fixed result. No routing library, no checks, no ledger: what one
 * core can answer at most over HTTP/1.1 with this stack. `reads.ts` runs it as a child process:
 *
 *   node dist/bench/bareServer.js <port> [answer bytes] [distinct answers]   # prints "ready <port>" once listening
 *
 * With `answer bytes` the fixed result is padded so that each answer is that long: the yardstick for a method
 * whose answers are large (`entry-block`, `dblock-by-height`), where sending the bytes is most of the cost;
 * with `distinct answers` it sends that many copies of the answer in turn (FixedAnswer).
 */

import type * as UWS from "uWebSockets.js";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A `heights` answer of a small node (~150 bytes): the size of the light reads' answers. */
const FIXED_RESULT =
  '{"directoryblockheight":12,"leaderheight":13,"entryblockheight":12,"entryheight":12,' +
  '"missingentrycount":0,"entryblockdbheightprocessing":13,"entryblockdbheightcomplete":12}';

/** The envelope's bytes around a result of `{"pad":""}` with a one-digit id: what padding adds to. */
const PADDED_ENVELOPE_BYTES = '{"jsonrpc":"2.0","id":0,"result":{"pad":""}}'.length;
/** Bytes kept free in front of a padded answer for its start, `{"jsonrpc":"2.0","id":<id>,"result":`. */
const HEADROOM = 128;

/**
 * The answer the server gives every valid request. Small: FIXED_RESULT, written as text per request. Padded
 * (`answerBytes` larger than the envelope): a result `{"pad":"xxx…"}` making the answer `answerBytes` long with
 * a one-digit id, kept encoded once with free bytes in front, and sent as those bytes with the request's id
 * written into them — as the node sends a remembered view (src/rpc/jsonrpc.ts `JsonText.answerBytes`), so the
 * yardstick for large answers is the stack sending bytes, not a string built and encoded per request. With
 * `distinct` > 1 the padded answer is kept that many times, each copy its own buffer, and the copies are sent in
 * turn: a node answers from many remembered views, whose bytes are colder in the caches than one buffer sent
 * over and over.
 */
export class FixedAnswer {
  private readonly wires: Buffer[] = [];
  private next = 0;

  constructor(answerBytes = 0, distinct = 1) {
    const pad = answerBytes - PADDED_ENVELOPE_BYTES;
    if (pad <= 0) return;
    const tail = `{"pad":"${"x".repeat(pad)}"}}`;
    for (let i = 0; i < distinct; i++) {
      const wire = Buffer.alloc(HEADROOM + tail.length, 0x20);
      wire.write(tail, HEADROOM, "latin1");
      this.wires.push(wire);
    }
  }

  /** The answer to a request whose id is `idJson` (JSON text); a padded answer's bytes are shared: send them at once. */
  to(idJson: string): string | Uint8Array {
    const start = `{"jsonrpc":"2.0","id":${idJson},"result":`;
    if (this.wires.length === 0) return `${start}${FIXED_RESULT}}`;
    const wire = this.wires[this.next]!;
    this.next = (this.next + 1) % this.wires.length;
    // an id too long for the headroom: the same answer as text (the tail holds the closing brace)
    if (start.length > HEADROOM) return start + wire.toString("latin1", HEADROOM);
    wire.write(start, HEADROOM - start.length, "latin1");
    return wire.subarray(HEADROOM - start.length);
  }
}

const SMALL_ANSWER = new FixedAnswer();

/** Answer one request body: parse it as the node would, echo its id, give the fixed result. */
export function bareAnswer(
  body: string,
  fixed: FixedAnswer = SMALL_ANSWER,
): { status: string; text: string | Uint8Array } {
  let id: unknown = null;
  try {
    const request = JSON.parse(body) as { jsonrpc?: unknown; id?: unknown; method?: unknown };
    id = request.id ?? null;
    if (request.jsonrpc !== "2.0" || typeof request.method !== "string")
      return {
        status: "400 Bad Request",
        text: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32600,"message":"Invalid Request"}}`,
      };
  } catch {
    return { status: "400 Bad Request", text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}' };
  }
  return { status: "200 OK", text: fixed.to(JSON.stringify(id)) };
}

/** Listen on 127.0.0.1:`port` (loopback only), answering `answerBytes`-long answers (FixedAnswer); resolves once bound. */
export function startBareServer(port: number, answerBytes = 0, distinct = 1): Promise<void> {
  const fixed = new FixedAnswer(answerBytes, distinct);
  // uWebSockets.js is CommonJS whose exports Node's ESM loader cannot list: load it with require.
  const uws = createRequire(import.meta.url)("uWebSockets.js") as typeof UWS;
  const app = uws.App();
  app.post("/*", (res) => {
    const chunks: Buffer[] = [];
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    res.onData((chunk, isLast) => {
      // uWS reuses the chunk's memory after this call: copy it
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast || aborted) return;
      const answer = bareAnswer(Buffer.concat(chunks).toString("utf8"), fixed);
      res.cork(() => {
        res.writeStatus(answer.status).writeHeader("Content-Type", "application/json; charset=utf-8").end(answer.text);
      });
    });
  });
  app.any("/*", (res) => {
    res.writeStatus("404 Not Found").end("404 page not found\n");
  });
  return new Promise((resolve, reject) => {
    app.listen("127.0.0.1", port, (socket) =>
      socket === false ? reject(new Error(`cannot listen on ${port}`)) : resolve(),
    );
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const port = Number(process.argv[2]);
  const answerBytes = Number(process.argv[3] ?? 0);
  const distinct = Number(process.argv[4] ?? 1);
  if (
    !Number.isInteger(port) ||
    port <= 0 ||
    !Number.isInteger(answerBytes) ||
    answerBytes < 0 ||
    !Number.isInteger(distinct) ||
    distinct < 1
  ) {
    console.error("usage: node dist/bench/bareServer.js <port> [answer bytes] [distinct answers]");
    process.exit(2);
  }
  await startBareServer(port, answerBytes, distinct);
  console.log(`ready ${port}`);
}
