/**
 * tools/net/freePorts.ts: the one free-port helper, and the port ranges that keep `make test`'s two process
 * lanes from handing each other a port (docs/testing.md §Tiers).
 */
import assert from "node:assert/strict";
import net from "node:net";
import { describe, it } from "node:test";
import { freeLoopbackPorts, PortRangeError, portRangeFrom } from "../../../tools/net/freePorts.js";

/** Listen on 127.0.0.1:`port` (0: any); the server, to close. */
function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(port, "127.0.0.1", () => resolve(srv));
  });
}

const close = (srv: net.Server): Promise<void> => new Promise((resolve) => srv.close(() => resolve()));

describe("free loopback ports", () => {
  it("LEDGERD_TEST_PORTS: LOW-HIGH, unset or empty is none, anything else is refused naming the variable", () => {
    assert.deepEqual(portRangeFrom("20000-20999"), { low: 20000, high: 20999 });
    assert.equal(portRangeFrom(undefined), undefined);
    assert.equal(portRangeFrom(""), undefined);
    for (const bad of ["20000", "20000-", "a-b", "30000-20000", "80-90", "60000-70000", " 20000-20999"])
      assert.throws(
        () => portRangeFrom(bad),
        (e: unknown) => e instanceof PortRangeError && /LEDGERD_TEST_PORTS/.test(e.message),
        bad,
      );
  });

  it("without a range the kernel picks: distinct ports, each free again after the call", async () => {
    const ports = await freeLoopbackPorts(5, undefined);
    assert.equal(new Set(ports).size, 5);
    for (const p of ports) await close(await listen(p));
  });

  it("with a range: distinct ports inside it, a taken one skipped, and a range used up refused", async () => {
    // 4 consecutive ports held below both lanes' ranges and the ephemeral range, the second kept taken
    const held = await fourConsecutiveFreePorts(12_000, 19_999);
    const base = held[0]!.port;
    const taken = held[1]!.srv;
    for (const h of [held[0]!, held[2]!, held[3]!]) await close(h.srv);
    const range = { low: base, high: base + 3 };
    try {
      const ports = await freeLoopbackPorts(3, range);
      assert.deepEqual(
        [...ports].sort((a, b) => a - b),
        [base, base + 2, base + 3],
      );
      await assert.rejects(
        freeLoopbackPorts(4, range),
        (e: unknown) => e instanceof PortRangeError && /4 free ports wanted/.test(e.message),
      );
    } finally {
      await close(taken);
    }
  });
});

/** Four consecutive ports of [low, high] held open: the first run of four that all listen. */
async function fourConsecutiveFreePorts(low: number, high: number): Promise<{ port: number; srv: net.Server }[]> {
  for (let base = low; base + 3 <= high; base += 4) {
    const got: { port: number; srv: net.Server }[] = [];
    for (let k = 0; k < 4; k++) {
      const srv = await listen(base + k).catch(() => undefined);
      if (srv === undefined) break;
      got.push({ port: base + k, srv });
    }
    if (got.length === 4) return got;
    for (const g of got) await close(g.srv);
  }
  throw new Error(`no four consecutive free ports in ${low}-${high}`);
}
