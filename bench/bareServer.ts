/**
 * The yardstick of the read comparison (issue 16): a bare uWebSockets.js server — the same uWebSockets.js
 * build the node runs under hyper-express (package.json `overrides`) — that reads a POST body, parses it as
 * a JSON-RPC request and answers a fixed result. No routing library, no checks, no ledger: what one
 * core can answer at most over HTTP/1.1 with this stack. `reads.ts` runs it as a child process:
 *
 *   node dist/bench/bareServer.js <port> [answer bytes, or one per id: n0,n1,…]   # prints "ready <port>" once listening
 *
 * With `answer bytes` the fixed result is padded so that each answer is that long: the yardstick for a method
 * whose answers are large (`entry-block`, `dblock-by-height`), where sending the bytes is most of the cost; with a
 * length per id, the answer to the request with id `i` is the `i`-th long (FixedAnswer).
 */

import type * as UWS from "uWebSockets.js";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A `heights` answer of a small node (~150 bytes): the size of the light reads' answers. */
const FIXED_RESULT =
  '{"directoryblockheight":12,"leaderheight":13,"entryblockheight":12,"entryheight":12,' +
  '"missingentrycount":0,"entryblockdbheightprocessing":13,"entryblockdbheightcomplete":12}';

/** Bytes kept free in front of a padded answer for its start, `{"jsonrpc":"2.0","id":<id>,"result":`. */
const HEADROOM = 128;

/**
 * The answer the server gives every valid request. Small (no lengths): FIXED_RESULT, written as text per
 * request. Padded: a result `{"pad":"xxx…"}` making the answer to the request with id `i` exactly `lengths[i]`
 * bytes long (one length: every id's), kept encoded once per id with free bytes in front and sent as those bytes
 * with the request's id written into them — as the node sends a remembered view (src/rpc/jsonrpc.ts
 * `JsonText.answerBytes`), so the yardstick for large answers is the stack sending bytes, not a string built and
 * encoded per request. The read benchmark gives target `i` the id `i` and passes each target's answer length from
 * the node: the bare server then sends the same bytes per request as the node, each id from a buffer of its own,
 * as cold in the caches as the node's many remembered views (one buffer sent over and over stays in cache; and
 * the fill's answers range from a few hundred bytes to over 100 KB, which no single length stands for).
 */
export class FixedAnswer {
  private readonly wires: Buffer[] = [];

  constructor(lengths: readonly number[] = []) {
    for (const [i, length] of lengths.entries()) {
      const pad = length - paddedEnvelopeBytes(String(lengths.length === 1 ? 0 : i));
      if (pad <= 0) continue;
      const tail = `{"pad":"${"x".repeat(pad)}"}}`;
      const wire = Buffer.alloc(HEADROOM + tail.length, 0x20);
      wire.write(tail, HEADROOM, "latin1");
      this.wires[i] = wire;
    }
  }

  /** The answer to a request whose id is `idJson` (JSON text); a padded answer's bytes are shared: send them at once. */
  to(idJson: string): string | Uint8Array {
    const start = `{"jsonrpc":"2.0","id":${idJson},"result":`;
    // the id's own answer; an id without one (not an index, or its length too short to pad) takes the first's
    const index = Number(idJson);
    const wire = (Number.isInteger(index) && index >= 0 ? this.wires[index] : undefined) ?? this.wires.find(Boolean);
    if (wire === undefined) return `${start}${FIXED_RESULT}}`;
    // an id too long for the headroom: the same answer as text (the tail holds the closing brace)
    if (start.length > HEADROOM) return start + wire.toString("latin1", HEADROOM);
    wire.write(start, HEADROOM - start.length, "latin1");
    return wire.subarray(HEADROOM - start.length);
  }
}

/** The envelope's bytes around a result of `{"pad":""}` with the id `idJson`: what padding adds to. */
function paddedEnvelopeBytes(idJson: string): number {
  return `{"jsonrpc":"2.0","id":${idJson},"result":{"pad":""}}`.length;
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
export function startBareServer(port: number, lengths: readonly number[] = []): Promise<void> {
  const fixed = new FixedAnswer(lengths);
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
  // none, or "0": the small answer
  const arg = process.argv[3] ?? "";
  const lengths = arg === "" || arg === "0" ? [] : arg.split(",").map(Number);
  if (!Number.isInteger(port) || port <= 0 || !lengths.every((n) => Number.isInteger(n) && n > 0)) {
    console.error("usage: node dist/bench/bareServer.js <port> [answer bytes, or one per id: n0,n1,…]");
    process.exit(2);
  }
  await startBareServer(port, lengths);
  console.log(`ready ${port}`);
}
