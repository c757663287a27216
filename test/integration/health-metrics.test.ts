/**
 * /health and /metrics of a real node process (src/monitor/, src/rpc/plainRoutes.ts): health answers without
 * credentials (GET, HEAD; other verbs 405) and turns 503 with its reason when the disk reserve is not met
 * (set live through reload-configuration) and back; /metrics is behind the API's Basic auth, counts requests
 * and refused writes by reason, and is served on -metricsport too. In process: a node
 * is unhealthy once its newest block is two block times old.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { toHex } from "../../src/protocol/bytes.js";
import { freeLoopbackPort, httpRequest, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { waitFor } from "../support/waitFor.js";
import { chainCommit, ecKeyN, firstEntry } from "../unit/ledger/harness.js";
import { startTestNode } from "../unit/rpc/nodeHarness.js";

after(() => killAllNodes());

const USER = "operator";
const PASS = "s3cret";
const BASIC = `Basic ${Buffer.from(`${USER}:${PASS}`).toString("base64")}`;

interface HealthBody {
  status: string;
  failing: string[];
  height: number;
  checks: Record<string, { ok: boolean; detail: string }>;
}

/** The value of one sample line `name{labels} value` of an exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function writeConfig(node: LedgerdProcess, lines: string[]): void {
  writeFileSync(
    join(node.homeDir, "ledgerd.conf"),
    ["[App]", "ListenHost = 127.0.0.1", `NodeRpcUser = ${USER}`, `NodeRpcPass = ${PASS}`, ...lines, ""].join("\n"),
  );
}

/** Turn on Basic auth live (the test helper's readiness probe calls `heights` without credentials). */
async function requireAuth(node: LedgerdProcess): Promise<void> {
  writeConfig(node, []);
  await node.rpc("reload-configuration", undefined, "debug");
  assert.equal((await node.post('{"jsonrpc":"2.0","id":1,"method":"heights"}')).status, 401);
}

