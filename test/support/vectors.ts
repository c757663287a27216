import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromHex, toHex } from "../../src/protocol/bytes.js";

/** One test vector of test/fixtures/vectors/*.json (copied from the project brief's vectors/). */
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

/** The `input`/`expected` objects of a vector, read field by field. */
export type VectorFields = Record<string, unknown>;

/** Asserts the check verifies exactly the vector's `expected` keys, so a vector that gains a field fails until checked. */
export function covers(v: Vector, keys: string[]): void {
  assert.deepEqual(Object.keys(v.expected).sort(), [...keys].sort(), `${v.id}: expected keys this check verifies`);
}

/** A string field (asserted). */
export function str(obj: VectorFields, key: string): string {
  const value = obj[key];
  assert.equal(typeof value, "string", `${key} must be a string`);
  return value as string;
}

/** A hex field decoded to bytes. */
export function hexOf(obj: VectorFields, key: string): Uint8Array {
  return fromHex(str(obj, key), key);
}

/** Bytes equal to an expected hex string (either case). */
export function eqHex(actual: Uint8Array, expected: unknown, what: string): void {
  assert.equal(toHex(actual), String(expected).toLowerCase(), what);
}
