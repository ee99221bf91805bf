// Vector search through @azure/cosmos (docs/research/vector-fulltext-protocol.md): the
// container policies (vectorEmbeddingPolicy, vectorIndexes, fullTextPolicy,
// fullTextIndexes) with the service's 400s, and ORDER BY VectorDistance ranked most
// similar first, single- and cross-partition, through the SDK's direct path and its
// query-plan pipeline (hasNonStreamingOrderBy). Every expected ranking and score is
// computed here, by brute force over the vectors the test wrote.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { restClient, expectCosmosError, seededRandom } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const pk = { paths: ["/pk"], version: 2 };
const DIMS = 16;

const next = seededRandom(20261204);
const vector = () => Array.from({ length: DIMS }, () => Math.round((next() * 2 - 1) * 1000) / 1000);
const ITEMS = Array.from({ length: 240 }, (_, i) => ({ id: `v${i}`, pk: `p${i % 11}`, n: i, e: vector() }));
const QUERY_VECTOR = vector();

const SCORE = {
  cosine: (a, b) => {
    let dot = 0, aa = 0, bb = 0;
    for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
    return dot / (Math.sqrt(aa) * Math.sqrt(bb));
  },
  dotproduct: (a, b) => a.reduce((s, x, i) => s + x * b[i], 0),
  euclidean: (a, b) => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0)),
};
const MOST_SIMILAR_FIRST = { cosine: (x, y) => y - x, dotproduct: (x, y) => y - x, euclidean: (x, y) => x - y };

// The k most similar items to QUERY_VECTOR among `items`, with their scores.
function bruteForce(items, fn, k) {
  return items
    .map((d) => ({ id: d.id, s: SCORE[fn](d.e, QUERY_VECTOR) }))
    .sort((x, y) => MOST_SIMILAR_FIRST[fn](x.s, y.s))
    .slice(0, k);
}

function assertRanking(rows, expected, what) {
  assert.equal(rows.length, expected.length, `${what}: row count`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(rows[i].s - expected[i].s) <= 1e-9 * Math.max(1, Math.abs(expected[i].s)), `${what}: score ${i}: ${rows[i].s} vs ${expected[i].s}`);
  }
  // Equal scores may come in either order; the sets of ids at each score must agree.
  const byScore = (list) => list.map((r) => `${r.s.toFixed(9)}:${r.id}`).sort();
  assert.deepEqual(byScore(rows), byScore(expected), `${what}: the items ranked`);
}

const embedding = (fn, extra = {}) => ({ vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: fn, dimensions: DIMS, ...extra }] });

