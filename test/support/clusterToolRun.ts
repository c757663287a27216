/**
 * `ledgerd-cluster` run in this process (tools/cluster/commands.ts `main`), with what it writes to stdout and
 * stderr captured: the cluster tool's tests share it.
 */
import { main } from "../../tools/cluster/commands.js";

/** Run the tool with `args`; its exit code and output. */
export async function runClusterTool(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = ((s: string) => {
    out += s;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => {
    err += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(args), out, err };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}
