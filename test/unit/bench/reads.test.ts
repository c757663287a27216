/**
 * The read comparison's parts (bench/bareServer.ts, bench/httpLoad.ts, bench/reads.ts): the bare server answers
 * as a JSON-RPC server would, both generators count answers and errors against it (real child process, real
 * loopback sockets; counts only, no timing asserts), and a side's two halves (bare, node, node, bare) add up as
 * one run. ~3 s.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { bareAnswer, FixedAnswer } from "../../../bench/bareServer.js";
import { findWrk, type HttpLoadOptions, threadLoad, wrkRun, wrkScript } from "../../../bench/httpLoad.js";
import { bothHalves } from "../../../bench/reads.js";
import { freeLoopbackPort } from "../../../tools/loadgen/nodeProcess.js";

const GOOD = '{"jsonrpc":"2.0","id":7,"method":"heights"}';
const BAD = '{"jsonrpc":"1.0","id":8,"method":"heights"}';

let server: ChildProcess;
let port = 0;

before(async () => {
  port = await freeLoopbackPort();
  const file = fileURLToPath(new URL("../../../bench/bareServer.js", import.meta.url));
  server = spawn(process.execPath, [file, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on("data", (d: Buffer) => (d.toString().includes("ready") ? resolve() : undefined));
    server.once("exit", (code) => reject(new Error(`bare server exited ${code}`)));
  });
});

after(() => {
  server.kill("SIGKILL");
});

test("the bare server echoes the id with its fixed result, and refuses what is not JSON-RPC 2.0", async () => {
  const ok = bareAnswer(GOOD);
  assert.equal(ok.status, "200 OK");
  assert.equal(typeof ok.text, "string");
  const parsed = JSON.parse(ok.text as string) as { id: number; result: { directoryblockheight: number } };
  assert.equal(parsed.id, 7);
  assert.equal(typeof parsed.result.directoryblockheight, "number");
  assert.equal(bareAnswer(BAD).status, "400 Bad Request");
  assert.match(bareAnswer("{").text as string, /-32700/);
  const reply = await fetch(`http://127.0.0.1:${port}/v2`, { method: "POST", body: GOOD });
  assert.equal(reply.status, 200);
  assert.equal(await reply.text(), ok.text);
});

const options = (bodies: string[]): HttpLoadOptions => ({ port, path: "/v2", bodies, connections: 4, seconds: 0.3 });

test("the worker-thread generator counts answers, and every non-2xx answer as an error", async () => {
  const good = await threadLoad(options([GOOD]), 2);
  assert.ok(good.requests > 0);
  assert.equal(good.errors, 0);
  assert.ok(good.p99Us >= good.p50Us && good.maxUs >= good.p99Us);
  const bad = await threadLoad(options([BAD]), 2);
  assert.ok(bad.requests > 0);
  assert.equal(bad.errors, bad.requests);
});

test("the wrk script cycles through every body", () => {
  const script = wrkScript("/v2", [GOOD, BAD]);
  assert.ok(script.includes(`[==[${GOOD}]==]`) && script.includes(`[==[${BAD}]==]`));
  assert.throws(() => wrkScript("/v2", ["a]==]b"]));
});

// Not skipped without wrk: `make test` installs it (os-packages-test), and a run without it fails saying so.
test("wrk's figures are read back, errors included", async () => {
  const wrk = findWrk();
  assert.ok(wrk !== undefined, "wrk missing: run make os-packages-test as root");
  const good = await wrkRun(wrk, { ...options([GOOD]), seconds: 1 });
  assert.ok(good.requests > 0);
  assert.equal(good.errors, 0);
  const bad = await wrkRun(wrk, { ...options([BAD]), seconds: 1 });
  assert.ok(bad.requests > 0);
  assert.equal(bad.errors, bad.requests);
});

test("the bare server's padded answer has the length asked for and the request's id, still JSON-RPC", () => {
  for (const bytes of [4096, 78_000]) {
    const fixed = new FixedAnswer([bytes]);
    for (const id of [3, 123456, "a".repeat(200)]) {
      const answer = bareAnswer(GOOD.replace("7", JSON.stringify(id)), fixed);
      const text = typeof answer.text === "string" ? answer.text : Buffer.from(answer.text).toString("latin1");
      if (id === 3) assert.equal(Buffer.byteLength(text), bytes);
      const parsed = JSON.parse(text) as { id: unknown; result: { pad: string } };
      assert.equal(parsed.id, id);
      assert.equal(parsed.result.pad.length, bytes - 44);
    }
  }
  // a length the envelope alone exceeds keeps the small fixed result
  assert.deepEqual(bareAnswer(GOOD, new FixedAnswer([10])), bareAnswer(GOOD));
});

test("the bare server's answers by id: id i gets exactly lengths[i] bytes from a buffer of its own", () => {
  const lengths = [5000, 20_000, 4600, 130_000];
  const fixed = new FixedAnswer(lengths);
  const sent = lengths.map((_, id) => fixed.to(String(id)));
  assert.equal(new Set(sent.map((a) => (a as Uint8Array).buffer)).size, 4);
  for (const [id, a] of sent.entries()) {
    assert.ok(a instanceof Uint8Array);
    const text = Buffer.from(a).toString("latin1");
    assert.equal(Buffer.byteLength(text), lengths[id]);
    assert.equal((JSON.parse(text) as { id: number }).id, id);
  }
  // an id that is no index of a length gets the first answer's result, with its own id
  const other = Buffer.from(fixed.to('"x"') as Uint8Array).toString("latin1");
  assert.equal((JSON.parse(other) as { id: string; result: { pad: string } }).id, "x");
  assert.equal(Buffer.byteLength(other), 5000 + 2);
  assert.equal(Buffer.from(fixed.to("7") as Uint8Array).byteLength, 5000);
});

test("the two halves of a side add up to one run: rates from the sums, the larger percentiles, cores by time", () => {
  const run = (requests: number, seconds: number, p99Us: number, meanUs: number) => ({
    requests,
    seconds,
    errors: requests % 3,
    p50Us: p99Us / 4,
    p99Us,
    maxUs: p99Us * 2,
    meanUs,
  });
  const both = bothHalves(
    { value: run(200_000, 2, 1_500, 400), cores: 1, mainCores: 0.9 },
    { value: run(100_000, 2.5, 4_000, 700), cores: 0.7, mainCores: 0.6 },
  );
  assert.equal(both.value.requests, 300_000);
  assert.equal(both.value.seconds, 4.5);
  assert.equal(both.value.errors, (200_000 % 3) + (100_000 % 3));
  assert.equal(both.value.p99Us, 4_000);
  assert.equal(both.value.p50Us, 1_000);
  assert.equal(both.value.maxUs, 8_000);
  assert.equal(both.value.meanUs, 500); // (400·200,000 + 700·100,000) / 300,000
  assert.equal(both.cores, 0.83); // (1·2 + 0.7·2.5) / 4.5 = 0.8333…, to two places
  assert.equal(both.mainCores, 0.73); // (0.9·2 + 0.6·2.5) / 4.5 = 0.7333…
  const unknown = bothHalves({ value: run(1, 1, 1, 1), cores: 1 }, { value: run(1, 1, 1, 1) });
  assert.equal(unknown.cores, undefined);
  assert.equal(unknown.mainCores, undefined);
});
