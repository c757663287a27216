// The export file's codec (docs/export.md §1–§3): what is written reads back byte for byte with its counts, and
// every kind of damage — magic, version, a flipped byte anywhere, a cut, bytes added, a height skipped, a
// record out of place, a trailer that does not add up — is refused as BAD_FILE naming the offset and height.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HistoryError } from "../../../src/history/errors.js";
import {
  FORMAT_VERSION,
  type HeightSet,
  type HistoryHeader,
  type HistoryTrailer,
  HistoryWriter,
  MAGIC,
  RecordType,
  readHistory,
} from "../../../src/history/format.js";

const HEADER: HistoryHeader = {
  networkId: 0xfa92e5a4,
  network: "LOCAL",
  firstHeight: 0,
  lastHeight: 2,
  producer: "test",
};

function bytesOf(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

function sets(): HeightSet[] {
  return [0, 1, 2].map((height) => ({
    height,
    directory: bytesOf(113 + 64 * 3, height),
    admin: bytesOf(40, height + 1),
    ec: bytesOf(200, height + 2),
    asset: bytesOf(150, height + 3),
    entryBlocks:
      height === 0
        ? []
        : [
            { raw: bytesOf(236, height + 4), entries: [bytesOf(70, height + 5), bytesOf(1000, height + 6)] },
            { raw: bytesOf(204, height + 7), entries: [bytesOf(35, height + 8)] },
          ],
  }));
}

async function encode(header: HistoryHeader, list: HeightSet[], openBlockStartMs = 1_700_000_000_000): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const w = new HistoryWriter(async (c) => {
    chunks.push(Buffer.from(c));
  }, header);
  for (const s of list) await w.heightSet(s);
  await w.finish(openBlockStartMs);
  return Buffer.concat(chunks);
}

