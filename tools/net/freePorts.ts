/**
 * Free TCP ports on 127.0.0.1 for the processes the tools and the tests start (nodes, nats-servers, the
 * benchmark's server): the one helper for this (review round three, D39). The kernel picks each port
 * (listen on port 0); all `count` are held open at once, so they are distinct, then released together for
 * the caller to hand to its processes.
 *
 * A released port can be taken by anyone before the process binds it: only a process that binds port 0
 * itself is race-free (the in-process servers of the unit tests do that). This is why the test files that
 * start processes on such ports run one at a time (docs/testing.md §Tiers).
 */
import net from "node:net";

/** `count` distinct free TCP ports on 127.0.0.1: all held open at once, then released together. */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const srv = net.createServer();
      servers.push(srv);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          srv.once("error", reject);
          srv.listen(0, "127.0.0.1", () => {
            const addr = srv.address();
            if (typeof addr === "object" && addr !== null && addr.port > 0) resolve(addr.port);
            else reject(new Error("the kernel gave no port for 127.0.0.1:0"));
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** One free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export async function freeLoopbackPort(): Promise<number> {
  const [port] = await freeLoopbackPorts(1);
  return port!;
}
