// Physical partitions that split while the SDK works: a hierarchical container where
// one tenant holds 100x the data of the others splits several times under a small
// --partition-split-bytes while 16 writers and a query loop run. No client sees an
// error; afterwards every item reads back, cross-partition queries return each item
// once (from a client created before the splits and one created after), a tenant
// prefix query counts the tenant and reads only its partitions, the change feed gives
// every item once across the splits, and the statistics show the whale tenant over
// several physical partitions. Also a split for throughput.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, dropDatabase, epkOf } from "./lib/util.mjs";
import { queryRecorder } from "./lib/query_recorder.mjs";

const TIMEOUT = 180_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DEF = { paths: ["/tenantId", "/deviceId"], kind: "MultiHash", version: 2 };

describe("online splits", { timeout: TIMEOUT }, () => {
  let server;
  let early; // a client created before any split
  let rest;
  let dbId;
  const items = [];

  before(async () => {
    server = await startServer({ args: ["--partition-split-bytes", String(48 * 1024)] });
    early = sdkClient(server);
    rest = restClient(server);
    dbId = uniqueId("split");
    const { database } = await early.databases.create({ id: dbId });
    await database.containers.create({ id: "c", partitionKey: DEF });
    // The whale: 2,000 items over 200 devices; ten small tenants of 20 items each.
    for (let i = 0; i < 2000; i++) items.push({ id: `w${i}`, tenantId: "whale", deviceId: `d${i % 200}`, n: i, pad: "x".repeat(300) });
    for (let t = 0; t < 10; t++) {
      for (let i = 0; i < 20; i++) items.push({ id: `t${t}-${i}`, tenantId: `t${t}`, deviceId: `d${i % 4}`, n: 10000 + t * 100 + i, pad: "x".repeat(300) });
    }
    // The early client learns the (single) range before the splits.
    const { resources } = await early.database(dbId).container("c").readPartitionKeyRanges().fetchAll();
    assert.equal(resources.length, 1);
  });

  after(async () => {
    if (early && dbId) await dropDatabase(early, dbId);
    early?.dispose();
    await server?.stop();
  });

  const stats = async () => {
    const res = await rest.request("GET", ["_orrery", "dbs", dbId, "colls", "c", "stats"]);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test("16 writers and a query loop work on while the container splits", async () => {
    const container = early.database(dbId).container("c");
    let next = 0;
    const errors = [];
    const writer = async () => {
      while (next < items.length) {
        const item = items[next++];
        await container.items.create(item).catch((e) => errors.push(`create ${item.id}: ${e.code} ${e.message}`));
      }
    };
    let writing = true;
    let queries = 0;
    const queryLoop = async () => {
      while (writing) {
        try {
          const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
          assert.ok(resources[0] <= items.length);
          const { resources: ordered } = await container.items.query("SELECT TOP 20 c.id, c.n FROM c ORDER BY c.n DESC").fetchAll();
          assert.ok(ordered.every((r, i) => i === 0 || ordered[i - 1].n >= r.n), "ordered");
          queries++;
        } catch (e) {
          errors.push(`query: ${e.code} ${e.message}`);
        }
      }
    };
    const loop = queryLoop();
    await Promise.all(Array.from({ length: 16 }, writer));
    // Let the splitter catch up while the queries go on.
    let partitions = 0;
    for (let i = 0; i < 100; i++) {
      const now = (await stats()).physicalPartitions.length;
      if (now === partitions && now >= 8) break;
      partitions = now;
      await sleep(500);
    }
    writing = false;
    await loop;
    assert.deepEqual(errors, [], "no client saw an error");
    assert.ok(queries > 0);
    const final = await stats();
    assert.ok(final.physicalPartitions.length >= 8, `${final.physicalPartitions.length} partitions`);
    assert.equal(final.itemCount, items.length);
  });

  test("every item reads back, and queries from old and new clients see each once", async () => {
    const late = sdkClient(server);
    try {
      for (const client of [early, late]) {
        const container = client.database(dbId).container("c");
        const { resources } = await container.items.query("SELECT VALUE c.id FROM c").fetchAll();
        assert.equal(resources.length, items.length);
        assert.equal(new Set(resources).size, items.length, "each item once");
        const { resources: ordered } = await container.items.query("SELECT VALUE c.n FROM c ORDER BY c.n").fetchAll();
        assert.deepEqual(ordered, items.map((i) => i.n).sort((a, b) => a - b));
        const { resources: count } = await container.items.query("SELECT VALUE COUNT(1) FROM c WHERE c.n >= 0").fetchAll();
        assert.equal(count[0], items.length);
      }
      // Bulk and transactional batches from the client that still knows one range.
      const bulk = await early.database(dbId).container("c").items.executeBulkOperations(
        Array.from({ length: 60 }, (_, i) => ({ operationType: "Upsert", partitionKey: ["whale", `d${i}`], resourceBody: { ...items[i], touched: true } })),
      );
      assert.ok(bulk.every((r) => r.response?.statusCode === 200), `bulk: ${JSON.stringify(bulk.map((r) => r.response?.statusCode ?? r.error?.code))}`);
      const batch = await early.database(dbId).container("c").items.batch(
        [{ operationType: "Read", id: "w7" }, { operationType: "Patch", id: "w7", resourceBody: { operations: [{ op: "set", path: "/b", value: 1 }] } }],
        ["whale", "d7"],
      );
      assert.deepEqual(batch.result.map((r) => r.statusCode), [200, 200]);
      const container = late.database(dbId).container("c");
      for (let i = 0; i < items.length; i += 64) {
        const reads = await Promise.all(items.slice(i, i + 64).map((it) => container.item(it.id, [it.tenantId, it.deviceId]).read()));
        for (const r of reads) assert.equal(r.statusCode, 200);
      }
    } finally {
      late.dispose();
    }
  });

  test("a tenant-prefix query counts the tenant and reads only its partitions", async () => {
    const recorder = queryRecorder();
    const client = sdkClient(server, { plugins: [recorder.plugin] });
    try {
      const container = client.database(dbId).container("c");
      const { resources } = await container.items.query("SELECT VALUE c.id FROM c WHERE c.tenantId = 'whale'", { forceQueryPlan: true }).fetchAll();
      assert.equal(resources.length, 2000);
      const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
      const prefix = epkOf(["whale"], DEF);
      const overlapping = ranges.filter((r) => r.minInclusive < prefix + "FF" && (r.maxExclusive === "FF" || prefix < r.maxExclusive));
      assert.ok(overlapping.length >= 2, "the whale spans several partitions");
      assert.ok(overlapping.length < ranges.length, "but not all of them");
      const queried = new Set(recorder.log.filter((r) => !r.plan).map((r) => String(r.rangeId)));
      assert.deepEqual([...queried].sort(), overlapping.map((r) => r.id).sort());
      // The ranges form a gap-free cover, and the children list their parents.
      const sorted = [...ranges].sort((a, b) => (a.minInclusive < b.minInclusive ? -1 : 1));
      assert.equal(sorted[0].minInclusive, "");
      assert.equal(sorted.at(-1).maxExclusive, "FF");
      for (let i = 1; i < sorted.length; i++) assert.equal(sorted[i].minInclusive, sorted[i - 1].maxExclusive);
      assert.ok(ranges.every((r) => r.parents.length >= 1));
      // Incremental reads return only the ranges created since the etag sent.
      const full = await rest.request("GET", ["dbs", dbId, "colls", "c", "pkranges"]);
      const etag = full.headers.etag;
      const none = await rest.request("GET", ["dbs", dbId, "colls", "c", "pkranges"], { headers: { "a-im": "Incremental feed", "if-none-match": etag } });
      assert.equal(none.status, 304);
      const since = await rest.request("GET", ["dbs", dbId, "colls", "c", "pkranges"], { headers: { "a-im": "Incremental feed", "if-none-match": '"1"' } });
      assert.equal(since.status, 200);
      assert.equal(since.body.PartitionKeyRanges.length, ranges.length, "every live range came from a split of range 0");
    } finally {
      client.dispose();
    }
  });

  test("the statistics show the whale over several physical partitions", async () => {
    const s = await stats();
    const holding = s.physicalPartitions.filter((p) => p.largestLogicalPartitions.some((l) => l.partitionKey[0] === "whale"));
    assert.ok(holding.length >= 4, `whale devices in ${holding.length} partitions`);
    assert.equal(s.logicalPartitions, 200 + 10 * 4);
  });

  test("the early client's change feed gives every item once across the splits", async () => {
    const container = early.database(dbId).container("c");
    const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: (await import("@azure/cosmos")).ChangeFeedStartFrom.Beginning() });
    const seen = new Map();
    for (let i = 0; i < 500 && seen.size < items.length; i++) {
      const page = await iterator.readNext();
      for (const doc of page.result ?? []) seen.set(doc.id, (seen.get(doc.id) ?? 0) + 1);
    }
    assert.equal(seen.size, items.length);
    assert.ok([...seen.values()].every((n) => n === 1), "each once");
  });

  test("raising throughput beyond partitions x 10,000 RU/s splits until it is served", async () => {
    const { container } = await early.database(dbId).containers.create({ id: "tp", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 10000 });
    for (let i = 0; i < 50; i++) await container.items.create({ id: `x${i}`, pk: `k${i}` });
    const { resources: before } = await container.readPartitionKeyRanges().fetchAll();
    const { resource: offer } = await container.readOffer();
    const replaced = await early.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 45000 } });
    assert.equal(replaced.headers["x-ms-offer-replace-pending"], "true");
    let read;
    for (let i = 0; i < 60; i++) {
      read = await early.offer(offer.id).read();
      if (read.headers["x-ms-offer-replace-pending"] === "false") break;
      await sleep(250);
    }
    assert.equal(read.headers["x-ms-offer-replace-pending"], "false");
    assert.equal(read.resource.content.offerThroughput, 45000);
    const { resources: after } = await container.readPartitionKeyRanges().fetchAll();
    assert.ok(after.length >= 5 && after.length > before.length, `${before.length} -> ${after.length} partitions`);
    const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
    assert.equal(resources[0], 50);
  });

  test("a database's shared throughput beyond its partitions x 10,000 RU/s grows too", async () => {
    const { database } = await early.databases.create({ id: uniqueId("sharedgrow"), throughput: 10000 });
    try {
      await database.containers.create({ id: "s", partitionKey: { paths: ["/pk"], version: 2 } });
      const { resource: offer } = await database.readOffer();
      const replaced = await early.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 30000 } });
      assert.equal(replaced.headers["x-ms-offer-replace-pending"], "true");
      let read;
      for (let i = 0; i < 40; i++) {
        read = await early.offer(offer.id).read();
        if (read.headers["x-ms-offer-replace-pending"] === "false") break;
        await sleep(250);
      }
      assert.equal(read.headers["x-ms-offer-replace-pending"], "false");
      assert.equal(read.resource.content.offerThroughput, 30000);
    } finally {
      await database.delete();
    }
  });
});
