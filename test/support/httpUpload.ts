/**
 * An upload that stops early, to show a body limit without measuring memory: a node that refuses a body over
 * its limit before reading it answers such a request; one that buffers the body first never does.
 */
import net from "node:net";
import { waitFor } from "./waitFor.js";

/**
 * Start a `size`-byte POST /v2 on a keep-alive connection and stop early — declared (Content-Length): after
 * the headers; chunked: once `limitBytes` + 64 KiB of body is sent — then wait (≤ 30 s, a hang bound) for the
 * whole answer. Rejects when the connection closes without one.
 */
export async function refusedMidUpload(
  port: number,
  size: number,
  chunked: boolean,
  limitBytes: number,
): Promise<{ status: number; text: string }> {
  const s = net.connect(port, "127.0.0.1");
  let received = "";
  let closed = false;
  s.on("data", (d: Buffer) => (received += d.toString("latin1")));
  s.on("close", () => (closed = true));
  s.on("error", () => {});
  try {
    const length = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${size}`;
    s.write(`POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\n${length}\r\n\r\n`);
    if (chunked) {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent <= limitBytes; sent += chunk.length)
        s.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
    }
    return await waitFor(
      `an answer to a ${chunked ? "chunked" : "declared"} ${size}-byte upload that stopped early`,
      () => {
        const head = /^HTTP\/1\.1 (\d+)[^\r]*\r\n([\s\S]*?)\r\n\r\n/.exec(received);
        const declared = head === null ? undefined : /^content-length: *(\d+)/im.exec(head[2]!)?.[1];
        if (head === null || declared === undefined) {
          if (closed) throw new Error(`connection closed without an answer: ${JSON.stringify(received.slice(0, 200))}`);
          return undefined;
        }
        const body = received.slice(head[0].length);
        return body.length >= Number(declared) ? { status: Number(head[1]), text: body } : undefined;
      },
      30_000,
    );
  } finally {
    s.destroy();
  }
}
