/**
 * A federated server whose block-set puts fail (the archive's stream without a leader: a nats-server killed)
 * keeps those sets and writes them at its next closes, so the archive has no hole a follower from an empty
 * directory could not get past (src/cluster/federation.ts `publishSet`; found by the cluster lane's
 * "a follower from an empty directory … catches up from block sets" stuck at a height no server archived).
 * Real ledgers and drivers over the in-memory log (test/support/memoryFederation.ts); the archive is the
 * in-memory one with its puts refused while `refusing` is set.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { MemoryArchive, MemoryFederation } from "../../support/memoryFederation.js";
import { waitUntil } from "../../support/waitFor.js";

/** An archive whose puts fail while `refusing` (as JetStream's do with no stream leader). */
class RefusingArchive extends MemoryArchive {
  refusing = false;
  refused = new Set<number>();
  override async put(height: number, parts: readonly Uint8Array[]): Promise<void> {
    if (this.refusing) {
      this.refused.add(height);
      throw new Error("no stream leader");
    }
    await super.put(height, parts);
  }
}

const archive = new RefusingArchive();
const f = new MemoryFederation({ blockTimeSeconds: 1, blockSets: archive });
after(() => f.stop());

test("sets a federated server failed to archive are written at its later closes: no hole", async () => {
  const boot = await f.start({ name: "boot", role: "federated" });
  await f.savedHeight(2);
  archive.refusing = true;
  const from = boot.ledger.heights().directoryBlockHeight;
  await f.savedHeight(from + 3);
  archive.refusing = false;
  assert.ok(archive.refused.size >= 2, `puts refused for heights ${[...archive.refused].join(", ")}`);
  const to = boot.ledger.heights().directoryBlockHeight + 2;
  await f.savedHeight(to);
  await waitUntil(
    "every height's set archived",
    () => {
      for (let h = 1; h < to; h++) if (!archive.parts.has(h)) return false;
      return true;
    },
    30_000,
    20,
  );
  for (const h of archive.refused) assert.ok(archive.parts.has(h), `height ${h}: archived after its refusal`);
  assert.ok(
    boot.log.lines.some((l) => l.msg === "block set archived on a later try"),
    "the later write is logged",
  );
});
