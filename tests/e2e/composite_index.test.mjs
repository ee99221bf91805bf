// Composite indexes through the SDK (query-language.md §9.4): multi-key ORDER BY served
// in the declared and the fully reversed order, kept by every kind of write and rebuilt
// after a policy change; equality filters followed by a range or an ORDER BY reading
// only their matches (fewer documents loaded, a lower charge); the service's 400 when
// no composite serves a multi-key ORDER BY; and the index-utilization header, decoded
// by the SDK (FeedOptions.populateIndexMetrics) and in its base64 V1 form.
//
// Every expected order is a sort computed here from the items the test wrote.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { restClient, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const ITEMS = 400;
const PROGRESS = "x-ms-documentdb-collection-index-transformation-progress";
const NO_COMPOSITE = "The order by query does not have a corresponding composite index that it can be served from.";

// a: 0..4, b: 0..79 (unique within a), s: a string; every (a, b) pair is distinct.
function makeItem(i) {
  return { id: `i${String(i).padStart(4, "0")}`, pk: `p${i % 11}`, a: i % 5, b: Math.floor(i / 5), s: `s${(i * 7) % 13}` };
}
const ALL = Array.from({ length: ITEMS }, (_, i) => makeItem(i));

const policy = (composites) => ({
  indexingMode: "consistent",
  includedPaths: [{ path: "/*" }],
  excludedPaths: [{ path: '/"_etag"/?' }],
  ...(composites ? { compositeIndexes: composites } : {}),
});
const AB = [[{ path: "/a", order: "ascending" }, { path: "/b", order: "descending" }]];
const AB_ASC = [[{ path: "/a", order: "ascending" }, { path: "/b", order: "ascending" }]];

async function fill(container, docs = ALL) {
  for (let i = 0; i < docs.length; i += 50) {
    await Promise.all(docs.slice(i, i + 50).map((d) => container.items.create(d)));
  }
}

const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
/** The ids of `docs` sorted by keys [[field, "asc"|"desc"], ...]. */
function sortedIds(docs, keys) {
  return [...docs]
    .sort((x, y) => {
      for (const [f, dir] of keys) {
        const c = cmp(x[f], y[f]);
        if (c !== 0) return dir === "desc" ? -c : c;
      }
      return 0;
    })
    .map((d) => d.id);
}

function parseMetrics(text) {
  const out = {};
  for (const part of String(text).split(";")) {
    const [k, v] = part.split("=");
    out[k] = Number(v);
  }
  return out;
}

