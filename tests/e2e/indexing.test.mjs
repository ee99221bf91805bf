// Indexing policies through the SDK (query-language.md §9, §10): composite indexes for
// ORDER BY on several keys, excluded paths, the online re-index after a policy change
// with its progress header, and the query-metrics header with what the index saved.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { restClient, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const ITEMS = 300;
const PROGRESS = "x-ms-documentdb-collection-index-transformation-progress";

function makeItem(i) {
  return { id: `i${String(i).padStart(4, "0")}`, pk: `p${i % 13}`, n: i % 10, s: `s${i % 7}`, secret: i % 5 };
}

const policy = (extra = {}) => ({
  indexingMode: "consistent",
  includedPaths: [{ path: "/*" }],
  excludedPaths: [{ path: '/"_etag"/?' }],
  ...extra,
});

async function fill(container) {
  for (let i = 0; i < ITEMS; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, k) => container.items.create(makeItem(i + k))));
  }
}

const ids = (pred) => Array.from({ length: ITEMS }, (_, i) => makeItem(i)).filter(pred).map((d) => d.id).sort();

/** Parses `a=1;b=2.00` into numbers by key. */
function parseMetrics(text) {
  const out = {};
  for (const part of String(text).split(";")) {
    const [k, v] = part.split("=");
    out[k] = Number(v);
  }
  return out;
}

