/** The per-block view cache: one build per block object and view name, nothing shared across blocks. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ViewCache } from "../../../src/rpc/viewCache.js";
test("a view is built once per block object and name, and separately for other blocks and names", () => {
    const views = new ViewCache();
    let builds = 0;
    const build = (label) => () => {
        builds++;
        return { label, n: builds };
    };
    const a = {};
    const b = {};
    const first = views.get(a, "json", build("a/json"));
    assert.equal(views.get(a, "json", build("again")), first, "the same object comes back");
    assert.equal(builds, 1);
    assert.equal(views.get(a, "json noraw", build("a/noraw")).label, "a/noraw");
    assert.equal(views.get(b, "json", build("b/json")).label, "b/json");
    assert.equal(builds, 3);
    // a view that is undefined or falsy is remembered too
    let zero = 0;
    views.get(b, "zero", () => {
        zero++;
        return 0;
    });
    views.get(b, "zero", () => {
        zero++;
        return 0;
    });
    assert.equal(zero, 1);
});
//# sourceMappingURL=viewCache.test.js.map