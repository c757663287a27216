/**
 * The `chain-entries` and `search-entries` results as answer bytes, written without the result's objects: exactly
 * the JSON text of `encodeJson` of the objects queries.ts builds (`entryJson` holds the shape;
 * test/unit/rpc/entryPageText.test.ts holds the two equal, and the query tests compare the answers with a walk).
 *
 * Why: a 100-entry page cost 3–5 ms of node CPU (33 µs per entry), and beside the entries' reads most of it was
 * making the answer: the entry copied twice and unmarshalled into objects (an error text built per ext ID), a hex
 * string per hash, ext ID and content, an object per entry, JSON.stringify of the whole, and that string encoded
 * to UTF-8 again by the socket write (docs/performance.md §"Query rows"). Here each entry's marshalled bytes are
 * read in place (QueryIndexReader.entryBytes: lmdb-js's read buffer), their hex is written straight from them
 * into one Buffer that becomes the whole answer (JsonText with headroom: the request's id is written in front).
 */
import type { IndexedEntry } from "../../ledger/api.js";
import { ENTRY_HEADER_SIZE, MAX_ENTRY_SIZE } from "../../protocol/entry.js";
import { ANSWER_HEADROOM, JsonText } from "../jsonrpc.js";

/**
 * The two hex digits of each byte value as one little-endian u16 (first digit in the low byte), written with one
 * DataView store per byte: half the cost of two byte stores (3 against 6 ns per byte here).
 */
const HEX_PAIRS = (() => {
  const digits = Buffer.from("0123456789abcdef", "latin1");
  const pairs = new Uint16Array(256);
  for (let b = 0; b < 256; b++) pairs[b] = digits[b >> 4]! | (digits[b & 15]! << 8);
  return pairs;
})();

/** ASCII bytes of a fixed piece of the answer's text. */
const ascii = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "latin1"));

/**
 * The fixed pieces of an entry's JSON, copied byte by byte: a `Buffer.write` per piece (its JS wrapper and a call
 * into C++ for a dozen bytes) was a fifth of the answer's CPU.
 */
const PIECES = {
  open: ascii('{"entries":['),
  entryHash: ascii('{"entryhash":"'),
  chainId: ascii('","chainid":"'),
  extIdsOpen: ascii('","extids":['),
  quote: ascii('"'),
  comma: ascii(","),
  quoteCommaQuote: ascii('","'),
  contentOpen: ascii('],"content":"'),
  contentClose: ascii('","dbheight":'),
  noContent: ascii('],"dbheight":'),
  keyMR: ascii(',"entryblockkeymr":"'),
  timestamp: ascii('","timestamp":'),
  position: ascii(',"position":'),
  close: ascii("}"),
} as const;

/**
 * Answer bytes expected per entry of a page, before the first growth: the fixed members (~260 bytes with two
 * 64-digit hashes) and a short entry's ext IDs and content in hex. An underestimate costs one copy per doubling.
 */
const ESTIMATED_BYTES_PER_ENTRY = 512;

/** Where an entry's marshalled bytes are read: in place, valid until the next read of this thread. */
export type EntryBytes = (entryHash: Uint8Array) => Uint8Array | undefined;

/** The members of a page beside its entries (queries.ts `cursors`). */
export interface PageCursorsText {
  nextcursor: string;
  resumecursor: string;
}

/**
 * The ext IDs and content of a marshalled entry as offsets into it (version 0 ‖ chain ID ‖ u16 ext IDs length ‖
 * each ext ID as u16 length ‖ bytes ‖ content), or false when it is not one `unmarshalEntry` reads. Ext ID i is
 * `[starts[i], starts[i] + lengths[i])`; the content runs from `contentStart` to the end.
 */
class EntryLayout {
  readonly starts: number[] = [];
  readonly lengths: number[] = [];
  contentStart = 0;

  /** Read the layout of `raw`; false (layout unusable) where unmarshalEntry would throw. */
  read(raw: Uint8Array): boolean {
    this.starts.length = 0;
    this.lengths.length = 0;
    if (raw.length > MAX_ENTRY_SIZE || raw.length < ENTRY_HEADER_SIZE || raw[0] !== 0) return false;
    const sectionEnd = ENTRY_HEADER_SIZE + ((raw[33]! << 8) | raw[34]!);
    if (sectionEnd > raw.length) return false;
    let at = ENTRY_HEADER_SIZE;
    while (at < sectionEnd) {
      if (at + 2 > sectionEnd) return false;
      const n = (raw[at]! << 8) | raw[at + 1]!;
      at += 2;
      if (at + n > sectionEnd) return false;
      this.starts.push(at);
      this.lengths.push(n);
      at += n;
    }
    this.contentStart = sectionEnd;
    return true;
  }
}

