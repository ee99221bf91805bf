// Deep and long input (issue 14): every construct that nests, at 10,000 and 100,000
// levels, sent to the real server by a holder of the read-only key through the SDK
// (queries) and raw REST (bodies, headers). Each gets a 400 with the service's error
// body and a message that names the limit it crossed, the server stays up and serves a
// point read after each one, and nothing stored changes. Long chains of AND, OR and ||
// evaluate: their expected results are computed here from the items.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { startServer } from "./lib/server.mjs";
import { restClient, sdkClient, expectCosmosError, assertErrorResponse, storeChecksum } from "./lib/util.mjs";

const TIMEOUT = 180_000;
const READONLY_KEY = crypto.randomBytes(64).toString("base64");
const DB = "deep";
const COLL = `dbs/${DB}/colls/c`;
const DOCS = `${COLL}/docs`;
const MAX_QUERY_CHARACTERS = 524288;

const NESTING = /nests parentheses, brackets, braces, function calls, subqueries and prefix operators more than 2000 levels deep/;
const DEPTH = /more than 1000 operators, property accesses or function calls deep/;
const TOO_LONG = /exceeded the maximum limit of 524288 characters/;
const JSON_DEPTH = /nesting exceeds 128 levels/;

const repeat = (piece, n) => piece.repeat(n);
const nest = (open, core, close, n) => open.repeat(n) + core + close.repeat(n);

// Every construct of the query language that nests or chains, as a query of n levels.
const CONSTRUCTS = {
  parentheses: (n) => `SELECT * FROM c WHERE ${nest("(", "c.n = 7", ")", n)}`,
  "NOT chain": (n) => `SELECT * FROM c WHERE ${repeat("NOT ", n)}c.b`,
  "unary minus chain": (n) => `SELECT VALUE ${repeat("- ", n)}1`,
  "bitwise not chain": (n) => `SELECT VALUE ${repeat("~", n)}1`,
  "nested function calls": (n) => `SELECT VALUE ${nest("ABS(", "1", ")", n)}`,
  "array literals": (n) => `SELECT VALUE ${nest("[", "1", "]", n)}`,
  "object literals": (n) => `SELECT VALUE ${nest("{a:", "1", "}", n)}`,
  "scalar subqueries": (n) => `SELECT VALUE ${nest("(SELECT VALUE ", "1", ")", n)}`,
  "EXISTS subqueries": (n) => `SELECT VALUE ${nest("EXISTS(SELECT VALUE ", "1", ")", n)}`,
  "ARRAY subqueries": (n) => `SELECT VALUE ${nest("ARRAY(SELECT VALUE ", "1", ")", n)}`,
  "FROM subqueries": (n) => nest("SELECT VALUE x FROM (", "SELECT VALUE 1", ") x", n),
  "IN lists": (n) => `SELECT VALUE ${nest("1 IN (", "1", ")", n)}`,
  indexers: (n) => `SELECT VALUE ${nest("c[", "0", "]", n)} FROM c`,
  ternaries: (n) => `SELECT VALUE ${repeat("true ? 1 : ", n)}2`,
  "property paths": (n) => `SELECT VALUE c${repeat(".a", n)} FROM c`,
  "FROM paths": (n) => `SELECT VALUE 1 FROM c${repeat(".a", n)} x`,
  "+ chain": (n) => `SELECT VALUE 1${repeat("+1", n)}`,
  "* chain": (n) => `SELECT VALUE 1${repeat("*1", n)}`,
  "comparison chain": (n) => `SELECT VALUE 1${repeat("=1", n)}`,
  "JOIN chain": (n) => `SELECT VALUE 1 FROM c${repeat(" JOIN t IN c.t", n)}`,
};

// A JSON text nested n levels deep.
const deepJson = (n) => nest("[", "1", "]", n);
const deepObjectJson = (n) => nest('{"a":', "1", "}", n);

