// Host and Origin checks against DNS rebinding and cross-site requests (rpc/requestOrigin.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { foreignRequestRefusal, hostAllowed, originAllowed } from "../../../src/rpc/requestOrigin.js";

const config = {
  listenHost: "127.0.0.1",
  selfAddrs: ["node.example.com", "10.1.2.3"],
  nodeLocation: "localhost",
  allowedHosts: ["*.cluster.internal"],
  corsDomains: ["https://explorer.example"],
};

describe("Host", () => {
  it("IP literals, localhost, -selfaddr names, AllowedHosts (with wildcards) pass; other names do not", () => {
    for (const h of [
      undefined,
      "",
      "127.0.0.1:8088",
      "[::1]:8088",
      "192.0.2.9",
      "LOCALHOST:8088",
      "localhost.",
      "node.example.com:8088",
      "a.cluster.internal",
    ])
      assert.equal(hostAllowed(h, config), true, String(h));
    for (const h of ["attacker.example", "attacker.example:8088", "node.example.com.evil", "cluster.internal", "x"])
      assert.equal(hostAllowed(h, config), false, h);
    assert.equal(hostAllowed("anything.example", { ...config, allowedHosts: ["*"] }), true);
  });
});

describe("Origin", () => {
  it("absent, listed in CorsDomains, or the request's own host pass; anything else (null included) does not", () => {
    assert.equal(originAllowed(undefined, "127.0.0.1:8088", config), true);
    assert.equal(originAllowed("https://explorer.example", "127.0.0.1:8088", config), true);
    assert.equal(originAllowed("http://127.0.0.1:8088", "127.0.0.1:8088", config), true);
    assert.equal(originAllowed("http://127.0.0.1:9999", "127.0.0.1:8088", config), false);
    assert.equal(originAllowed("https://evil.example", "127.0.0.1:8088", config), false);
    assert.equal(originAllowed("null", "127.0.0.1:8088", config), false);
    assert.equal(originAllowed("https://evil.example", "127.0.0.1:8088", { ...config, corsDomains: ["*"] }), true);
  });

  it("the refusal names the header and how to allow it, quoting at most 80 characters", () => {
    assert.match(
      foreignRequestRefusal({ host: "attacker.example" }, config)!,
      /^403 Forbidden: Host "attacker\.example" is not a name of this node \(add it to \[App\] AllowedHosts/,
    );
    assert.match(
      foreignRequestRefusal({ host: "127.0.0.1", origin: "https://evil.example" }, config)!,
      /Origin "https:\/\/evil\.example" is not allowed \(list it in \[App\] CorsDomains\)/,
    );
    assert.ok(foreignRequestRefusal({ host: "x".repeat(500) }, config)!.length < 200);
    assert.equal(foreignRequestRefusal({ host: "127.0.0.1:8088" }, config), undefined);
  });
});
