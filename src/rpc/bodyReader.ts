/**
 * Request bodies held only as they arrive (issue 19 item 5). hyper-express's `buffer()` allocates the whole
 * declared Content-Length when reading starts: 2,000 connections each declaring 1 MiB and sending one byte
 * pushed RSS to ~1.19 GB with no credentials. Here the body is held as it arrives (uwsExchange.ts): each arriving chunk is copied and
 * counted against one budget shared by every unfinished body of the server; a body that would pass it is
 * refused (the caller answers 503 once the upload ends), and its bytes are given back at once, as are
 * those of a finished or aborted request.
 */

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