describe("vector search", { timeout: TIMEOUT * 3 }, () => {
  let server;
  let rest;
  let database;
  let dbId;
  let client;
  withServerAndDatabase("vector", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: (env) => {
      ({ server, dbId, database, client } = env);
      rest = restClient(server);
    },
  });

  const fill = async (container, items) => {
    for (let i = 0; i < items.length; i += 40) await Promise.all(items.slice(i, i + 40).map((d) => container.items.create(d)));
  };

  test("policies are stored and read back as given", async () => {
    const definition = {
      id: "policies",
      partitionKey: pk,
      vectorEmbeddingPolicy: { vectorEmbeddings: [
        { path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: 768 },
        { path: "/small", dataType: "int8", distanceFunction: "euclidean", dimensions: 8 },
      ] },
      fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }, { path: "/titre", language: "fr-FR" }] },
      indexingPolicy: {
        excludedPaths: [{ path: "/e/*" }, { path: "/small/*" }],
        vectorIndexes: [
          { path: "/e", type: "diskANN", quantizationByteSize: 96, indexingSearchListSize: 100, vectorIndexShardKey: ["/pk"] },
          { path: "/small", type: "flat" },
        ],
        fullTextIndexes: [{ path: "/text" }],
      },
    };
    const { resource } = await database.containers.create(definition, { offerThroughput: 1000 });
    const { resource: read } = await database.container("policies").read();
    for (const r of [resource, read]) {
      assert.deepEqual(r.vectorEmbeddingPolicy, definition.vectorEmbeddingPolicy);
      assert.deepEqual(r.fullTextPolicy, definition.fullTextPolicy);
      assert.deepEqual(r.indexingPolicy.vectorIndexes, definition.indexingPolicy.vectorIndexes);
      assert.deepEqual(r.indexingPolicy.fullTextIndexes, definition.indexingPolicy.fullTextIndexes);
    }
    // The full-text policy may be replaced; the vector policy and indexes may not.
    const fullText = { defaultLanguage: "de-DE", fullTextPaths: [{ path: "/text" }] };
    const { resource: replaced } = await database.container("policies").replace({ ...read, fullTextPolicy: fullText, indexingPolicy: { ...read.indexingPolicy, fullTextIndexes: [] } });
    assert.deepEqual(replaced.fullTextPolicy, fullText);
    const changedVectors = { vectorEmbeddings: [{ ...definition.vectorEmbeddingPolicy.vectorEmbeddings[0], dimensions: 512 }, definition.vectorEmbeddingPolicy.vectorEmbeddings[1]] };
    await expectCosmosError(database.container("policies").replace({ ...replaced, vectorEmbeddingPolicy: changedVectors }), { code: 400, what: "changing the vector policy" });
    await expectCosmosError(
      database.container("policies").replace({ ...replaced, indexingPolicy: { ...replaced.indexingPolicy, vectorIndexes: [{ path: "/e", type: "quantizedFlat" }] } }),
      { code: 400, what: "changing the vector indexes" },
    );
    const { resource: after } = await database.container("policies").read();
    assert.deepEqual(after.vectorEmbeddingPolicy, definition.vectorEmbeddingPolicy);
    assert.deepEqual(after.indexingPolicy.vectorIndexes, definition.indexingPolicy.vectorIndexes);
  });

  test("bad policies get the service's 400 and create nothing", async () => {
    // Messages of the service as its own SDK tests assert them (azure-sdk-for-python
    // test_vector_policy.py and test_full_text_policy.py).
    const cases = [
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/other", type: "flat" }] } }, "The Vector Indexing Policy's path::/other not matching in Embedding's path."],
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "notFlat" }] } }, "Index Type::notFlat is invalid"],
      [{ vectorEmbeddingPolicy: embedding("cosine", { dimensions: 256 }), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "quantizedFlat", quantizationByteSize: 0 }] } },
        "The Vector Indexing Policy parameter QuantizationByteSize value :: 0 is out of range. The allowed range is between 1 and 256."],
      [{ vectorEmbeddingPolicy: embedding("cosine", { dimensions: 550 }), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "diskANN", quantizationByteSize: 513 }] } },
        "The Vector Indexing Policy parameter QuantizationByteSize value :: 513 is out of range. The allowed range is between 1 and 512."],
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "diskANN", indexingSearchListSize: 5 }] } },
        "IndexingSearchListSize value :: 5 is out of range. The allowed range is between 25 and 500."],
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "diskANN", vectorIndexShardKey: ["country"] }] } },
        "The Vector Indexing Policy has an invalid Shard Path: country."],
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "diskANN", vectorIndexShardKey: ["/a", "/b", "/c"] }] } },
        "The number of shard paths defined in the Vector Indexing Policy: 3 exceeds the maximum: 1."],
      [{ vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "diskANN", vectorIndexShardKey: "/country" }] } },
        "One of the specified inputs is invalid"],
      [{ vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float33", distanceFunction: "cosine", dimensions: 3 }] } }, "Vector Embedding Policy has an invalid DataType"],
      [{ vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: 8000 }] } },
        "Vector Embedding Policy has Dimensions:8000 which is more than the maximum supported value"],
      [{ vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: -1 }] } }, "The Vector Embedding Policy has Dimensions:-1"],
      [{ vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "handMeasured", dimensions: 3 }] } },
        "The Vector Embedding Policy has an invalid DistanceFunction:handMeasured"],
      // A flat index holds vectors of up to 505 dimensions (Microsoft's vector index docs).
      [{ vectorEmbeddingPolicy: embedding("cosine", { dimensions: 506 }), indexingPolicy: { vectorIndexes: [{ path: "/e", type: "flat" }] } }, "505"],
      [{ fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "abstract", language: "en-US" }] } }, "The Full Text Policy contains an invalid Path: abstract"],
      [{ fullTextPolicy: { defaultLanguage: "spa-SPA", fullTextPaths: [{ path: "/abstract" }] } }, "The Full Text Policy contains an unsupported language spa-SPA. Supported languages are:"],
      [{ fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/abstract", language: "spa-SPA" }] } }, "The Full Text Policy contains an unsupported language spa-SPA. Supported languages are:"],
      [{ fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/abstract" }] }, indexingPolicy: { fullTextIndexes: [{ path: "/path" }] } },
        "The path of the Full Text Index /path does not match the path specified in the Full Text Policy"],
      [{ fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/abstract" }] }, indexingPolicy: { fullTextIndexes: [{ path: "abstract" }] } },
        "Full-text index specification at index (0) contains invalid path"],
      [{ fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/abstract" }] }, indexingPolicy: { fullTextIndexes: [{ not_path: "/abstract" }] } },
        "Missing path in full-text index specification at index (0)"],
    ];
    let n = 0;
    for (const [extra, message] of cases) {
      const id = `bad-${n++}`;
      const e = await expectCosmosError(database.containers.create({ id, partitionKey: pk, ...extra }, { offerThroughput: 400 }), { code: 400, what: message });
      assert.ok(e.message.includes(message), `expected "${message}" in: ${e.message}`);
      await expectCosmosError(database.container(id).read(), { code: 404, what: `${message}: not created` });
    }
    // Accepted, as the service does: a policy with only a default language; a path that
    // inherits it (Go's SDK sends "language": "").
    await database.containers.create({ id: "ft-default", partitionKey: pk, fullTextPolicy: { defaultLanguage: "en-US" } });
    const { resource } = await database.containers.create({ id: "ft-inherit", partitionKey: pk, fullTextPolicy: { defaultLanguage: "fr-FR", fullTextPaths: [{ path: "/t", language: "" }] } });
    assert.equal(resource.fullTextPolicy.defaultLanguage, "fr-FR");
  });

  test("a vector policy needs the container's own throughput, not a shared database's", async () => {
    const { database: shared } = await client.databases.create({ id: `${dbId}-shared`, throughput: 400 });
    try {
      const e = await expectCosmosError(shared.containers.create({ id: "v", partitionKey: pk, vectorEmbeddingPolicy: embedding("cosine") }), { code: 400, what: "vectors on shared throughput" });
      assert.match(e.message, /shared|own throughput/i);
      const { statusCode } = await shared.containers.create({ id: "v2", partitionKey: pk, vectorEmbeddingPolicy: embedding("cosine") }, { offerThroughput: 400 });
      assert.equal(statusCode, 201);
    } finally {
      await shared.delete();
    }
  });

  for (const fn of ["cosine", "dotproduct", "euclidean"]) {
    test(`ORDER BY VectorDistance ranks most similar first (${fn}), in every SDK path`, async () => {
      const { container } = await database.containers.create(
        { id: `rank-${fn}`, partitionKey: pk, vectorEmbeddingPolicy: embedding(fn), indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type: "flat" }] } },
        { offerThroughput: 10000 },
      );
      // An item without a vector, and one with the wrong number of dimensions, have no score.
      await fill(container, [...ITEMS, { id: "novector", pk: "p1", n: -1 }, { id: "short", pk: "p2", n: -2, e: [1, 2, 3] }]);
      const qv = JSON.stringify(QUERY_VECTOR);
      const text = `SELECT TOP 10 c.id, VectorDistance(c.e, ${qv}) AS s FROM c ORDER BY VectorDistance(c.e, ${qv})`;
      const expected = bruteForce(ITEMS, fn, 10);
      // The direct path (the SDK's first try) and the query-plan pipeline.
      assertRanking((await container.items.query(text).fetchAll()).resources, expected, `${fn}: direct`);
      assertRanking((await container.items.query(text, { forceQueryPlan: true }).fetchAll()).resources, expected, `${fn}: query plan`);
      // A parameter for the query vector, and a WHERE filter combined with the ranking.
      const filtered = `SELECT TOP 7 c.id, VectorDistance(c.e, @v) AS s FROM c WHERE c.n % 3 = 0 ORDER BY VectorDistance(c.e, @v)`;
      const spec = { query: filtered, parameters: [{ name: "@v", value: QUERY_VECTOR }] };
      const expectedFiltered = bruteForce(ITEMS.filter((d) => d.n % 3 === 0), fn, 7);
      assertRanking((await container.items.query(spec).fetchAll()).resources, expectedFiltered, `${fn}: filtered`);
      assertRanking((await container.items.query(spec, { forceQueryPlan: true }).fetchAll()).resources, expectedFiltered, `${fn}: filtered, query plan`);
      // OFFSET/LIMIT.
      const paged = `SELECT c.id, VectorDistance(c.e, ${qv}) AS s FROM c ORDER BY VectorDistance(c.e, ${qv}) OFFSET 4 LIMIT 5`;
      const expectedPage = bruteForce(ITEMS, fn, 9).slice(4);
      assertRanking((await container.items.query(paged).fetchAll()).resources, expectedPage, `${fn}: offset/limit`);
      assertRanking((await container.items.query(paged, { forceQueryPlan: true }).fetchAll()).resources, expectedPage, `${fn}: offset/limit, query plan`);
      // One logical partition.
      const onePartition = (await container.items.query(text, { partitionKey: "p3" }).fetchAll()).resources;
      assertRanking(onePartition, bruteForce(ITEMS.filter((d) => d.pk === "p3"), fn, 10), `${fn}: one partition`);
    });
  }

  // Transactional batches write, replace and delete vectors in one atomic write; the
  // vector index follows each (and a batch that fails leaves it as it was).
  test("transactional batches keep the vector index", async () => {
    const { container } = await database.containers.create(
      { id: "batch-vectors", partitionKey: pk, vectorEmbeddingPolicy: embedding("cosine"), indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type: "flat" }] } },
      { offerThroughput: 10000 },
    );
    const model = new Map();
    const items = ITEMS.slice(0, 30).map((d) => ({ ...d, pk: "batch" }));
    const creates = await container.items.batch(items.map((d) => ({ operationType: "Create", resourceBody: d })), "batch");
    assert.ok(creates.result.every((r) => r.statusCode === 201));
    for (const d of items) model.set(d.id, d);
    // Replace two vectors, delete three items, upsert a new one: one batch.
    const replaced = [{ ...items[0], e: vector() }, { ...items[1], e: vector() }];
    const added = { id: "added", pk: "batch", n: 1000, e: vector() };
    const ops = [
      ...replaced.map((d) => ({ operationType: "Replace", id: d.id, resourceBody: d })),
      ...items.slice(2, 5).map((d) => ({ operationType: "Delete", id: d.id })),
      { operationType: "Upsert", resourceBody: added },
    ];
    const mixed = await container.items.batch(ops, "batch");
    assert.ok(mixed.result.every((r) => r.statusCode < 300), JSON.stringify(mixed.result.map((r) => r.statusCode)));
    for (const d of replaced) model.set(d.id, d);
    for (const d of items.slice(2, 5)) model.delete(d.id);
    model.set(added.id, added);
    // A batch whose last operation fails writes none of its vectors.
    const failed = await container.items.batch([
      { operationType: "Replace", id: items[5].id, resourceBody: { ...items[5], e: vector() } },
      { operationType: "Create", resourceBody: { id: "never", pk: "batch", e: vector() } },
      { operationType: "Replace", id: "absent", resourceBody: { id: "absent", pk: "batch", e: vector() } },
    ], "batch");
    assert.equal(failed.result.at(-1).statusCode, 404);
    const qv = JSON.stringify(QUERY_VECTOR);
    const text = `SELECT TOP 40 c.id, VectorDistance(c.e, ${qv}) AS s FROM c ORDER BY VectorDistance(c.e, ${qv})`;
    const expected = bruteForce([...model.values()], "cosine", 40);
    assertRanking((await container.items.query(text, { partitionKey: "batch" }).fetchAll()).resources, expected, "after the batches");
    assertRanking((await container.items.query(text).fetchAll()).resources, expected, "after the batches, cross-partition");
  });

  test("the distance function of the options wins over the policy's", async () => {
    const { container } = await database.containers.create(
      { id: "override", partitionKey: pk, vectorEmbeddingPolicy: embedding("cosine") },
      { offerThroughput: 10000 },
    );
    await fill(container, ITEMS.slice(0, 120));
    const qv = JSON.stringify(QUERY_VECTOR);
    for (const fn of ["euclidean", "dotproduct", "cosine"]) {
      const call = `VectorDistance(c.e, ${qv}, false, {"distanceFunction": "${fn}"})`;
      const text = `SELECT TOP 5 c.id, ${call} AS s FROM c ORDER BY ${call}`;
      const expected = bruteForce(ITEMS.slice(0, 120), fn, 5);
      assertRanking((await container.items.query(text).fetchAll()).resources, expected, `${fn} option`);
      assertRanking((await container.items.query(text, { forceQueryPlan: true }).fetchAll()).resources, expected, `${fn} option, query plan`);
    }
    // Without a policy for the path, VectorDistance is cosine over float32.
    const [score] = (await container.items.query("SELECT VALUE VectorDistance([1, 0], [1, 1])").fetchAll()).resources;
    assert.ok(Math.abs(score - Math.SQRT1_2) < 1e-12, `cosine of 45°: ${score}`);
    const bad = `SELECT TOP 5 c.id FROM c ORDER BY VectorDistance(c.e, ${qv}, false, {"distanceFunction": "manhattan"})`;
    await expectCosmosError(container.items.query(bad).fetchAll(), { code: 400, what: "unknown distance function" });
  });

  test("the query plan of a vector ranking has the service's shape", async () => {
    const docs = `dbs/${dbId}/colls/rank-euclidean/docs`;
    const plan = async (text, features) =>
      rest.post(docs, {
        body: { query: text },
        headers: {
          "content-type": "application/query+json",
          "x-ms-cosmos-is-query-plan-request": "True",
          "x-ms-cosmos-query-version": "1.4",
          "x-ms-cosmos-supported-query-features": features,
        },
      });
    const all = "Aggregate,Distinct,MultipleOrderBy,OffsetAndLimit,OrderBy,Top,GroupBy,NonStreamingOrderBy";
    const euclidean = await plan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2, 3])", all);
    assert.equal(euclidean.status, 200, euclidean.text);
    const info = euclidean.body.queryInfo;
    assert.equal(info.hasNonStreamingOrderBy, true);
    assert.deepEqual(info.orderBy, ["Ascending"], "Euclidean: smallest distance first");
    assert.equal(info.top, 3);
    assert.match(info.rewrittenQuery, /ORDER BY VectorDistance\(c\.e, \[1, 2, 3\][^)]*\)$/, "the per-range ORDER BY carries no direction");
    assert.doesNotMatch(info.rewrittenQuery, / (ASC|DESC)$/);
    const cosine = await plan(`SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2, 3], false, {"distanceFunction": "cosine"})`, all);
    assert.deepEqual(cosine.body.queryInfo.orderBy, ["Descending"], "cosine: highest similarity first");
    const paged = await plan("SELECT c.id FROM c ORDER BY VectorDistance(c.e, [1, 2, 3]) OFFSET 5 LIMIT 7", all);
    assert.equal(paged.body.queryInfo.offset, 5);
    assert.equal(paged.body.queryInfo.limit, 7);
    assert.match(paged.body.queryInfo.rewrittenQuery, /OFFSET 0 LIMIT 12$/);
    // A client that cannot merge a non-streaming ORDER BY is refused, not given wrong results.
    const old = await plan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2, 3])", "Aggregate,Distinct,MultipleOrderBy,OffsetAndLimit,OrderBy,Top");
    assert.equal(old.status, 400, old.text);
    assert.match(old.body.message, /NonStreamingOrderBy/);
    // Java's list, separated by ", ".
    const java = await plan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2, 3])", "Aggregate, OrderBy, Top, NonStreamingOrderBy, HybridSearch");
    assert.equal(java.status, 200, java.text);
  });

  test("FullTextContains, All and Any filter by words, stems and edits, in the path's language", async () => {
    const { container } = await database.containers.create(
      {
        id: "full-text",
        partitionKey: pk,
        fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }, { path: "/de", language: "de-DE" }] },
        indexingPolicy: { fullTextIndexes: [{ path: "/text" }] },
      },
      { offerThroughput: 10000 },
    );
    const docs = [
      { id: "1", pk: "a", text: "The red bicycles are running fast", de: "Die Fahrräder sind rot" },
      { id: "2", pk: "b", text: "A blue car drives slowly", de: "Das Fahrrad ist blau" },
      { id: "3", pk: "c", text: "Red cars and a bicycle", de: "Autos" },
      { id: "4", pk: "d", text: 42 },
    ];
    for (const d of docs) await container.items.create(d);
    const ids = async (where) => (await container.items.query(`SELECT VALUE c.id FROM c WHERE ${where}`).fetchAll()).resources.sort();
    // Phrases: the words in a row; forms of a word (plural, -ing) match by stem.
    assert.deepEqual(await ids("FullTextContains(c.text, 'red bicycle')"), ["1"]);
    assert.deepEqual(await ids("FullTextContains(c.text, 'bicycle')"), ["1", "3"]);
    assert.deepEqual(await ids("FullTextContains(c.text, 'run')"), ["1"]);
    assert.deepEqual(await ids("FullTextContainsAll(c.text, 'red', 'car')"), ["3"]);
    assert.deepEqual(await ids("FullTextContainsAny(c.text, 'blue', 'running')"), ["1", "2"]);
    assert.deepEqual(await ids("NOT FullTextContains(c.text, 'red')"), ["2"], "an item without text matches neither way");
    // Fuzzy: "bicyle" is one edit from "bicycle", two from "bicycles".
    assert.deepEqual(await ids("FullTextContains(c.text, {'term': 'bicyle', 'distance': 1})"), ["3"]);
    assert.deepEqual(await ids("FullTextContains(c.text, {'term': 'bicyle', 'distance': 2})"), ["1", "3"]);
    // /de is German: "Fahrräder" is the plural of "Fahrrad".
    assert.deepEqual(await ids("FullTextContains(c.de, 'Fahrrad')"), ["1", "2"]);
    // The same through the SDK's query-plan pipeline and within one partition.
    const query = "SELECT VALUE c.id FROM c WHERE FullTextContains(c.de, 'Fahrrad')";
    assert.deepEqual((await container.items.query(query, { forceQueryPlan: true }).fetchAll()).resources.sort(), ["1", "2"]);
    assert.deepEqual((await container.items.query(query, { partitionKey: "b" }).fetchAll()).resources, ["2"]);
    // /text has a full-text index: the filter reads the two items whose text holds the
    // stem "bicycl", not all four (/de has none: every item is read).
    const loaded = async (where) => {
      const res = await restClient(server).query(`dbs/${dbId}/colls/full-text/docs`, `SELECT VALUE c.id FROM c WHERE ${where}`, [], {
        headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
      });
      assert.equal(res.status, 200, res.text);
      const metrics = Object.fromEntries(res.headers["x-ms-documentdb-query-metrics"].split(";").map((kv) => kv.split("=")));
      return Number(metrics.retrievedDocumentCount);
    };
    assert.equal(await loaded("FullTextContains(c.text, 'bicycle')"), 2);
    assert.equal(await loaded("FullTextContainsAny(c.text, 'blue', 'running')"), 2);
    assert.equal(await loaded("FullTextContains(c.de, 'Fahrrad')"), 4);
  });
});
