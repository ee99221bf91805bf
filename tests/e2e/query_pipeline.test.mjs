// The SDK's own cross-partition query pipeline — wire-protocol.md §9.2 (two paths),
// §9.4 (range-targeted sub-queries), §9.5/§9.6 (query plan, rewritten queries and
// per-range row shapes), §10.4 (x-ms-documentdb-partitionkeyrangeid).
//
// Every query runs (a) the normal way — the optimistic request, which Orrery answers
// with the final result — and (b) through the SDK pipeline, forced with
// FeedOptions.forceQueryPlan and with enableQueryControl: the SDK fetches the plan,
// sends the plan's rewrittenQuery once per partition key range with
// x-ms-documentdb-partitionkeyrangeid and merges the per-range rows itself. Both must
// give exactly the same result, for page sizes 1, 2 and 100. A request-recording
// plugin checks which path really ran.
//
// Limits of the JS SDK's merge (not Orrery's): ORDER BY keys must have one type across
// ranges (no missing/null keys: "Cannot execute cross partition order-by queries on
// mixed types"), ties are broken by range, so ordered comparisons use total orders;
// GROUP BY partials must not be poisoned (SUM/AVG of non-numbers); DISTINCT drops falsy
// values (null, 0, false, ""); a MIN/MAX over arrays or objects is undefined on the
// server, while the SDK merges the other ranges' values.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, dropDatabase } from "./lib/util.mjs";
import { queryRecorder } from "./lib/query_recorder.mjs";

const TIMEOUT = 180_000;
const PARTITIONS = 8;
const ITEM_COUNT = 200;
const PAGE_SIZES = [1, 2, 100];

/** The items: numbers, strings, booleans, missing and null fields, groups. */
function makeItems() {
  const items = [];
  for (let i = 0; i < ITEM_COUNT; i++) {
    const doc = { id: `item-${String(i).padStart(3, "0")}`, pk: `p${i % 23}`, u: (i * 37) % ITEM_COUNT };
    if (i % 11 !== 0) doc.n = i % 17; // missing for every 11th
    if (i % 29 === 0) doc.n = null;
    doc.f = (i % 40) * 0.25; // exact binary fractions: sums do not depend on order
    if (i % 7 !== 3) doc.s = `s${(i * 13) % 31}`;
    if (i % 19 !== 5) doc.g = `g${i % 5}`;
    if (i % 31 === 1) doc.g = null;
    doc.b = i % 3 === 0;
    const mixed = [i, `m${i % 9}`, null, i % 2 === 0, undefined];
    if (mixed[i % 5] !== undefined) doc.m = mixed[i % 5];
    if (i % 4 === 0) doc.tags = [`t${i % 3}`, `t${(i + 1) % 3}`];
    items.push(doc);
  }
  return items;
}

/**
 * The queries. compare: "ordered" (exact sequence), "multiset" (same rows in any order),
 * "size" (same number of rows, each one a possible row: the query does not define which
 * rows are returned). marker: text the per-range (rewritten) query must contain.
 */