describe("composite indexes", { timeout: TIMEOUT * 3 }, () => {
  let server;
  let rest;
  let database;
  let dbId;
  withServerAndDatabase("cidx", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: (env) => {
      ({ server, dbId, database } = env);
      rest = restClient(server);
    },
  });

  const create = async (id, composites) =>
    (await database.containers.create({ id, partitionKey: { paths: ["/pk"], version: 2 }, indexingPolicy: policy(composites) }))
      .container;

  // One query page over REST with query metrics (and optionally V1 index metrics).
  const runRest = async (coll, q, extraHeaders = {}) => {
    const res = await rest.query(`dbs/${dbId}/colls/${coll}/docs`, q, [], {
      headers: {
        "x-ms-documentdb-populatequerymetrics": "true",
        "x-ms-documentdb-query-enablecrosspartition": "true",
        "x-ms-max-item-count": "1000",
        ...extraHeaders,
      },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return {
      res,
      rows: res.body.Documents,
      metrics: parseMetrics(res.headers["x-ms-documentdb-query-metrics"]),
      charge: Number(res.headers["x-ms-request-charge"]),
    };
  };

  test("multi-key ORDER BY in the declared and the reversed order equals a sort of the items", async () => {
    const container = await create("orderby", AB);
    await fill(container);
    const cases = [
      ["SELECT VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC", [["a", "asc"], ["b", "desc"]]],
      ["SELECT VALUE c.id FROM c ORDER BY c.a DESC, c.b ASC", [["a", "desc"], ["b", "asc"]]],
    ];
    for (const [q, keys] of cases) {
      for (const maxItemCount of [37, 1000]) {
        const { resources } = await container.items.query(q, { maxItemCount }).fetchAll();
        assert.deepEqual(resources, sortedIds(ALL, keys), `${q} (pages of ${maxItemCount})`);
      }
    }
    // TOP and a WHERE the index does not narrow.
    const { resources: top } = await container.items
      .query("SELECT TOP 7 VALUE c.id FROM c WHERE c.s != 's3' ORDER BY c.a DESC, c.b ASC")
      .fetchAll();
    assert.deepEqual(top, sortedIds(ALL.filter((d) => d.s !== "s3"), [["a", "desc"], ["b", "asc"]]).slice(0, 7));
    // The first page reads from each of the 4 partitions only the rows it can need.
    const first = await runRest("orderby", "SELECT TOP 7 VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC");
    assert.deepEqual(first.rows, sortedIds(ALL, [["a", "asc"], ["b", "desc"]]).slice(0, 7));
    assert.ok(first.metrics.retrievedDocumentCount <= 4 * 7, `${first.metrics.retrievedDocumentCount} loaded`);
    // One logical partition.
    const { resources: one } = await container.items
      .query("SELECT VALUE c.id FROM c ORDER BY c.a, c.b DESC", { partitionKey: "p4" })
      .fetchAll();
    assert.deepEqual(one, sortedIds(ALL.filter((d) => d.pk === "p4"), [["a", "asc"], ["b", "desc"]]));
  });

  test("a multi-key ORDER BY no composite serves is refused with the service's message", async () => {
    const container = await create("refused", AB);
    for (const q of ["SELECT * FROM c ORDER BY c.a ASC, c.b ASC", "SELECT * FROM c ORDER BY c.b DESC, c.a ASC"]) {
      const err = await expectCosmosError(container.items.query(q).fetchAll(), { code: 400, what: q });
      assert.ok(err.message.includes(NO_COMPOSITE), err.message);
    }
  });

  test("every kind of write keeps the composite index; a policy change rebuilds it", async () => {
    const container = await create("writes", AB);
    const docs = new Map(ALL.slice(0, 120).map((d) => [d.id, { ...d }]));
    await fill(container, [...docs.values()]);
    // replace, upsert (update and insert), patch, delete, a batch and bulk operations.
    const r = docs.get("i0003");
    r.a = 4;
    r.b = 1000;
    await container.item(r.id, r.pk).replace(r);
    const u = { ...docs.get("i0010"), a: 0, b: -5 };
    docs.set(u.id, u);
    await container.items.upsert(u);
    const n = { id: "new1", pk: "p1", a: 2, b: 33.5, s: "x" };
    docs.set(n.id, n);
    await container.items.upsert(n);
    await container.item("i0020", "p9").patch([{ op: "set", path: "/b", value: -1 }]);
    docs.get("i0020").b = -1;
    await container.item("i0031", "p9").delete();
    docs.delete("i0031");
    const batchDocs = [
      { id: "b1", pk: "p2", a: 1, b: 7.25, s: "b" },
      { id: "b2", pk: "p2", a: 3, b: -2, s: "b" },
    ];
    await container.items.batch(
      [
        { operationType: "Create", resourceBody: batchDocs[0] },
        { operationType: "Upsert", resourceBody: batchDocs[1] },
        { operationType: "Delete", id: "i0002" },
      ],
      "p2",
    );
    for (const d of batchDocs) docs.set(d.id, d);
    docs.delete("i0002");
    const bulkDocs = [
      { id: "k1", pk: "p5", a: 0, b: 500, s: "k" },
      { id: "k2", pk: "p6", a: 4, b: -100, s: "k" },
    ];
    await container.items.bulk([
      ...bulkDocs.map((d) => ({ operationType: "Create", resourceBody: d })),
      { operationType: "Delete", id: "i0005", partitionKey: "p5" },
    ]);
    for (const d of bulkDocs) docs.set(d.id, d);
    docs.delete("i0005");

    const q = "SELECT VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC";
    const want = sortedIds([...docs.values()], [["a", "asc"], ["b", "desc"]]);
    assert.deepEqual((await container.items.query(q, { maxItemCount: 25 }).fetchAll()).resources, want);

    // A new composite in a replaced policy: rebuilt online, then used.
    await expectCosmosError(container.items.query("SELECT * FROM c ORDER BY c.s, c.b").fetchAll(), { code: 400 });
    const { resource: current } = await container.read();
    await container.replace({
      ...current,
      indexingPolicy: policy([...AB, [{ path: "/s" }, { path: "/b" }]]),
    });
    let progress = -1;
    for (let i = 0; i < 400 && progress !== 100; i++) {
      progress = Number((await container.read({ populateQuotaInfo: true })).headers[PROGRESS]);
      if (progress !== 100) await new Promise((res) => setTimeout(res, 25));
    }
    assert.equal(progress, 100, "the re-index finished");
    const { resources } = await container.items.query("SELECT VALUE c.id FROM c ORDER BY c.s, c.b").fetchAll();
    assert.deepEqual(resources, sortedIds([...docs.values()], [["s", "asc"], ["b", "asc"]]));
    assert.deepEqual((await container.items.query(q).fetchAll()).resources, want, "the first composite still serves");
    const { indexMetrics } = await container.items
      .query("SELECT * FROM c ORDER BY c.s DESC, c.b DESC", { populateIndexMetrics: true, partitionKey: "p1" })
      .fetchNext();
    assert.deepEqual(JSON.parse(indexMetrics).UtilizedIndexes.CompositeIndexes, [
      { IndexSpecs: ["/s ASC", "/b ASC"], IndexImpactScore: "High" },
    ]);
  });

  test("equality then range or ORDER BY: the composite loads only the matches and charges less", async () => {
    const withC = await create("eqwith", AB_ASC);
    const without = await create("eqwithout", null);
    await Promise.all([fill(withC), fill(without)]);
    const aIs1 = ALL.filter((d) => d.a === 1);

    // c.a = 1 AND c.b > 50: through (a, b) only the matches; without, every a = 1 item.
    const q1 = "SELECT VALUE c.id FROM c WHERE c.a = 1 AND c.b > 50";
    const want1 = ALL.filter((d) => d.a === 1 && d.b > 50).map((d) => d.id).sort();
    const r1 = await runRest("eqwith", q1);
    const s1 = await runRest("eqwithout", q1);
    assert.deepEqual([...r1.rows].sort(), want1);
    assert.deepEqual([...s1.rows].sort(), want1);
    assert.equal(r1.metrics.retrievedDocumentCount, want1.length);
    assert.equal(s1.metrics.retrievedDocumentCount, aIs1.length);
    assert.ok(r1.charge < s1.charge, `with composite ${r1.charge} RU vs without ${s1.charge} RU`);

    // c.a = 1 AND c.b >= 10 AND c.b < 20 (one range of b).
    const q2 = "SELECT VALUE c.id FROM c WHERE c.a = 1 AND c.b >= 10 AND c.b < 20";
    const want2 = ALL.filter((d) => d.a === 1 && d.b >= 10 && d.b < 20).map((d) => d.id).sort();
    const r2 = await runRest("eqwith", q2);
    assert.deepEqual([...r2.rows].sort(), want2);
    assert.equal(r2.metrics.retrievedDocumentCount, want2.length);

    // c.a = 1 ORDER BY c.b DESC (the composite reversed), the first page of 5: each of
    // the 4 partitions stops after the rows the page can need.
    const q3 = "SELECT TOP 5 VALUE c.id FROM c WHERE c.a = 1 ORDER BY c.b DESC";
    const want3 = sortedIds(aIs1, [["b", "desc"]]).slice(0, 5);
    const r3 = await runRest("eqwith", q3);
    const s3 = await runRest("eqwithout", q3);
    assert.deepEqual(r3.rows, want3);
    assert.deepEqual(s3.rows, want3);
    assert.ok(r3.metrics.retrievedDocumentCount <= 4 * 5, `with composite: ${r3.metrics.retrievedDocumentCount} loaded`);
    assert.equal(s3.metrics.retrievedDocumentCount, aIs1.length);
    assert.ok(r3.charge < s3.charge, `with composite ${r3.charge} RU vs without ${s3.charge} RU`);
    // Through the SDK, all pages.
    const { resources } = await withC.items
      .query("SELECT VALUE c.id FROM c WHERE c.a = 1 ORDER BY c.b", { maxItemCount: 9 })
      .fetchAll();
    assert.deepEqual(resources, sortedIds(aIs1, [["b", "asc"]]));
    void without;
  });

  test("index metrics: utilized and potential indexes, V2 through the SDK and V1 in base64", async () => {
    const withC = await create("metricswith", AB_ASC);
    const without = await create("metricswithout", null);
    await Promise.all([fill(withC, ALL.slice(0, 50)), fill(without, ALL.slice(0, 50))]);
    const q = "SELECT * FROM c WHERE c.a = 1 AND c.b > 3";
    const used = await withC.items.query(q, { populateIndexMetrics: true, partitionKey: "p1" }).fetchNext();
    const usedMetrics = JSON.parse(used.indexMetrics);
    assert.deepEqual(usedMetrics.UtilizedIndexes.CompositeIndexes, [
      { IndexSpecs: ["/a ASC", "/b ASC"], IndexImpactScore: "High" },
    ]);
    assert.deepEqual(usedMetrics.PotentialIndexes, { SingleIndexes: [], CompositeIndexes: [] });

    const missing = await without.items.query(q, { populateIndexMetrics: true, partitionKey: "p1" }).fetchNext();
    const missingMetrics = JSON.parse(missing.indexMetrics);
    assert.deepEqual(
      missingMetrics.UtilizedIndexes.SingleIndexes.map((s) => s.IndexSpec).sort(),
      ["/a/?", "/b/?"],
    );
    assert.deepEqual(missingMetrics.UtilizedIndexes.CompositeIndexes, []);
    assert.deepEqual(missingMetrics.PotentialIndexes.CompositeIndexes, [
      { IndexSpecs: ["/a ASC", "/b ASC"], IndexImpactScore: "High" },
    ]);

    // Not asked for: not sent.
    const plain = await runRest("metricswith", q);
    assert.equal(plain.res.headers["x-ms-cosmos-index-utilization"], undefined);
    // V1: base64 JSON with the flat shape.
    const v1 = await runRest("metricswith", q, { "x-ms-cosmos-populateindexmetrics": "true" });
    const decoded = JSON.parse(Buffer.from(v1.res.headers["x-ms-cosmos-index-utilization"], "base64").toString("utf8"));
    assert.deepEqual(Object.keys(decoded), [
      "UtilizedSingleIndexes", "PotentialSingleIndexes", "UtilizedCompositeIndexes", "PotentialCompositeIndexes",
    ]);
    assert.deepEqual(decoded.UtilizedCompositeIndexes.map((c) => c.IndexSpecs), [["/a ASC", "/b ASC"]]);
  });
});
