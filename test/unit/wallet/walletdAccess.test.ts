// The wallet service's access to the wallet file: an encrypted wallet is locked until unlock-wallet, locked again
// when its time is up (a clock the test moves), a wrong passphrase is -32003, and a file others can read is
// refused. Real files, real scrypt and AES-GCM.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Passphrase } from "../../../tools/wallet/walletCrypto.js";
import { deriveNextKey, WalletFile } from "../../../tools/wallet/walletFile.js";
import { WalletdCode, WalletdError } from "../../../tools/walletd/errors.js";
import { MAX_UNLOCK_SECONDS, WalletAccess } from "../../../tools/walletd/walletAccess.js";

function code(expected: number, data: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof WalletdError, String(e));
    assert.equal(e.code, expected);
    assert.match(e.data, data);
    return true;
  };
}

describe("wallet service: access to the wallet file", () => {
  const dir = mkdtempSync(join(tmpdir(), "walletd-access-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("encrypted: locked, unlocked for its timeout, locked again; wrong passphrase refused", () => {
    const path = join(dir, "enc.json");
    const made = WalletFile.load(path, new Passphrase("right one")).update((k, e) => deriveNextKey(k, e, "FA"));
    let now = 1_000_000;
    const access = new WalletAccess(path, () => now);
    assert.equal(access.encrypted, true);
    assert.equal(access.locked, true);
    assert.throws(() => access.load(), code(WalletdCode.WalletLocked, /call unlock-wallet/));
    assert.throws(() => access.unlock("wrong", 10), code(WalletdCode.IncorrectPassphrase, /wrong passphrase/));
    assert.equal(access.locked, true);
    for (const t of [0, -1, 1.5, MAX_UNLOCK_SECONDS + 1, "10"])
      assert.throws(
        () => access.unlock("right one", t),
        code(WalletdCode.InvalidParams, /timeout: expected whole seconds/),
      );
    assert.throws(() => access.unlock("", 10), code(WalletdCode.InvalidParams, /passphrase/));
    assert.equal(access.unlock("right one", 10), now + 10_000);
    assert.equal(access.load().list()[0]!.public, made.publicAddress);
    now += 9_999;
    assert.equal(access.locked, false);
    now += 1;
    assert.equal(access.locked, true);
    assert.throws(() => access.load(), code(WalletdCode.WalletLocked, /locked/));
    access.lock();
  });

  test("plain: always unlocked, unlock refused; a file others can read is refused", () => {
    const path = join(dir, "plain.json");
    WalletFile.load(path).update((k, e) => deriveNextKey(k, e, "EC"));
    const access = new WalletAccess(path);
    assert.equal(access.locked, false);
    assert.equal(access.load().list().length, 1);
    assert.throws(() => access.unlock("x", 10), code(WalletdCode.InvalidParams, /is not encrypted/));
    chmodSync(path, 0o640);
    assert.throws(() => access.load(), code(WalletdCode.Internal, /mode 640.*chmod 600/));
  });
});