/** Everything a file reads to, in chunks of `chunk` bytes (a pipe's arbitrary cuts). */
async function decode(
  bytes: Uint8Array,
  chunk = 7,
): Promise<{ header?: HistoryHeader; sets: HeightSet[]; trailer: HistoryTrailer }> {
  async function* source(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const it = readHistory(source());
  const out: { header?: HistoryHeader; sets: HeightSet[] } = { sets: [] };
  for (;;) {
    const r = await it.next();
    if (r.done === true) return { ...out, trailer: r.value };
    if (r.value.kind === "header") out.header = r.value.header;
    else out.sets.push(r.value.set);
  }
}

async function refused(bytes: Uint8Array, pattern: RegExp, height?: number): Promise<void> {
  await assert.rejects(decode(bytes), (e: unknown) => {
    assert.ok(e instanceof HistoryError, String(e));
    assert.equal(e.type.code, "BAD_FILE");
    assert.match(e.message, pattern);
    if (height !== undefined && e.type.code === "BAD_FILE") assert.equal(e.type.height, height);
    return true;
  });
}

/** Offset of the first record of `type` (after `from`). */
function recordAt(bytes: Buffer, type: number, nth = 0): number {
  let at = MAGIC.length + 2;
  let seen = 0;
  while (at < bytes.length) {
    if (bytes[at] === type && seen++ === nth) return at;
    at += 5 + bytes.readUInt32BE(at + 1) + 4;
  }
  throw new Error(`no record of type ${type}`);
}

describe("export file codec", () => {
  it("reads back what it wrote, header, every set and the trailer's counts, whatever the chunking", async () => {
    const bytes = await encode(HEADER, sets());
    assert.deepEqual(bytes.subarray(0, 8), Buffer.from("LDGRHIST"));
    assert.equal(bytes.readUInt16BE(8), FORMAT_VERSION);
    for (const chunk of [1, 7, 4096, bytes.length]) {
      const r = await decode(bytes, chunk);
      assert.deepEqual(r.header, HEADER);
      assert.equal(r.sets.length, 3);
      r.sets.forEach((s, i) => {
        const want = sets()[i]!;
        assert.deepEqual(Buffer.from(s.directory), Buffer.from(want.directory));
        assert.deepEqual(
          s.entryBlocks.map((eb) => [Buffer.from(eb.raw), ...eb.entries.map((e) => Buffer.from(e))]),
          want.entryBlocks.map((eb) => [Buffer.from(eb.raw), ...eb.entries.map((e) => Buffer.from(e))]),
        );
      });
      assert.equal(r.trailer.heights, 3);
      assert.equal(r.trailer.entryBlocks, 4);
      assert.equal(r.trailer.entries, 6);
      // header + per height (height, 4 system blocks) + entry blocks + entries
      assert.equal(r.trailer.records, 1 + 3 * 5 + 4 + 6);
      assert.equal(r.trailer.openBlockStartMs, 1_700_000_000_000);
    }
  });

  it("refuses another program's file and another format version", async () => {
    const bytes = await encode(HEADER, sets());
    const other = Buffer.from(bytes);
    other[0] = 0x58;
    await refused(other, /not a ledgerd export file/);
    const version = Buffer.from(bytes);
    version.writeUInt16BE(FORMAT_VERSION + 1, 8);
    await refused(version, /format version 2, this program reads 1/);
  });

  it("refuses a flipped byte in any record at that record, naming the height being read", async () => {
    const bytes = await encode(HEADER, sets());
    const trailerAt = recordAt(bytes, RecordType.trailer);
    // every byte from the header's frame to the end of the last height's records
    for (let at = 10; at < trailerAt; at += 13) {
      const damaged = Buffer.from(bytes);
      damaged[at]! ^= 0x40;
      await assert.rejects(
        decode(damaged),
        (e: unknown) => e instanceof HistoryError && e.type.code === "BAD_FILE",
        `byte ${at}`,
      );
    }
    const inEc = Buffer.from(bytes);
    inEc[recordAt(bytes, RecordType.ec, 1) + 5 + 10]! ^= 0x01;
    await refused(
      inEc,
      /^height 1: damaged export file at byte \d+: the EC block \(record \d+\) fails its checksum/,
      1,
    );
  });

  it("refuses a file cut short, bytes after the trailer, and a trailer whose hash or counts do not match", async () => {
    const bytes = await encode(HEADER, sets());
    await refused(bytes.subarray(0, bytes.length - 1), /ends inside a trailer/);
    await refused(bytes.subarray(0, recordAt(bytes, RecordType.trailer)), /ends without its trailer/);
    await refused(Buffer.concat([bytes, Uint8Array.of(0)]), /bytes after the trailer/);
    // the file's hash: change a payload byte and fix its CRC, so only the trailer's sha256 can tell
    const { crc32 } = await import("node:zlib");
    const forged = Buffer.from(bytes);
    const at = recordAt(bytes, RecordType.asset, 2);
    const length = forged.readUInt32BE(at + 1);
    forged[at + 5]! ^= 0x01;
    forged.writeUInt32BE(
      crc32(forged.subarray(at + 5, at + 5 + length), crc32(forged.subarray(at, at + 5))),
      at + 5 + length,
    );
    await refused(forged, /the file's sha256 does not match the trailer's/);
  });

  it("refuses heights out of order and records out of place", async () => {
    const skipped = await encode(HEADER, [sets()[0]!, sets()[2]!, sets()[2]!]);
    await refused(skipped, /height 2 where 1 belongs/);
    const tooFew = await encode({ ...HEADER, lastHeight: 3 }, sets());
    await refused(tooFew, /a trailer where height 3 should start/);
    const tooMany = await encode({ ...HEADER, lastHeight: 1 }, sets());
    await refused(tooMany, /a height after the last height 1, where the trailer belongs/);
  });

  it("refuses a damaged length before allocating it", async () => {
    const bytes = await encode(HEADER, sets());
    const at = recordAt(bytes, RecordType.entry, 1);
    const damaged = Buffer.from(bytes);
    damaged.writeUInt32BE(0xffffffff, at + 1);
    await refused(damaged, /an entry of 4294967295 bytes \(most \d+\): a damaged length\?/, 1);
  });
});
