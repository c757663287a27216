/**
 * Typed rejections of the protocol layer. Every decoder and validator throws only
 * `ProtocolError`; `rpc/errors.ts` maps it to JSON-RPC -32602 with `data` = the message.
 */
import { NodeError } from "../errors.js";

export type ProtocolErrorCode =
  | "TRUNCATED" // input ended before a field was complete
  | "TRAILING_BYTES" // bytes left after a complete object
  | "BAD_HEX" // not an even-length hex string
  | "BAD_VARINT" // overlong, non-minimal or unterminated varint
  | "BAD_VERSION" // version byte/varint not the one the protocol defines
  | "BAD_LENGTH" // a fixed-size field or object has the wrong size
  | "TOO_LARGE" // over a protocol size limit
  | "BAD_VALUE" // a field holds a value the protocol forbids
  | "BAD_CHECKSUM" // address checksum mismatch
  | "BAD_PREFIX" // address prefix mismatch
  | "BAD_SIGNATURE" // ed25519 signature does not verify (or is non-canonical)
  | "BAD_RCD"; // RCD type unknown or RCD does not match the input address

export class ProtocolError extends NodeError {
  /**
   * @param code   machine-readable reason
   * @param field  the field at fault, e.g. "entry.extids[2]" or "commit.signature"
   * @param detail human sentence, e.g. "expected 136 bytes, got 135"
   */
  constructor(
    readonly code: ProtocolErrorCode,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
    this.name = "ProtocolError";
  }
}
