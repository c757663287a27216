/**
 * The free-space reserve: measured on the real file system of a temp directory, refused with a message
 * that says how much is free and what is kept.
 */
import assert from "node:assert/strict";
import { statfsSync } from "node:fs";
import { test } from "node:test";
import { DiskSpaceGuard } from "../../../src/store/diskSpace.js";
import { StoreError } from "../../../src/store/errors.js";
import { cleanup, tempDir } from "../ledger/harness.js";
function freeBytes(dir) {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
}
test("writes pass while the reserve is free, and are refused with the figures once it is not", () => {
    const dir = tempDir();
    try {
        const free = freeBytes(dir);
        new DiskSpaceGuard({ path: dir, reserveBytes: 1, files: [] }).check();
        // a reserve larger than the whole free space
        const tight = new DiskSpaceGuard({ path: dir, reserveBytes: free * 2, files: [] });
        assert.throws(() => tight.check(), (e) => e instanceof StoreError &&
            e.type.code === "STORAGE_FULL" &&
            /MiB free for .*below the reserve of .* MiB kept free \(-minfreemb\)/.test(e.message));
        // room for the reserve, not for the write on top of it
        const guard = new DiskSpaceGuard({ path: dir, reserveBytes: 1024 * 1024, files: [] });
        guard.check(1024);
        assert.throws(() => guard.check(free * 2), /to write/);
        // reserve 0: never measured, never refused
        new DiskSpaceGuard({ path: dir, reserveBytes: 0, files: [] }).check(Number.MAX_SAFE_INTEGER);
    }
    finally {
        cleanup(dir);
    }
});
//# sourceMappingURL=diskSpace.test.js.map