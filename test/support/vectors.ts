import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One test vector of test/fixtures/vectors/*.json (copied from ../shared/vectors). */
export interface Vector {
  id: string;
  description: string;
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
  verified: boolean;
  notes?: unknown;
}

/** A check runs one vector through the code and throws (assert) on any mismatch. */
export type VectorCheck = (vector: Vector) => void;

const here = dirname(fileURLToPath(import.meta.url));
/** test/fixtures/vectors, resolved from dist/test/support at run time. */
export const VECTOR_DIR = join(here, "..", "..", "..", "test", "fixtures", "vectors");

/** Every vector of every file, keyed by file name (without .json). */
export function loadVectorFiles(): Map<string, Vector[]> {
  const files = new Map<string, Vector[]>();
  for (const name of readdirSync(VECTOR_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const json = JSON.parse(readFileSync(join(VECTOR_DIR, name), "utf8")) as { vectors: Vector[] };
    files.set(name.replace(/\.json$/, ""), json.vectors);
  }
  return files;
}
