/**
 * Piscina task (runs in a worker thread): verify one packed batch of signatures.
 * Loaded by its compiled path, `new URL("./verifyTask.js", import.meta.url)`.
 */
import { type SignatureBatch, verifyPacked } from "./signatureBatch.js";

/** @returns one byte per record: 1 = valid, 0 = not */
export default function verifyTask(batch: SignatureBatch): Uint8Array {
  return verifyPacked(batch);
}