const QUERIES = [
  // ORDER BY
  { kind: "orderby", q: "SELECT * FROM c ORDER BY c.u", compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT * FROM c ORDER BY c.u DESC", compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT c.id, c.n FROM c WHERE IS_NUMBER(c.n) ORDER BY c.n ASC, c.id DESC", compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT c.id, c.s, c.f FROM c WHERE IS_STRING(c.s) ORDER BY c.s DESC, c.f ASC, c.id ASC", compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT VALUE c.n FROM c WHERE IS_NUMBER(c.n) AND c.n > @min ORDER BY c.n DESC", params: [{ name: "@min", value: 4 }], compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT VALUE {id: c.id, twice: c.u * 2} FROM c WHERE c.b ORDER BY c.id", compare: "ordered", marker: "orderByItems" },
  { kind: "orderby", q: "SELECT c.id, t AS tag FROM c JOIN t IN c.tags ORDER BY c.id", compare: "ordered", marker: "orderByItems" },
  // VALUE aggregates
  { kind: "aggregate", q: "SELECT VALUE COUNT(1) FROM c", compare: "ordered", marker: '"item"' },
  { kind: "aggregate", q: "SELECT VALUE COUNT(c.n) FROM c WHERE c.b", compare: "ordered", marker: '"item"' },
  { kind: "aggregate", q: "SELECT VALUE SUM(c.f) FROM c", compare: "ordered", marker: '"item"' },
  { kind: "aggregate", q: "SELECT VALUE SUM(c.n) FROM c WHERE IS_NUMBER(c.n)", compare: "ordered", marker: '"item"' },
  { kind: "aggregate", q: "SELECT VALUE SUM(c.n) FROM c", compare: "ordered", marker: '"item"' }, // null: undefined → []
  { kind: "aggregate", q: "SELECT VALUE AVG(c.f) FROM c", compare: "ordered", marker: '"sum"' },
  { kind: "aggregate", q: "SELECT VALUE AVG(c.n) FROM c WHERE IS_NUMBER(c.n)", compare: "ordered", marker: '"sum"' },
  { kind: "aggregate", q: "SELECT VALUE AVG(c.s) FROM c", compare: "ordered", marker: '"sum"' }, // strings: undefined → []
  { kind: "aggregate", q: "SELECT VALUE MIN(c.n) FROM c", compare: "ordered", marker: '"min"' }, // null is the lowest
  { kind: "aggregate", q: "SELECT VALUE MIN(c.f) FROM c WHERE c.f > 3", compare: "ordered", marker: '"min"' },
  { kind: "aggregate", q: "SELECT VALUE MAX(c.s) FROM c", compare: "ordered", marker: '"max"' },
  { kind: "aggregate", q: "SELECT VALUE MAX(c.m) FROM c", compare: "ordered", marker: '"max"' }, // mixed types
  { kind: "aggregate", q: "SELECT VALUE MAX(c.missing) FROM c", compare: "ordered", marker: '"max"' }, // → []
  // GROUP BY
  { kind: "groupby", q: "SELECT c.g AS g, COUNT(1) AS cnt, SUM(c.f) AS total, AVG(c.f) AS mean, MIN(c.n) AS lo, MAX(c.s) AS hi FROM c GROUP BY c.g", compare: "multiset", marker: "groupByItems" },
  { kind: "groupby", q: "SELECT c.g, c.b, COUNT(1) AS n FROM c GROUP BY c.g, c.b", compare: "multiset", marker: "groupByItems" },
  { kind: "groupby", q: "SELECT VALUE c.g FROM c GROUP BY c.g", compare: "multiset", marker: "groupByItems" },
  { kind: "groupby", q: "SELECT VALUE COUNT(1) FROM c WHERE c.u < 150 GROUP BY c.g", compare: "multiset", marker: "groupByItems" },
  { kind: "groupby", q: "SELECT COUNT(1) AS n, SUM(c.f) AS s, MIN(c.s) AS lo FROM c", compare: "multiset", marker: "groupByItems" },
  // DISTINCT
  { kind: "distinct", q: "SELECT DISTINCT VALUE c.g FROM c WHERE IS_STRING(c.g)", compare: "multiset" },
  { kind: "distinct", q: "SELECT DISTINCT c.g, c.b FROM c", compare: "multiset" },
  { kind: "distinct", q: "SELECT DISTINCT VALUE c.n FROM c WHERE c.n > 0 ORDER BY c.n", compare: "ordered", marker: "orderByItems" },
  { kind: "distinct", q: "SELECT DISTINCT VALUE c.s FROM c WHERE IS_STRING(c.s) ORDER BY c.s DESC", compare: "ordered", marker: "orderByItems" },
  // OFFSET / LIMIT
  { kind: "offset", q: "SELECT c.id, c.u FROM c ORDER BY c.u OFFSET 10 LIMIT 25", compare: "ordered", marker: "OFFSET 0 LIMIT 35" },
  { kind: "offset", q: "SELECT VALUE c.id FROM c ORDER BY c.id DESC OFFSET 190 LIMIT 20", compare: "ordered", marker: "OFFSET 0 LIMIT 210" },
  { kind: "offset", q: "SELECT VALUE c.id FROM c ORDER BY c.id OFFSET @o LIMIT @l", params: [{ name: "@o", value: 3 }, { name: "@l", value: 4 }], compare: "ordered", marker: "OFFSET 0 LIMIT 7" },
  { kind: "offset", q: "SELECT * FROM c OFFSET 5 LIMIT 10", compare: "size", marker: "OFFSET 0 LIMIT 15" },
  { kind: "offset", q: "SELECT c.id FROM c OFFSET 500 LIMIT 10", compare: "ordered", marker: "OFFSET 0 LIMIT 510" },
  { kind: "offset", q: "SELECT DISTINCT VALUE c.g FROM c WHERE IS_STRING(c.g) OFFSET 1 LIMIT 2", compare: "size" },
  { kind: "offset", q: "SELECT c.g, COUNT(1) AS n FROM c GROUP BY c.g OFFSET 1 LIMIT 3", compare: "size", marker: "groupByItems" },
  // TOP
  { kind: "top", q: "SELECT TOP 7 c.id, c.u FROM c ORDER BY c.u DESC", compare: "ordered", marker: "TOP 7" },
  { kind: "top", q: "SELECT TOP 3 VALUE c.id FROM c WHERE c.f >= 5 ORDER BY c.id", compare: "ordered", marker: "TOP 3" },
  { kind: "top", q: "SELECT TOP @t * FROM c ORDER BY c.u", params: [{ name: "@t", value: 12 }], compare: "ordered", marker: "TOP @t" },
  { kind: "top", q: "SELECT TOP 5 * FROM c", compare: "size" },
  { kind: "top", q: "SELECT TOP 500 VALUE c.u FROM c", compare: "multiset" },
  // No FROM: one row, from one range only.
  { kind: "nofrom", q: "SELECT VALUE 1 + 2", compare: "ordered", ranges: 1 },
];

const PIPELINE_MODES = [
  { name: "forceQueryPlan", options: { forceQueryPlan: true } },
  { name: "enableQueryControl", options: { enableQueryControl: true } },
];

/** JSON-normal form: drops undefined members, as the wire would. */
const normal = (v) => JSON.parse(JSON.stringify(v ?? null));
const sortedTexts = (rows) => rows.map((r) => JSON.stringify(r)).sort();

describe("SDK cross-partition query pipeline vs server-side execution", { timeout: TIMEOUT * 3 }, () => {
  let server;
  let client;
  let recorder;
  let dbId;
  let container;
  let items;

  before(async () => {
    server = await startServer({ args: ["--initial-partitions", String(PARTITIONS)] });
    recorder = queryRecorder();
    client = sdkClient(server, { plugins: [recorder.plugin] });
    dbId = uniqueId("qpipe");
    const { database } = await client.databases.create({ id: dbId });
    // ORDER BY on several keys needs a composite index of exactly those keys, as in the
    // service (query-language.md §9.3); the default policy covers single keys.
    const indexingPolicy = {
      indexingMode: "consistent",
      includedPaths: [{ path: "/*" }],
      excludedPaths: [{ path: '/"_etag"/?' }],
      compositeIndexes: [
        [{ path: "/n", order: "ascending" }, { path: "/id", order: "descending" }],
        [{ path: "/s", order: "descending" }, { path: "/f", order: "ascending" }, { path: "/id", order: "ascending" }],
      ],
    };
    ({ container } = await database.containers.create({
      id: "items",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy,
    }));
    items = makeItems();
    for (let i = 0; i < items.length; i += 20) {
      await Promise.all(items.slice(i, i + 20).map((doc) => container.items.create(doc)));
    }
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  async function run(spec, options) {
    recorder.log.length = 0;
    const query = { query: spec.q, parameters: spec.params ?? [] };
    const { resources } = await container.items.query(query, options).fetchAll();
    return { rows: normal(resources), requests: recorder.log.slice() };
  }

  test("the container spans several ranges and the items several of them", async () => {
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    assert.equal(ranges.length, PARTITIONS, "pkranges of a container on --initial-partitions 8");
    // A range-targeted query per range: every range answers, together they hold every item.
    const { requests, rows } = await run({ q: "SELECT VALUE c.id FROM c" }, { forceQueryPlan: true, maxItemCount: 100 });
    const ranged = new Set(requests.filter((r) => !r.plan).map((r) => String(r.rangeId)));
    assert.deepEqual([...ranged].sort(), ranges.map((r) => r.id).sort(), "the pipeline queried every range");
    assert.equal(rows.length, ITEM_COUNT);
    assert.deepEqual(new Set(rows), new Set(items.map((d) => d.id)));
  });

  test("the query plan has the service's shape and its rewritten query runs per range", async () => {
    const rest = restClient(server);
    const docs = `dbs/${dbId}/colls/items/docs`;
    const text = "SELECT c.id FROM c WHERE c.n > 2 ORDER BY c.u DESC OFFSET 2 LIMIT 3";
    const res = await rest.post(docs, {
      body: { query: text },
      headers: {
        "content-type": "application/query+json",
        "x-ms-cosmos-is-query-plan-request": "True",
        "x-ms-cosmos-query-version": "1.4",
        "x-ms-cosmos-supported-query-features": "Aggregate,Distinct,MultipleOrderBy,OffsetAndLimit,OrderBy,Top,GroupBy",
      },
    });
    assert.equal(res.status, 200, res.text);
    const info = res.body.queryInfo;
    assert.equal(res.body.partitionedQueryExecutionInfoVersion, 2);
    assert.deepEqual(info.orderBy, ["Descending"]);
    assert.deepEqual(info.orderByExpressions, ["c.u"]);
    assert.equal(info.offset, 2);
    assert.equal(info.limit, 3);
    assert.equal(info.top, null);
    assert.equal(info.distinctType, "None");
    assert.equal(
      info.rewrittenQuery,
      'SELECT c._rid, [{"item": c.u}] AS orderByItems, {"id": c.id} AS payload FROM c AS c ' +
        "WHERE ((c.n > 2)) AND ({documentdb-formattableorderbyquery-filter}) ORDER BY c.u DESC OFFSET 0 LIMIT 5",
    );
    assert.deepEqual(res.body.queryRanges, [{ min: "", max: "FF", isMinInclusive: true, isMaxInclusive: false }]);
    assert.equal(res.body.hybridSearchQueryInfo, null);

    // Run it on each range as the SDK does: sorted rows with _rid, orderByItems, payload.
    const perRange = info.rewrittenQuery.replace("{documentdb-formattableorderbyquery-filter}", "true");
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    let total = 0;
    for (const range of ranges) {
      const r = await rest.query(docs, perRange, [], { headers: { "x-ms-documentdb-partitionkeyrangeid": range.id } });
      assert.equal(r.status, 200, r.text);
      const rows = r.body.Documents;
      assert.ok(rows.length <= 5, "OFFSET 0 LIMIT 5 per range");
      for (let i = 0; i < rows.length; i++) {
        assert.deepEqual(Object.keys(rows[i]), ["_rid", "orderByItems", "payload"]);
        assert.equal(typeof rows[i]._rid, "string");
        assert.equal(typeof rows[i].orderByItems[0].item, "number");
        assert.deepEqual(Object.keys(rows[i].payload), ["id"]);
        if (i > 0) assert.ok(rows[i - 1].orderByItems[0].item >= rows[i].orderByItems[0].item, "sorted DESC per range");
      }
      total += rows.length;
    }
    assert.ok(total > 5, "several ranges contribute rows");
  });

  // enableQueryControl continuations: each page from a new iterator resumed with the
  // SDK's composite token; ORDER BY resumes replace the rewritten query's filter
  // placeholder with a filter on the last sort values (§9.7).
  for (const q of [
    "SELECT c.id, c.u FROM c ORDER BY c.u DESC",
    // Unique keys only. Not tested: (1) two keys — JS 4.10.1 resumes a multi-key ORDER BY
    // with a conjunction of per-key filters (`c.n > 0 AND c.id > 'x'`), which loses rows
    // whatever the server does; (2) ties — the SDK skips already-returned rows assuming
    // ties are ordered by _rid within a range, which Orrery's engine does not do yet.
    "SELECT c.id, c.s FROM c WHERE c.b ORDER BY c.id DESC",
    "SELECT VALUE c.id FROM c WHERE c.f > 2",
    "SELECT c.id FROM c ORDER BY c.id OFFSET 3 LIMIT 30",
  ]) {
    test(`enableQueryControl resumes page by page: ${q}`, async () => {
      const expected = normal((await container.items.query(q, { maxItemCount: 1000 }).fetchAll()).resources);
      let token;
      const rows = [];
      const filters = new Set();
      for (let pages = 0; pages < 200; pages++) {
        recorder.log.length = 0;
        const it = container.items.query(q, { enableQueryControl: true, maxItemCount: 7, continuationToken: token });
        const page = await it.fetchNext();
        rows.push(...normal(page.resources ?? []));
        for (const r of recorder.log) if (!r.plan) filters.add(r.body);
        token = page.continuationToken;
        if (!token) break;
      }
      assert.equal(token, undefined, "the query completed");
      if (q.includes("ORDER BY")) {
        assert.deepEqual(rows, expected);
        assert.ok([...filters].some((b) => /\(+c\.(u|id) [<>]=? /.test(b)), "a resume filter was sent");
      } else {
        assert.deepEqual(sortedTexts(rows), sortedTexts(expected));
      }
    });
  }

  for (const spec of QUERIES) {
    test(`${spec.kind}: ${spec.q}`, { timeout: TIMEOUT }, async () => {
      let expected;
      for (const maxItemCount of PAGE_SIZES) {
        // (a) the normal way: the optimistic request, answered with the final result.
        const normalRun = await run(spec, { maxItemCount });
        assert.ok(normalRun.requests.length > 0, "requests were recorded");
        assert.ok(
          normalRun.requests.filter((r) => !r.plan).every((r) => r.rangeId === undefined),
          `normal path (maxItemCount ${maxItemCount}) must not send range-targeted requests`,
        );
        if (expected === undefined) {
          expected = normalRun.rows;
        } else {
          assert.deepEqual(normalRun.rows, expected, `normal path, maxItemCount ${maxItemCount}`);
        }

        // (b) the SDK pipeline.
        for (const mode of PIPELINE_MODES) {
          const what = `${mode.name}, maxItemCount ${maxItemCount}`;
          const piped = await run(spec, { maxItemCount, ...mode.options });
          const planRequests = piped.requests.filter((r) => r.plan);
          const rangeRequests = piped.requests.filter((r) => !r.plan);
          assert.ok(planRequests.length >= 1, `${what}: the SDK fetched a query plan`);
          assert.ok(
            rangeRequests.length > 0 && rangeRequests.every((r) => r.rangeId !== undefined),
            `${what}: every query request targets one partition key range`,
          );
          const rangesQueried = new Set(rangeRequests.map((r) => r.rangeId)).size;
          if (spec.ranges) assert.equal(rangesQueried, spec.ranges, `${what}: ranges queried`);
          else assert.ok(rangesQueried > 1, `${what}: several ranges queried`);
          if (spec.marker) {
            assert.ok(
              rangeRequests.every((r) => r.body.includes(spec.marker.replaceAll('"', '\\"')) || r.body.includes(spec.marker)),
              `${what}: per-range requests carry the rewritten query (${spec.marker}); sent: ${rangeRequests[0]?.body}`,
            );
          }
          if (spec.compare === "ordered") {
            assert.deepEqual(piped.rows, expected, what);
          } else if (spec.compare === "multiset") {
            assert.deepEqual(sortedTexts(piped.rows), sortedTexts(expected), what);
          } else {
            assert.equal(piped.rows.length, expected.length, `${what}: row count`);
            const all = await run({ q: spec.q.replace(/TOP \S+ /, "").replace(/\sOFFSET\s.*$/, "") }, { maxItemCount: 1000 });
            const possible = new Set(sortedTexts(all.rows));
            for (const row of piped.rows) {
              assert.ok(possible.has(JSON.stringify(row)), `${what}: ${JSON.stringify(row)} is a row of the query`);
            }
          }
        }
      }
      if (spec.compare !== "size") {
        assert.ok(expected.length > 0 || /missing|AVG\(c\.s\)|SUM\(c\.n\) FROM c$|tags|OFFSET 500/.test(spec.q), "the query returns rows");
      }
    });
  }
});
