// The vector index (index/vector_terms.h): ORDER BY VectorDistance over a container with
// a vector index reads the stored vectors instead of parsing every item, and stays in
// step with the items through creates, replaces, upserts, patches, deletes, TTL expiry,
// a split and a restart on disk. After each change the ranking is compared with brute
// force over the items the test knows to be there.

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, seededRandom } from "./lib/util.mjs";

const TIMEOUT = 180_000;
const DIMS = 8;

const next = seededRandom(99);
const vector = () => Array.from({ length: DIMS }, () => Math.round((next() * 2 - 1) * 1000) / 1000);
const QUERY = vector();
const euclidean = (a, b) => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0));

function expectedTop(items, k) {
  return [...items.values()]
    .filter((d) => Array.isArray(d.e) && d.e.length === DIMS)
    .map((d) => ({ id: d.id, s: euclidean(d.e, QUERY) }))
    .sort((x, y) => x.s - y.s)
    .slice(0, k);
}

describe("vector index", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  test("kept in step through every kind of write, a split and a restart", async () => {
    server = await startServer({ inMemory: false, args: ["--partition-split-bytes", String(96 * 1024)] });
    client = sdkClient(server);
    const { database } = await client.databases.create({ id: "vi" });
    const { container } = await database.containers.create(
      {
        id: "c",
        partitionKey: { paths: ["/pk"], version: 2 },
        defaultTtl: -1,
        vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "euclidean", dimensions: DIMS }] },
        indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type: "quantizedFlat" }] },
      },
      { offerThroughput: 400 },
    );
    const items = new Map();
    const put = (d) => items.set(d.id, d);
    const text = `SELECT TOP 10 c.id, VectorDistance(c.e, ${JSON.stringify(QUERY)}) AS s FROM c ORDER BY VectorDistance(c.e, ${JSON.stringify(QUERY)})`;
    const check = async (what) => {
      const rows = (await container.items.query(text).fetchAll()).resources;
      const expected = expectedTop(items, 10);
      assert.deepEqual(rows.map((r) => r.id), expected.map((e) => e.id), `${what}: the ranking`);
      for (let i = 0; i < rows.length; i++) assert.ok(Math.abs(rows[i].s - expected[i].s) < 1e-9, `${what}: score ${i}`);
    };
    for (let i = 0; i < 120; i++) {
      const d = { id: `v${i}`, pk: `p${i % 6}`, e: vector(), pad: "x".repeat(200) };
      await container.items.create(d);
      put(d);
    }
    await check("after creates");
    // Replace, upsert and patch move vectors; a delete and an expired item remove them;
    // an item whose vector has the wrong length is not ranked.
    for (let i = 0; i < 10; i++) {
      const d = { ...items.get(`v${i}`), e: vector() };
      await container.item(d.id, d.pk).replace(d);
      put(d);
    }
    for (let i = 10; i < 20; i++) {
      const d = { ...items.get(`v${i}`), e: QUERY.map((x) => x + (i - 10) * 0.001) };
      await container.items.upsert(d);
      put(d);
    }
    const patched = QUERY.map((x) => x + 0.0005);
    await container.item("v30", "p0").patch([{ op: "set", path: "/e", value: patched }]);
    put({ ...items.get("v30"), e: patched });
    for (const id of ["v10", "v11"]) {
      await container.item(id, items.get(id).pk).delete();
      items.delete(id);
    }
    await container.items.create({ id: "short", pk: "p1", e: QUERY.slice(0, 4) });
    const expiring = { id: "expiring", pk: "p2", e: QUERY, ttl: 4 };
    await container.items.create(expiring);
    put(expiring);
    await check("after replaces, upserts, a patch and deletes");
    await new Promise((r) => setTimeout(r, 5200));
    items.delete("expiring");
    await check("after the TTL expiry");

    // More data than --partition-split-bytes: the container splits.
    for (let i = 120; i < 600; i++) {
      const d = { id: `v${i}`, pk: `p${i % 23}`, e: vector(), pad: "x".repeat(200) };
      await container.items.create(d);
      put(d);
    }
    const rest = restClient(server);
    let ranges = 1;
    for (let i = 0; i < 100 && ranges < 2; i++) {
      const res = await rest.request("GET", ["dbs", "vi", "colls", "c", "pkranges"]);
      ranges = res.body.PartitionKeyRanges.filter((r) => !(r.parents ?? []).includes(r.id)).length;
      if (ranges < 2) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(ranges >= 2, "the container split");
    await check("after the split");

    // The index reads stored vectors: far fewer item bytes than a scan of every item.
    const metrics = await rest.query("dbs/vi/colls/c/docs", text, [], {
      headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
    });
    assert.equal(metrics.status, 200, metrics.text);
    const retrieved = Number(/retrievedDocumentCount=(\d+)/.exec(metrics.headers["x-ms-documentdb-query-metrics"])[1]);
    assert.ok(retrieved < 100, `items read through the vector index: ${retrieved} of ${items.size}`);

    await server.restart();
    client.dispose();
    client = sdkClient(server);
    const reopened = client.database("vi").container("c");
    const rows = (await reopened.items.query(text).fetchAll()).resources;
    assert.deepEqual(rows.map((r) => r.id), expectedTop(items, 10).map((e) => e.id), "after a restart");
  });
});