describe("health and metrics", () => {
  test("/health without credentials; 503 with the reason while the disk reserve is not met", async () => {
    // 6 s blocks: the blocks and stall limits (12 s, 2.8 s) hold on a loaded test machine
    const node = await LedgerdProcess.start({ blockTimeSeconds: 6, extraArgs: ["-debugapi=readwrite"] });
    try {
      await requireAuth(node);
      const get = await httpRequest(node.port, { method: "GET", path: "/health" });
      assert.equal(get.status, 200, get.text);
      const body = JSON.parse(get.text) as HealthBody;
      assert.equal(body.status, "ok");
      assert.deepEqual(Object.keys(body.checks), ["booted", "blocks", "stall", "storage"]);
      assert.deepEqual(body.failing, []);
      assert.equal(typeof body.height, "number");
      assert.doesNotMatch(get.text, new RegExp(`${PASS}|${node.homeDir}`), "health shows a secret or a path");

      const head = await httpRequest(node.port, { method: "HEAD", path: "/health" });
      assert.equal(head.status, 200);
      assert.equal(head.text, "");
      const post = await httpRequest(node.port, { method: "POST", path: "/health", body: "{}" });
      assert.equal(post.status, 405);
      assert.equal(post.headers.allow, "GET, HEAD");

      // A reserve of 1 TiB cannot be met: storage fails, writes are refused, health says why.
      writeConfig(node, ["MinFreeDiskMB = 1048576"]);
      const reload = await node.post('{"jsonrpc":"2.0","id":1,"method":"reload-configuration"}', {
        path: "/debug",
        headers: { Authorization: BASIC },
      });
      assert.equal(reload.status, 200, reload.text);
      const failing = await httpRequest(node.port, { method: "GET", path: "/health" });
      assert.equal(failing.status, 503, failing.text);
      const fb = JSON.parse(failing.text) as HealthBody;
      assert.equal(fb.status, "failing");
      assert.equal(fb.failing.length, 1, failing.text);
      assert.match(fb.failing[0]!, /^storage: .* MiB free, below the reserve of 1048576\.0 MiB: writes refused$/);
      assert.equal((await httpRequest(node.port, { method: "HEAD", path: "/health" })).status, 503);

      writeConfig(node, ["MinFreeDiskMB = 1"]);
      await node.post('{"jsonrpc":"2.0","id":1,"method":"reload-configuration"}', {
        path: "/debug",
        headers: { Authorization: BASIC },
      });
      assert.equal((await httpRequest(node.port, { method: "GET", path: "/health" })).status, 200);
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });

  test("/metrics behind Basic auth, on the API port and on -metricsport", async () => {
    const metricsPort = await freeLoopbackPort();
    const node = await LedgerdProcess.start({
      blockTimeSeconds: 1,
      extraArgs: [`-metricsport=${metricsPort}`, "-debugapi=readwrite"],
    });
    try {
      await requireAuth(node);
      assert.equal((await httpRequest(node.port, { method: "GET", path: "/metrics" })).status, 401);
      assert.equal((await httpRequest(metricsPort, { method: "GET", path: "/metrics" })).status, 401);
      const scrape = async (port: number): Promise<string> => {
        const a = await httpRequest(port, { method: "GET", path: "/metrics", headers: { Authorization: BASIC } });
        assert.equal(a.status, 200, a.text);
        assert.match(String(a.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
        return a.text;
      };

      const heightsOk = 'ledgerd_rpc_requests_total{endpoint="/v2",method="heights",outcome="ok"}';
      const before = sample(await scrape(node.port), heightsOk) ?? 0; // the start-up probe's calls
      // A refused write: a commit paid by an entry-credit key that holds nothing.
      const { raw } = firstEntry(["metrics", String(Date.now())], "x");
      const refused = await node.post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "commit-chain",
          params: { message: toHex(chainCommit(raw, Date.now(), ecKeyN(77)).raw) },
        }),
        { headers: { Authorization: BASIC } },
      );
      assert.equal(refused.status, 400, refused.text);
      for (let i = 0; i < 3; i++)
        await node.post('{"jsonrpc":"2.0","id":1,"method":"heights"}', { headers: { Authorization: BASIC } });
      await node.post('{"jsonrpc":"2.0","id":1,"method":"no-such-method"}', { headers: { Authorization: BASIC } });
      // a block closed and saved since start (scraping is not a /v2 request: the counts above stay as they are)
      const text = await waitFor("a saved block in the metrics", async () => {
        const t = await scrape(node.port);
        return (sample(t, "ledgerd_directory_block_height") ?? 0) >= 1 &&
          (sample(t, "ledgerd_block_close_seconds_count") ?? 0) >= 1
          ? t
          : undefined;
      });
      assert.equal(sample(text, heightsOk), before + 3);
      assert.equal(sample(text, 'ledgerd_rpc_requests_total{endpoint="/v2",method="other",outcome="client_error"}'), 1);
      assert.equal(
        sample(text, 'ledgerd_writes_total{kind="commit",outcome="refused",reason="EC_BALANCE_LOW"}'),
        1,
        text
          .split("\n")
          .filter((l) => l.startsWith("ledgerd_writes"))
          .join("\n"),
      );
      assert.ok((sample(text, "ledgerd_directory_block_height") ?? 0) >= 1);
      assert.ok((sample(text, "ledgerd_block_close_seconds_count") ?? 0) >= 1);
      assert.ok((sample(text, 'ledgerd_store_file_bytes{file="data"}') ?? 0) > 0);
      assert.ok((sample(text, "ledgerd_disk_free_bytes") ?? 0) > 0);
      assert.equal(sample(text, "ledgerd_disk_reserve_bytes"), 64 * 2 ** 20);
      // the background scrub of the store (docs/ledger.md §5): a pass over the young store completes, nothing damaged
      const scrubbed = await waitFor("a complete scrub pass in the metrics", async () => {
        const t = await scrape(node.port);
        return (sample(t, "ledgerd_store_scrub_passes_total") ?? 0) >= 1 ? t : undefined;
      });
      assert.equal(sample(scrubbed, "ledgerd_store_scrub_damaged"), 0);
      assert.ok((sample(scrubbed, "ledgerd_store_scrub_records_total") ?? 0) > 0);
      assert.ok((sample(scrubbed, "ledgerd_store_scrub_last_complete_timestamp_seconds") ?? 0) > 1_700_000_000);
      for (const name of [
        "ledgerd_rpc_request_duration_seconds_bucket",
        "ledgerd_leader_height",
        "ledgerd_block_age_seconds",
        'ledgerd_process_list_messages{kind="reveal"}',
        "ledgerd_holding_queue_messages",
        "ledgerd_process_resident_memory_bytes",
      ])
        assert.ok(text.includes(`\n${name}`), `no ${name} in the exposition`);

      const other = await scrape(metricsPort);
      assert.match(other, /\nledgerd_directory_block_height \d+/);
      // served there too (200, or 503 when this loaded machine delays 1 s blocks: either way the checks)
      const health = await httpRequest(metricsPort, { method: "GET", path: "/health" });
      assert.ok([200, 503].includes(health.status), health.text);
      assert.deepEqual(Object.keys((JSON.parse(health.text) as HealthBody).checks), [
        "booted",
        "blocks",
        "stall",
        "storage",
      ]);
      assert.equal((await httpRequest(metricsPort, { method: "GET", path: "/v2" })).status, 404);
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });

  test("the blocks check fails once the newest block is older than two block times", async () => {
    const t = await startTestNode({ blockTimeSeconds: 1 });
    try {
      // asked as of 2.5 s after the open block began (blocks of 1 s: the limit is 2 s)
      const health = t.node.monitor.health;
      assert.equal(health.evaluate(Date.now()).status, "ok");
      const later = health.evaluate(t.node.ledger.openBlock().startMs + 2_500);
      assert.equal(later.status, "failing");
      assert.match(later.failing.join("\n"), /^blocks: newest block 2\.5 s old \(limit 2 s\)$/m);
      // the open minute (0.1 s long) has lasted more than 3 minute lengths + 1 s
      assert.match(later.failing.join("\n"), /^stall: the open minute has lasted \d+\.\d s \(limit 1\.3 s\)/m);
      assert.equal(health.evaluate(t.node.ledger.openBlock().minuteStartMs + 1_200).checks.stall?.ok, true);
    } finally {
      await t.stop();
    }
  });

  test("the exposition passes promtool check metrics (Debian's prometheus package)", async () => {
    // Not skipped without promtool: `make test` installs it (os-packages-test), and a run without it says so.
    const promtool = spawnSync("promtool", ["--version"], { encoding: "utf8" });
    assert.equal(promtool.error, undefined, "promtool missing: run make os-packages-test as root");
    const node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    try {
      // labelled series appear once used: a read, an unknown method, a refused write
      await node.rpc("heights");
      await httpRequest(node.port, { path: "/v2", body: '{"jsonrpc":"2.0","id":1,"method":"nope"}' });
      const text = (await httpRequest(node.port, { method: "GET", path: "/metrics" })).text;
      assert.match(text, /^ledgerd_rpc_requests_total\{/m);
      const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      assert.equal(check.status, 0, `promtool: ${check.stdout}${check.stderr}`);
      assert.equal(`${check.stdout}${check.stderr}`.trim(), "");
    } finally {
      await node.stop();
      node.cleanup();
    }
  });
});