describe("indexing policies", { timeout: TIMEOUT * 2 }, () => {
  let server;
  let client;
  let rest;
  let database;
  let dbId;
  withServerAndDatabase("idx", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: (env) => {
      ({ server, client, dbId, database } = env);
      rest = restClient(server);
    },
  });

  test("ORDER BY on several keys needs a matching composite index, as in the service", async () => {
    const { container } = await database.containers.create({
      id: "composite",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy: policy({
        compositeIndexes: [[{ path: "/n", order: "ascending" }, { path: "/id", order: "descending" }]],
      }),
    });
    await fill(container);
    const expected = Array.from({ length: ITEMS }, (_, i) => makeItem(i))
      .sort((a, b) => a.n - b.n || (a.id < b.id ? 1 : -1))
      .map((d) => d.id);
    for (const q of ["SELECT VALUE c.id FROM c ORDER BY c.n ASC, c.id DESC", "SELECT VALUE c.id FROM c ORDER BY c.n DESC, c.id ASC"]) {
      const { resources } = await container.items.query(q, { maxItemCount: 37 }).fetchAll();
      const want = q.includes("c.n DESC") ? [...expected].reverse() : expected;
      assert.deepEqual(resources, want, q);
    }
    // Same paths, other directions: not served.
    const err = await expectCosmosError(
      container.items.query("SELECT VALUE c.id FROM c ORDER BY c.n ASC, c.id ASC").fetchAll(),
      { code: 400, what: "ORDER BY without a composite index" },
    );
    assert.match(err.message, /does not have a corresponding composite index/);
  });

  test("strings longer than an index entry holds compare, sort and group whole", async () => {
    const { container } = await database.containers.create({
      id: "longstrings",
      partitionKey: { paths: ["/pk"], version: 2 },
    });
    // 60 strings sharing their first 200 characters (beyond what an entry holds), in an
    // order other than their ids', around shorter and earlier-differing ones.
    const shared = "u".repeat(200);
    const values = Array.from({ length: 60 }, (_, i) => shared + String((i * 37) % 60).padStart(3, "0"));
    values.push(shared, shared.slice(0, 150), "t" + shared, "v", "a");
    await Promise.all(
      values.map((s, i) => container.items.create({ id: `l${i}`, pk: `p${i % 5}`, s, g: i % 3 ? shared + "x" : shared + "y" })),
    );
    const sorted = [...values].sort();
    const target = values[7];
    const eq = await container.items
      .query({ query: "SELECT VALUE c.id FROM c WHERE c.s = @v", parameters: [{ name: "@v", value: target }] })
      .fetchAll();
    assert.deepEqual(eq.resources, ["l7"]);
    const above = await container.items
      .query({ query: "SELECT VALUE c.s FROM c WHERE c.s > @v", parameters: [{ name: "@v", value: target }] })
      .fetchAll();
    assert.deepEqual([...above.resources].sort(), sorted.filter((s) => s > target));
    for (const maxItemCount of [4, 100]) {
      const asc = await container.items.query("SELECT VALUE c.s FROM c ORDER BY c.s", { maxItemCount }).fetchAll();
      assert.deepEqual(asc.resources, sorted, `ORDER BY ASC, ${maxItemCount} a page`);
      const desc = await container.items.query("SELECT VALUE c.s FROM c ORDER BY c.s DESC", { maxItemCount }).fetchAll();
      assert.deepEqual(desc.resources, [...sorted].reverse(), `ORDER BY DESC, ${maxItemCount} a page`);
    }
    const groups = await container.items.query("SELECT c.g, COUNT(1) AS n FROM c GROUP BY c.g").fetchAll();
    const counts = Object.fromEntries(groups.resources.map((r) => [r.g, r.n]));
    const expected = {};
    values.forEach((_, i) => {
      const g = i % 3 ? shared + "x" : shared + "y";
      expected[g] = (expected[g] ?? 0) + 1;
    });
    assert.deepEqual(counts, expected);
  });

  test("filters on excluded paths scan; ORDER BY on them is refused", async () => {
    const { container } = await database.containers.create({
      id: "excluded",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy: policy({ excludedPaths: [{ path: "/secret/?" }, { path: '/"_etag"/?' }] }),
    });
    await fill(container);
    const { resources } = await container.items.query("SELECT VALUE c.id FROM c WHERE c.secret = 2").fetchAll();
    assert.deepEqual(resources.sort(), ids((d) => d.secret === 2));
    const err = await expectCosmosError(
      container.items.query("SELECT * FROM c ORDER BY c.secret").fetchAll(),
      { code: 400, what: "ORDER BY on an excluded path" },
    );
    assert.match(err.message, /excluded/);
  });

  test("query metrics: an indexed equality loads only its matches, an excluded path loads everything", async () => {
    const { container } = await database.containers.create({
      id: "metrics",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy: policy({ excludedPaths: [{ path: "/secret/?" }, { path: '/"_etag"/?' }] }),
    });
    await fill(container);
    const docs = `dbs/${dbId}/colls/metrics/docs`;
    const run = async (q) => {
      const res = await rest.query(docs, q, [], {
        headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true", "x-ms-max-item-count": "1000" },
      });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const header = res.headers["x-ms-documentdb-query-metrics"];
      assert.ok(header, `${q}: the query-metrics header`);
      return { metrics: parseMetrics(header), header, rows: res.body.Documents, charge: Number(res.headers["x-ms-request-charge"]) };
    };
    const indexed = await run("SELECT * FROM c WHERE c.n = 3");
    assert.equal(indexed.rows.length, ITEMS / 10);
    assert.equal(indexed.metrics.retrievedDocumentCount, ITEMS / 10, indexed.header);
    assert.equal(indexed.metrics.outputDocumentCount, ITEMS / 10);
    assert.equal(indexed.metrics.indexUtilizationRatio, 1);
    assert.ok(indexed.metrics.retrievedDocumentSize > 0);

    const scanned = await run("SELECT * FROM c WHERE c.secret = 3");
    assert.equal(scanned.rows.length, ITEMS / 5);
    assert.equal(scanned.metrics.retrievedDocumentCount, ITEMS, scanned.header);
    assert.equal(scanned.metrics.outputDocumentCount, ITEMS / 5);
    assert.ok(Math.abs(scanned.metrics.indexUtilizationRatio - 0.2) < 0.01, scanned.header);
    // The charge follows the work: the scan loaded ten times as many items.
    assert.ok(scanned.charge > indexed.charge, `scan ${scanned.charge} RU vs seek ${indexed.charge} RU`);
    // The keys, in the service's order.
    assert.deepEqual(Object.keys(indexed.metrics), [
      "totalExecutionTimeInMs", "queryCompileTimeInMs", "queryLogicalPlanBuildTimeInMs",
      "queryPhysicalPlanBuildTimeInMs", "queryOptimizationTimeInMs", "indexLookupTimeInMs",
      "documentLoadTimeInMs", "VMExecutionTimeInMs", "systemFunctionExecuteTimeInMs",
      "userFunctionExecuteTimeInMs", "retrievedDocumentCount", "retrievedDocumentSize",
      "outputDocumentCount", "outputDocumentSize", "writeOutputTimeInMs", "indexUtilizationRatio",
    ]);

    // The timings are measured: built-in functions over every item, and the compile
    // phases of a long query text (2,000 IN values to parse and bind).
    const heavy = await run(`SELECT VALUE c.id FROM c WHERE RegexMatch(REPLICATE(c.s, 400), "s[0-9]s[0-9]$")`);
    assert.equal(heavy.rows.length, ITEMS);
    assert.ok(heavy.metrics.systemFunctionExecuteTimeInMs > 0, heavy.header);
    assert.ok(heavy.metrics.systemFunctionExecuteTimeInMs <= heavy.metrics.totalExecutionTimeInMs, heavy.header);
    const values = Array.from({ length: 2000 }, (_, i) => `"v${i}"`).join(",");
    const long = await run(`SELECT VALUE c.id FROM c WHERE c.s IN (${values})`);
    assert.ok(long.metrics.queryCompileTimeInMs > 0, long.header);
    assert.ok(long.metrics.queryLogicalPlanBuildTimeInMs > 0, long.header);
    const parts = ["queryCompileTimeInMs", "queryLogicalPlanBuildTimeInMs", "queryPhysicalPlanBuildTimeInMs",
      "queryOptimizationTimeInMs", "indexLookupTimeInMs", "documentLoadTimeInMs"];
    for (const m of [heavy.metrics, long.metrics]) {
      const sum = parts.reduce((total, key) => total + m[key], 0);
      assert.ok(sum <= m.totalExecutionTimeInMs + 0.05, JSON.stringify(m));
    }

    // The SDK parses it (FeedOptions.populateQueryMetrics).
    const page = await container.items
      .query("SELECT * FROM c WHERE c.n = 3", { populateQueryMetrics: true, partitionKey: "p3" })
      .fetchNext();
    const parsed = Object.values(page.queryMetrics ?? {})[0];
    assert.ok(parsed, "the SDK's QueryMetrics");
    assert.equal(parsed.outputDocumentCount, page.resources.length);
    assert.equal(parsed.retrievedDocumentCount, page.resources.length);
  });

  test("replacing the policy re-indexes online and reports progress", async () => {
    const { container } = await database.containers.create({
      id: "reindex",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy: policy({ excludedPaths: [{ path: "/secret/?" }, { path: '/"_etag"/?' }] }),
    });
    await fill(container);
    await expectCosmosError(container.items.query("SELECT * FROM c ORDER BY c.secret").fetchAll(), { code: 400 });

    const { resource: current } = await container.read();
    const { resource: replaced } = await container.replace({ ...current, indexingPolicy: policy() });
    assert.deepEqual(replaced.indexingPolicy.excludedPaths, [{ path: '/"_etag"/?' }]);
    // Queries keep their complete answers while the index is rebuilt.
    const { resources: during } = await container.items.query("SELECT VALUE c.id FROM c WHERE c.secret = 1").fetchAll();
    assert.deepEqual(during.sort(), ids((d) => d.secret === 1));

    let progress = -1;
    for (let i = 0; i < 200 && progress !== 100; i++) {
      const res = await container.read({ populateQuotaInfo: true });
      progress = Number(res.headers[PROGRESS]);
      assert.ok(progress >= 0 && progress <= 100, `progress header: ${res.headers[PROGRESS]}`);
      if (progress !== 100) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(progress, 100, "the re-index finished");

    // The newly indexed path now serves ORDER BY, from the index.
    const { resources } = await container.items.query("SELECT VALUE c.secret FROM c ORDER BY c.secret DESC").fetchAll();
    assert.equal(resources.length, ITEMS);
    assert.deepEqual(resources, [...resources].sort((a, b) => b - a));
    // Without populateQuotaInfo the header is not sent, as in the service.
    const plain = await container.read();
    assert.equal(plain.headers[PROGRESS], undefined);
  });
});