/** One answer's bytes, grown as written: ANSWER_HEADROOM free bytes, then the result's JSON text. */
class AnswerBuffer {
  private buf: Buffer;
  private view: DataView;
  private at = ANSWER_HEADROOM;

  constructor(estimate: number) {
    this.buf = Buffer.allocUnsafeSlow(ANSWER_HEADROOM + estimate);
    this.buf.fill(0x20, 0, ANSWER_HEADROOM);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
    this.view = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength);
  }

  /** A fixed piece (PIECES). */
  piece(bytes: Uint8Array): void {
    this.room(bytes.length);
    const out = this.buf;
    let p = this.at;
    for (let i = 0; i < bytes.length; i++) out[p++] = bytes[i]!;
    this.at = p;
  }

  /** ASCII text (cursors, the objects' path: no character JSON escapes). */
  ascii(text: string): void {
    this.room(text.length);
    this.at += this.buf.write(text, this.at, "latin1");
  }

  /** A number as JSON.stringify writes it: digits for an integer in u32 range, else through String. */
  number(n: number): void {
    if (!(Number.isInteger(n) && n >= 0 && n <= 0xffffffff)) {
      this.ascii(JSON.stringify(n));
      return;
    }
    let digits = 1;
    for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++;
    this.room(digits);
    const out = this.buf;
    let v = n;
    for (let p = this.at + digits - 1; p >= this.at; p--) {
      out[p] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    }
    this.at += digits;
  }

  /** The lower-case hex of `bytes[start, end)`. */
  hex(bytes: Uint8Array, start: number, end: number): void {
    this.room(2 * (end - start));
    const view = this.view;
    let p = this.at;
    for (let i = start; i < end; i++) {
      view.setUint16(p, HEX_PAIRS[bytes[i]!]!, true);
      p += 2;
    }
    this.at = p;
  }

  /** The answer: the result's text written, the envelope's closing brace after it (JsonText.answerBytes's layout). */
  finish<T>(): JsonText<T> {
    this.piece(PIECES.close);
    return new JsonText<T>("", this.buf.subarray(0, this.at), ANSWER_HEADROOM);
  }
}

/**
 * The answer of a page of entries, `{"entries":[…],"nextcursor":…,"resumecursor":…}`: each entry as queries.ts
 * `entryJson` makes it (`chainid` after `entryhash` when `withChain`; `content` only when asked). An entry whose
 * bytes `entryBytes` does not find, or does not lay out as an entry, is written from `slow(entry)` (the JSON text of
 * entryJson: the answer it always had, an error included).
 */
export function entryPageText<T>(
  items: readonly IndexedEntry[],
  opts: { content: boolean; withChain: boolean },
  cursors: PageCursorsText,
  entryBytes: EntryBytes,
  slow: (e: IndexedEntry) => string,
): JsonText<T> {
  const out = new AnswerBuffer(64 + ESTIMATED_BYTES_PER_ENTRY * items.length);
  const layout = new EntryLayout();
  out.piece(PIECES.open);
  for (let n = 0; n < items.length; n++) {
    const e = items[n]!;
    if (n > 0) out.piece(PIECES.comma);
    // the bytes are lmdb-js's read buffer: written out before anything else is read
    const raw = entryBytes(e.entryHash);
    if (raw === undefined || !layout.read(raw)) {
      out.ascii(slow(e));
      continue;
    }
    out.piece(PIECES.entryHash);
    out.hex(e.entryHash, 0, e.entryHash.length);
    if (opts.withChain) {
      out.piece(PIECES.chainId);
      out.hex(e.chainId, 0, e.chainId.length);
    }
    out.piece(PIECES.extIdsOpen);
    for (let i = 0; i < layout.starts.length; i++) {
      out.piece(i === 0 ? PIECES.quote : PIECES.quoteCommaQuote);
      const start = layout.starts[i]!;
      out.hex(raw, start, start + layout.lengths[i]!);
    }
    if (layout.starts.length > 0) out.piece(PIECES.quote);
    if (opts.content) {
      out.piece(PIECES.contentOpen);
      out.hex(raw, layout.contentStart, raw.length);
      out.piece(PIECES.contentClose);
    } else out.piece(PIECES.noContent);
    out.number(e.directoryBlockHeight);
    out.piece(PIECES.keyMR);
    out.hex(e.entryBlockKeyMR, 0, e.entryBlockKeyMR.length);
    out.piece(PIECES.timestamp);
    out.number(e.timestamp);
    out.piece(PIECES.position);
    out.number(e.position);
    out.piece(PIECES.close);
  }
  out.ascii(`],"nextcursor":"${cursors.nextcursor}","resumecursor":"${cursors.resumecursor}"}`);
  return out.finish<T>();
}
