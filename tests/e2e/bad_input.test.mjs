// Hostile and malformed requests (issue 6, bad input): well over 150 of them — bad JSON,
// invalid UTF-8, deep nesting, oversized items and ids, wrong types, malformed
// partition key headers, unknown paths, bad and stale signatures, oversized headers,
// links into another database, a slow-loris connection. Each gets a 4xx with the
// service's error body (code and a message a person can read), the server stays up,
// and a checksum of everything stored is the same before and after.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import net from "node:net";
import tls from "node:tls";
import { startServer } from "./lib/server.mjs";
import { restClient, uniqueId, storeChecksum } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const DB = "bad";
const OTHER = "other";
const COLL = `dbs/${DB}/colls/c`;
const DOCS = `${COLL}/docs`;

describe("bad input changes nothing", { timeout: TIMEOUT }, () => {
  let server;
  let rest;
  let cases = 0;

  before(async () => {
    server = await startServer();
    rest = restClient(server);
    for (const db of [DB, OTHER]) {
      assert.equal((await rest.post("dbs", { body: { id: db } })).status, 201);
      const c = await rest.post(`dbs/${db}/colls`, {
        body: { id: "c", partitionKey: { paths: ["/pk"], kind: "Hash", version: 2 }, uniqueKeyPolicy: { uniqueKeys: [{ paths: ["/email"] }] } },
      });
      assert.equal(c.status, 201);
      for (let i = 0; i < 20; i++) {
        const r = await rest.post(`dbs/${db}/colls/c/docs`, { pk: [`p${i % 4}`], body: { id: `i${i}`, pk: `p${i % 4}`, email: `e${i}@x`, n: i } });
        assert.equal(r.status, 201);
      }
    }
  });

  after(async () => {
    await server?.stop();
  });

  const checksum = () => storeChecksum(rest);

  // One bad request: a 4xx with the service's error shape.
  async function expectRejected(what, method, path, o = {}, { status } = {}) {
    cases++;
    const res = await rest.request(method, path, o);
    assert.ok(res.status >= 400 && res.status < 500, `${what}: status ${res.status} ${res.text.slice(0, 200)}`);
    if (status) assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
    assert.equal(typeof res.body?.code, "string", `${what}: error body ${res.text.slice(0, 200)}`);
    assert.ok(typeof res.body?.message === "string" && res.body.message.length > 10, `${what}: a message`);
    return res;
  }

  test("150+ malformed or hostile requests get a 4xx, the server stays up, nothing changes", async () => {
    const before = await checksum();
    const pk = (v) => ({ "x-ms-documentdb-partitionkey": v });

    // Malformed JSON bodies, on every kind of write.
    const badJson = ["", "{", "}", "{\"id\":", "{\"id\":\"a\",}", "[1,2", "nul", "{'id':'a'}", "{\"id\":\"a\"}{}", "\"just a string\"",
      "{\"id\":\"a\" \"pk\":\"p0\"}", "{\"id\":\"a\",\"pk\":\"p0\",\"n\":01}", "{\"id\":\"a\",\"pk\":\"p0\",\"n\":1e}", "{\"id\":\"a\",\"pk\":\"p0\",\"n\":NaN}",
      "{\"id\":\"a\",\"pk\":\"p0\",\"s\":\"\\x\"}", "{\"id\":\"a\",\"pk\":\"p0\",\"s\":\"\\ud800\"x}", "\u0000", "{\"id\":\"a\",\"pk\":\"p0\"}\u0000garbage"];
    for (const text of badJson) {
      await expectRejected(`create with ${JSON.stringify(text)}`, "POST", DOCS, { rawBody: text, ...{ headers: pk('["p0"]') } });
      await expectRejected(`database create with ${JSON.stringify(text)}`, "POST", "dbs", { rawBody: text });
      await expectRejected(`container create with ${JSON.stringify(text)}`, "POST", `dbs/${DB}/colls`, { rawBody: text });
      await expectRejected(`query with ${JSON.stringify(text)}`, "POST", DOCS, {
        rawBody: text,
        headers: { "content-type": "application/query+json", "x-ms-documentdb-isquery": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
      });
    }
    // Replace, patch and batch bodies.
    for (const text of badJson.slice(0, 8)) {
      await expectRejected(`replace with ${JSON.stringify(text)}`, "PUT", `${DOCS}/i0`, { rawBody: text, headers: pk('["p0"]') });
      await expectRejected(`patch with ${JSON.stringify(text)}`, "PATCH", `${DOCS}/i0`, { rawBody: text, headers: pk('["p0"]') });
      await expectRejected(`batch with ${JSON.stringify(text)}`, "POST", DOCS, { rawBody: text, headers: { ...pk('["p0"]'), "x-ms-cosmos-is-batch-request": "true", "x-ms-cosmos-batch-atomic": "true" } });
    }

    // Invalid UTF-8.
    for (const bytes of [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xf0, 0x28, 0x8c, 0x28], [0xed, 0xa0, 0x80]]) {
      const raw = Buffer.concat([Buffer.from('{"id":"u8","pk":"p0","s":"'), Buffer.from(bytes), Buffer.from('"}')]);
      await expectRejected(`invalid UTF-8 ${bytes}`, "POST", DOCS, { rawBody: raw, headers: pk('["p0"]') });
    }

    // Nesting, size and id limits.
    const deep = '{"id":"deep","pk":"p0","x":' + "[".repeat(100000) + "]".repeat(100000) + "}";
    await expectRejected("JSON nested 100,000 deep", "POST", DOCS, { rawBody: deep, headers: pk('["p0"]') });
    await expectRejected("nested 200 deep", "POST", DOCS, { rawBody: '{"id":"d2","pk":"p0","x":' + "[".repeat(200) + "]".repeat(200) + "}", headers: pk('["p0"]') });
    await expectRejected("a 3 MB item", "POST", DOCS, { body: { id: "big", pk: "p0", pad: "x".repeat(3 * 1024 * 1024) }, headers: pk('["p0"]') }, { status: 413 });
    await expectRejected("a 100 KB id", "POST", DOCS, { body: { id: "i".repeat(100 * 1024), pk: "p0" }, headers: pk('["p0"]') });
    // The service refuses only "/" and "\\" in ids (ru-model.md c; "?" and "#" are allowed).
    for (const id of ["a/b", "a\\b", "", " ".repeat(2000), "é".repeat(600)]) {
      await expectRejected(`id ${JSON.stringify(id.slice(0, 10))}`, "POST", DOCS, { body: { id, pk: "p0" }, headers: pk('["p0"]') });
    }
    // Wrong types for id and the partition key value.
    for (const id of [1, 1.5, null, true, {}, [], ["a"]]) {
      await expectRejected(`id ${JSON.stringify(id)}`, "POST", DOCS, { body: { id, pk: "p0" }, headers: pk('["p0"]') });
    }
    for (const value of [{ a: 1 }, [1], [], { "": null }]) {
      await expectRejected(`partition key value ${JSON.stringify(value)}`, "POST", DOCS, { body: { id: "t", pk: value }, headers: pk(JSON.stringify([value])) });
    }
    await expectRejected("key in the body differs from the header", "POST", DOCS, { body: { id: "t", pk: "p1" }, headers: pk('["p0"]') }, { status: 400 });

    // Malformed partition key headers, on writes, reads and deletes.
    const badHeaders = ["", "[", "]", "p0", '"p0"', '["p0"', "[p0]", '["p0","p1"]', "[{\"a\":1}]", "[[1]]", "{}", "[1,", "[\"\\x\"]", "null", "[nan]", '["' + "x".repeat(3000) + '"]'];
    for (const header of badHeaders) {
      await expectRejected(`create with pk header ${header.slice(0, 20)}`, "POST", DOCS, { body: { id: "h", pk: "p0" }, headers: pk(header) });
      await expectRejected(`read with pk header ${header.slice(0, 20)}`, "GET", `${DOCS}/i0`, { headers: pk(header) });
      await expectRejected(`delete with pk header ${header.slice(0, 20)}`, "DELETE", `${DOCS}/i0`, { headers: pk(header) });
    }
    await expectRejected("write without a partition key header", "POST", DOCS, { body: { id: "h", pk: "p0" } }, { status: 400 });

    // Unknown resource paths and verbs.
    for (const path of ["foo", "dbs/bad/foo", `${COLL}/sprocs/x/y`, `${COLL}/docs/i0/attachments/a/b/c`, "dbs/bad/colls/c/docs/i0/x", "offers/zzz", "_orrery/nothing", "dbs/nope/colls/c/docs"]) {
      await expectRejected(`GET ${path}`, "GET", path, { headers: pk('["p0"]') });
    }
    for (const [method, path] of [["PATCH", "dbs"], ["DELETE", "dbs"], ["PUT", DOCS], ["PATCH", `dbs/${DB}`], ["POST", `${DOCS}/i0`]]) {
      await expectRejected(`${method} ${path}`, method, path, { body: {}, headers: pk('["p0"]') });
    }

    // Signatures: wrong key, wrong verb or path, no date, expired and future dates.
    const wrongKey = crypto.randomBytes(64).toString("base64");
    await expectRejected("signed with another key", "GET", `${DOCS}/i0`, { key: wrongKey, headers: pk('["p0"]') }, { status: 401 });
    await expectRejected("signed for another verb", "DELETE", `${DOCS}/i0`, { signVerb: "GET", headers: pk('["p0"]') }, { status: 401 });
    await expectRejected("no authorization", "GET", "dbs", { auth: false }, { status: 401 });
    await expectRejected("malformed authorization", "GET", "dbs", { authorization: "type=master&ver=1.0" }, { status: 401 });
    await expectRejected("resource token", "GET", "dbs", { authorization: "type%3Dresource%26ver%3D1.0%26sig%3Dabc" }, { status: 401 });
    await expectRejected("no date", "GET", "dbs", { headers: { "x-ms-date": undefined } }, { status: 401 });
    await expectRejected("a date an hour ago", "GET", "dbs", { date: new Date(Date.now() - 3600_000) }, { status: 403 });
    await expectRejected("a date an hour ahead", "GET", "dbs", { date: new Date(Date.now() + 3600_000) }, { status: 403 });
    await expectRejected("a date that is no date", "GET", "dbs", { date: "yesterday" }, { status: 401 });
    // Links into another database: signed for one, sent to the other.
    await expectRejected("signed for bad, sent to other", "DELETE", `dbs/${OTHER}`, { signResourceLink: `dbs/${DB}` }, { status: 401 });
    await expectRejected("signed for bad's item, sent to other's", "DELETE", `dbs/${OTHER}/colls/c/docs/i0`, { signResourceLink: `${DOCS}/i0`, headers: pk('["p0"]') }, { status: 401 });
    await expectRejected("dot segments", "DELETE", ["dbs", DB, "..", OTHER], {});
    await expectRejected("encoded slash in an id", "DELETE", ["dbs", `${DB}/colls/c`], {});
    // Oversized header.
    {
      cases++;
      const res = await rest.request("GET", "dbs", { headers: { "x-big": "y".repeat(200 * 1024) } }).catch((e) => ({ status: 0, error: e }));
      assert.ok(res.status === 0 || (res.status >= 400 && res.status < 500), `oversized header: ${res.status}`);
    }
    // Conditional and unique-key failures change nothing either.
    await expectRejected("replace with a stale etag", "PUT", `${DOCS}/i0`, { body: { id: "i0", pk: "p0", n: -1 }, headers: { ...pk('["p0"]'), "if-match": '"stale"' } }, { status: 412 });
    await expectRejected("a unique key taken", "POST", DOCS, { body: { id: "dup", pk: "p0", email: "e0@x" }, headers: pk('["p0"]') }, { status: 409 });
    await expectRejected("create of an existing id", "POST", DOCS, { body: { id: "i0", pk: "p0" }, headers: pk('["p0"]') }, { status: 409 });
    await expectRejected("a query that does not parse", "POST", DOCS, {
      body: { query: "SELECT * FROM c WHERE" },
      headers: { "content-type": "application/query+json", "x-ms-documentdb-isquery": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
    }, { status: 400 });
    await expectRejected("a patch whose condition fails", "PATCH", `${DOCS}/i0`, { body: { operations: [{ op: "set", path: "/n", value: 9 }], condition: "FROM c WHERE c.n = 12345" }, headers: pk('["p0"]') }, { status: 412 });
    {
      // A failed transactional batch is answered 207 (each operation's status); it too
      // must leave nothing written, which the checksum below checks.
      cases++;
      const res = await rest.request("POST", DOCS, {
        body: [{ operationType: "Create", resourceBody: { id: "nb", pk: "p0" } }, { operationType: "Create", resourceBody: { id: "i0", pk: "p0" } }],
        headers: { ...pk('["p0"]'), "x-ms-cosmos-is-batch-request": "true", "x-ms-cosmos-batch-atomic": "true" },
      });
      assert.equal(res.status, 207);
      assert.deepEqual(res.body.map((r) => r.statusCode), [424, 409]);
    }

    assert.ok(cases >= 150, `${cases} bad requests`);
    assert.equal((await rest.get("dbs")).status, 200, "the server is still up");
    assert.equal(await checksum(), before, "nothing stored changed");
  });

  test("a slow-loris connection does not hold the server up", async () => {
    const url = new URL(server.endpoint);
    const socket = url.protocol === "https:"
      ? tls.connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false })
      : net.connect({ host: url.hostname, port: Number(url.port) });
    await new Promise((resolve, reject) => { socket.once(url.protocol === "https:" ? "secureConnect" : "connect", resolve); socket.once("error", reject); });
    socket.on("error", () => {});
    socket.write("GET /dbs HTTP/1.1\r\nHost: x\r\n");
    const drip = setInterval(() => socket.write("x-slow: 1\r\n"), 200);
    try {
      // Meanwhile other requests are served at once.
      for (let i = 0; i < 5; i++) assert.equal((await rest.get("dbs")).status, 200);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });
});
