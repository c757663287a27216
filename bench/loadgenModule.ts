/**
 * The end-to-end load generator (tools/loadgen/index.ts) as the bench rows that run it load it: when a row runs,
 * so that a bench built without tools/loadgen reports that row skipped instead of failing to load
 * (writeFigure.ts, indexWriteCost.ts). Its types are the generator's own (a type-only import).
 */
import type * as Loadgen from "../tools/loadgen/index.js";

const LOAD_MODULE = new URL("../tools/loadgen/index.js", import.meta.url);

export type LoadModule = Pick<typeof Loadgen, "defaultLoadOptions" | "runLoadScenarios">;

/** tools/loadgen/index.js; rejects when it is not built. */
export async function importLoadgen(): Promise<LoadModule> {
  return (await import(LOAD_MODULE.href)) as LoadModule;
}
