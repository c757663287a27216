/**
 * The `entry-block` answer written straight from the saved block's bytes: exactly the text of
 * `encodeJson(entryBlockToJson(decodeEntryBlock(raw), dblockTimestampMinutes))` (protocol/json/entryBlockJson.ts
 * holds the shape and the rules; test/unit/rpc/entryBlockText.test.ts holds the two equal), as the answer bytes of a
 * remembered view (jsonrpc.ts JsonText: ANSWER_HEADROOM free bytes, the result, the answer's closing brace).
 *
 * Why: a read that finds no kept answer builds one. Decoding the block (a copy of it, a view object per item),
 * writing its hashes as a hex string, joining a string per item and encoding the whole text as UTF-8 cost 11–14 µs
 * of CPU for a 12-entry block and 430–620 µs for 1,400 entries; written here from the bytes, 6–7 and 160–270 µs
 * (a scratch script, rounds alternated). On a store of 1,000 chains, whose 5,000 entry blocks were too many for the
 * decoded blocks kept, `entry-block` ran at 0.19–0.23 of the bare server, ~60 µs of node CPU per request
 * (docs/performance.md §Reads).
 */
import {
  ENTRY_BLOCK_HEADER_SIZE,
  entryTimestampSeconds,
  MINUTES_PER_BLOCK,
  markerMinuteAt,
} from "../../protocol/eblock.js";
import { ProtocolError } from "../../protocol/errors.js";
import type { EntryBlockJson } from "../../protocol/json/entryBlockJson.js";
import { ANSWER_HEADROOM, JsonText } from "../jsonrpc.js";

/** Byte offsets in the header (wire-format §5.1): chain ID, BodyMR, PrevKeyMR, PrevFullHash, then three u32. */
const CHAIN_ID_AT = 0;
const PREV_KEY_MR_AT = 64;
const SEQUENCE_AT = 128;
const DB_HEIGHT_AT = 132;
const COUNT_AT = 136;
const ITEM_BYTES = 32;

/** ASCII codes of the two hex digits of each byte value: [2b] and [2b + 1]. */
const HEX_DIGITS = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  HEX_DIGITS[2 * b] = "0123456789abcdef".charCodeAt(b >>> 4);
  HEX_DIGITS[2 * b + 1] = "0123456789abcdef".charCodeAt(b & 15);
}

/** The answer's fixed pieces, as bytes. */
const ascii = (text: string): Buffer => Buffer.from(text, "latin1");
const HEADER_OPEN = ascii('{"header":{"blocksequencenumber":');
const CHAIN_ID_OPEN = ascii(',"chainid":"');
const PREV_KEY_MR_OPEN = ascii('","prevkeymr":"');
const TIMESTAMP_OPEN = ascii('","timestamp":');
const DB_HEIGHT_OPEN = ascii(',"dbheight":');
const LIST_OPEN = ascii('},"entrylist":[');
const ITEM_OPEN = ascii('{"entryhash":"');
const ITEM_TIMESTAMP = ascii('","timestamp":');
const ITEM_CLOSE = ascii("}");
const LIST_CLOSE = ascii("]}");
/** The answer's closing brace after the result (JsonText's remembered layout). */
const ANSWER_CLOSE = 0x7d;

/**
 * The `entry-block` result of the entry block whose saved bytes are `raw`, recorded in a directory block stamped
 * `dblockTimestampMinutes` (MINUTES since epoch, as the directory block header stores it), kept as answer bytes.
 * Throws ProtocolError when `raw` is not an entry block's layout (as decodeEntryBlock would).
 */
