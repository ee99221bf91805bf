// Partition key ranges and routing — wire-protocol.md §10 (pkranges feed,
// range-targeted requests), §11 (EPK hashing), §9.8 (queries with a partition key,
// MultiHash prefixes), ru-model.md b.4 (initial physical partitions from throughput).
//
// EPKs are computed test-side with @azure/cosmos's own hashPartitionKey (the same
// code the SDK uses for bulk and pipeline queries); the first test checks that helper
// against tests/testdata/epk-vectors.json.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import {
  sdkClient,
  restClient,
  uniqueId,
  assertStatus,
  requestCharge,
  dropDatabase,
  epkOf,
  pkValuesOf,
  loadEpkVectors,
  inRange,
} from "./lib/util.mjs";

const TIMEOUT = 180_000;
const HEX_RE = /^[0-9A-F]*$/;

/** Asserts the ranges (in the order returned) form a sorted complete cover of ["", "FF"). */
function assertCover(ranges, expectedCount, what) {
  if (expectedCount !== undefined) assert.equal(ranges.length, expectedCount, `${what}: number of ranges`);
  assert.ok(ranges.length >= 1, `${what}: at least one range`);
  assert.equal(ranges[0].minInclusive, "", `${what}: first minInclusive`);
  assert.equal(ranges.at(-1).maxExclusive, "FF", `${what}: last maxExclusive`);
  const ids = new Set();
  for (let i = 0; i < ranges.length; i++) {
    const r = ranges[i];
    assert.equal(typeof r.id, "string", `${what}: range id must be a string`);
    assert.ok(!ids.has(r.id), `${what}: duplicate range id ${r.id}`);
    ids.add(r.id);
    assert.match(r.minInclusive, HEX_RE, `${what}: minInclusive must be uppercase hex`);
    assert.match(r.maxExclusive, HEX_RE, `${what}: maxExclusive must be uppercase hex`);
    assert.ok(r.minInclusive < r.maxExclusive, `${what}: range ${r.id} is empty or inverted`);
    if (i > 0) {
      assert.equal(r.minInclusive, ranges[i - 1].maxExclusive, `${what}: range ${r.id} must start where the previous ends (sorted, no gap, no overlap)`);
    }
  }
}

/** Reads every document of one pk range through a range-targeted REST read feed. */
async function readRange(rest, docsPath, rangeId, pageSize = 37) {
  const { pages, items } = await rest.readFeedAll(docsPath, "Documents", {
    headers: { "x-ms-documentdb-partitionkeyrangeid": rangeId, "x-ms-max-item-count": String(pageSize) },
  });
  for (const p of pages) {
    assert.ok(p.body.Documents.length <= pageSize, `range ${rangeId}: page larger than x-ms-max-item-count`);
    assert.equal(Number(p.headers["x-ms-item-count"]), p.body.Documents.length, `range ${rangeId}: x-ms-item-count`);
    requestCharge(p.headers, { what: `range ${rangeId} feed page` });
  }
  return { pages, items };
}

/**
 * For each range, the range-targeted read feed returns only documents whose EPK
 * lies in the range, and the union over all ranges is every document exactly once.
 * Returns a map rangeId -> documents.
 */
async function assertRangeFeedsMatchEpk(rest, docsPath, ranges, pkDef, expectedDocs, what) {
  const byRange = new Map();
  const seen = new Map();
  for (const r of ranges) {
    const { pages, items } = await readRange(rest, docsPath, r.id);
    const echoed = pages[0].headers["x-ms-documentdb-partitionkeyrangeid"];
    assert.equal(echoed, r.id, `${what}: response must echo x-ms-documentdb-partitionkeyrangeid`);
    for (const d of items) {
      const epk = epkOf(pkValuesOf(d, pkDef), pkDef);
      assert.ok(
        inRange(epk, r.minInclusive, r.maxExclusive),
        `${what}: item ${d.id} (key ${JSON.stringify(pkValuesOf(d, pkDef))}, EPK ${epk}) returned by range ${r.id} [${r.minInclusive}, ${r.maxExclusive})`,
      );
      const key = `${d.id}|${JSON.stringify(pkValuesOf(d, pkDef))}`;
      assert.ok(!seen.has(key), `${what}: item ${key} returned by ranges ${seen.get(key)} and ${r.id}`);
      seen.set(key, r.id);
    }
    byRange.set(r.id, items);
  }
  const expectedKeys = expectedDocs.map((d) => `${d.id}|${JSON.stringify(pkValuesOf(d, pkDef))}`).sort();
  assert.deepEqual([...seen.keys()].sort(), expectedKeys, `${what}: the union of the range feeds must be every item exactly once`);
  return byRange;
}

