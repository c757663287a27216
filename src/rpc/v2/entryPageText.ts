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

/** ASCII of the hex digits, by value (lower case, as `toHex` writes). */
const HEX_DIGITS = Uint8Array.from(Buffer.from("0123456789abcdef", "latin1"));

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
  private at = ANSWER_HEADROOM;

  constructor(estimate: number) {
    this.buf = Buffer.allocUnsafeSlow(ANSWER_HEADROOM + estimate);
    this.buf.fill(0x20, 0, ANSWER_HEADROOM);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  /** ASCII text (member names, numbers, cursors: no character JSON escapes). */
  ascii(text: string): void {
    this.room(text.length);
    this.at += this.buf.write(text, this.at, "latin1");
  }

  /** The lower-case hex of `bytes[start, end)`. */
  hex(bytes: Uint8Array, start: number, end: number): void {
    this.room(2 * (end - start));
    const out = this.buf;
    let p = this.at;
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      out[p++] = HEX_DIGITS[b >> 4]!;
      out[p++] = HEX_DIGITS[b & 15]!;
    }
    this.at = p;
  }

  /** A JSON string of the hex of `bytes[start, end)`. */
  hexString(bytes: Uint8Array, start: number, end: number): void {
    this.ascii('"');
    this.hex(bytes, start, end);
    this.ascii('"');
  }

  /** The answer: the result's text written, the envelope's closing brace after it (JsonText.answerBytes's layout). */
  finish<T>(): JsonText<T> {
    this.ascii("}");
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
  out.ascii('{"entries":[');
  for (let n = 0; n < items.length; n++) {
    const e = items[n]!;
    if (n > 0) out.ascii(",");
    // the bytes are lmdb-js's read buffer: written out before anything else is read
    const raw = entryBytes(e.entryHash);
    if (raw === undefined || !layout.read(raw)) {
      out.ascii(slow(e));
      continue;
    }
    out.ascii('{"entryhash":');
    out.hexString(e.entryHash, 0, e.entryHash.length);
    if (opts.withChain) {
      out.ascii(',"chainid":');
      out.hexString(e.chainId, 0, e.chainId.length);
    }
    out.ascii(',"extids":[');
    for (let i = 0; i < layout.starts.length; i++) {
      if (i > 0) out.ascii(",");
      const start = layout.starts[i]!;
      out.hexString(raw, start, start + layout.lengths[i]!);
    }
    out.ascii("]");
    if (opts.content) {
      out.ascii(',"content":');
      out.hexString(raw, layout.contentStart, raw.length);
    }
    out.ascii(`,"dbheight":${e.directoryBlockHeight},"entryblockkeymr":`);
    out.hexString(e.entryBlockKeyMR, 0, e.entryBlockKeyMR.length);
    out.ascii(`,"timestamp":${e.timestamp},"position":${e.position}}`);
  }
  out.ascii(`],"nextcursor":"${cursors.nextcursor}","resumecursor":"${cursors.resumecursor}"}`);
  return out.finish<T>();
}