export function entryBlockAnswer(raw: Uint8Array, dblockTimestampMinutes: number): JsonText<EntryBlockJson> {
  const header = headerOf(raw);
  const count = header.getUint32(COUNT_AT);
  const bodyBytes = raw.length - ENTRY_BLOCK_HEADER_SIZE;
  if (count * ITEM_BYTES > bodyBytes)
    throw new ProtocolError(
      "TRUNCATED",
      "entry block.body",
      `entry count ${count} needs ${count * ITEM_BYTES} bytes, only ${bodyBytes} left`,
    );
  if (count * ITEM_BYTES < bodyBytes)
    throw new ProtocolError(
      "TRAILING_BYTES",
      "entry block",
      `${bodyBytes - count * ITEM_BYTES} unexpected byte(s) after the end`,
    );

  // each entry's minute is that of the next marker after it (MINUTES_PER_BLOCK when none follows), 0 for a marker
  const minutes = new Uint8Array(count);
  let minute = MINUTES_PER_BLOCK;
  let entries = 0;
  for (let i = count - 1; i >= 0; i--) {
    const m = markerMinuteAt(raw, ENTRY_BLOCK_HEADER_SIZE + i * ITEM_BYTES);
    if (m === 0) {
      minutes[i] = minute;
      entries++;
    } else minute = m;
  }
  // each minute's timestamp (seconds: the end of the minute) as text, written as often as it has entries
  const stamps: string[] = [];
  let widestStamp = 0;
  for (let m = 1; m <= MINUTES_PER_BLOCK; m++) {
    stamps[m] = String(entryTimestampSeconds(dblockTimestampMinutes, m));
    widestStamp = Math.max(widestStamp, stamps[m]!.length);
  }

  // the block's timestamp in the header: the directory block's, in seconds
  const blockStamp = String(dblockTimestampMinutes * 60);
  const head =
    HEADER_OPEN.length +
    10 + // the sequence, a u32
    CHAIN_ID_OPEN.length +
    64 +
    PREV_KEY_MR_OPEN.length +
    64 +
    TIMESTAMP_OPEN.length +
    blockStamp.length +
    DB_HEIGHT_OPEN.length +
    10 + // the height, a u32
    LIST_OPEN.length;
  const perEntry = 1 + ITEM_OPEN.length + 64 + ITEM_TIMESTAMP.length + widestStamp + ITEM_CLOSE.length;
  const wire = Buffer.allocUnsafeSlow(ANSWER_HEADROOM + head + entries * perEntry + LIST_CLOSE.length + 1);
  wire.fill(0x20, 0, ANSWER_HEADROOM);

  let at = ANSWER_HEADROOM;
  at = put(HEADER_OPEN, wire, at);
  at = putText(String(header.getUint32(SEQUENCE_AT)), wire, at);
  at = put(CHAIN_ID_OPEN, wire, at);
  at = writeHex(raw, CHAIN_ID_AT, wire, at);
  at = put(PREV_KEY_MR_OPEN, wire, at);
  at = writeHex(raw, PREV_KEY_MR_AT, wire, at);
  at = put(TIMESTAMP_OPEN, wire, at);
  at = putText(blockStamp, wire, at);
  at = put(DB_HEIGHT_OPEN, wire, at);
  at = putText(String(header.getUint32(DB_HEIGHT_AT)), wire, at);
  at = put(LIST_OPEN, wire, at);
  let first = true;
  for (let i = 0; i < count; i++) {
    const m = minutes[i]!;
    if (m === 0) continue;
    if (!first) wire[at++] = 0x2c; // ","
    first = false;
    at = put(ITEM_OPEN, wire, at);
    at = writeHex(raw, ENTRY_BLOCK_HEADER_SIZE + i * ITEM_BYTES, wire, at);
    at = put(ITEM_TIMESTAMP, wire, at);
    at = putText(stamps[m]!, wire, at);
    at = put(ITEM_CLOSE, wire, at);
  }
  at = put(LIST_CLOSE, wire, at);
  wire[at++] = ANSWER_CLOSE;
  // sized for the widest numbers: the answer is the first `at` bytes
  return JsonText.rememberedBytes<EntryBlockJson>(wire.subarray(0, at), ANSWER_HEADROOM);
}

/** The directory block height an entry block's saved bytes name (its header's DBHeight). */
export function entryBlockHeight(raw: Uint8Array): number {
  return headerOf(raw).getUint32(DB_HEIGHT_AT);
}

/** The header of an entry block's saved bytes, read in place. */
function headerOf(raw: Uint8Array): DataView {
  if (raw.length < ENTRY_BLOCK_HEADER_SIZE)
    throw new ProtocolError(
      "TRUNCATED",
      "entry block",
      `${raw.length} bytes, a header needs ${ENTRY_BLOCK_HEADER_SIZE}`,
    );
  return new DataView(raw.buffer, raw.byteOffset, ENTRY_BLOCK_HEADER_SIZE);
}

/**
 * `piece` into `out` at `at`; the offset after it. A loop, not `TypedArray.set`: the pieces are 1–33 bytes, and a
 * call of `set` per piece cost more than its copy (five pieces per entry).
 */
function put(piece: Uint8Array, out: Uint8Array, at: number): number {
  for (let i = 0; i < piece.length; i++) out[at++] = piece[i]!;
  return at;
}

/** The ASCII text `text` (digits) into `out` at `at`; the offset after it. */
function putText(text: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}

/** The 32 bytes of `raw` at `from` as 64 lower-case hex digits into `out` at `at`; the offset after them. */
function writeHex(raw: Uint8Array, from: number, out: Uint8Array, at: number): number {
  for (let i = from; i < from + 32; i++) {
    const b = raw[i]! << 1;
    out[at++] = HEX_DIGITS[b]!;
    out[at++] = HEX_DIGITS[b + 1]!;
  }
  return at;
}
