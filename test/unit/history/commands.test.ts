// The history commands' command line (docs/export.md): each `-h` page, a misspelled flag answered with the
// nearest one and exit 2, a stray argument, and the refusals that need no data (no data directory; an import
// into a home that has one; an import file that cannot be read) — exit 1, and an import leaves nothing behind.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { helpPage, runHistoryCommand } from "../../../src/history/commands.js";

function io(): { io: Parameters<typeof runHistoryCommand>[2]; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return { io: { stdout, stderr, stdin: new PassThrough() }, out: () => out, err: () => err };
}

describe("history commands: command line", () => {
  const home = mkdtempSync(join(tmpdir(), "ledgerd-history-cli-"));
  after(() => rmSync(home, { recursive: true, force: true }));

  for (const command of ["export", "import", "verify"] as const)
    it(`${command} -h prints its page and exits 0`, async () => {
      const t = io();
      assert.equal(await runHistoryCommand(command, ["-h"], t.io), 0);
      assert.equal(t.out(), helpPage(command));
      assert.match(t.out(), /^Usage: ledgerd[ -](export|import|verify) -homedir=DIR -network=NET/);
      assert.match(t.out(), /-homedir=DIR\n/);
      assert.match(t.out(), /Exit codes: 0 done, 1 refused or failed/);
    });

  it("a misspelled flag gets the nearest one and exit 2; so does a stray argument", async () => {
    const t = io();
    assert.equal(await runHistoryCommand("export", ["-homdir=/x"], t.io), 2);
    assert.match(t.err(), /^ledgerd-export: unknown flag -homdir; did you mean -homedir\?/);
    const u = io();
    assert.equal(await runHistoryCommand("verify", [`-homedir=${home}`, "extra"], u.io), 2);
    assert.match(u.err(), /unexpected argument extra/);
    const v = io();
    assert.equal(await runHistoryCommand("import", ["-network=NOPE"], v.io), 2);
    assert.match(v.err(), /^ledgerd-import: /);
  });

  it("export and verify refuse a home with no data directory (exit 1)", async () => {
    for (const command of ["export", "verify"] as const) {
      const t = io();
      assert.equal(await runHistoryCommand(command, [`-homedir=${home}`, "-network=LOCAL", "-q"], t.io), 1);
      assert.match(t.err(), new RegExp(`no data directory at ${join(home, "local", "db")}`));
    }
  });

  it("import refuses a home that has a data directory, and leaves nothing when its file cannot be read", async () => {
    const full = join(home, "full");
    mkdirSync(join(full, "local", "db"), { recursive: true });
    writeFileSync(join(full, "local", "db", "data.mdb"), "x");
    const t = io();
    assert.equal(await runHistoryCommand("import", [`-homedir=${full}`, "-network=LOCAL", "-q", "/dev/null"], t.io), 1);
    assert.match(
      t.err(),
      /is not empty: ledgerd-import builds a new data directory and never extends or overwrites one/,
    );
    const fresh = join(home, "fresh");
    const u = io();
    assert.equal(
      await runHistoryCommand(
        "import",
        [`-homedir=${fresh}`, "-network=LOCAL", "-q", join(home, "missing.hist")],
        u.io,
      ),
      1,
    );
    assert.match(u.err(), /ENOENT/);
    assert.ok(!existsSync(join(fresh, "local")), "the import left a directory behind");
    const empty = join(home, "empty.hist");
    writeFileSync(empty, "");
    const w = io();
    assert.equal(await runHistoryCommand("import", [`-homedir=${fresh}`, "-network=LOCAL", "-q", empty], w.io), 1);
    assert.match(w.err(), /not a ledgerd export file/);
    assert.ok(!existsSync(join(fresh, "local")));
  });
});
