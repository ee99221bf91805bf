// Databases — wire-protocol.md §4, §5.

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
} from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("databases", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  before(async () => {
    server = await startServer();
    client = sdkClient(server);
  });
  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  test("create -> 201 with system properties", async () => {
    const id = uniqueId("db-create");
    try {
      const resp = await client.databases.create({ id });
      assert.equal(resp.statusCode, 201);
      const db = resp.resource;
      assertSystemProps(db, "database");
      assert.equal(db.id, id);
      assert.equal(ridBytes(db._rid), 4, `database _rid ${db._rid} must be 4 bytes`);
      assert.equal(db._self, `dbs/${db._rid}/`);
      assert.equal(db._colls, "colls/");
      assert.equal(db._users, "users/");
      assert.equal(resp.headers.etag, db._etag, "etag header equals _etag");
      assertActivityId(resp.headers, "create db");
      requestCharge(resp.headers, { what: "create db" });
      assert.equal(resp.database.id, id);
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("create via REST returns the same shape; bad bodies -> 400", async () => {
    const rest = restClient(server);
    const id = uniqueId("db-rest");
    try {
      const res = await rest.post("dbs", { body: { id } });
      assertStatus(res, 201, "POST /dbs");
      assertSystemProps(res.body, "database");
      assert.equal(res.headers.etag, res.body._etag);
      assert.match(String(res.headers["content-type"]), /application\/json/);

      assertErrorResponse(await rest.post("dbs", { body: {} }), 400, { what: "create db without id" });
      assertErrorResponse(await rest.post("dbs", { body: { id: "a/b" } }), 400, { what: "db id with /" });
      assertErrorResponse(await rest.post("dbs", { rawBody: '{"id": "x' }), 400, { what: "malformed JSON" });
      assertErrorResponse(await rest.post("dbs", { body: { id: 42 } }), 400, { what: "non-string id" });
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("duplicate id -> 409 Conflict", async () => {
    const id = uniqueId("db-dup");
    try {
      const first = await client.databases.create({ id });
      const err = await expectCosmosError(() => client.databases.create({ id }), { code: 409, what: "duplicate db" });
      assert.equal(err.body?.code, "Conflict");
      const res = await restClient(server).post("dbs", { body: { id } });
      assertErrorResponse(res, 409, { code: "Conflict", what: "duplicate db via REST" });
      // the original is untouched
      const read = await client.database(id).read();
      assert.equal(read.resource._rid, first.resource._rid);
      assert.equal(read.resource._etag, first.resource._etag);
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("read -> 200 with the same resource; missing -> 404", async () => {
    const id = uniqueId("db-read");
    try {
      const created = (await client.databases.create({ id })).resource;
      const resp = await client.database(id).read();
      assert.equal(resp.statusCode, 200);
      assert.deepEqual(resp.resource, created);
      assert.equal(resp.headers.etag, created._etag);
      requestCharge(resp.headers, { what: "read db" });
      const err = await expectCosmosError(() => client.database(uniqueId("db-missing")).read(), { code: 404 });
      assert.equal(err.body?.code, "NotFound");
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("list (readAll and REST GET /dbs envelope)", async () => {
    const ids = [uniqueId("db-list"), uniqueId("db-list"), uniqueId("db-list")];
    try {
      for (const id of ids) await client.databases.create({ id });
      const all = await client.databases.readAll().fetchAll();
      const seen = all.resources.map((d) => d.id);
      for (const id of ids) assert.ok(seen.includes(id), `readAll lacks ${id}`);
      for (const d of all.resources) assertSystemProps(d, `listed db ${d.id}`);

      const res = await restClient(server).get("dbs");
      assertStatus(res, 200, "GET /dbs");
      assert.equal(res.body._rid, "");
      assert.ok(Array.isArray(res.body.Databases));
      assert.equal(res.body._count, res.body.Databases.length);
      assert.equal(Number(res.headers["x-ms-item-count"]), res.body.Databases.length);
      for (const id of ids) assert.ok(res.body.Databases.some((d) => d.id === id));
    } finally {
      for (const id of ids) await dropDatabase(client, id);
    }
  });

  test("list pages with x-ms-max-item-count and x-ms-continuation", async () => {
    const ids = Array.from({ length: 5 }, () => uniqueId("db-page"));
    try {
      for (const id of ids) await client.databases.create({ id });
      const rest = restClient(server);
      const { pages, items } = await rest.readFeedAll("dbs", "Databases", { headers: { "x-ms-max-item-count": "2" } });
      for (const p of pages) {
        assert.ok(p.body.Databases.length <= 2, "page larger than x-ms-max-item-count");
        assert.equal(Number(p.headers["x-ms-item-count"]), p.body.Databases.length);
      }
      const got = items.map((d) => d.id);
      assert.equal(new Set(got).size, got.length, "a database was returned twice");
      for (const id of ids) assert.ok(got.includes(id), `paged list lacks ${id}`);
    } finally {
      for (const id of ids) await dropDatabase(client, id);
    }
  });

  test("query SELECT * FROM root r WHERE r.id=@id", async () => {
    const id = uniqueId("db-query");
    const other = uniqueId("db-query");
    try {
      await client.databases.create({ id });
      await client.databases.create({ id: other });
      const q = { query: "SELECT * FROM root r WHERE r.id=@id", parameters: [{ name: "@id", value: id }] };
      const resp = await client.databases.query(q).fetchAll();
      assert.deepEqual(resp.resources.map((d) => d.id), [id]);
      assertSystemProps(resp.resources[0], "queried db");
      const none = await client.databases.query({ query: "SELECT * FROM root r WHERE r.id=@id", parameters: [{ name: "@id", value: uniqueId("nope") }] }).fetchAll();
      assert.deepEqual(none.resources, []);

      const res = await restClient(server).query("dbs", "SELECT * FROM root r WHERE r.id=@id", [{ name: "@id", value: id }]);
      assertStatus(res, 200, "REST db query");
      assert.equal(res.body.Databases.length, 1);
      assert.equal(res.body._count, 1);
      assert.equal(Number(res.headers["x-ms-item-count"]), 1);
    } finally {
      await dropDatabase(client, id);
      await dropDatabase(client, other);
    }
  });

  test("delete -> 204 with empty body, then read -> 404; delete again -> 404", async () => {
    const id = uniqueId("db-del");
    await client.databases.create({ id });
    const resp = await client.database(id).delete();
    assert.equal(resp.statusCode, 204);
    requestCharge(resp.headers, { what: "delete db" });
    await expectCosmosError(() => client.database(id).read(), { code: 404, what: "read deleted db" });
    await expectCosmosError(() => client.database(id).delete(), { code: 404, what: "delete deleted db" });
    const all = await client.databases.readAll().fetchAll();
    assert.ok(!all.resources.some((d) => d.id === id));

    const id2 = uniqueId("db-del-rest");
    await client.databases.create({ id: id2 });
    const res = await restClient(server).delete(["dbs", id2]);
    assertStatus(res, 204, "DELETE /dbs/{id}");
    assert.equal(res.text, "", "204 must have an empty body");
  });

  test("delete cascades: re-created database is empty", async () => {
    const id = uniqueId("db-cascade");
    try {
      const { database } = await client.databases.create({ id });
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      await container.items.create({ id: "a", pk: "p" });
      await database.delete();
      const again = await client.databases.create({ id });
      assert.equal(again.statusCode, 201);
      const cs = await again.database.containers.readAll().fetchAll();
      assert.deepEqual(cs.resources, []);
      await expectCosmosError(() => again.database.container("c").read(), { code: 404 });
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("createIfNotExists: 201 then 200 with the same resource", async () => {
    const id = uniqueId("db-cine");
    try {
      const first = await client.databases.createIfNotExists({ id });
      assert.equal(first.statusCode, 201);
      const second = await client.databases.createIfNotExists({ id });
      assert.equal(second.statusCode, 200);
      assert.equal(second.resource._rid, first.resource._rid);
      assert.equal(second.resource._etag, first.resource._etag);
    } finally {
      await dropDatabase(client, id);
    }
  });

  test("ids with special characters round-trip", async () => {
    const ids = [`${uniqueId("db")} space`, `${uniqueId("db")}+plus`, `${uniqueId("db")}-ü日本`, `${uniqueId("db")};'~`];
    try {
      for (const id of ids) {
        const c = await client.databases.create({ id });
        assert.equal(c.statusCode, 201, id);
        assert.equal(c.resource.id, id);
        const r = await client.database(id).read();
        assert.equal(r.resource.id, id);
      }
    } finally {
      for (const id of ids) await dropDatabase(client, id);
    }
  });
});
