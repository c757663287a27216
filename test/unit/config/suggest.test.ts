import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig, parseFlags } from "../../../src/config/index.js";
import { closestName } from "../../../src/config/suggest.js";

describe("did you mean", () => {
  it("suggests the nearest name within a third of the word's length, case-insensitively", () => {
    const names = ["port", "network", "homedir", "metricsport", "minfreemb"];
    assert.equal(closestName("prot", names), "port"); // two neighbours swapped: one edit
    assert.equal(closestName("netwrok", names), "network");
    assert.equal(closestName("HomeDri", names), "homedir");
    assert.equal(closestName("metricport", names), "metricsport");
    assert.equal(closestName("xyz", names), undefined);
    assert.equal(closestName("netwrk", names), "network");
    assert.equal(closestName("timeout", names), undefined);
    assert.equal(closestName("p", names), undefined);
  });

  function configError(run: () => unknown): ConfigError {
    try {
      run();
    } catch (e) {
      assert.ok(e instanceof ConfigError, String(e));
      return e;
    }
    assert.fail("no ConfigError");
  }

  it("in the errors of a misspelled flag, configuration field and group", () => {
    assert.match(configError(() => parseFlags(["-prot=8088"])).message, /-prot; did you mean -port\?/);
    assert.doesNotMatch(configError(() => parseFlags(["-xyz"])).message, /did you mean/);
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-suggest-"));
    try {
      const load = (text: string): string => {
        writeFileSync(join(dir, "ledgerd.conf"), text);
        return configError(() => loadConfig([`-homedir=${dir}`], { HOME: dir })).message;
      };
      assert.match(load("[App]\nPortNumbr = 1\n"), /unknown field PortNumbr in \[App\]; did you mean PortNumber\?$/);
      assert.match(load("[App]\nlistenhst = 127.0.0.1\n"), /did you mean ListenHost\?$/);
      assert.match(load("[Ap]\nPortNumber = 1\n"), /unknown group \[Ap\]; did you mean App\? \(known groups/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
