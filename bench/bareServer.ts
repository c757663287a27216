/**
 * The yardstick of the read comparison (issue 16): a bare uWebSockets.js server — the same uWebSockets.js
 * build the node runs under hyper-express (package.json `overrides`) — that reads a POST body, parses it as
 * a JSON-RPC request and answers a fixed result. No routing library, no checks, no ledger: what one
 * core can answer at most over HTTP/1.1 with this stack. `reads.ts` runs it as a child process:
 *
 *   node dist/bench/bareServer.js <port>     # prints "ready <port>" once listening on 127.0.0.1
 */

import type * as UWS from "uWebSockets.js";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A `heights` answer of a small node (~150 bytes): the size of the light reads' answers. */
const FIXED_RESULT =
  '{"directoryblockheight":12,"leaderheight":13,"entryblockheight":12,"entryheight":12,' +
  '"missingentrycount":0,"entryblockdbheightprocessing":13,"entryblockdbheightcomplete":12}';

/** Answer one request body: parse it as the node would, echo its id, give the fixed result. */
export function bareAnswer(body: string): { status: string; text: string } {
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
  return { status: "200 OK", text: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${FIXED_RESULT}}` };
}

/** Listen on 127.0.0.1:`port` (loopback only); resolves once bound. */
export function startBareServer(port: number): Promise<void> {
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
      const answer = bareAnswer(Buffer.concat(chunks).toString("utf8"));
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
  if (!Number.isInteger(port) || port <= 0) {
    console.error("usage: node dist/bench/bareServer.js <port>");
    process.exit(2);
  }
  await startBareServer(port);
  console.log(`ready ${port}`);
}
