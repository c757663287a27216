/**
 * Whether a TCP address can be bound, asked with a plain socket. The node asks twice: before it opens the
 * store (a node that cannot serve must not replay the journal first), and right before uWS binds (server.ts).
 */
import { createServer } from "node:net";
import { NodeError } from "../errors.js";

/** The node cannot serve on its address: the port is taken, or the host cannot be bound. */
export class ListenError extends NodeError {}

/**
 * uWebSockets.js binds with SO_REUSEPORT (its exclusive option does not combine with a host), so a second node
 * on a busy port would start silently and share the traffic. Probe the address with a plain exclusive socket:
 * it cannot share a port that uWS (or anyone) holds. Rejects with "port N is already in use" or the OS error.
 */
export function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (e: NodeJS.ErrnoException) =>
      reject(new ListenError(e.code === "EADDRINUSE" ? `port ${port} is already in use` : e.message)),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
