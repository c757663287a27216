/**
 * Request bodies held only as they arrive (issue 19 item 5). hyper-express's `buffer()` allocates the whole
 * declared Content-Length when reading starts: 2,000 connections each declaring 1 MiB and sending one byte
 * pushed RSS to ~1.19 GB with no credentials. Here the body is streamed: each arriving chunk is copied and
 * counted against one budget shared by every unfinished body of the server; a body that would pass it is
 * refused (the caller answers 503 and the connection closes), and its bytes are given back at once, as are
 * those of a finished or aborted request.
 */
import { Writable } from "node:stream";
import type HyperExpress from "hyper-express";

/**
 * Bytes all unfinished request bodies may hold together: 64 MiB, 64 bodies at the 1 MiB default limit
 * arriving at once. Normal requests are a few hundred bytes to a few KiB and finish within a millisecond,
 * so only a flood of slow or stalled uploads reaches it.
 */
export const PENDING_BODY_BUDGET_BYTES = 64 * 1024 * 1024;

/** The bytes held by unfinished bodies, across connections. */
export class BodyBudget {
  private held = 0;

  constructor(readonly limitBytes: number = PENDING_BODY_BUDGET_BYTES) {}

  /** Bytes held now. */
  get heldBytes(): number {
    return this.held;
  }

  /** Reserve `n` bytes; false (nothing reserved) when that would pass the limit. */
  take(n: number): boolean {
    if (this.held + n > this.limitBytes) return false;
    this.held += n;
    return true;
  }

  release(n: number): void {
    this.held -= n;
  }
}

/** What reading a body gave: the bytes, or why there are none. */
export type BodyOutcome =
  | { kind: "body"; bytes: Buffer }
  /** the budget is spent: answer 503 */
  | { kind: "busy" }
  /** the client went away, or hyper-express refused the body (its 413 answers it): send nothing */
  | { kind: "gone" };

interface StreamingRequest {
  /** hyper-express: the only stream method that surely starts its readable (its `on` is the emitter's) */
  pipe(destination: Writable): unknown;
  /** hyper-express internal: set when it refused the body over max_body_length (bodyLimit.ts pins the version) */
  _body_parser_flushing?: boolean;
  headers: Record<string, string>;
}

/** Read the body of `req`, holding only what arrived, within `budget`. */
export function readBody(
  req: HyperExpress.Request,
  res: HyperExpress.Response,
  budget: BodyBudget,
): Promise<BodyOutcome> {
  const stream = req as unknown as StreamingRequest;
  const declared = Number(stream.headers["content-length"] ?? "0");
  const chunked = stream.headers["transfer-encoding"] === "chunked";
  // an aborted request ends no stream: hyper-express stopped its parser before the stream existed
  if (res.completed) return Promise.resolve({ kind: "gone" });
  if (!chunked && !(declared > 0)) return Promise.resolve({ kind: "body", bytes: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let held = 0;
    let settled = false;
    const finish = (outcome: BodyOutcome): void => {
      if (settled) return;
      settled = true;
      budget.release(held);
      held = 0;
      chunks.length = 0;
      resolve(outcome);
    };
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!settled) {
          if (budget.take(chunk.length)) {
            held += chunk.length;
            chunks.push(chunk);
          } else {
            finish({ kind: "busy" });
          }
        }
        done();
      },
      final(done) {
        // an abort or a refused body also ends the stream: hyper-express stopped its parser then
        if (stream._body_parser_flushing === true || res.completed || (!chunked && held !== declared))
          finish({ kind: "gone" });
        else finish({ kind: "body", bytes: Buffer.concat(chunks, held) });
        done();
      },
    });
    sink.on("error", () => finish({ kind: "gone" }));
    stream.pipe(sink);
  });
}
