/**
 * Free TCP ports on 127.0.0.1 for the processes the tools and the tests start (nodes, nats-servers, the
 * benchmark's server): the one helper for this (review round three, D39). The kernel picks each port
 * (listen on port 0); all `count` are held open at once, so they are distinct, then released together for
 * the caller to hand to its processes.
 *
 * A released port can be taken by anyone before the process binds it: only a process that binds port 0
 * itself is race-free (the in-process servers of the unit tests do that). So `make test` runs the files that
 * start processes in two lanes, each one file at a time and each with its own range of ports in
 * `LEDGERD_TEST_PORTS` ("LOW-HIGH", below the kernel's ephemeral range 32768–60999 that outgoing connections
 * take their source ports from): a port one lane released cannot be handed to the other lane or to a client
 * socket (docs/testing.md §Tiers). Without the variable the kernel picks (port 0), as for any tool.
 */
import net from "node:net";

/** A free port that cannot be had: a malformed `LEDGERD_TEST_PORTS`, or its range used up. */
export class PortRangeError extends Error {
  override name = "PortRangeError";
}

/** The environment variable naming the range ports are taken from ("LOW-HIGH", inclusive). */
export const TEST_PORTS_VARIABLE = "LEDGERD_TEST_PORTS";

/** An inclusive range of TCP ports. */
export interface PortRange {
  low: number;
  high: number;
}

/** `LEDGERD_TEST_PORTS`'s range; undefined when unset or empty. A malformed value throws (a typo must not fall back silently). */
export function portRangeFrom(text: string | undefined): PortRange | undefined {
  if (text === undefined || text === "") return undefined;
  const m = /^(\d+)-(\d+)$/.exec(text);
  const low = m ? Number(m[1]) : Number.NaN;
  const high = m ? Number(m[2]) : Number.NaN;
  if (!(low >= 1024 && high <= 65535 && low <= high))
    throw new PortRangeError(`${TEST_PORTS_VARIABLE}=${text}: expected LOW-HIGH with 1024 <= LOW <= HIGH <= 65535`);
  return { low, high };
}

/** Listen on `port` of 127.0.0.1 (0: the kernel picks); the port held, or undefined when it is taken. */
function hold(srv: net.Server, port: number): Promise<number | undefined> {
  return new Promise<number | undefined>((resolve, reject) => {
    srv.once("error", (e: NodeJS.ErrnoException) =>
      port !== 0 && e.code === "EADDRINUSE" ? resolve(undefined) : reject(e),
    );
    srv.listen(port, "127.0.0.1", () => {
      const addr = srv.address();
      if (typeof addr === "object" && addr !== null && addr.port > 0) resolve(addr.port);
      else reject(new PortRangeError(`the kernel gave no port for 127.0.0.1:${port}`));
    });
  });
}

/**
 * `count` distinct free TCP ports on 127.0.0.1: all held open at once, then released together. From
 * `LEDGERD_TEST_PORTS`'s range when it is set (tried in order from a random point, so consecutive callers
 * rarely try the same ports first), else picked by the kernel.
 */
export async function freeLoopbackPorts(
  count: number,
  range: PortRange | undefined = portRangeFrom(process.env[TEST_PORTS_VARIABLE]),
): Promise<number[]> {
  const servers: net.Server[] = [];
  const held = (port: number): Promise<number | undefined> => {
    const srv = net.createServer();
    servers.push(srv);
    return hold(srv, port);
  };
  try {
    const ports: number[] = [];
    if (range === undefined) {
      for (let i = 0; i < count; i++) ports.push((await held(0))!);
      return ports;
    }
    const size = range.high - range.low + 1;
    const start = Math.floor(Math.random() * size);
    for (let tried = 0; tried < size && ports.length < count; tried++) {
      const port = await held(range.low + ((start + tried) % size));
      if (port !== undefined) ports.push(port);
    }
    if (ports.length < count)
      throw new PortRangeError(`${count} free ports wanted in ${range.low}-${range.high}, ${ports.length} found`);
    return ports;
  } finally {
    await Promise.all(
      servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))),
    );
  }
}

/** One free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export async function freeLoopbackPort(): Promise<number> {
  const [port] = await freeLoopbackPorts(1);
  return port!;
}
