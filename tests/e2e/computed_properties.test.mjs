// Computed properties through @azure/cosmos (Microsoft's "Computed properties in Azure
// Cosmos DB for NoSQL"): definitions on create, read and replace; queries naming them in
// WHERE, ORDER BY, GROUP BY and SELECT; absent from SELECT * and point reads; indexed
// only when the indexing policy names their path; each invalid definition refused with
// a 400. Expected values are computed here from the items, never from the server.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { startServer } from "./lib/server.mjs";
import { restClient, sdkClient, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const PROGRESS = "x-ms-documentdb-collection-index-transformation-progress";
const pk = { paths: ["/category"], version: 2 };

// The page's examples.
const LOWER_NAME = { name: "cp_lowerName", query: "SELECT VALUE LOWER(c.name) FROM c" };
const DISCOUNT = { name: "cp_20PercentDiscount", query: "SELECT VALUE (c.price * 0.2) FROM c" };

const NAMES = ["Bravo", "alpha", "Charlie", "ALPHA", "delta", "Alpha", "bravo"];
const ITEMS = Array.from({ length: 70 }, (_, i) => ({
  id: `p${String(i).padStart(3, "0")}`,
  category: `cat${i % 5}`,
  name: NAMES[i % NAMES.length],
  price: 10 + (i % 9) * 5,
}));

const policy = (extraIncluded = []) => ({
  indexingMode: "consistent",
  includedPaths: [{ path: "/*" }, ...extraIncluded],
  excludedPaths: [{ path: '/"_etag"/?' }],
});

async function fill(container) {
  for (let i = 0; i < ITEMS.length; i += 35) {
    await Promise.all(ITEMS.slice(i, i + 35).map((item) => container.items.create(item)));
  }
}

const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function parseMetrics(text) {
  const out = {};
  for (const part of String(text).split(";")) {
    const [k, v] = part.split("=");
    out[k] = Number(v);
  }
  return out;
}

async function waitForReindex(container) {
  for (let i = 0; i < 400; i++) {
    const res = await container.read({ populateQuotaInfo: true });
    if (Number(res.headers[PROGRESS]) === 100) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail("the re-index did not finish");
}

describe("computed properties", { timeout: TIMEOUT * 2 }, () => {
  let server;
  let rest;
  let database;
  let dbId;
  withServerAndDatabase("cp", {
    serverOptions: { args: ["--initial-partitions", "3"] },
    ready: (env) => {
      ({ server, dbId, database } = env);
      rest = restClient(server);
    },
  });

  test("the definitions are kept and returned by create and read", async () => {
    const { resource: created, statusCode } = await database.containers.create({
      id: "defs",
      partitionKey: pk,
      computedProperties: [LOWER_NAME, DISCOUNT],
    });
    assert.equal(statusCode, 201);
    assert.deepEqual(created.computedProperties, [LOWER_NAME, DISCOUNT]);
    const { resource: read } = await database.container("defs").read();
    assert.deepEqual(read.computedProperties, [LOWER_NAME, DISCOUNT]);
  });

  test("queries use them by name in WHERE, SELECT, ORDER BY and GROUP BY; SELECT * and reads leave them out", async () => {
    const { container } = await database.containers.create({
      id: "queries",
      partitionKey: pk,
      computedProperties: [LOWER_NAME, DISCOUNT],
      indexingPolicy: policy([{ path: "/cp_lowerName/?" }, { path: "/cp_20PercentDiscount/?" }]),
    });
    await fill(container);

    // WHERE on the computed value: every spelling of "alpha".
    const alphaIds = ITEMS.filter((d) => d.name.toLowerCase() === "alpha").map((d) => d.id).sort(byId);
    const { resources: where } = await container.items
      .query("SELECT VALUE c.id FROM c WHERE c.cp_lowerName = 'alpha'")
      .fetchAll();
    assert.deepEqual(where.sort(byId), alphaIds);
    assert.ok(alphaIds.length > 10);

    // SELECT names the property after itself; arithmetic as the page's discount.
    const { resources: projected } = await container.items
      .query("SELECT c.id, c.cp_lowerName, c.cp_20PercentDiscount FROM c WHERE c.id = 'p003'")
      .fetchAll();
    const p3 = ITEMS[3];
    assert.deepEqual(projected, [{ id: "p003", cp_lowerName: p3.name.toLowerCase(), cp_20PercentDiscount: p3.price * 0.2 }]);

    // A range filter on the discount: price * 0.2 > 10 means price > 50.
    const { resources: discounted } = await container.items
      .query("SELECT VALUE c.id FROM c WHERE c.cp_20PercentDiscount > 10")
      .fetchAll();
    assert.deepEqual(discounted.sort(byId), ITEMS.filter((d) => d.price > 50).map((d) => d.id).sort(byId));

    // ORDER BY the computed value (cross-partition, through the SDK's pipeline).
    const { resources: ordered } = await container.items
      .query("SELECT c.id, c.cp_lowerName FROM c ORDER BY c.cp_lowerName DESC", { maxItemCount: 9 })
      .fetchAll();
    const expectedOrder = ITEMS.map((d) => d.name.toLowerCase()).sort().reverse();
    assert.deepEqual(ordered.map((r) => r.cp_lowerName), expectedOrder);

    // GROUP BY the computed value.
    const { resources: groups } = await container.items
      .query("SELECT c.cp_lowerName AS name, COUNT(1) AS n FROM c GROUP BY c.cp_lowerName")
      .fetchAll();
    const counts = {};
    for (const d of ITEMS) counts[d.name.toLowerCase()] = (counts[d.name.toLowerCase()] ?? 0) + 1;
    assert.deepEqual(
      Object.fromEntries(groups.map((g) => [g.name, g.n])),
      counts,
    );

    // Not in SELECT *, SELECT VALUE c, point reads or the feed.
    const { resources: star } = await container.items.query("SELECT * FROM c WHERE c.id = 'p003'").fetchAll();
    assert.equal(star.length, 1);
    assert.equal(star[0].cp_lowerName, undefined);
    assert.equal(star[0].cp_20PercentDiscount, undefined);
    assert.equal(star[0].name, p3.name);
    const { resources: whole } = await container.items.query("SELECT VALUE c FROM c WHERE c.id = 'p003'").fetchAll();
    assert.equal(whole[0].cp_lowerName, undefined);
    const { resource: read } = await container.item("p003", p3.category).read();
    assert.equal(read.cp_lowerName, undefined);
    assert.equal(read.cp_20PercentDiscount, undefined);
    const { resources: feed } = await container.items.readAll().fetchAll();
    assert.ok(feed.every((d) => d.cp_lowerName === undefined));
  });

  test("an included path indexes a computed property; the root wildcard does not", async () => {
    const make = async (id, indexingPolicy) => {
      const { container } = await database.containers.create({ id, partitionKey: pk, computedProperties: [LOWER_NAME], indexingPolicy });
      await fill(container);
      return container;
    };
    await make("unindexed", policy());
    const indexedContainer = await make("indexed", policy([{ path: "/cp_lowerName/?" }]));
    const run = async (coll, q) => {
      const res = await rest.query(`dbs/${dbId}/colls/${coll}/docs`, q, [], {
        headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true", "x-ms-max-item-count": "1000" },
      });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const header = res.headers["x-ms-documentdb-query-metrics"];
      return { metrics: parseMetrics(header), header, rows: res.body.Documents, charge: Number(res.headers["x-ms-request-charge"]) };
    };
    const q = "SELECT * FROM c WHERE c.cp_lowerName = 'bravo'";
    const matches = ITEMS.filter((d) => d.name.toLowerCase() === "bravo").length;
    const scanned = await run("unindexed", q);
    const seeked = await run("indexed", q);
    assert.equal(scanned.rows.length, matches);
    assert.equal(seeked.rows.length, matches);
    // Without the include path every item is loaded; with it only the matches.
    assert.equal(scanned.metrics.retrievedDocumentCount, ITEMS.length, scanned.header);
    assert.equal(seeked.metrics.retrievedDocumentCount, matches, seeked.header);
    assert.ok(seeked.charge < scanned.charge, `seek ${seeked.charge} RU vs scan ${scanned.charge} RU`);

    // ORDER BY needs the range index, as on any path: refused without the include path.
    await expectCosmosError(
      database.container("unindexed").items.query("SELECT VALUE c.id FROM c ORDER BY c.cp_lowerName").fetchAll(),
      { code: 400, what: "ORDER BY an unindexed computed property" },
    );
    const { resources } = await indexedContainer.items
      .query("SELECT VALUE c.cp_lowerName FROM c ORDER BY c.cp_lowerName")
      .fetchAll();
    assert.deepEqual(resources, ITEMS.map((d) => d.name.toLowerCase()).sort());
  });

  test("a composite index may name a computed property; ORDER BY on both keys follows it", async () => {
    const { container } = await database.containers.create({
      id: "composite",
      partitionKey: pk,
      computedProperties: [LOWER_NAME],
      indexingPolicy: {
        ...policy([{ path: "/cp_lowerName/?" }]),
        compositeIndexes: [[{ path: "/cp_lowerName", order: "ascending" }, { path: "/price", order: "descending" }]],
      },
    });
    await fill(container);
    const { resources } = await container.items
      .query("SELECT VALUE c.id FROM c ORDER BY c.cp_lowerName ASC, c.price DESC", { maxItemCount: 11 })
      .fetchAll();
    const expected = [...ITEMS]
      .sort((a, b) => byId(a.name.toLowerCase(), b.name.toLowerCase()) || b.price - a.price)
      .map((d) => d.id);
    // Ties (same name and price) may come in any order: compare the (name, price) keys.
    const key = (id) => {
      const d = ITEMS.find((x) => x.id === id);
      return `${d.name.toLowerCase()}|${d.price}`;
    };
    assert.deepEqual(resources.map(key), expected.map(key));
  });

  test("a container replace changes the definitions, the index follows", async () => {
    const { container } = await database.containers.create({
      id: "replaced",
      partitionKey: pk,
      computedProperties: [LOWER_NAME, DISCOUNT],
      indexingPolicy: policy([{ path: "/cp_lowerName/?" }]),
    });
    await fill(container);
    const { resource: current } = await container.read();
    // cp_lowerName now upper-cases (same name, new query), the discount goes, a new one comes.
    const UPPER = { name: "cp_lowerName", query: "SELECT VALUE UPPER(c.name) FROM c" };
    const HALF = { name: "cp_half", query: "SELECT VALUE c.price / 2 FROM c" };
    const { resource: replaced } = await container.replace({
      ...current,
      computedProperties: [UPPER, HALF],
      indexingPolicy: policy([{ path: "/cp_lowerName/?" }, { path: "/cp_half/?" }]),
    });
    assert.deepEqual(replaced.computedProperties, [UPPER, HALF]);
    assert.deepEqual((await container.read()).resource.computedProperties, [UPPER, HALF]);

    // Correct answers during the rebuild and after it.
    const check = async () => {
      const { resources: upper } = await container.items
        .query("SELECT VALUE c.id FROM c WHERE c.cp_lowerName = 'ALPHA'")
        .fetchAll();
      assert.deepEqual(upper.sort(byId), ITEMS.filter((d) => d.name.toUpperCase() === "ALPHA").map((d) => d.id).sort(byId));
      const { resources: gone } = await container.items
        .query("SELECT VALUE c.id FROM c WHERE IS_DEFINED(c.cp_20PercentDiscount)")
        .fetchAll();
      assert.deepEqual(gone, []);
    };
    await check();
    await waitForReindex(container);
    await check();
    const { resources: halves } = await container.items
      .query("SELECT VALUE c.cp_half FROM c ORDER BY c.cp_half DESC")
      .fetchAll();
    assert.deepEqual(halves, ITEMS.map((d) => d.price / 2).sort((a, b) => b - a));
    const res = await rest.query(`dbs/${dbId}/colls/replaced/docs`, "SELECT * FROM c WHERE c.cp_lowerName = 'DELTA'", [], {
      headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const deltas = ITEMS.filter((d) => d.name === "delta").length;
    assert.equal(res.body.Documents.length, deltas);
    assert.equal(parseMetrics(res.headers["x-ms-documentdb-query-metrics"]).retrievedDocumentCount, deltas);
  });

  test("invalid definitions are refused with a 400 saying why; nothing is created", async () => {
    const q = (query) => [{ name: "cp", query }];
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `cp_${i}`, query: "SELECT VALUE c.a FROM c" }));
    const cases = [
      ["more than 20", many, /maximum of 20/],
      ["reserved id", [{ name: "id", query: "SELECT VALUE c.a FROM c" }], /reserved system property/],
      ["reserved _ts", [{ name: "_ts", query: "SELECT VALUE c.a FROM c" }], /reserved system property/],
      ["nested name", [{ name: "a/b", query: "SELECT VALUE c.a FROM c" }], /nested path/],
      ["duplicate", [{ name: "x", query: "SELECT VALUE 1 FROM c" }, { name: "x", query: "SELECT VALUE 2 FROM c" }], /unique/],
      ["no VALUE", q("SELECT c.a FROM c"), /SELECT VALUE/],
      ["no FROM", q("SELECT VALUE 1"), /FROM clause/],
      ["JOIN", q("SELECT VALUE t FROM c JOIN t IN c.tags"), /JOIN/],
      ["WHERE", q("SELECT VALUE c.a FROM c WHERE c.b = 1"), /WHERE/],
      ["GROUP BY", q("SELECT VALUE c.a FROM c GROUP BY c.a"), /GROUP BY/],
      ["ORDER BY", q("SELECT VALUE c.a FROM c ORDER BY c.a"), /ORDER BY/],
      ["TOP", q("SELECT TOP 1 VALUE c.a FROM c"), /TOP/],
      ["DISTINCT", q("SELECT DISTINCT VALUE c.a FROM c"), /DISTINCT/],
      ["OFFSET LIMIT", q("SELECT VALUE c.a FROM c OFFSET 0 LIMIT 1"), /OFFSET LIMIT/],
      ["EXISTS", q("SELECT VALUE EXISTS(SELECT VALUE t FROM t IN c.tags) FROM c"), /subqueries/],
      ["ARRAY", q("SELECT VALUE ARRAY(SELECT VALUE t FROM t IN c.tags) FROM c"), /subqueries/],
      ["aggregate", q("SELECT VALUE COUNT(1) FROM c"), /aggregate/],
      ["non-deterministic", q("SELECT VALUE GetCurrentDateTime() FROM c"), /non-deterministic/],
      ["RAND", q("SELECT VALUE RAND() FROM c"), /non-deterministic/],
      ["spatial", q("SELECT VALUE ST_DISTANCE(c.a, c.b) FROM c"), /spatial/],
      ["UDF", q("SELECT VALUE udf.f(c.a) FROM c"), /user-defined/],
      ["syntax", q("SELECT VALUE FROM c"), /invalid/],
    ];
    for (const [what, computedProperties, message] of cases) {
      const id = `bad-${what.replace(/[^a-z0-9]+/gi, "-")}`;
      const e = await expectCosmosError(database.containers.create({ id, partitionKey: pk, computedProperties }), { code: 400, what });
      assert.match(e.message, message, what);
      await expectCosmosError(database.container(id).read(), { code: 404, what: `${what}: not created` });
    }
    // A replace is validated the same way and leaves the definitions as they were.
    const { container } = await database.containers.create({ id: "bad-replace", partitionKey: pk, computedProperties: [LOWER_NAME] });
    const { resource: current } = await container.read();
    const e = await expectCosmosError(container.replace({ ...current, computedProperties: q("SELECT VALUE c.a FROM c WHERE c.b = 1") }), {
      code: 400,
      what: "replace with WHERE",
    });
    assert.match(e.message, /WHERE/);
    assert.deepEqual((await container.read()).resource.computedProperties, [LOWER_NAME]);
  });

  test("the index rules of computed properties: no spatial index; removed, its indexes go too", async () => {
    // Microsoft, "Computed properties" (Index computed properties).
    const spatial = await expectCosmosError(
      database.containers.create({
        id: "cp-spatial",
        partitionKey: pk,
        computedProperties: [LOWER_NAME],
        indexingPolicy: { spatialIndexes: [{ path: `/${LOWER_NAME.name}/*`, types: ["Point"] }] },
      }),
      { code: 400, what: "spatial index on a computed property" },
    );
    assert.match(spatial.message, /cannot have a spatial index/);
    await expectCosmosError(database.container("cp-spatial").read(), { code: 404, what: "not created" });

    const indexed = { includedPaths: [{ path: "/*" }, { path: `/${LOWER_NAME.name}/?` }] };
    const { container } = await database.containers.create({
      id: "cp-removed",
      partitionKey: pk,
      computedProperties: [LOWER_NAME],
      indexingPolicy: indexed,
    });
    const { resource: current } = await container.read();
    const kept = await expectCosmosError(
      container.replace({ ...current, computedProperties: [], indexingPolicy: indexed }),
      { code: 400, what: "removal keeping its index" },
    );
    assert.match(kept.message, new RegExp(`computed property '${LOWER_NAME.name}' is removed`));
    assert.deepEqual((await container.read()).resource.computedProperties, [LOWER_NAME], "unchanged");
    const { resource: removed } = await container.replace({
      ...current,
      computedProperties: [],
      indexingPolicy: { includedPaths: [{ path: "/*" }] },
    });
    assert.deepEqual(removed.computedProperties ?? [], []);
  });
});

describe("computed properties after a restart", { timeout: TIMEOUT }, () => {
  test("the definitions and their index survive a restart, without a rebuild", async () => {
    const server = await startServer({ inMemory: false });
    let client = sdkClient(server);
    try {
      const { database } = await client.databases.create({ id: "cpdb" });
      const { container } = await database.containers.create({
        id: "kept",
        partitionKey: pk,
        computedProperties: [LOWER_NAME],
        indexingPolicy: policy([{ path: "/cp_lowerName/?" }]),
      });
      await fill(container);
      await server.restart();
      client.dispose();
      client = sdkClient(server);
      const kept = client.database("cpdb").container("kept");
      const read = await kept.read({ populateQuotaInfo: true });
      assert.deepEqual(read.resource.computedProperties, [LOWER_NAME]);
      assert.equal(Number(read.headers[PROGRESS]), 100, "no rebuild after the restart");
      const res = await restClient(server).query("dbs/cpdb/colls/kept/docs", "SELECT VALUE c.id FROM c WHERE c.cp_lowerName = 'charlie'", [], {
        headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
      });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const want = ITEMS.filter((d) => d.name.toLowerCase() === "charlie").map((d) => d.id).sort(byId);
      assert.deepEqual(res.body.Documents.sort(byId), want);
      assert.equal(parseMetrics(res.headers["x-ms-documentdb-query-metrics"]).retrievedDocumentCount, want.length);
    } finally {
      client.dispose();
      await server.stop();
    }
  });
});
