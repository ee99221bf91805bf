// The background TTL purge (issue 16): expired items leave storage, the range index
// and the partition statistics, found through the expiry index, on a disk server that
// restarts between the writes and the expiry (whatever ORRERY_E2E_STORAGE says, since
// the restart is the point). Expiry at 3 s (see ttl.test.mjs). The expiry index is kept
// only while TTL is on, so items written while it was off are purged too once a
// replace turns it on.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId } from "./lib/util.mjs";

const TIMEOUT = 90_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseMetrics(text) {
  const out = {};
  for (const part of String(text).split(";")) {
    const [k, v] = part.split("=");
    out[k] = Number(v);
  }
  return out;
}

describe("TTL purge", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  const dbId = uniqueId("ttlpurge");
  before(async () => {
    server = await startServer({ inMemory: false, args: ["--initial-partitions", "2"] });
  });
  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  test("expired items leave storage, the index and the statistics, across a restart", async () => {
    client = sdkClient(server);
    const { database } = await client.databases.create({ id: dbId });
    const definition = { partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: 3 };
    const { container } = await database.containers.create({ id: "c", ...definition });
    // The same container, never written: what a query costs when the index has nothing.
    await database.containers.create({ id: "control", ...definition });
    const writes = [];
    for (let i = 0; i < 60; i++) writes.push({ id: `gone${i}`, pk: `p${i % 12}`, tag: "gone" });
    for (let i = 0; i < 20; i++) writes.push({ id: `own${i}`, pk: `p${i % 12}`, tag: "gone", ttl: 4 });
    for (let i = 0; i < 20; i++) writes.push({ id: `kept${i}`, pk: `p${i % 12}`, tag: "kept", ttl: -1 });
    await Promise.all(writes.map((w) => container.items.create(w)));
    const written = Date.now();

    // Restart before anything has expired: the index must come back from disk.
    await server.restart();
    client.dispose();
    client = sdkClient(server);
    const rest = restClient(server);
    const c = client.database(dbId).container("c");
    const adminStats = async () => {
      const res = await rest.request("GET", ["_orrery", "dbs", dbId, "colls", "c", "stats"]);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    assert.equal((await adminStats()).itemCount, 100, "nothing purged before the expiry");

    // Expired after 4 s at most; the purge runs once a second.
    await sleep(Math.max(0, written + 4500 - Date.now()));
    let stats;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(500)) {
      stats = await adminStats();
      if (stats.itemCount === 20) break;
    }
    assert.equal(stats.itemCount, 20, "the purge deleted the 80 expired items");
    assert.equal(stats.physicalPartitions.reduce((a, p) => a + p.itemCount, 0), 20);

    assert.equal((await c.item("gone0", "p0").read()).statusCode, 404);
    assert.equal((await c.item("kept0", "p0").read()).statusCode, 200);
    const { headers } = await c.read({ populateQuotaInfo: true });
    assert.match(headers["x-ms-resource-usage"], /documentsCount=20;/);
    const coll = await rest.request("GET", ["dbs", dbId, "colls", "c"], { headers: { "x-ms-documentdb-populatepartitionstatistics": "true" } });
    assert.equal(coll.status, 200);
    assert.equal(coll.body.statistics.reduce((a, s) => a + s.documentCount, 0), 20, "pkranges statistics");

    // An index lookup finds no entry of the purged items: it loads nothing and costs
    // what it costs on the empty control container.
    const run = async (container) => {
      const res = await rest.query(`dbs/${dbId}/colls/${container}/docs`, "SELECT * FROM c WHERE c.tag = 'gone'", [], {
        headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true", "x-ms-max-item-count": "1000" },
      });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      return { rows: res.body.Documents, metrics: parseMetrics(res.headers["x-ms-documentdb-query-metrics"]), charge: Number(res.headers["x-ms-request-charge"]) };
    };
    const purged = await run("c");
    const empty = await run("control");
    assert.equal(purged.rows.length, 0);
    assert.equal(purged.metrics.retrievedDocumentCount, 0);
    assert.equal(purged.charge, empty.charge, "no index entries left to read");
    const { resources: kept } = await c.items.query("SELECT VALUE c.id FROM c WHERE c.tag = 'kept'").fetchAll();
    assert.equal(kept.length, 20);

    // The counts stay after another restart.
    await server.restart();
    client.dispose();
    client = sdkClient(server);
    const after = await restClient(server).request("GET", ["_orrery", "dbs", dbId, "colls", "c", "stats"]);
    assert.equal(after.body.itemCount, 20);
  });

  test("items written while TTL was off are purged once a replace turns it on", async () => {
    const c2 = sdkClient(server);
    try {
      const { database } = await c2.databases.createIfNotExists({ id: dbId });
      const { container } = await database.containers.create({ id: "later", partitionKey: { paths: ["/pk"], version: 2 } });
      const writes = [];
      for (let i = 0; i < 30; i++) writes.push({ id: `old${i}`, pk: `p${i % 5}` });
      for (let i = 0; i < 10; i++) writes.push({ id: `never${i}`, pk: `p${i % 5}`, ttl: -1 });
      await Promise.all(writes.map((w) => container.items.create(w)));
      const stats = async () => {
        const res = await restClient(server).request("GET", ["_orrery", "dbs", dbId, "colls", "later", "stats"]);
        assert.equal(res.status, 200, res.text);
        return res.body.itemCount;
      };
      // Off: nothing expires, whatever the items' own ttl says.
      await sleep(1500);
      assert.equal(await stats(), 40);

      const { resource: definition } = await container.read();
      await container.replace({ ...definition, defaultTtl: 1 });
      // The items were written over a second ago: expired for reads at once, and purged
      // by the background purge (which first lists them in the expiry index).
      assert.equal((await container.item("old0", "p0").read()).statusCode, 404);
      let count;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
        count = await stats();
        if (count === 10) break;
      }
      assert.equal(count, 10, "the 30 items without a ttl of their own were purged");
      assert.equal((await container.item("never0", "p0").read()).statusCode, 200);

      // Off again: what is written now stays, past its own ttl.
      const { resource: withTtl } = await container.read();
      const { defaultTtl, ...withoutTtl } = withTtl;
      assert.equal(defaultTtl, 1);
      await container.replace(withoutTtl);
      await container.items.create({ id: "after", pk: "p0", ttl: 1 });
      await sleep(2500);
      assert.equal((await container.item("after", "p0").read()).statusCode, 200);
      assert.equal(await stats(), 11);
    } finally {
      c2.dispose();
    }
  });
});