describe("deep and long input gets a 400 and changes nothing", { timeout: TIMEOUT }, () => {
  let server;
  let rest;
  let readonly;
  let container;
  let items;

  before(async () => {
    server = await startServer({ args: ["--readonly-key", READONLY_KEY] });
    rest = restClient(server);
    const client = sdkClient(server);
    const { database } = await client.databases.create({ id: DB });
    await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    items = [];
    for (let i = 0; i < 20; i++) {
      const item = { id: `i${i}`, pk: `p${i % 4}`, n: i, s: `s${i}`, t: [i] };
      if (i % 3 === 0) item.b = true;
      if (i % 3 === 1) item.b = false;
      await database.container("c").items.create(item);
      items.push(item);
    }
    client.dispose();
    readonly = sdkClient(server, { key: READONLY_KEY });
    container = readonly.database(DB).container("c");
  });

  after(async () => {
    readonly?.dispose();
    await server?.stop();
  });

  const checksum = () => storeChecksum(rest);

  async function pointReadStillWorks(what) {
    const { resource, statusCode } = await container.item("i5", "p1").read();
    assert.equal(statusCode, 200, `point read after ${what}`);
    assert.equal(resource.n, 5, `point read after ${what}`);
  }

  async function runQuery(query) {
    return (await container.items.query(query).fetchAll()).resources;
  }

  test("every nesting construct at 10,000 and 100,000 levels: a 400 naming the limit", async () => {
    const before = await checksum();
    for (const [name, make] of Object.entries(CONSTRUCTS)) {
      for (const levels of [10_000, 100_000]) {
        const query = make(levels);
        const what = `${name} x${levels} (${query.length} characters)`;
        const err = await expectCosmosError(() => runQuery(query), { code: 400, what });
        let expected;
        if (query.length > MAX_QUERY_CHARACTERS) expected = TOO_LONG;
        else if (name === "JOIN chain") expected = /maximum of 10 JOINs/;
        else expected = new RegExp(`${NESTING.source}|${DEPTH.source}`);
        assert.match(err.message, expected, what);
        await pointReadStillWorks(what);
      }
    }
    // The same through the REST API: the service's error body, with the errors
    // document (code and location) in its message.
    const res = await rest.query(DOCS, CONSTRUCTS.parentheses(10_000), [], { key: READONLY_KEY });
    assertErrorResponse(res, 400, { code: "BadRequest", what: "10,000 parentheses over REST" });
    // "Message: {"Errors":["<the errors document>"]}\r\nActivityId: ..."
    const message = res.body.message;
    const wrapper = JSON.parse(message.slice("Message: ".length, message.indexOf("\r\nActivityId")));
    const errors = JSON.parse(wrapper.Errors[0]);
    assert.equal(errors.errors[0].code, "SC2000");
    assert.match(errors.errors[0].message, NESTING);
    assert.equal(errors.errors[0].location.start, "SELECT * FROM c WHERE ".length + 2000);
    assert.equal(await checksum(), before);
  });

  test("the issue's query works at 1,000 and 2,000 levels", async () => {
    for (const levels of [1000, 2000]) {
      const rows = await runQuery(`SELECT VALUE c.id FROM c WHERE ${nest("(", "c.n = 7", ")", levels)}`);
      assert.deepEqual(rows, ["i7"], `${levels} parentheses`);
    }
  });

  test("long AND, OR and || chains evaluate; a long + chain gets the 400", async () => {
    // 10,000 ANDs: every n except 100..10,099, and n < 5.
    let andChain = "c.n < 5";
    for (let k = 100; k < 10_100; k++) andChain += ` AND c.n != ${k}`;
    const expectedAnd = items.filter((i) => i.n < 5).map((i) => i.id).sort();
    assert.deepEqual((await runQuery(`SELECT VALUE c.id FROM c WHERE ${andChain}`)).sort(), expectedAnd);

    // 10,000 ORs of which two match.
    const wanted = new Set([3, 17]);
    let orChain = "c.n = 3";
    for (let k = 1000; k < 10_999; k++) orChain += ` OR c.n = ${k}`;
    orChain += " OR c.n = 17";
    const expectedOr = items.filter((i) => wanted.has(i.n)).map((i) => i.id).sort();
    assert.deepEqual((await runQuery(`SELECT VALUE c.id FROM c WHERE ${orChain}`)).sort(), expectedOr);

    // 50,000 ANDs of c.b: only items whose b is true (false and missing fail).
    const bChain = "c.b" + repeat(" AND c.b", 49_999);
    assert.ok(bChain.length < MAX_QUERY_CHARACTERS);
    const expectedB = items.filter((i) => i.b === true).map((i) => i.id).sort();
    assert.deepEqual((await runQuery(`SELECT VALUE c.id FROM c WHERE ${bChain}`)).sort(), expectedB);

    // 10,000 concatenations.
    const concat = await runQuery(`SELECT VALUE 'ab'${repeat(" || 'ab'", 10_000)}`);
    assert.deepEqual(concat, ["ab".repeat(10_001)]);

    // 10,000 additions exceed the expression depth: the 400, and the server goes on.
    const err = await expectCosmosError(() => runQuery(`SELECT VALUE 1${repeat(" + 1", 10_000)}`), { code: 400 });
    assert.match(err.message, DEPTH);
    // 1,000 additions are within it.
    assert.deepEqual(await runQuery(`SELECT VALUE 0${repeat(" + 1", 1000)}`), [1000]);
    await pointReadStillWorks("long chains");
  });

  test("JSON bodies, parameters, patches and continuations nested 10,000 and 100,000 deep: 400", async () => {
    const before = await checksum();
    for (const levels of [10_000, 100_000]) {
      const deep = deepJson(levels);
      const deepObject = deepObjectJson(levels);
      const cases = [
        ["item create", () => rest.post(DOCS, { pk: ["p0"], rawBody: `{"id":"deep","pk":"p0","v":${deep}}` })],
        ["item create (objects)", () => rest.post(DOCS, { pk: ["p0"], rawBody: `{"id":"deep","pk":"p0","v":${deepObject}}` })],
        ["item replace", () => rest.put(`${DOCS}/i0`, { pk: ["p0"], rawBody: `{"id":"i0","pk":"p0","v":${deep}}` })],
        ["upsert", () => rest.post(DOCS, { pk: ["p0"], headers: { "x-ms-documentdb-is-upsert": "true" }, rawBody: `{"id":"i0","pk":"p0","v":${deep}}` })],
        ["patch value", () => rest.request("PATCH", `${DOCS}/i0`, { pk: ["p0"], rawBody: `{"operations":[{"op":"set","path":"/v","value":${deep}}]}` })],
        ["batch", () => rest.post(DOCS, { pk: ["p0"], headers: { "x-ms-cosmos-is-batch-request": "true", "x-ms-cosmos-batch-atomic": "true" }, rawBody: `[{"operationType":"Create","resourceBody":{"id":"deep","pk":"p0","v":${deep}}}]` })],
        ["query parameter", () => rest.request("POST", DOCS, { headers: { "content-type": "application/query+json", "x-ms-documentdb-isquery": "true", "x-ms-documentdb-query-enablecrosspartition": "true" }, rawBody: `{"query":"SELECT * FROM c WHERE c.v = @p","parameters":[{"name":"@p","value":${deep}}]}` })],
        ["container create", () => rest.post(`dbs/${DB}/colls`, { rawBody: `{"id":"deep","partitionKey":{"paths":["/pk"],"kind":"Hash","version":2},"indexingPolicy":${deepObject}}` })],
        ["database create", () => rest.post("dbs", { rawBody: `{"id":"deepdb","x":${deep}}` })],
      ];
      for (const [what, send] of cases) {
        const res = await send();
        assertErrorResponse(res, 400, { what: `${what} x${levels}` });
        assert.match(res.body.message, JSON_DEPTH, `${what} x${levels}: ${res.body.message.slice(0, 200)}`);
      }
      for (const [what, headers] of [
        ["query continuation", { "x-ms-continuation": deep }],
        ["read feed continuation", { "x-ms-continuation": deepObject }],
      ]) {
        const res =
          what === "query continuation"
            ? await rest.query(DOCS, "SELECT * FROM c", [], { headers: { ...headers, "x-ms-max-item-count": "5" } })
            : await rest.get(DOCS, { headers });
        // A header beyond the server's 64 KB of headers is refused before it is read.
        const status = deep.length + 200 > 65536 ? 431 : 400;
        assertErrorResponse(res, status, { what: `${what} x${levels}` });
      }
      // A patch path of `levels` segments.
      const path = "/a".repeat(levels);
      const res = await rest.request("PATCH", `${DOCS}/i0`, { pk: ["p0"], body: { operations: [{ op: "set", path, value: 1 }] } });
      assertErrorResponse(res, 400, { what: `patch path of ${levels} segments` });
      await pointReadStillWorks(`deep bodies x${levels}`);
    }
    // A patch that would nest the item deeper than 128 levels: each part is within the
    // limit, the result is not.
    const nested = JSON.parse(deepObjectJson(100));
    const created = await rest.post(DOCS, { pk: ["p3"], body: { id: "nested", pk: "p3", v: nested } });
    assert.equal(created.status, 201, created.text.slice(0, 300));
    const beforePatch = await checksum();
    const res = await rest.request("PATCH", `${DOCS}/nested`, {
      pk: ["p3"],
      body: { operations: [{ op: "set", path: "/v" + "/a".repeat(99), value: JSON.parse(deepJson(60)) }] },
    });
    assertErrorResponse(res, 400, { what: "patch nesting the item past 128 levels" });
    assert.match(res.body.message, JSON_DEPTH);
    assert.equal(await checksum(), beforePatch);
    const del = await rest.delete(`${DOCS}/nested`, { pk: ["p3"] });
    assert.equal(del.status, 204);
    assert.equal(await checksum(), before);
  });
});
