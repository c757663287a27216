// The Node.js line the node runs on (issue 19 item 8): the launchers refuse any other with a clear message,
// and package.json `engines` says the same.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { unsupportedNodeMessage } from "../../src/nodeSupport.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

describe("supported Node.js", () => {
  it("Node 20.19+ with ABI 115 runs; 22, 18 and early 20 get a message naming the version and the way out", () => {
    assert.equal(unsupportedNodeMessage("ledgerd", "20.19.0", "115"), undefined);
    assert.equal(unsupportedNodeMessage("ledgerd", "20.20.2", "115"), undefined);
    for (const [version, abi] of [
      ["22.11.0", "127"],
      ["18.20.4", "108"],
      ["20.18.1", "115"],
      ["24.0.0", "137"],
    ] as const) {
      const m = unsupportedNodeMessage("ledgerd", version, abi);
      assert.ok(m !== undefined, version);
      assert.match(
        m,
        new RegExp(`^ledgerd: this is Node\\.js ${version.replaceAll(".", "\\.")}; ledgerd needs Node\\.js 20`),
      );
      assert.match(m, /Install Node 20/);
    }
  });

  it("the HTTP server's ws is the fixed one (CVE-2024-37890 is fixed in ws 8.17.1), not the 8.13.0 it asks for", () => {
    const require = createRequire(join(root, "node_modules", "uWebSockets.js", "package.json"));
    const version = (require("ws/package.json") as { version: string }).version;
    const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
    assert.ok(major > 8 || (major === 8 && (minor > 17 || (minor === 17 && patch >= 1))), `ws ${version}`);
  });

  it("package.json engines allows exactly that line, and this test runs on it", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } };
    assert.equal(pkg.engines.node, ">=20.19 <21");
    assert.equal(unsupportedNodeMessage("ledgerd", process.versions.node, process.versions.modules), undefined);
  });
});
