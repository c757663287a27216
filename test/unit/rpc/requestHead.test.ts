/**
 * The -httpfront's decisions on a first request head (rpc/requestHead.ts) and its PROXY v2 header
 * (rpc/httpFront.ts). The statuses against a real node: test/integration/http-front.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { proxyV2Header } from "../../../src/rpc/httpFront.js";
import { answerBytes, bareLineFeed, checkRequestHead, MAX_HEADER_LINES } from "../../../src/rpc/requestHead.js";

describe("checkRequestHead", () => {
  it("passes what uWS parses, unchanged", () => {
    for (const head of [
      "GET /v2 HTTP/1.1\r\nHost: a\r\n\r\n",
      "POST /v2?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nX-Tab: a\tb\r\nX-High: caf\xe9\r\n\r\n",
      `GET / HTTP/1.1\r\nHost: a\r\n${Array.from({ length: MAX_HEADER_LINES - 1 }, (_, i) => `X-${i}: v\r\n`).join("")}\r\n`,
      "DELETE /x HTTP/1.1\r\nhost:a\r\n\r\n",
    ])
      assert.deepEqual(checkRequestHead(head), { kind: "pass" }, JSON.stringify(head));
  });

  it("rewrites HTTP/1.0 (and 1.2) to HTTP/1.1 with Connection: close, an empty Host when there was none", () => {
    assert.deepEqual(checkRequestHead("GET /health HTTP/1.0\r\n\r\n"), {
      kind: "rewrite",
      head: "GET /health HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
    });
    assert.deepEqual(
      checkRequestHead(
        "POST /v2 HTTP/1.0\r\nHost: n:1\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\nContent-Length: 3\r\n\r\n",
      ),
      { kind: "rewrite", head: "POST /v2 HTTP/1.1\r\nHost: n:1\r\nContent-Length: 3\r\nConnection: close\r\n\r\n" },
    );
    assert.equal(checkRequestHead("GET / HTTP/1.2\r\nHost: a\r\n\r\n").kind, "rewrite");
  });

  it("answers what uWS would drop, with the status Go's server gives", () => {
    const cases: [string, number][] = [
      ["GET / HTTP/1.1\r\n\r\n", 400],
      ["BREW / HTTP/1.1\r\nHost: a\r\n\r\n", 405],
      ["get / HTTP/1.1\r\nHost: a\r\n\r\n", 405],
      ["G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400],
      ["OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", 200],
      ["GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400],
      ["GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400],
      ["GET /\x01 HTTP/1.1\r\nHost: a\r\n\r\n", 400],
      ["GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505],
      ["GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505],
      ["GET / HTTP/1.10\r\nHost: a\r\n\r\n", 400],
      ["GET / HTTPS/1.1\r\nHost: a\r\n\r\n", 400],
      ["GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: a\r\nX: a\x7fb\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400],
      [
        `GET / HTTP/1.1\r\nHost: a\r\n${Array.from({ length: MAX_HEADER_LINES }, (_, i) => `X-${i}: v\r\n`).join("")}\r\n`,
        431,
      ],
    ];
    for (const [head, status] of cases) {
      const v = checkRequestHead(head);
      assert.equal(v.kind === "answer" ? v.status : v.kind, status, JSON.stringify(head));
    }
  });

  it("quotes received text as printable ASCII in the answer", () => {
    const v = checkRequestHead("GET / HTTP/1.1\r\nHost: a\r\nX-\x01: v\r\n\r\n");
    assert.equal(v.kind, "answer");
    const bytes = answerBytes(v as Extract<typeof v, { kind: "answer" }>);
    assert.match(bytes, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(bytes, /malformed header line "X-\\u0001: v"\n$/);
    const body = bytes.slice(bytes.indexOf("\r\n\r\n") + 4);
    assert.ok(
      [...body].every((c) => (c >= " " && c <= "~") || c === "\n"),
      JSON.stringify(body),
    );
    assert.equal(Number(/Content-Length: (\d+)/.exec(bytes)![1]), Buffer.byteLength(body));
  });

  it("finds a bare LF", () => {
    assert.equal(bareLineFeed("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), -1);
    assert.equal(bareLineFeed("GET / HTTP/1.1\nHost"), 14);
    assert.equal(bareLineFeed("\n"), 0);
  });
});

describe("proxyV2Header", () => {
  const signature = "0d0a0d0a000d0a515549540a21";
  it("IPv4, and IPv4-mapped IPv6 as IPv4", () => {
    const expected = `${signature}11000c0a010203` + "7f000001" + "3039" + "1f90";
    const v4 = proxyV2Header({ address: "10.1.2.3", port: 12345 }, { address: "127.0.0.1", port: 8080 });
    assert.equal(v4.toString("hex"), expected);
    const mapped = proxyV2Header(
      { address: "::ffff:10.1.2.3", port: 12345 },
      { address: "::ffff:127.0.0.1", port: 8080 },
    );
    assert.deepEqual(mapped, v4);
  });
  it("IPv6, with :: expanded and a zone id dropped", () => {
    const h = proxyV2Header({ address: "2001:db8::5", port: 1 }, { address: "fe80::1%lo", port: 2 });
    assert.equal(
      h.toString("hex"),
      `${signature}210024` + "20010db8000000000000000000000005" + "fe800000000000000000000000000001" + "0001" + "0002",
    );
    const loop = proxyV2Header({ address: "::1", port: 1 }, { address: "::", port: 2 });
    assert.equal(loop.subarray(16, 48).toString("hex"), `${"0".repeat(31)}1${"0".repeat(32)}`);
  });
});
