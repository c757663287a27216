/**
 * `-httpfront` (opt-in): a node:net listener on the API port in front of uWebSockets.js, so that every
 * connection's first request gets a status line. The uWS build in use (20.30) drops a request its parser does
 * not take (HTTP/1.0, no `Host`, the target `*`, a control character in a header, an unknown method, …)
 * without calling JavaScript: no status, the connection closed at once or after its 10 s timeout
 * (docs/operations.md §5). This build can neither adopt a socket accepted elsewhere nor report parse errors,
 * so the front reads each new connection's first request head (requestHead.ts decides), answers what uWS
 * would drop, and otherwise connects to uWS on a Unix socket and copies both directions for the rest of the
 * connection. uWS learns the client's address from a PROXY v2 header (`getProxiedRemoteAddressAsText`).
 *
 * Cost: every byte of every request passes through this JavaScript twice (docs/performance.md §"`-httpfront`"), hence off by
 * default. Only the first request of a connection is checked; later ones on a kept-alive connection meet
 * uWS as they would without the front. Plain HTTP only (the front does not terminate TLS).
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerBytes, bareLineFeed, checkRequestHead, type HeadVerdict, MAX_HEAD_BYTES } from "./requestHead.js";

/**
 * Milliseconds a new connection has to deliver its whole first request head. uWS closes a connection that
 * has not completed a request after 10 s (idle or trickling); the front keeps the same bound, and answers
 * 408 when part of a head arrived (nothing is sent to a connection that sent nothing).
 */
export const HEAD_TIMEOUT_MS = 10_000;

/**
 * Milliseconds a refused connection stays open after its answer, for the client to read it before the close
 * (a client still sending would otherwise get a reset that can destroy the unread answer).
 */
const LINGER_MS = 1_000;

/** PROXY protocol v2 signature (12 bytes), then version 2 / command PROXY. */
const PROXY_V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x21]);

/** Longest Unix socket path (sun_path is 108 bytes on Linux, 104 on macOS, with its NUL). */
const MAX_SOCKET_PATH = 103;

/**
 * Where uWS listens behind the front: `api.sock` in `dir` (the network's directory, which the data
 * directory lock keeps to one node), or in a new private temp directory when that path is too long for a
 * Unix socket.
 */
export function frontSocketPath(dir: string): string {
  const path = join(dir, "api.sock");
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : join(mkdtempSync(join(tmpdir(), "ledgerd-")), "api.sock");
}

export interface HttpFrontOptions {
  host: string;
  /** TCP port; 0 picks a free one (read it back from `port` after `listen`) */
  port: number;
  /** the Unix socket uWS listens on */
  upstreamPath: string;
}

export interface HttpFrontDependencies {
  log: { debug(msg: string, fields?: Record<string, unknown>): void };
}

export class HttpFront {
  private readonly server: net.Server;
  private readonly open = new Set<net.Socket>();

