/**
 * Piscina task (runs in a worker thread): verify one packed batch of signatures.
 * Loaded by its compiled path, `new URL("./verifyTask.js", import.meta.url)`.
 */
import { verifyPacked } from "./signatureBatch.js";
/** @returns one byte per record: 1 = valid, 0 = not */
export default function verifyTask(batch) {
    return verifyPacked(batch);
}
//# sourceMappingURL=verifyTask.js.map