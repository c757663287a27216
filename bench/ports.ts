/**
 * The ports the benchmark's processes listen on (nodes, nats-servers, the bare server): taken from a range below
 * the kernel's ephemeral range (32768–60999 here), as `make test`'s lanes do (tools/net/freePorts.ts).
 *
 * Why: a port picked by the kernel (listen on port 0) comes from the ephemeral range and is released before its
 * process binds it; meanwhile any outgoing connection on the machine may take it as its source port. The cluster
 * row starts 3 nats-servers that connect routes to each other and 5 nodes that connect to them, with 19 ports
 * picked at once: the quiet `make bench` of 2026-11-30 02:37 skipped that row when audit0 exited at its start.
 */
import { TEST_PORTS_VARIABLE } from "../tools/net/freePorts.js";

/** Below the test lanes' ranges (Makefile: 20000–31999), so a bench beside `make test` does not take theirs. */
export const BENCH_PORTS = "10000-19999";

/** Take the benchmark's ports from BENCH_PORTS unless the caller named a range (`LEDGERD_TEST_PORTS`). */
export function useBenchPorts(): void {
  if ((process.env[TEST_PORTS_VARIABLE] ?? "") === "") process.env[TEST_PORTS_VARIABLE] = BENCH_PORTS;
}
