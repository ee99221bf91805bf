// Containers — wire-protocol.md §6 (create with defaults, partition key definitions,
// replace, list/query, delete), ru-model.md b.1 (hierarchical keys: up to 3 levels).

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
  requestCharge,
  ridBytes,
  dropDatabase,
} from "./lib/util.mjs";

const TIMEOUT = 120_000;

function assertDefaultIndexingPolicy(ip, what) {
  assert.ok(ip, `${what}: indexingPolicy missing`);
  assert.equal(ip.indexingMode, "consistent", `${what}: indexingMode`);
  assert.equal(ip.automatic, true, `${what}: automatic`);
  assert.ok(Array.isArray(ip.includedPaths), `${what}: includedPaths`);
  assert.deepEqual(ip.includedPaths.map((p) => p.path), ["/*"], `${what}: includedPaths`);
  assert.ok(Array.isArray(ip.excludedPaths), `${what}: excludedPaths`);
  assert.deepEqual(ip.excludedPaths.map((p) => p.path), ['/"_etag"/?'], `${what}: excludedPaths`);
}

describe("containers", { timeout: TIMEOUT }, () => {
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

  async function freshDb(prefix) {
    const id = uniqueId(prefix);
    const { database } = await client.databases.create({ id });
    return database;
  }

  test("create with partitionKey {paths:[/pk]} (no version): 201, kind Hash, defaults and system properties", async () => {
    const db = await freshDb("coll-create");
    try {
      const dbRid = (await db.read()).resource._rid;
      const resp = await db.containers.create({ id: "c1", partitionKey: { paths: ["/pk"] } });
      assert.equal(resp.statusCode, 201);
      const c = resp.resource;
      assertSystemProps(c, "container");
      assert.equal(c.id, "c1");
      assert.equal(ridBytes(c._rid), 8, `container _rid ${c._rid} must decode to 8 bytes (the SDK checks this for session tokens)`);
      assert.equal(c._self, `dbs/${dbRid}/colls/${c._rid}/`);
      assert.equal(c._docs, "docs/");
      assert.equal(c._sprocs, "sprocs/");
      assert.equal(c._triggers, "triggers/");
      assert.equal(c._udfs, "udfs/");
      assert.equal(c._conflicts, "conflicts/");
      assert.deepEqual(c.partitionKey.paths, ["/pk"]);
      assert.equal(c.partitionKey.kind, "Hash");
      assert.ok(
        c.partitionKey.version === undefined || c.partitionKey.version === 1 || c.partitionKey.version === 2,
        `partitionKey.version ${c.partitionKey.version}`,
      );
      assertDefaultIndexingPolicy(c.indexingPolicy, "create response");
      assert.equal(resp.headers.etag, c._etag);
      requestCharge(resp.headers, { what: "create container" });
      // read returns the same definition (the SDK hashes with what it gets back)
      const read = await db.container("c1").read();
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.resource.partitionKey, c.partitionKey);
      assertDefaultIndexingPolicy(read.resource.indexingPolicy, "read response");
      assert.equal(read.resource._rid, c._rid);
      assert.equal(read.resource._etag, c._etag);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("default conflict resolution and geospatial policies are filled in", async () => {
    const db = await freshDb("coll-defaults");
    try {
      const { resource: c } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      assert.deepEqual(
        { mode: c.conflictResolutionPolicy?.mode, path: c.conflictResolutionPolicy?.conflictResolutionPath },
        { mode: "LastWriterWins", path: "/_ts" },
      );
      assert.equal(c.geospatialConfig?.type, "Geography");
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("create with version 2 keeps {kind: Hash, version: 2}", async () => {
    const db = await freshDb("coll-v2");
    try {
      const { resource: c, statusCode } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      assert.equal(statusCode, 201);
      assert.deepEqual(c.partitionKey.paths, ["/pk"]);
      assert.equal(c.partitionKey.kind, "Hash");
      assert.equal(c.partitionKey.version, 2);
      const { resource: r } = await db.container("c").read();
      assert.equal(r.partitionKey.version, 2);
      assert.equal(r.partitionKey.kind, "Hash");
      // string form: the SDK wraps "/pk" into {paths:["/pk"]}
      const s = await db.containers.create({ id: "s", partitionKey: "/pk" });
      assert.equal(s.statusCode, 201);
      assert.deepEqual(s.resource.partitionKey.paths, ["/pk"]);
      assert.equal(s.resource.partitionKey.kind, "Hash");
      // nested path
      const n = await db.containers.create({ id: "n", partitionKey: { paths: ["/a/b"], version: 2 } });
      assert.deepEqual(n.resource.partitionKey.paths, ["/a/b"]);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("MultiHash with 2 and 3 paths", async () => {
    const db = await freshDb("coll-mh");
    try {
      const two = await db.containers.create({ id: "h2", partitionKey: { paths: ["/t", "/u"], kind: "MultiHash", version: 2 } });
      assert.equal(two.statusCode, 201);
      assert.deepEqual(two.resource.partitionKey.paths, ["/t", "/u"]);
      assert.equal(two.resource.partitionKey.kind, "MultiHash");
      assert.equal(two.resource.partitionKey.version, 2);
      const three = await db.containers.create({ id: "h3", partitionKey: { paths: ["/t", "/u", "/s"], kind: "MultiHash", version: 2 } });
      assert.equal(three.statusCode, 201);
      assert.deepEqual(three.resource.partitionKey.paths, ["/t", "/u", "/s"]);
      assert.equal(three.resource.partitionKey.kind, "MultiHash");
      assert.equal(three.resource.partitionKey.version, 2);
      const { resource: r } = await db.container("h3").read();
      assert.deepEqual(r.partitionKey, three.resource.partitionKey);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("invalid partition key definitions -> 400 and nothing is created", async () => {
    const db = await freshDb("coll-bad");
    try {
      const cases = [
        ["four-paths", { paths: ["/a", "/b", "/c", "/d"], kind: "MultiHash", version: 2 }],
        ["hash-two-paths", { paths: ["/a", "/b"], kind: "Hash", version: 2 }],
        ["no-slash", { paths: ["pk"], version: 2 }],
        ["multihash-v1", { paths: ["/a", "/b"], kind: "MultiHash", version: 1 }],
        ["empty-paths", { paths: [], kind: "Hash", version: 2 }],
      ];
      for (const [id, partitionKey] of cases) {
        await expectCosmosError(() => db.containers.create({ id, partitionKey }), { code: 400, what: `partitionKey ${JSON.stringify(partitionKey)}` });
        await expectCosmosError(() => db.container(id).read(), { code: 404, what: `container ${id} must not exist after a 400` });
      }
      const rest = restClient(server);
      assertErrorResponse(await rest.post(["dbs", db.id, "colls"], { body: { id: "x", partitionKey: { paths: ["/a", "/b", "/c", "/d"], kind: "MultiHash", version: 2 } } }), 400, {
        code: "BadRequest",
        what: "REST 4-path MultiHash",
      });
      assertErrorResponse(await rest.post(["dbs", db.id, "colls"], { body: { partitionKey: { paths: ["/pk"] } } }), 400, { what: "container without id" });
      assertErrorResponse(await rest.post(["dbs", db.id, "colls"], { rawBody: '{"id":"x",' }), 400, { what: "malformed JSON" });
      const list = await db.containers.readAll().fetchAll();
      assert.deepEqual(list.resources, []);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("duplicate container id -> 409", async () => {
    const db = await freshDb("coll-dup");
    try {
      const first = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      await expectCosmosError(() => db.containers.create({ id: "c", partitionKey: { paths: ["/other"], version: 2 } }), { code: 409 });
      const { resource } = await db.container("c").read();
      assert.deepEqual(resource.partitionKey.paths, ["/pk"]);
      assert.equal(resource._rid, first.resource._rid);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("defaultTtl and other policies are stored and echoed", async () => {
    const db = await freshDb("coll-ttl");
    try {
      const a = await db.containers.create({ id: "a", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: 3600 });
      assert.equal(a.resource.defaultTtl, 3600);
      assert.equal((await db.container("a").read()).resource.defaultTtl, 3600);
      const b = await db.containers.create({ id: "b", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: -1 });
      assert.equal(b.resource.defaultTtl, -1);
      assert.equal((await db.container("b").read()).resource.defaultTtl, -1);
      const c = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      assert.equal(c.resource.defaultTtl, undefined, "no defaultTtl unless given");

      const indexingPolicy = {
        indexingMode: "consistent",
        automatic: true,
        includedPaths: [{ path: "/name/?" }, { path: "/n/?" }],
        excludedPaths: [{ path: "/*" }, { path: '/"_etag"/?' }],
        compositeIndexes: [
          [
            { path: "/name", order: "ascending" },
            { path: "/n", order: "descending" },
          ],
        ],
      };
      const uniqueKeyPolicy = { uniqueKeys: [{ paths: ["/email"] }] };
      const d = await db.containers.create({ id: "d", partitionKey: { paths: ["/pk"], version: 2 }, indexingPolicy, uniqueKeyPolicy });
      assert.equal(d.statusCode, 201);
      const { resource: rd } = await db.container("d").read();
      assert.deepEqual(rd.indexingPolicy.includedPaths.map((p) => p.path), ["/name/?", "/n/?"]);
      assert.deepEqual(rd.indexingPolicy.excludedPaths.map((p) => p.path).sort(), ["/*", '/"_etag"/?'].sort());
      assert.deepEqual(rd.indexingPolicy.compositeIndexes, indexingPolicy.compositeIndexes);
      assert.deepEqual(rd.uniqueKeyPolicy, uniqueKeyPolicy);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("replace (change defaultTtl) -> 200, new _etag, persisted", async () => {
    const db = await freshDb("coll-replace");
    try {
      const { resource: def } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: 60 });
      const resp = await db.container("c").replace({ ...def, defaultTtl: 7200 });
      assert.equal(resp.statusCode, 200);
      assert.equal(resp.resource.defaultTtl, 7200);
      assert.notEqual(resp.resource._etag, def._etag, "_etag must change on replace");
      assert.equal(resp.resource._rid, def._rid);
      assert.deepEqual(resp.resource.partitionKey, def.partitionKey);
      requestCharge(resp.headers, { what: "replace container" });
      const { resource: read } = await db.container("c").read();
      assert.equal(read.defaultTtl, 7200);
      assert.equal(read._etag, resp.resource._etag);
      // remove defaultTtl again
      const { defaultTtl, ...noTtl } = read;
      void defaultTtl;
      const r2 = await db.container("c").replace(noTtl);
      assert.equal(r2.statusCode, 200);
      assert.equal((await db.container("c").read()).resource.defaultTtl, undefined);
      // replacing a missing container -> 404
      await expectCosmosError(() => db.container("missing").replace({ ...def, id: "missing" }), { code: 404 });
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("replace that changes the partition key -> 400, definition unchanged", async () => {
    const db = await freshDb("coll-pkchange");
    try {
      const { resource: def } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      await expectCosmosError(() => db.container("c").replace({ ...def, partitionKey: { paths: ["/other"], kind: "Hash", version: 2 } }), {
        code: 400,
        what: "change pk path",
      });
      await expectCosmosError(() => db.container("c").replace({ ...def, partitionKey: { paths: ["/a", "/b"], kind: "MultiHash", version: 2 } }), {
        code: 400,
        what: "change pk to MultiHash",
      });
      const { resource } = await db.container("c").read();
      assert.deepEqual(resource.partitionKey, def.partitionKey);
      assert.equal(resource._etag, def._etag);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("list (readAll, REST envelope) and query", async () => {
    const db = await freshDb("coll-list");
    try {
      for (const id of ["a", "b", "c"]) await db.containers.create({ id, partitionKey: { paths: ["/pk"], version: 2 } });
      const all = await db.containers.readAll().fetchAll();
      assert.deepEqual(all.resources.map((c) => c.id).sort(), ["a", "b", "c"]);
      for (const c of all.resources) assertSystemProps(c, `listed container ${c.id}`);

      const dbRid = (await db.read()).resource._rid;
      const res = await restClient(server).get(["dbs", db.id, "colls"]);
      assertStatus(res, 200, "GET colls");
      assert.equal(res.body._rid, dbRid);
      assert.equal(res.body.DocumentCollections.length, 3);
      assert.equal(res.body._count, 3);
      assert.equal(Number(res.headers["x-ms-item-count"]), 3);

      const q = await db.containers.query({ query: "SELECT * FROM c WHERE c.id = @id", parameters: [{ name: "@id", value: "b" }] }).fetchAll();
      assert.deepEqual(q.resources.map((c) => c.id), ["b"]);
      const rq = await restClient(server).query(["dbs", db.id, "colls"], "SELECT * FROM root r WHERE r.id = @id", [{ name: "@id", value: "c" }]);
      assertStatus(rq, 200, "REST container query");
      assert.deepEqual(rq.body.DocumentCollections.map((c) => c.id), ["c"]);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("delete -> 204 removes the items; re-created container is empty", async () => {
    const db = await freshDb("coll-delete");
    try {
      const { container } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      for (let i = 0; i < 5; i++) await container.items.create({ id: `i${i}`, pk: `p${i % 2}` });
      const del = await container.delete();
      assert.equal(del.statusCode, 204);
      await expectCosmosError(() => db.container("c").read(), { code: 404, what: "read deleted container" });
      await expectCosmosError(() => db.container("c").delete(), { code: 404, what: "delete deleted container" });
      const rest = restClient(server);
      assertErrorResponse(await rest.get(["dbs", db.id, "colls", "c", "docs", "i0"], { pk: ["p0"] }), 404, { what: "item of a deleted container" });

      const again = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      assert.equal(again.statusCode, 201);
      const items = await again.container.items.readAll().fetchAll();
      assert.deepEqual(items.resources, []);
      const r = await again.container.item("i0", "p0").read();
      assert.equal(r.statusCode, 404);
      assert.equal(r.resource, undefined);
    } finally {
      await dropDatabase(client, db.id);
    }
  });

  test("container in a missing database -> 404", async () => {
    const missing = client.database(uniqueId("nodb"));
    await expectCosmosError(() => missing.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }), { code: 404, what: "create" });
    await expectCosmosError(() => missing.container("c").read(), { code: 404, what: "read" });
    await expectCosmosError(() => missing.containers.readAll().fetchAll(), { code: 404, what: "list" });
    const res = await restClient(server).get(["dbs", missing.id, "colls", "c", "docs", "x"], { pk: ["p"] });
    assertErrorResponse(res, 404, { what: "item in a missing database" });
  });
});
