/**
 * The packed form of a batch of signature checks sent to a worker: one Uint8Array (moved, not
 * copied) instead of an array of objects, whose structured clone would cost one allocation per field.
 *
 * Record, repeated `count` times, no padding:
 *   publicKey (32) ‖ signature (64) ‖ message length (u32 little-endian) ‖ message
 */
import { verifyEd25519 } from "../crypto/ed25519.js";
import { InvariantError } from "../errors.js";
import type { SignatureCheck } from "./verifier.js";

/** Bytes of a record before its message: key 32 + signature 64 + length 4. */
export const RECORD_HEADER_BYTES = 100;

/** What a verify task carries. */
export interface SignatureBatch {
  packed: Uint8Array;
  count: number;
}

/** True when the check has the sizes a record can carry; anything else verifies false without a trip. */
export function isPackable(check: SignatureCheck): boolean {
  return check.publicKey.length === 32 && check.signature.length === 64;
}

/** Pack `checks[from..to)` (all packable) into one fresh buffer that owns its ArrayBuffer (transferable). */
export function packChecks(checks: readonly SignatureCheck[], from: number, to: number): SignatureBatch {
  let size = 0;
  for (let i = from; i < to; i++) size += RECORD_HEADER_BYTES + checks[i]!.message.length;
  const packed = new Uint8Array(size);
  let at = 0;
  for (let i = from; i < to; i++) {
    const { publicKey, signature, message } = checks[i]!;
    packed.set(publicKey, at);
    packed.set(signature, at + 32);
    const n = message.length;
    packed[at + 96] = n & 0xff;
    packed[at + 97] = (n >>> 8) & 0xff;
    packed[at + 98] = (n >>> 16) & 0xff;
    packed[at + 99] = (n >>> 24) & 0xff;
    packed.set(message, at + RECORD_HEADER_BYTES);
    at += RECORD_HEADER_BYTES + n;
  }
  return { packed, count: to - from };
}

/**
 * Verify every record of a packed batch (canonical rule, node:crypto).
 * @returns one byte per record: 1 = valid, 0 = not
 * @throws RangeError when the buffer does not hold exactly `count` records (a bug, never user input)
 */
export function verifyPacked(batch: SignatureBatch): Uint8Array {
  const { packed, count } = batch;
  const results = new Uint8Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + RECORD_HEADER_BYTES > packed.length)
      throw new InvariantError(`packed batch ends inside record ${i} of ${count}`);
    const n = (packed[at + 96]! | (packed[at + 97]! << 8) | (packed[at + 98]! << 16) | (packed[at + 99]! << 24)) >>> 0;
    const end = at + RECORD_HEADER_BYTES + n;
    if (end > packed.length)
      throw new InvariantError(`packed batch ends inside the message of record ${i} of ${count}`);
    const ok = verifyEd25519(
      packed.subarray(at, at + 32),
      packed.subarray(at + RECORD_HEADER_BYTES, end),
      packed.subarray(at + 32, at + 96),
    );
    results[i] = ok ? 1 : 0;
    at = end;
  }
  if (at !== packed.length)
    throw new InvariantError(`packed batch has ${packed.length - at} bytes after ${count} records`);
  return results;
}
