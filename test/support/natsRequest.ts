/**
 * One NATS request/reply over the plain text protocol (docs.nats.io "Client Protocol"), for tests that
 * drive nats-server's JetStream API directly ($JS.API.STREAM.CREATE.<name>, a publish answered by a
 * JetStream ack) without a client library: connect, CONNECT, SUB an inbox, PUB with that reply subject,
 * read one MSG or HMSG, close. A 503 "no responders" status (no stream leader) comes back as
 * `{status: 503}`.
 */
import net from "node:net";

export interface NatsReply {
  /** status code of a header-only reply (503 = no responders), 0 for a normal message */
  status: number;
  /** the reply payload as text */
  text: string;
}

/**
 * Send `payload` to `subject` on the server at 127.0.0.1:`port` and wait for one reply.
 * @param timeoutMs reject when no reply comes within this many ms
 * @param auth a user and password for a server with `authorization` users (a devnet's admin user)
 */
export function natsRequest(
  port: number,
  subject: string,
  payload: string,
  timeoutMs = 5000,
  auth?: { user: string; password: string },
): Promise<NatsReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (e: Error | undefined, r?: NatsReply): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (e !== undefined) reject(e);
      else resolve(r!);
    };
    const timer = setTimeout(
      () => finish(new Error(`nats ${subject} on port ${port}: no reply within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on("error", (e) => finish(e));
    socket.on("close", () => finish(new Error(`nats ${subject} on port ${port}: connection closed before a reply`)));
    socket.on("connect", () => {
      const body = Buffer.from(payload, "utf8");
      const credentials =
        auth === undefined ? "" : `,"user":${JSON.stringify(auth.user)},"pass":${JSON.stringify(auth.password)}`;
      socket.write(
        `CONNECT {"verbose":false,"pedantic":false,"headers":true,"no_responders":true${credentials}}\r\n` +
          `SUB _INBOX.test 1\r\nPUB ${subject} _INBOX.test ${body.length}\r\n`,
      );
      socket.write(Buffer.concat([body, Buffer.from("\r\n")]));
    });
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const eol = buf.indexOf("\r\n");
        if (eol < 0) return;
        const line = buf.subarray(0, eol).toString("latin1");
        if (line.startsWith("PING")) {
          socket.write("PONG\r\n");
          buf = buf.subarray(eol + 2);
          continue;
        }
        if (line.startsWith("-ERR")) return finish(new Error(`nats ${subject}: ${line}`));
        // MSG <subject> <sid> [reply] <bytes>; HMSG … <header bytes> <total bytes>. A server may write an empty
        // reply field as two spaces ("MSG _INBOX.x 1  23", seen from 2.9.10 for a JetStream ack).
        const words = line.split(/ +/);
        const isHmsg = words[0] === "HMSG";
        if (words[0] !== "MSG" && !isHmsg) {
          buf = buf.subarray(eol + 2); // INFO, PONG, +OK
          continue;
        }
        const total = Number(words.at(-1));
        if (buf.length < eol + 2 + total + 2) return; // wait for the whole payload
        const payloadBytes = buf.subarray(eol + 2, eol + 2 + total);
        if (!isHmsg) return finish(undefined, { status: 0, text: payloadBytes.toString("utf8") });
        const headerLen = Number(words.at(-2));
        const headers = payloadBytes.subarray(0, headerLen).toString("latin1");
        const status = Number(/^NATS\/1\.0 (\d{3})/.exec(headers)?.[1] ?? 0);
        return finish(undefined, { status, text: payloadBytes.subarray(headerLen).toString("utf8") });
      }
    });
  });
}
