import * as nodeCrypto from "node:crypto";
import { createHash } from "node:crypto";
import { concat } from "./bytes.js";
const oneShot = nodeCrypto.hash;
function digest(alg, data) {
    const b = oneShot ? oneShot(alg, data, "buffer") : createHash(alg).update(data).digest();
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
/** SHA-256 (32 bytes). */
export function sha256(data) {
    return digest("sha256", data);
}
/** SHA-512 (64 bytes). */
export function sha512(data) {
    return digest("sha512", data);
}
/** sha256(sha256(x)): address checksums, RCD hash, ChainIDHash, Weld. */
export function sha256d(data) {
    return sha256(sha256(data));
}
/** First 32 bytes of SHA-512: admin block back-reference hash. */
export function sha512half(data) {
    return sha512(data).subarray(0, 32);
}
/** sha256(a ‖ b) without an intermediate copy beyond one buffer. */
export function sha256Pair(a, b) {
    return sha256(concat(a, b));
}
//# sourceMappingURL=hash.js.map