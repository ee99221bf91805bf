// Fidelity gaps found by trying Orrery as a new user would (issue 15): container features
// and resources Orrery lacks are refused by name; the 2 KB partition key limit; session
// tokens; the consistency level; the query limits the account advertises.

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
  dropDatabase,
  storeChecksum,
} from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("fidelity", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let container;
  before(async () => {
    server = await startServer();
    client = sdkClient(server);
    rest = restClient(server);
    dbId = uniqueId("fid");
    const { database } = await client.databases.create({ id: dbId });
    ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }));
    await container.items.create({ id: "a", pk: "p", n: 1 });
  });
  after(async () => {
    await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  test("container features not implemented yet are refused with a 400 naming them; nothing is created", async () => {
    const database = client.database(dbId);
    const pk = { paths: ["/pk"], version: 2 };
    // (Vector and full-text policies are implemented: vector_search.test.mjs.)
    const cases = [
      ["lazy", { indexingPolicy: { indexingMode: "lazy" } }],
    ];
    for (const [feature, extra] of cases) {
      const id = `refused-${feature}`;
      const e = await expectCosmosError(database.containers.create({ id, partitionKey: pk, ...extra }), { code: 400, what: feature });
      assert.match(e.message, new RegExp(feature), `${feature}: the message names the feature`);
      assert.match(e.message, /not supported by Orrery yet/, `${feature}: the message says it is not supported yet`);
      await expectCosmosError(database.container(id).read(), { code: 404, what: `${feature}: not created` });
    }
    // A replace cannot add a vector policy: it is fixed when the container is created.
    const { resource: def } = await container.read();
    // (Computed properties are implemented: computed_properties.test.mjs.)
    const vectors = { vectorEmbeddings: [{ path: "/v", dataType: "float32", distanceFunction: "cosine", dimensions: 3 }] };
    await expectCosmosError(container.replace({ ...def, vectorEmbeddingPolicy: vectors }), { code: 400, what: "replace adding vectorEmbeddingPolicy" });
    assert.equal((await container.read()).resource.vectorEmbeddingPolicy, undefined);
    // Empty lists are what the service itself echoes; they stay accepted.
    const ok = await database.containers.create({ id: "empty-lists", partitionKey: pk, computedProperties: [], indexingPolicy: { spatialIndexes: [], compositeIndexes: [] } });
    assert.equal(ok.statusCode, 201);
  });

  test("resources Orrery lacks say that they are not supported yet, not that they do not exist", async () => {
    const before = await storeChecksum(rest);
    const paths = [
      ["dbs", dbId, "colls", "c", "conflicts"],
      ["dbs", dbId, "users"],
      ["dbs", dbId, "users", "u1"],
      ["dbs", dbId, "users", "u1", "permissions"],
      ["dbs", dbId, "colls", "c", "docs", "a", "attachments"],
    ];
    for (const p of paths) {
      for (const method of ["GET", "POST"]) {
        const res = await rest.request(method, p, method === "POST" ? { body: { id: "x", body: "function () {}" } } : {});
        assertErrorResponse(res, 400, { what: `${method} /${p.join("/")}` });
        assert.match(res.body.message, /not supported by Orrery yet/, `${method} /${p.join("/")}: ${res.body.message}`);
      }
    }
    // (Stored procedures, triggers and UDFs are served: stored_procedures.test.mjs.)
    assert.equal(await storeChecksum(rest), before, "nothing changed");
  });

  test("a V2 partition key value over 2 KB is refused, from the item and from the header", async () => {
    const atLimit = "k".repeat(2048);
    const over = "k".repeat(2049);
    assert.equal((await container.items.create({ id: "lim", pk: atLimit })).statusCode, 201);
    assert.equal((await container.item("lim", atLimit).read()).statusCode, 200);
    const e = await expectCosmosError(container.items.create({ id: "over", pk: over }), { code: 400, what: "create with a 2049-byte key" });
    assert.match(e.message, /2048 bytes/);
    // Multi-byte characters count in UTF-8 bytes: 1,025 two-byte characters are 2,050 bytes.
    await expectCosmosError(container.items.create({ id: "over2", pk: "é".repeat(1025) }), { code: 400, what: "create with a 2050-byte key" });
    await expectCosmosError(container.item("over", over).read(), { code: 400, what: "read with a 2049-byte key header" });
    const ids = (await container.items.query("SELECT VALUE c.id FROM c").fetchAll()).resources.sort();
    assert.deepEqual(ids, ["a", "lim"]);
  });

  test("x-ms-session-token: malformed -> 400; ahead of the container -> 404/1002; the SDK's own tokens round-trip", async () => {
    const doc = ["dbs", dbId, "colls", "c", "docs", "a"];
    const created = await rest.post(["dbs", dbId, "colls", "c", "docs"], { pk: ["b"], body: { id: "b", pk: "b" } });
    assertStatus(created, 201, "create b");
    const token = created.headers["x-ms-session-token"];
    assert.match(token, /^\d+:-1#\d+$/, "a session token of one range");
    const lsn = Number(token.split("#")[1]);
    // The token of the write just made is served, and so is the simple (V1) form.
    assertStatus(await rest.get(doc, { pk: ["p"], headers: { "x-ms-session-token": token } }), 200, "own token");
    assertStatus(await rest.get(doc, { pk: ["p"], headers: { "x-ms-session-token": `0:${lsn}` } }), 200, "simple token");
    for (const bad of ["garbage", "0:", ":-1#5", "0:-1#x", "0:-1#5#r=", "0:-1#5,zz"]) {
      const res = await rest.get(doc, { pk: ["p"], headers: { "x-ms-session-token": bad } });
      assertErrorResponse(res, 400, { what: `token ${JSON.stringify(bad)}` });
      assert.match(res.body.message, /session token/i);
    }
    const ahead = `0:-1#${lsn + 1000}`;
    assertErrorResponse(await rest.get(doc, { pk: ["p"], headers: { "x-ms-session-token": ahead } }), 404, { substatus: 1002, what: "read, token ahead" });
    const query = await rest.query(["dbs", dbId, "colls", "c", "docs"], "SELECT * FROM c", [], { pk: ["p"], headers: { "x-ms-session-token": ahead } });
    assertErrorResponse(query, 404, { substatus: 1002, what: "query, token ahead" });
    // Writes do not wait for a session.
    assertStatus(await rest.post(["dbs", dbId, "colls", "c", "docs"], { pk: ["w"], body: { id: "w", pk: "w" }, headers: { "x-ms-session-token": ahead } }), 201, "write with a token ahead");
    // A client asking for Session consistency sends back the tokens it was given.
    const seen = [];
    const sessionClient = sdkClient(server, {
      options: { consistencyLevel: "Session" },
      plugins: [{ on: "request", plugin: async (ctx, diag, next) => { seen.push(ctx.headers["x-ms-session-token"]); return next(ctx); } }],
    });
    try {
      const traced = sessionClient.database(dbId).container("c");
      await traced.items.create({ id: "s1", pk: "s" });
      assert.equal((await traced.item("s1", "s").read()).statusCode, 200);
      assert.equal((await traced.items.query("SELECT * FROM c", { partitionKey: "s" }).fetchAll()).resources.length, 1);
      assert.ok(seen.some((t) => typeof t === "string" && /#\d+/.test(t)), `the SDK sent a session token (${JSON.stringify(seen)})`);
    } finally {
      sessionClient.dispose();
    }
  });

  test("queries without ORDER BY return items in creation order, whatever the ids; GROUP BY in key order", async () => {
    const database = client.database(dbId);
    const { container: c } = await database.containers.create({ id: "order", partitionKey: { paths: ["/pk"], version: 2 } });
    // Created in this order, which is neither id order nor key order.
    const created = [
      { id: "zulu", pk: "b", kind: "x", n: 5 },
      { id: "alpha", pk: "a", kind: "y", n: 3 },
      { id: "mike", pk: "b", kind: "x", n: 9 },
      { id: "bravo", pk: "c", kind: "x", n: 1 },
      { id: "yankee", pk: "a", kind: "y", n: 7 },
      { id: "charlie", pk: "b", kind: "x", n: 2 },
    ];
    for (const item of created) await c.items.create(item);
    const ids = (list) => list.map((d) => (typeof d === "string" ? d : d.id));
    const inOrder = (filter) => created.filter(filter).map((d) => d.id);
    const all = () => true;
    // One physical partition: the whole container in creation order, also a page at a time.
    assert.deepEqual(ids((await c.items.query("SELECT * FROM c").fetchAll()).resources), inOrder(all));
    const paged = [];
    for (const it = c.items.query("SELECT VALUE c.id FROM c", { maxItemCount: 2 }); it.hasMoreResults(); ) {
      paged.push(...(await it.fetchNext()).resources);
    }
    assert.deepEqual(paged, inOrder(all));
    // One logical partition, an index lookup, and a lookup within one logical partition.
    assert.deepEqual(ids((await c.items.query("SELECT * FROM c", { partitionKey: "b" }).fetchAll()).resources), inOrder((d) => d.pk === "b"));
    assert.deepEqual((await c.items.query("SELECT VALUE c.id FROM c WHERE c.kind = 'x'").fetchAll()).resources, inOrder((d) => d.kind === "x"));
    assert.deepEqual((await c.items.query("SELECT VALUE c.id FROM c WHERE c.n > 2", { partitionKey: "b" }).fetchAll()).resources, inOrder((d) => d.pk === "b" && d.n > 2));
    // A replace keeps an item's place.
    await c.item("zulu", "b").replace({ id: "zulu", pk: "b", kind: "x", n: 6 });
    assert.deepEqual((await c.items.query("SELECT VALUE c.id FROM c").fetchAll()).resources, inOrder(all));
    // GROUP BY: the groups in ascending order of their keys, within one partition.
    const groups = (await c.items.query("SELECT c.kind, COUNT(1) AS n FROM c GROUP BY c.kind", { partitionKey: "a" }).fetchAll()).resources;
    assert.deepEqual(groups, [{ kind: "y", n: 2 }]);
    const byN = (await c.items.query("SELECT VALUE c.n FROM c GROUP BY c.n", { partitionKey: "b" }).fetchAll()).resources;
    assert.deepEqual(byN, [2, 6, 9]);
  });

  test("the account advertises the query limits it enforces", async () => {
    const { resource: account } = await client.getDatabaseAccount();
    const raw = (await rest.get([])).body.queryEngineConfiguration;
    const config = JSON.parse(raw);
    assert.equal(config.maxSqlQueryInputLength, 524288);
    assert.equal(config.maxJoinsPerSqlQuery, 10);
    assert.equal(config.maxInExpressionItemsCount, 16000);
    assert.ok(account, "the SDK reads the account");
    const q = (text) => container.items.query(text, { partitionKey: "p" }).fetchAll();
    // Up to each limit a query runs; one past it is a 400.
    const joins = (n) => "SELECT VALUE 1 FROM c" + Array.from({ length: n }, (_, i) => ` JOIN t${i} IN c.tags`).join("");
    assert.deepEqual((await q(joins(10))).resources, []);
    await expectCosmosError(q(joins(11)), { code: 400, what: "11 JOINs" });
    const inList = (n) => `SELECT VALUE c.id FROM c WHERE c.n IN (${Array.from({ length: n }, (_, i) => i + 1).join(",")})`;
    assert.deepEqual((await q(inList(16000))).resources, ["a"]);
    const e = await expectCosmosError(q(inList(16001)), { code: 400, what: "16,001 IN items" });
    assert.match(e.message, /16000 items/);
    const padded = (n) => {
      const head = "SELECT VALUE c.id FROM c WHERE c.n = 1 ";
      return head + " ".repeat(n - head.length);
    };
    assert.deepEqual((await q(padded(524288))).resources, ["a"]);
    await expectCosmosError(q(padded(524289)), { code: 400, what: "524,289 characters" });
  });
});
