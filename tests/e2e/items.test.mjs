// Items — wire-protocol.md §7 (partition key header, operations, conditional
// requests, errors), §1.2/§1.3 (headers, bodies), §3.1 (ids in links),
// ru-model.md a.2/a.3 (charges) and b.1/b.5 (limits and codes).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import {
  sdkClient,
  restClient,
  uniqueId,
  expectCosmosError,
  assertStatus,
  assertErrorResponse,
  assertSystemProps,
  assertActivityId,
  requestCharge,
  ridBytes,
  dropDatabase,
  oneKbItem,
  sizedItem,
  userContent,
} from "./lib/util.mjs";

const TIMEOUT = 180_000;
const MB2 = 2 * 1024 * 1024;

function near(actual, expected, tolerance, what) {
  assert.ok(
    Math.abs(actual - expected) <= expected * tolerance,
    `${what}: ${actual} RU is not within ±${tolerance * 100}% of ${expected} RU`,
  );
}

describe("items", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  const dbs = [];
  before(async () => {
    server = await startServer();
    client = sdkClient(server);
    rest = restClient(server);
  });
  after(async () => {
    for (const id of dbs) await dropDatabase(client, id);
    client?.dispose();
    await server?.stop();
  });

  /** A fresh database with one container; returns {database, container, def, dbId, path}. */
  async function setup(prefix, partitionKey = { paths: ["/pk"], version: 2 }) {
    const dbId = uniqueId(prefix);
    dbs.push(dbId);
    const { database } = await client.databases.create({ id: dbId });
    const { container, resource: def } = await database.containers.create({ id: "c", partitionKey });
    const docs = ["dbs", dbId, "colls", "c", "docs"];
    return { database, container, def, dbId, docs, doc: (id) => [...docs, id] };
  }

  test("create -> 201 with system properties and headers", async () => {
    const { container, def, database } = await setup("it-create");
    const dbRid = (await database.read()).resource._rid;
    const body = { id: "a1", pk: "p1", n: 1, nested: { x: [1, 2, { y: "z" }] }, s: "text", b: false, nul: null };
    const resp = await container.items.create(body);
    assert.equal(resp.statusCode, 201);
    const doc = resp.resource;
    assertSystemProps(doc, "item");
    assert.equal(doc._attachments, "attachments/");
    assert.equal(ridBytes(doc._rid), 16, `item _rid ${doc._rid} must be 16 bytes`);
    assert.equal(doc._self, `dbs/${dbRid}/colls/${def._rid}/docs/${doc._rid}/`);
    assert.deepEqual(userContent(doc), body, "user content is stored as given");
    assert.equal(resp.headers.etag, doc._etag, "etag header equals _etag");
    requestCharge(resp.headers, { what: "create" });
    assertActivityId(resp.headers, "create");
  });

  test("data-plane headers: session token and content path", async () => {
    const { container, def } = await setup("it-hdrs");
    const resp = await container.items.create({ id: "a", pk: "p" });
    assert.ok(resp.headers["x-ms-session-token"], "x-ms-session-token on item writes");
    assert.match(resp.headers["x-ms-session-token"], /^[^:,]+:[^,]+(,[^:,]+:[^,]+)*$/, "session token format <rangeId>:<version>#<lsn>");
    assert.equal(resp.headers["x-ms-content-path"], def._rid, "x-ms-content-path is the container _rid");
    const read = await container.item("a", "p").read();
    assert.ok(read.headers["x-ms-session-token"], "x-ms-session-token on item reads");
  });

  test("read -> 200 with the stored document", async () => {
    const { container } = await setup("it-read");
    const created = (await container.items.create({ id: "r1", pk: "p", v: 42 })).resource;
    const resp = await container.item("r1", "p").read();
    assert.equal(resp.statusCode, 200);
    assert.deepEqual(resp.resource, created);
    assert.equal(resp.headers.etag, created._etag);
    requestCharge(resp.headers, { what: "read" });
    assertActivityId(resp.headers, "read");
  });

  test("replace -> 200 with a new _etag; missing item -> 404; id mismatch -> 400", async () => {
    const { container, doc } = await setup("it-replace");
    const created = (await container.items.create({ id: "x", pk: "p", v: 1 })).resource;
    const resp = await container.item("x", "p").replace({ id: "x", pk: "p", v: 2, extra: "yes" });
    assert.equal(resp.statusCode, 200);
    assert.equal(resp.resource.v, 2);
    assert.equal(resp.resource.extra, "yes");
    assert.notEqual(resp.resource._etag, created._etag, "_etag must change on replace");
    assert.equal(resp.resource._rid, created._rid, "_rid is stable across replace");
    assert.ok(resp.resource._ts >= created._ts);
    assert.equal(resp.headers.etag, resp.resource._etag);
    const read = await container.item("x", "p").read();
    assert.deepEqual(read.resource, resp.resource);
    await expectCosmosError(() => container.item("nope", "p").replace({ id: "nope", pk: "p" }), { code: 404, what: "replace missing" });
    const res = await rest.put(doc("x"), { pk: ["p"], body: { id: "y", pk: "p" } });
    assertErrorResponse(res, 400, { what: "replace with a body id different from the URL id" });
    assert.equal((await container.item("x", "p").read()).resource._etag, resp.resource._etag);
  });

  test("upsert: insert -> 201, replace -> 200", async () => {
    const { container } = await setup("it-upsert");
    const ins = await container.items.upsert({ id: "u", pk: "p", v: 1 });
    assert.equal(ins.statusCode, 201);
    const rep = await container.items.upsert({ id: "u", pk: "p", v: 2 });
    assert.equal(rep.statusCode, 200);
    assert.equal(rep.resource.v, 2);
    assert.notEqual(rep.resource._etag, ins.resource._etag);
    assert.equal(rep.resource._rid, ins.resource._rid, "_rid is stable across upsert-as-replace");
    requestCharge(rep.headers, { what: "upsert" });
    const read = await container.item("u", "p").read();
    assert.equal(read.resource.v, 2);
  });

  test("delete -> 204 (empty body), then read -> statusCode 404 / resource undefined", async () => {
    const { container, doc } = await setup("it-delete");
    await container.items.create({ id: "d", pk: "p" });
    const del = await container.item("d", "p").delete();
    assert.equal(del.statusCode, 204);
    assert.ok(del.resource === undefined || del.resource === null);
    requestCharge(del.headers, { what: "delete" });
    const read = await container.item("d", "p").read();
    assert.equal(read.statusCode, 404);
    assert.equal(read.resource, undefined);
    await expectCosmosError(() => container.item("d", "p").delete(), { code: 404, what: "delete missing" });

    await container.items.create({ id: "d2", pk: "p" });
    const res = await rest.delete(doc("d2"), { pk: ["p"] });
    assertStatus(res, 204, "REST delete");
    assert.equal(res.text, "", "204 must have an empty body");
    const miss = await rest.get(doc("d2"), { pk: ["p"] });
    assertErrorResponse(miss, 404, { code: "NotFound", what: "REST read deleted" });
  });

  test("id handling: generated by the SDK; REST without id -> 400; '/' or '\\' -> 400; length limits", async () => {
    const { container, docs, doc } = await setup("it-ids");
    const gen = await container.items.create({ pk: "p", v: 1 });
    assert.equal(gen.statusCode, 201);
    assert.match(gen.resource.id, /^[0-9a-f-]{36}$/i);

    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { pk: "p", v: 1 } }), 400, { what: "create without id" });
    await expectCosmosError(() => container.items.create({ pk: "p" }, { disableAutomaticIdGeneration: true }), { code: 400, what: "SDK create without id" });
    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { id: "", pk: "p" } }), 400, { what: "empty id" });
    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { id: 17, pk: "p" } }), 400, { what: "numeric id" });
    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { id: "a/b", pk: "p" } }), 400, { what: "id with /" });
    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { id: "a\\b", pk: "p" } }), 400, { what: "id with \\" });

    const id255 = "i".repeat(255);
    const c255 = await container.items.create({ id: id255, pk: "p" });
    assert.equal(c255.statusCode, 201);
    const r255 = await container.item(id255, "p").read();
    assert.equal(r255.statusCode, 200);
    assert.equal(r255.resource.id, id255);
    assertStatus(await rest.get(doc(id255), { pk: ["p"] }), 200, "REST read 255-char id");

    const long = "L".repeat(1100); // > 1,023 bytes and > 255 characters
    assertErrorResponse(await rest.post(docs, { pk: ["p"], body: { id: long, pk: "p" } }), 400, { what: "id longer than 1023 bytes" });
    const all = await container.items.readAll().fetchAll();
    assert.deepEqual(all.resources.map((d) => d.id).sort(), [gen.resource.id, id255].sort(), "only the valid items were stored");
  });

  test("item > 2 MB -> 413 and nothing stored; a 1.5 MB item is accepted", async () => {
    const { container } = await setup("it-size");
    const big = sizedItem("big", "p", MB2 + 1024);
    const err = await expectCosmosError(() => container.items.create(big), { code: 413, what: "create 2 MB + 1 KB item" });
    assert.equal(err.body?.code, "RequestEntityTooLarge");
    assert.equal((await container.item("big", "p").read()).statusCode, 404);
    await expectCosmosError(() => container.items.upsert(big), { code: 413, what: "upsert 2 MB + 1 KB item" });
    assert.equal((await container.item("big", "p").read()).statusCode, 404);

    const ok = sizedItem("ok", "p", 1.5 * 1024 * 1024);
    const c = await container.items.create(ok);
    assert.equal(c.statusCode, 201);
    await expectCosmosError(() => container.item("ok", "p").replace({ ...big, id: "ok" }), { code: 413, what: "replace with > 2 MB" });
    const r = await container.item("ok", "p").read();
    assert.equal(r.statusCode, 200);
    assert.equal(r.resource.blob.length, ok.blob.length);
    assert.equal(r.resource._etag, c.resource._etag, "a rejected replace must not change the item");
  });

  test("same id twice in one logical partition -> 409; under another key both exist", async () => {
    const { container, docs } = await setup("it-conflict");
    const a = await container.items.create({ id: "same", pk: "A", v: "a" });
    const err = await expectCosmosError(() => container.items.create({ id: "same", pk: "A", v: "again" }), { code: 409, what: "duplicate id" });
    assert.equal(err.body?.code, "Conflict");
    requestCharge(err.headers, { what: "409 response" });
    assertErrorResponse(await rest.post(docs, { pk: ["A"], body: { id: "same", pk: "A" } }), 409, { code: "Conflict", what: "REST duplicate" });
    const b = await container.items.create({ id: "same", pk: "B", v: "b" });
    assert.equal(b.statusCode, 201);
    assert.notEqual(b.resource._rid, a.resource._rid);
    assert.equal((await container.item("same", "A").read()).resource.v, "a");
    assert.equal((await container.item("same", "B").read()).resource.v, "b");
    const q = await container.items.query({ query: "SELECT * FROM c WHERE c.id = @id", parameters: [{ name: "@id", value: "same" }] }).fetchAll();
    assert.deepEqual(q.resources.map((d) => d.v).sort(), ["a", "b"]);
    // deleting one leaves the other
    await container.item("same", "A").delete();
    assert.equal((await container.item("same", "A").read()).statusCode, 404);
    assert.equal((await container.item("same", "B").read()).statusCode, 200);
  });

  test("partition key header: mismatch -> 400/1001, missing -> 400, wrong component count -> 400/1001", async () => {
    const { container, docs, doc } = await setup("it-pkhdr");
    assertErrorResponse(await rest.post(docs, { pk: ["a"], body: { id: "m", pk: "b" } }), 400, { substatus: 1001, what: "create: header differs from body" });
    assertErrorResponse(await rest.post(docs, { pk: [1], body: { id: "m", pk: "1" } }), 400, { substatus: 1001, what: "create: number vs string" });
    assertErrorResponse(await rest.post(docs, { pk: [null], body: { id: "m" } }), 400, { substatus: 1001, what: "create: null vs none" });
    assertErrorResponse(await rest.post(docs, { body: { id: "m", pk: "b" } }), 400, { substatus: 1001, what: "create without pk header" });
    assertErrorResponse(await rest.post(docs, { pk: ["b", "c"], body: { id: "m", pk: "b" } }), 400, { substatus: 1001, what: "create with 2 components for 1 path" });
    assertErrorResponse(await rest.post(docs, { headers: { "x-ms-documentdb-partitionkey": "not json" }, body: { id: "m", pk: "b" } }), 400, { what: "unparsable pk header" });
    assert.equal((await container.item("m", "b").read()).statusCode, 404, "nothing stored");
    assert.equal((await container.item("m", "a").read()).statusCode, 404, "nothing stored");

    await container.items.create({ id: "x", pk: "b" });
    // SDK: replace through an item handle whose key differs from the body's
    await expectCosmosError(() => container.item("x", "b").replace({ id: "x", pk: "other" }), { code: 400, substatus: 1001, what: "replace with mismatched pk" });
    assertErrorResponse(await rest.put(doc("x"), { body: { id: "x", pk: "b" } }), 400, { what: "replace without pk header" });
    assertErrorResponse(await rest.post(docs, { pk: ["zz"], headers: { "x-ms-documentdb-is-upsert": "true" }, body: { id: "x", pk: "b" } }), 400, {
      substatus: 1001,
      what: "upsert: header differs from body",
    });
    assert.equal((await container.item("x", "b").read()).resource.pk, "b");
  });

  test("If-Match with a stale etag on replace/upsert/delete -> 412, item unchanged; current etag succeeds", async () => {
    const { container, doc, docs } = await setup("it-ifmatch");
    const v1 = (await container.items.create({ id: "e", pk: "p", v: 1 })).resource;
    const v2 = (await container.item("e", "p").replace({ id: "e", pk: "p", v: 2 })).resource;
    const stale = { accessCondition: { type: "IfMatch", condition: v1._etag } };
    let err = await expectCosmosError(() => container.item("e", "p").replace({ id: "e", pk: "p", v: 3 }, stale), { code: 412, what: "replace stale" });
    assert.equal(err.body?.code, "PreconditionFailed");
    await expectCosmosError(() => container.items.upsert({ id: "e", pk: "p", v: 3 }, stale), { code: 412, what: "upsert stale" });
    await expectCosmosError(() => container.item("e", "p").delete(stale), { code: 412, what: "delete stale" });
    const still = await container.item("e", "p").read();
    assert.deepEqual(still.resource, v2, "item unchanged after 412s");

    assertErrorResponse(await rest.put(doc("e"), { pk: ["p"], headers: { "if-match": v1._etag }, body: { id: "e", pk: "p", v: 9 } }), 412, {
      code: "PreconditionFailed",
      what: "REST replace stale",
    });
    assertErrorResponse(await rest.delete(doc("e"), { pk: ["p"], headers: { "if-match": v1._etag } }), 412, { what: "REST delete stale" });
    assertErrorResponse(await rest.post(docs, { pk: ["p"], headers: { "if-match": v1._etag, "x-ms-documentdb-is-upsert": "true" }, body: { id: "e", pk: "p", v: 9 } }), 412, {
      what: "REST upsert stale",
    });
    assert.deepEqual((await container.item("e", "p").read()).resource, v2);

    const cur = { accessCondition: { type: "IfMatch", condition: v2._etag } };
    const v3 = await container.item("e", "p").replace({ id: "e", pk: "p", v: 3 }, cur);
    assert.equal(v3.statusCode, 200);
    const v4 = await container.items.upsert({ id: "e", pk: "p", v: 4 }, { accessCondition: { type: "IfMatch", condition: v3.resource._etag } });
    assert.equal(v4.statusCode, 200);
    err = await expectCosmosError(() => container.item("e", "p").delete({ accessCondition: { type: "IfMatch", condition: v3.resource._etag } }), { code: 412 });
    const del = await container.item("e", "p").delete({ accessCondition: { type: "IfMatch", condition: v4.resource._etag } });
    assert.equal(del.statusCode, 204);
  });

  test("If-None-Match with the current etag on read -> 304 (empty body); stale etag -> 200", async () => {
    const { container, doc } = await setup("it-ifnone");
    const v1 = (await container.items.create({ id: "n", pk: "p", v: 1 })).resource;
    const r304 = await container.item("n", "p").read({ accessCondition: { type: "IfNoneMatch", condition: v1._etag } });
    assert.equal(r304.statusCode, 304);
    assert.ok(r304.resource === null || r304.resource === undefined);
    const res = await rest.get(doc("n"), { pk: ["p"], headers: { "if-none-match": v1._etag } });
    assertStatus(res, 304, "REST read If-None-Match current");
    assert.equal(res.text, "", "304 must have an empty body");

    const v2 = (await container.item("n", "p").replace({ id: "n", pk: "p", v: 2 })).resource;
    const r200 = await container.item("n", "p").read({ accessCondition: { type: "IfNoneMatch", condition: v1._etag } });
    assert.equal(r200.statusCode, 200);
    assert.deepEqual(r200.resource, v2);
    assertStatus(await rest.get(doc("n"), { pk: ["p"], headers: { "if-none-match": v1._etag } }), 200, "REST read If-None-Match stale");
  });

  test("malformed JSON body -> 400 and nothing stored", async () => {
    const { container, docs, doc } = await setup("it-badjson");
    const bodies = ['{"id":"m1","pk":"a",', '{"id":"m1","pk":"a"} trailing', "not json", '["id","m1"]', '"m1"', ""];
    for (const rawBody of bodies) {
      const res = await rest.post(docs, { pk: ["a"], rawBody });
      assertErrorResponse(res, 400, { what: `create with body ${JSON.stringify(rawBody)}` });
    }
    await container.items.create({ id: "ok", pk: "a", v: 1 });
    assertErrorResponse(await rest.put(doc("ok"), { pk: ["a"], rawBody: '{"id":"ok","pk":"a",' }), 400, { what: "replace with malformed JSON" });
    assert.equal((await container.item("m1", "a").read()).statusCode, 404);
    assert.equal((await container.item("ok", "a").read()).resource.v, 1);
    const all = await container.items.readAll().fetchAll();
    assert.deepEqual(all.resources.map((d) => d.id), ["ok"]);
  });

  test("partition key value types: string, number, boolean, null, none are distinct", async () => {
    const { container, doc, docs } = await setup("it-pktypes");
    const items = [
      { id: "s", pk: "str" },
      { id: "e", pk: "" },
      { id: "n", pk: 42 },
      { id: "f", pk: 0.5 },
      { id: "neg", pk: -7 },
      { id: "t", pk: true },
      { id: "fa", pk: false },
      { id: "nl", pk: null },
      { id: "m" }, // none
    ];
    for (const it of items) {
      const c = await container.items.create({ ...it, v: it.id });
      assert.equal(c.statusCode, 201, `create ${JSON.stringify(it)}`);
    }
    for (const it of items.filter((i) => "pk" in i)) {
      const r = await container.item(it.id, it.pk).read();
      assert.equal(r.statusCode, 200, `SDK read ${JSON.stringify(it)}`);
      assert.equal(r.resource.v, it.id);
      assertStatus(await rest.get(doc(it.id), { pk: [it.pk] }), 200, `REST read ${JSON.stringify(it)}`);
    }
    // none: SDK item(id, undefined) sends [{}]
    const none = await container.item("m", undefined).read();
    assert.equal(none.statusCode, 200, "SDK read with the none key");
    assert.equal(none.resource.v, "m");
    const rn = await rest.get(doc("m"), { pk: [{}] });
    assertStatus(rn, 200, "REST read with [{}]");
    // none and null are different logical partitions
    assertErrorResponse(await rest.get(doc("m"), { pk: [null] }), 404, { what: "none item read with null" });
    assertErrorResponse(await rest.get(doc("nl"), { pk: [{}] }), 404, { what: "null item read with none" });
    // string "42" vs number 42, "true" vs true
    assertErrorResponse(await rest.get(doc("n"), { pk: ["42"] }), 404, { what: "number item read with a string" });
    assertErrorResponse(await rest.get(doc("t"), { pk: ["true"] }), 404, { what: "boolean item read with a string" });
    // the same id can exist under each type
    for (const pk of ["1", 1, true, null]) {
      const c = await container.items.create({ id: "dup", pk, t: typeof pk });
      assert.equal(c.statusCode, 201, `id "dup" under ${JSON.stringify(pk)}`);
    }
    const cn = await container.items.create({ id: "dup", t: "none" });
    assert.equal(cn.statusCode, 201, 'id "dup" under none');
    assert.equal((await container.item("dup", 1).read()).resource.t, "number");
    assert.equal((await container.item("dup", "1").read()).resource.t, "string");
    assert.equal((await container.item("dup", null).read()).resource.t, "object");
    assert.equal((await container.item("dup", undefined).read()).resource.t, "none");
    // create via REST with the none header
    assertStatus(await rest.post(docs, { pk: [{}], body: { id: "rn", other: 1 } }), 201, "REST create with [{}]");
    assert.equal((await container.item("rn", undefined).read()).statusCode, 200);
    // partition-key-scoped queries see each type separately
    const q = await container.items.query("SELECT * FROM c", { partitionKey: 1 }).fetchAll();
    assert.deepEqual(q.resources.map((d) => d.id), ["dup"]);
  });

  test("hierarchical keys [t,u] and [t,u,s]", async () => {
    const two = await setup("it-hpk2", { paths: ["/t", "/u"], kind: "MultiHash", version: 2 });
    const c2 = two.container;
    await c2.items.create({ id: "a", t: "t1", u: "u1", v: 1 });
    await c2.items.create({ id: "a", t: "t1", u: "u2", v: 2 });
    await c2.items.create({ id: "a", t: "t2", u: "u1", v: 3 });
    assert.equal((await c2.item("a", ["t1", "u1"]).read()).resource.v, 1);
    assert.equal((await c2.item("a", ["t1", "u2"]).read()).resource.v, 2);
    assert.equal((await c2.item("a", ["t2", "u1"]).read()).resource.v, 3);
    await expectCosmosError(() => c2.items.create({ id: "a", t: "t1", u: "u1" }), { code: 409, what: "duplicate full key" });
    assertStatus(await rest.get(two.doc("a"), { pk: ["t1", "u2"] }), 200, "REST read [t1,u2]");
    assertErrorResponse(await rest.get(two.doc("a"), { pk: ["t1"] }), 400, { substatus: 1001, what: "point read with a prefix key" });
    assertErrorResponse(await rest.post(two.docs, { pk: ["t1", "zz"], body: { id: "b", t: "t1", u: "u1" } }), 400, { substatus: 1001, what: "second component mismatch" });
    const rep = await c2.item("a", ["t1", "u1"]).replace({ id: "a", t: "t1", u: "u1", v: 10 });
    assert.equal(rep.statusCode, 200);
    assert.equal((await c2.item("a", ["t1", "u2"]).delete()).statusCode, 204);
    assert.equal((await c2.item("a", ["t1", "u2"]).read()).statusCode, 404);
    assert.equal((await c2.item("a", ["t1", "u1"]).read()).resource.v, 10);

    const three = await setup("it-hpk3", { paths: ["/t", "/u", "/s"], kind: "MultiHash", version: 2 });
    const c3 = three.container;
    await c3.items.create({ id: "x", t: "t1", u: "u1", s: "s1", v: 1 });
    await c3.items.create({ id: "x", t: "t1", u: "u1", s: 7, v: 2 });
    await c3.items.create({ id: "x", t: "t1", u: "u1", v: 3 }); // s missing -> none
    await c3.items.create({ id: "x", t: "t1", u: "u1", s: null, v: 4 });
    assert.equal((await c3.item("x", ["t1", "u1", "s1"]).read()).resource.v, 1);
    assert.equal((await c3.item("x", ["t1", "u1", 7]).read()).resource.v, 2);
    assert.equal((await c3.item("x", ["t1", "u1", undefined]).read()).resource.v, 3);
    assert.equal((await c3.item("x", ["t1", "u1", null]).read()).resource.v, 4);
    const rn = await rest.get(three.doc("x"), { pk: ["t1", "u1", {}] });
    assertStatus(rn, 200, 'REST read ["t1","u1",{}]');
    assert.equal(rn.body.v, 3);
    assertErrorResponse(await rest.get(three.doc("x"), { pk: ["t1", "u1"] }), 400, { substatus: 1001, what: "2 components for 3 paths" });
    const q = await c3.items.query("SELECT * FROM c", { partitionKey: ["t1", "u1", "s1"] }).fetchAll();
    assert.deepEqual(q.resources.map((d) => d.v), [1]);
  });

  test("ids with space, +, ;, ', ~, %, ?, non-ASCII round-trip through create/read/replace/delete", async () => {
    const { container, doc } = await setup("it-idchars");
    // The SDK leaves '?' unencoded in the URL (encodeURI): "docs/a?b" is the item "a?b".
    const ids = ["a b", "a+b", "a;b", "a'b", "a~b", "ü日本", "100%", "a%20b", "mix ü+;~' x", "=&,$@:!*()", "a?b", "?x", "q?x=1&y=2", "a?b%20c"];
    for (const id of ids) {
      const c = await container.items.create({ id, pk: "p", v: 1 });
      assert.equal(c.statusCode, 201, `create ${JSON.stringify(id)}`);
      assert.equal(c.resource.id, id);
    }
    for (const id of ids) {
      const r = await container.item(id, "p").read();
      assert.equal(r.statusCode, 200, `SDK read ${JSON.stringify(id)}`);
      assert.equal(r.resource.id, id);
      const rr = await rest.get(doc(id), { pk: ["p"] });
      assertStatus(rr, 200, `REST read ${JSON.stringify(id)}`);
      assert.equal(rr.body.id, id);
      const rep = await container.item(id, "p").replace({ id, pk: "p", v: 2 });
      assert.equal(rep.statusCode, 200, `replace ${JSON.stringify(id)}`);
    }
    // "a%20b" and "a b" are different ids
    assert.notEqual((await container.item("a%20b", "p").read()).resource._rid, (await container.item("a b", "p").read()).resource._rid);
    const all = await container.items.readAll().fetchAll();
    assert.deepEqual(all.resources.map((d) => d.id).sort(), [...ids].sort());
    for (const id of ids) {
      const d = await container.item(id, "p").delete();
      assert.equal(d.statusCode, 204, `delete ${JSON.stringify(id)}`);
    }
    assert.deepEqual((await container.items.readAll().fetchAll()).resources, []);
    // non-ASCII partition key values too
    await container.items.create({ id: "k", pk: "ü日本" });
    assert.equal((await container.item("k", "ü日本").read()).statusCode, 200);
    assertStatus(await rest.get(doc("k"), { pk: ["ü日本"] }), 200, "REST read with an escaped non-ASCII pk header");
  });

  test("read feed (REST GET .../docs) pages with x-ms-max-item-count 2 and returns every item exactly once", async () => {
    const { container, def, docs } = await setup("it-feed");
    const ids = [];
    for (let i = 0; i < 11; i++) {
      const id = `f${i}`;
      ids.push(id);
      await container.items.create({ id, pk: `p${i % 4}`, i });
    }
    const { pages, items } = await rest.readFeedAll(docs, "Documents", { headers: { "x-ms-max-item-count": "2" } });
    assert.ok(pages.length >= 6, `expected >= 6 pages of <= 2 items, got ${pages.length}`);
    for (const [n, p] of pages.entries()) {
      assert.ok(p.body.Documents.length <= 2, `page ${n} has ${p.body.Documents.length} items`);
      assert.equal(Number(p.headers["x-ms-item-count"]), p.body.Documents.length, `page ${n} x-ms-item-count`);
      assert.equal(p.body._count, p.body.Documents.length, `page ${n} _count`);
      assert.equal(p.body._rid, def._rid, `page ${n} envelope _rid`);
      requestCharge(p.headers, { what: `feed page ${n}` });
    }
    assert.equal(pages.at(-1).headers["x-ms-continuation"], undefined, "last page has no continuation");
    const got = items.map((d) => d.id);
    assert.equal(new Set(got).size, got.length, `an item was returned twice: ${got}`);
    assert.deepEqual([...got].sort(), [...ids].sort());
    for (const d of items) assertSystemProps(d, `feed item ${d.id}`);

    // SDK readAll with maxItemCount pages too
    const it = container.items.readAll({ maxItemCount: 3 });
    const seen = [];
    while (it.hasMoreResults()) {
      const page = await it.fetchNext();
      assert.ok(page.resources.length <= 3);
      seen.push(...page.resources.map((d) => d.id));
    }
    assert.deepEqual(seen.sort(), [...ids].sort());
  });

  test("every response carries x-ms-request-charge and x-ms-activity-id", async () => {
    const { container, docs } = await setup("it-charge-hdr");
    const ok = [];
    ok.push(["create", await container.items.create({ id: "h", pk: "p", v: 1 })]);
    ok.push(["read", await container.item("h", "p").read()]);
    ok.push(["replace", await container.item("h", "p").replace({ id: "h", pk: "p", v: 2 })]);
    ok.push(["upsert-insert", await container.items.upsert({ id: "h2", pk: "p" })]);
    ok.push(["upsert-replace", await container.items.upsert({ id: "h2", pk: "p", v: 3 })]);
    ok.push(["delete", await container.item("h2", "p").delete()]);
    for (const [what, r] of ok) {
      requestCharge(r.headers, { what });
      assertActivityId(r.headers, what);
    }
    // SDK query responses aggregate headers (only the charge survives): check the charge
    // there and the raw headers through REST
    const q = await container.items.query("SELECT * FROM c", { partitionKey: "p" }).fetchAll();
    assert.ok(q.requestCharge > 0, `query charge ${q.requestCharge}`);
    const rq = await rest.query(docs, "SELECT * FROM c", [], { pk: ["p"] });
    assertStatus(rq, 200, "REST query");
    requestCharge(rq.headers, { what: "REST query" });
    assertActivityId(rq.headers, "REST query");
    const rf = await rest.get(docs, { pk: ["p"] });
    assertStatus(rf, 200, "REST read feed");
    requestCharge(rf.headers, { what: "REST read feed" });
    assertActivityId(rf.headers, "REST read feed");
    const notFound = await container.item("nope", "p").read();
    assert.equal(notFound.statusCode, 404);
    requestCharge(notFound.headers, { what: "404 read" });
    assertActivityId(notFound.headers, "404 read");
    const conflict = await expectCosmosError(() => container.items.create({ id: "h", pk: "p" }), { code: 409 });
    requestCharge(conflict.headers, { what: "409 create" });
    assertActivityId(conflict.headers, "409 create");
    assert.ok(conflict.activityId, "ErrorResponse.activityId");
    // activity ids are unique per request
    const ids = ok.map(([, r]) => r.headers["x-ms-activity-id"]);
    assert.equal(new Set(ids).size, ids.length, "activity ids must differ between requests");
  });

  test("charges: 1 KB point read ≈ 1 RU, 1 KB create ≈ 5.71 RU (±10%), deterministic", async () => {
    const { container } = await setup("it-charge");
    const c1 = await container.items.create(oneKbItem("k1", "p"));
    const c2 = await container.items.create(oneKbItem("k2", "p"));
    const create = requestCharge(c1.headers, { what: "1 KB create" });
    near(create, 5.71, 0.1, "1 KB create");
    assert.equal(requestCharge(c2.headers), create, "identical operations on same-shaped items cost the same");
    const r1 = await container.item("k1", "p").read();
    const read = requestCharge(r1.headers, { what: "1 KB point read" });
    near(read, 1, 0.1, "1 KB point read");
    const r2 = await container.item("k1", "p").read();
    assert.equal(requestCharge(r2.headers), read, "the same read costs the same every time");
  });

  test("charges: replace ≈ 2× create, delete ≈ create, 100 KB point read ≈ 10 RU (ru-model a.2/a.3)", async () => {
    const { container } = await setup("it-charge2");
    const c = await container.items.create(oneKbItem("k", "p"));
    const create = requestCharge(c.headers);
    const changed = oneKbItem("k", "p");
    changed.p0 = "z".repeat(changed.p0.length); // same size, one property changed
    const rep = await container.item("k", "p").replace(changed);
    const replace = requestCharge(rep.headers, { what: "1 KB replace" });
    assert.ok(replace / create >= 1.6 && replace / create <= 2.4, `replace/create = ${replace}/${create} should be ≈ 2`);
    const del = await container.item("k", "p").delete();
    const dcharge = requestCharge(del.headers, { what: "1 KB delete" });
    assert.ok(dcharge / create >= 0.85 && dcharge / create <= 1.15, `delete/create = ${dcharge}/${create} should be ≈ 1`);

    await container.items.create(sizedItem("big", "p", 100 * 1024));
    const r = await container.item("big", "p").read();
    near(requestCharge(r.headers, { what: "100 KB point read" }), 10, 0.1, "100 KB point read");
  });
});