/** Varied partition key values: strings, numbers, booleans, null and none. */
function keyFor(i) {
  switch (i % 10) {
    case 6:
    case 7:
      return { pk: (i % 13) * 1.5 };
    case 8:
      return { pk: i % 20 === 8 };
    case 9:
      return i % 20 === 9 ? { pk: null } : {}; // {} -> pk path missing ("none")
    default:
      return { pk: `k${i % 37}` };
  }
}

describe("partition key ranges", { timeout: TIMEOUT }, () => {
  let four; // server with --initial-partitions 4
  let plain; // server with default settings
  let c4;
  let cp;
  const dbs = [];
  before(async () => {
    [four, plain] = await Promise.all([startServer({ args: ["--initial-partitions", "4"] }), startServer()]);
    c4 = sdkClient(four);
    cp = sdkClient(plain);
  });
  after(async () => {
    for (const [client, id] of dbs) await dropDatabase(client, id);
    c4?.dispose();
    cp?.dispose();
    await Promise.all([four?.stop(), plain?.stop()]);
  });

  async function newDb(client, prefix) {
    const id = uniqueId(prefix);
    dbs.push([client, id]);
    return (await client.databases.create({ id })).database;
  }

  test("test helper: the SDK's hashPartitionKey reproduces tests/testdata/epk-vectors.json", () => {
    const v = loadEpkVectors();
    assert.ok(v.cases.length >= 100);
    for (const c of v.cases) {
      const paths = c.kind === "MultiHash" ? Array.from({ length: c.levels }, (_, i) => `/p${i}`) : ["/p"];
      const got = epkOf(c.key, { paths, kind: c.kind, version: c.version });
      assert.equal(got, c.epk, `vector ${JSON.stringify(c)}`);
    }
  });

  test("--initial-partitions 4: readPartitionKeyRanges() returns 4 sorted, contiguous ranges covering \"\"..\"FF\"", async () => {
    const db = await newDb(c4, "pk-ranges");
    const { container } = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    assertCover(ranges, 4, "SDK pkranges");
    const res = await restClient(four).get(["dbs", db.id, "colls", "c", "pkranges"]);
    assertStatus(res, 200, "GET pkranges");
    assert.ok(Array.isArray(res.body.PartitionKeyRanges));
    assertCover(res.body.PartitionKeyRanges, 4, "REST pkranges");
    assert.equal(res.body._count, 4);
    assert.equal(Number(res.headers["x-ms-item-count"]), 4);
    assert.ok(res.headers.etag, "pkranges feed carries an etag header");
    const feedRanges = await container.getFeedRanges();
    assert.equal(feedRanges.length, 4);
    // ranges are stable
    const again = await container.readPartitionKeyRanges().fetchAll();
    assert.deepEqual(again.resources.map((r) => [r.id, r.minInclusive, r.maxExclusive]), ranges.map((r) => [r.id, r.minInclusive, r.maxExclusive]));
  });

  test("default server: throughput 24000 (manual) -> ceil(24000/6000) = 4 ranges; 400 -> 1 range", async () => {
    const db = await newDb(cp, "pk-tput");
    const big = await db.containers.create({ id: "big", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 24000 });
    assert.equal(big.statusCode, 201);
    const { resources: ranges } = await big.container.readPartitionKeyRanges().fetchAll();
    assertCover(ranges, 4, "24000 RU/s container");
    const small = await db.containers.create({ id: "small", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    const { resources: one } = await small.container.readPartitionKeyRanges().fetchAll();
    assertCover(one, 1, "400 RU/s container");
    // items work on the 4-range container
    for (let i = 0; i < 20; i++) await big.container.items.create({ id: `i${i}`, pk: `p${i}` });
    const all = await big.container.items.readAll().fetchAll();
    assert.equal(all.resources.length, 20);
    await assertRangeFeedsMatchEpk(restClient(plain), ["dbs", db.id, "colls", "big", "docs"], ranges, big.resource.partitionKey, all.resources, "24000 RU/s container");
  });

  describe("200 items with varied keys on a 4-range V2 container", () => {
    let db;
    let container;
    let def;
    let ranges;
    const docs = [];
    before(async () => {
      db = await newDb(c4, "pk-route");
      const r = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      container = r.container;
      def = r.resource.partitionKey;
      ranges = (await container.readPartitionKeyRanges().fetchAll()).resources;
      for (let i = 0; i < 200; i++) {
        const body = { id: `item-${i}`, i, ...keyFor(i) };
        const resp = await container.items.create(body);
        assert.equal(resp.statusCode, 201);
        docs.push(resp.resource);
      }
    });

    test("each range's read feed holds exactly the items whose EPK lies in it; union = all 200 once", async () => {
      assertCover(ranges, 4, "routing container");
      await assertRangeFeedsMatchEpk(restClient(four), ["dbs", db.id, "colls", "c", "docs"], ranges, def, docs, "V2 container");
    });

    test("items spread over all 4 ranges (V2 EPKs begin with 0-3: boundaries must split that space)", async () => {
      const counts = ranges.map((r) => docs.filter((d) => inRange(epkOf(pkValuesOf(d, def), def), r.minInclusive, r.maxExclusive)).length);
      for (const [i, n] of counts.entries()) {
        assert.ok(n > 0, `range ${ranges[i].id} [${ranges[i].minInclusive}, ${ranges[i].maxExclusive}) would hold none of 200 varied keys (counts ${counts})`);
      }
    });

    test("point reads find every item", async () => {
      for (const d of docs) {
        const key = "pk" in d ? d.pk : undefined;
        const r = await container.item(d.id, key).read();
        assert.equal(r.statusCode, 200, `read ${d.id} key ${JSON.stringify(key)}`);
        assert.equal(r.resource._etag, d._etag);
      }
    });

    test("a query with the partitionKey option returns exactly that logical partition", async () => {
      const groups = new Map();
      for (const d of docs) {
        const k = JSON.stringify(pkValuesOf(d, def));
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(d.id);
      }
      let total = 0;
      for (const [k, ids] of groups) {
        const values = JSON.parse(k);
        let got;
        if (JSON.stringify(values) === "[{}]") {
          const res = await restClient(four).query(["dbs", db.id, "colls", "c", "docs"], "SELECT * FROM c", [], { pk: [{}] });
          assertStatus(res, 200, "query with the none key");
          got = res.body.Documents.map((d) => d.id);
        } else {
          const { resources } = await container.items.query("SELECT * FROM c", { partitionKey: values[0] }).fetchAll();
          for (const d of resources) assert.deepEqual(pkValuesOf(d, def), values, `query for key ${k} returned ${d.id}`);
          got = resources.map((d) => d.id);
        }
        assert.deepEqual(got.sort(), [...ids].sort(), `query with partitionKey ${k}`);
        total += got.length;
      }
      assert.equal(total, 200);
      const filtered = await container.items
        .query({ query: "SELECT * FROM c WHERE c.i >= @min", parameters: [{ name: "@min", value: 100 }] }, { partitionKey: "k3" })
        .fetchAll();
      assert.deepEqual(filtered.resources.map((d) => d.i).sort((a, b) => a - b), docs.filter((d) => d.pk === "k3" && d.i >= 100).map((d) => d.i).sort((a, b) => a - b));
    });

    test("items.readAll() and a cross-partition filter query return items from every range", async () => {
      const { resources } = await container.items.readAll().fetchAll();
      assert.equal(resources.length, 200);
      assert.deepEqual(resources.map((d) => d.id).sort(), docs.map((d) => d.id).sort());
      const half = await container.items.query("SELECT * FROM c WHERE c.i >= 100").fetchAll();
      assert.deepEqual(half.resources.map((d) => d.i).sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => i + 100));
      // paged
      const it = container.items.readAll({ maxItemCount: 30 });
      const ids = [];
      while (it.hasMoreResults()) {
        const page = await it.fetchNext();
        assert.ok(page.resources.length <= 30);
        ids.push(...page.resources.map((d) => d.id));
      }
      assert.equal(ids.length, 200);
      assert.equal(new Set(ids).size, 200, "paged readAll returned an item twice");
    });
  });

  // README: ceil(RU/s / 6,000) ranges for manual throughput, ceil(max RU/s / 10,000) for
  // autoscale and for a database's shared throughput, whatever the key's hash version.
  for (const version of [undefined, 2]) {
    test(`throughput sets the ranges of a ${version ? "V2" : "V1 (no version)"} container: manual, autoscale, shared`, async () => {
      const db = await newDb(cp, "pk-tput-all");
      const partitionKey = version ? { paths: ["/pk"], version } : { paths: ["/pk"] };
      const cases = [
        { id: "m10100", opts: { throughput: 10100 }, ranges: Math.ceil(10100 / 6000) },
        { id: "m20000", opts: { throughput: 20000 }, ranges: Math.ceil(20000 / 6000) },
        { id: "a40000", opts: { maxThroughput: 40000 }, ranges: Math.ceil(40000 / 10000) },
      ];
      const shared = await cp.databases.create({ id: uniqueId("pk-shared"), throughput: 30000 });
      try {
        for (const c of cases) {
          const r = await db.containers.create({ id: c.id, partitionKey, ...c.opts });
          c.container = r.container;
          c.def = r.resource.partitionKey;
        }
        const s = await shared.database.containers.create({ id: "s", partitionKey });
        cases.push({ id: "s", container: s.container, def: s.resource.partitionKey, ranges: Math.ceil(30000 / 10000), db: shared.database.id });
        for (const c of cases) {
          const { resources: ranges } = await c.container.readPartitionKeyRanges().fetchAll();
          assertCover(ranges, c.ranges, `${c.id} (${JSON.stringify(c.def)})`);
          const docs = [];
          for (let i = 0; i < 40; i++) docs.push((await c.container.items.create({ id: `d${i}`, pk: `key-${i}` })).resource);
          await assertRangeFeedsMatchEpk(restClient(plain), ["dbs", c.db ?? db.id, "colls", c.id, "docs"], ranges, c.def, docs, `${c.id} container`);
          for (const d of docs) assert.equal((await c.container.item(d.id, d.pk).read()).statusCode, 200);
          const q = await c.container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
          assert.deepEqual(q.resources, [40], `${c.id}: cross-partition COUNT`);
        }
      } finally {
        await dropDatabase(cp, shared.database.id);
      }
    });
  }

  test("container created without a version: the server routes with the definition it returned", async () => {
    const db = await newDb(c4, "pk-v1");
    const r = await db.containers.create({ id: "c", partitionKey: { paths: ["/pk"] } });
    const def = r.resource.partitionKey;
    const { resources: ranges } = await r.container.readPartitionKeyRanges().fetchAll();
    assertCover(ranges, 4, "no-version container");
    const docs = [];
    for (let i = 0; i < 60; i++) docs.push((await r.container.items.create({ id: `v${i}`, pk: `key-${i}` })).resource);
    await assertRangeFeedsMatchEpk(restClient(four), ["dbs", db.id, "colls", "c", "docs"], ranges, def, docs, `container with partitionKey ${JSON.stringify(def)}`);
    for (const d of docs) assert.equal((await r.container.item(d.id, d.pk).read()).statusCode, 200);
  });

  test("hierarchical container: prefix query with partitionKey [\"t1\"] returns only t1's items", async () => {
    const db = await newDb(c4, "pk-hier");
    const r = await db.containers.create({ id: "h", partitionKey: { paths: ["/t", "/u"], kind: "MultiHash", version: 2 } });
    const def = r.resource.partitionKey;
    const container = r.container;
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    assertCover(ranges, 4, "MultiHash container");
    const docs = [];
    for (let t = 1; t <= 5; t++) {
      for (let u = 1; u <= 4; u++) {
        for (let n = 0; n < 3; n++) {
          docs.push((await container.items.create({ id: `d${n}`, t: `t${t}`, u: `u${u}`, n })).resource);
        }
      }
    }
    await assertRangeFeedsMatchEpk(restClient(four), ["dbs", db.id, "colls", "h", "docs"], ranges, def, docs, "MultiHash container");

    const t1 = await container.items.query("SELECT * FROM c", { partitionKey: ["t1"] }).fetchAll();
    assert.equal(t1.resources.length, 12, "t1 has 4 users x 3 items");
    for (const d of t1.resources) assert.equal(d.t, "t1");
    const t1u2 = await container.items.query("SELECT * FROM c", { partitionKey: ["t1", "u2"] }).fetchAll();
    assert.deepEqual(t1u2.resources.map((d) => `${d.t}/${d.u}/${d.id}`).sort(), ["t1/u2/d0", "t1/u2/d1", "t1/u2/d2"]);
    const t3 = await container.items.query({ query: "SELECT * FROM c WHERE c.n = @n", parameters: [{ name: "@n", value: 1 }] }, { partitionKey: ["t3"] }).fetchAll();
    assert.deepEqual(t3.resources.map((d) => d.u).sort(), ["u1", "u2", "u3", "u4"]);
    for (const d of t3.resources) assert.equal(d.t, "t3");
    const all = await container.items.readAll().fetchAll();
    assert.equal(all.resources.length, 60);
    for (const d of docs) assert.equal((await container.item(d.id, [d.t, d.u]).read()).statusCode, 200);
  });
});
