/**
 * The watch command: follow the node's live event feed (docs/api.md §7).
 */

import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import { watch } from "../watch.js";
import { expectAddress, expectHash } from "./input.js";

export async function watchCommand(ctx: Context): Promise<void> {
  const chain = ctx.args.values.get("chain");
  const count = ctx.args.values.get("count");
  const from = ctx.args.values.get("from");
  const number = (text: string | undefined, field: string): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text))
      throw new UsageError(`-${field}: expected a whole number, got ${JSON.stringify(text)}`, "watch");
    return Number(text);
  };
  const addresses = ctx.args.repeated.filter((r) => r.name === "address").map((r) => r.value);
  addresses.forEach((a, i) => {
    expectAddress(a, a.startsWith("EC") ? "EC" : "FA", `address ${i + 1}`);
  });
  const subscription = {
    ...(chain !== undefined ? { chains: [expectHash(chain, "chain ID")] } : {}),
    addresses,
    hashes: ctx.args.repeated.filter((r) => r.name === "hash").map((r) => expectHash(r.value, "hash")),
    minutes: ctx.args.flags.has("minutes"),
    health: ctx.args.flags.has("health"),
    content: ctx.args.flags.has("with-content"),
    ...(from !== undefined ? { fromHeight: number(from, "from") } : {}),
  };
  await watch({
    url: ctx.nodeUrl,
    user: ctx.args.values.get("rpcuser") ?? ctx.io.env.LEDGERD_RPCUSER,
    password: ctx.args.values.get("rpcpass") ?? ctx.io.env.LEDGERD_RPCPASS,
    caFile: ctx.args.values.get("cafile") ?? ctx.io.env.LEDGERD_CAFILE,
    subscription,
    json: ctx.args.flags.has("json"),
    count: number(count, "count"),
    out: (l) => ctx.out(l),
    warn: (l) => ctx.warn(l),
  });
}

// ───────────────────────────── table, usage, main ─────────────────────────────