  constructor(
    private readonly options: HttpFrontOptions,
    private readonly deps: HttpFrontDependencies,
  ) {
    // half-open: a client may end its side after the request and still read the answer
    this.server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => this.accept(client));
  }

  /** The bound TCP port. */
  get port(): number {
    const a = this.server.address();
    return a !== null && typeof a === "object" ? a.port : 0;
  }

  /** Listen on the API address; rejects with the system error (EADDRINUSE, …). */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen({ host: this.options.host, port: this.options.port, exclusive: true }, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  /** Stop listening, close every connection and remove the Unix socket file. */
  close(): void {
    this.server.close();
    for (const s of this.open) s.destroy();
    this.open.clear();
    rmSync(this.options.upstreamPath, { force: true });
  }

  private track(s: net.Socket): void {
    this.open.add(s);
    s.once("close", () => this.open.delete(s));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    let received: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => {
      client.off("data", onData);
      if (received.length === 0) client.destroy();
      else this.refuse(client, { kind: "answer", status: 408, reason: "request head not complete in 10 s" });
    }, HEAD_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      const scanned = received.toString("latin1", 0, end === -1 ? received.length : end + 4);
      let verdict: HeadVerdict | undefined;
      if (bareLineFeed(scanned) !== -1)
        verdict = { kind: "answer", status: 400, reason: "line ended by LF without CR; HTTP/1.1 needs CRLF" };
      else if (end === -1 ? received.length > MAX_HEAD_BYTES : end + 4 > MAX_HEAD_BYTES)
        verdict = { kind: "answer", status: 431, reason: `request head over ${MAX_HEAD_BYTES} bytes` };
      else if (end === -1) return;
      else verdict = checkRequestHead(scanned);
      clearTimeout(timer);
      client.off("data", onData);
      if (verdict.kind === "answer") this.refuse(client, verdict);
      else
        this.handOver(
          client,
          verdict.kind === "rewrite" ? Buffer.from(verdict.head, "latin1") : undefined,
          received,
          end + 4,
        );
    };
    client.on("data", onData);
    client.on("error", () => client.destroy());
    client.on("close", () => clearTimeout(timer));
  }

  /** Answer, drop whatever else the client sends, close after a short linger. */
  private refuse(client: net.Socket, verdict: Extract<HeadVerdict, { kind: "answer" }>): void {
    this.deps.log.debug("http front refused a request", { status: verdict.status, reason: verdict.reason });
    client.on("data", () => {});
    client.end(answerBytes(verdict), "latin1");
    setTimeout(() => client.destroy(), LINGER_MS).unref();
  }

  /**
   * Connect to uWS, send the PROXY header, the head (or its rewrite) and what followed it, then copy both
   * ways; either side's end or error ends the other.
   */
  private handOver(client: net.Socket, rewritten: Buffer | undefined, received: Buffer, headLength: number): void {
    client.pause();
    const upstream = net.connect({ path: this.options.upstreamPath, allowHalfOpen: true });
    this.track(upstream);
    upstream.write(
      proxyV2Header(
        { address: client.remoteAddress ?? "", port: client.remotePort ?? 0 },
        { address: client.localAddress ?? "", port: client.localPort ?? 0 },
      ),
    );
    if (rewritten === undefined) upstream.write(received);
    else {
      upstream.write(rewritten);
      if (received.length > headLength) upstream.write(received.subarray(headLength));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => {
      if (!client.writableEnded) client.destroy();
    });
  }
}

/** An endpoint of a TCP connection as node:net reports it. */
export interface TcpEndpoint {
  address: string;
  port: number;
}

/**
 * PROXY protocol v2 header (command PROXY, TCP) carrying a connection's client (`src`) and listener (`dst`)
 * addresses; IPv4-mapped IPv6 addresses go as IPv4.
 */
export function proxyV2Header(src: TcpEndpoint, dst: TcpEndpoint): Buffer {
  const from = plainAddress(src.address);
  const to = plainAddress(dst.address);
  const v4 = net.isIPv4(from) && net.isIPv4(to);
  const size = v4 ? 4 : 16;
  const out = Buffer.alloc(16 + size * 2 + 4);
  PROXY_V2_SIGNATURE.copy(out);
  out[13] = v4 ? 0x11 : 0x21; // TCP over IPv4 / IPv6
  out.writeUInt16BE(size * 2 + 4, 14);
  writeAddress(out, 16, from, v4);
  writeAddress(out, 16 + size, to, v4);
  out.writeUInt16BE(src.port, 16 + size * 2);
  out.writeUInt16BE(dst.port, 18 + size * 2);
  return out;
}

function plainAddress(a: string): string {
  return a.startsWith("::ffff:") && net.isIPv4(a.slice(7)) ? a.slice(7) : a;
}

function writeAddress(out: Buffer, at: number, address: string, v4: boolean): void {
  if (v4) {
    address.split(".").forEach((b, i) => {
      out[at + i] = Number(b);
    });
    return;
  }
  // an IPv4 address beside an IPv6 one (not seen from one socket, but possible in principle) goes mapped
  const bare = address.replace(/%.*$/, ""); // a zone id (fe80::1%eth0) is not part of the address
  const a = net.isIPv4(bare) ? `::ffff:${bare}` : bare;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  const hex =
    dotted === null
      ? a
      : `${a.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}`;
  // expand `::` into the eight 16-bit groups
  const [head, tail] = hex.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  groups.forEach((g, i) => {
    out.writeUInt16BE(Number.parseInt(g, 16), at + i * 2);
  });
}
