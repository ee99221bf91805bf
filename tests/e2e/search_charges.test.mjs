// Request charges of vector and full-text search against what the service publishes
// (docs/research/search-charges.md): vector indexing and search against the estimates of
// "Tips for optimizing vector indexing & search performance" (RU cost estimates) and the
// index policy's notes; the estimates are rough ("~35 RU"), so each is checked within a
// tolerance, and the statements without figures ("int8 reduces insert cost", "not
// excluding the vector path results in higher RU charge") as orderings. Full-text search
// has no published figure: its charges are checked against the drivers its FAQ names
// (selectivity, documents, physical partitions, phrases in a ranking).

import { describe, test, after, before } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, seededRandom } from "./lib/util.mjs";

const TIMEOUT = 240_000;
const DIMS = 1536;
const next = seededRandom(1536);
// Embedding models' values, as their APIs print them: small, about eight significant
// digits (an item with one is about 20 KB of JSON).
const embedding = () => Array.from({ length: DIMS }, () => Number(((next() * 2 - 1) * 0.05).toPrecision(8)));
const int8Embedding = () => Array.from({ length: DIMS }, () => Math.floor(next() * 256) - 128);

const within = (actual, estimate, tolerance, what) =>
  assert.ok(
    Math.abs(actual - estimate) <= estimate * tolerance,
    `${what}: ${actual} RU, the published estimate is ~${estimate} RU (within ${tolerance * 100}%)`,
  );

describe("search charges", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let database;
  before(async () => {
    server = await startServer({ inMemory: true });
    client = sdkClient(server);
    ({ database } = await client.databases.create({ id: "vcharges" }));
  });
  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  const createContainer = async (id, { type, dataType = "float32", exclude = true, throughput = 400 }) => {
    const { container } = await database.containers.create(
      {
        id,
        partitionKey: { paths: ["/pk"], version: 2 },
        vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/embedding", dataType, distanceFunction: "cosine", dimensions: DIMS }] },
        indexingPolicy: { excludedPaths: exclude ? [{ path: "/embedding/*" }] : [], vectorIndexes: [{ path: "/embedding", type }] },
      },
      { offerThroughput: throughput },
    );
    return container;
  };

  test("inserts: ~5 RU for 1 KB, ~35 with a 1536-dimension vector under quantizedFlat, ~65 under diskANN", async (t) => {
    const plain = (await database.containers.create({ id: "plain", partitionKey: { paths: ["/pk"], version: 2 } })).container;
    const small = { id: "s", pk: "a", text: "x".repeat(1024 - 40) };
    within((await plain.items.create(small)).requestCharge, 5, 0.2, "a 1 KB create");

    const doc = { id: "d1", pk: "a", title: "a document", embedding: embedding() };
    const bytes = JSON.stringify(doc).length;
    assert.ok(bytes > 15_000 && bytes < 32_000, `the item is ${bytes} bytes`);
    const quantized = (await (await createContainer("quantized", { type: "quantizedFlat" })).items.create(doc)).requestCharge;
    const graph = (await (await createContainer("graph", { type: "diskANN" })).items.create(doc)).requestCharge;
    within(quantized, 35, 0.15, "a create with one vector under quantizedFlat");
    within(graph, 65, 0.15, "a create with one vector under diskANN");

    // "float16 or int8 reduce storage and insert cost".
    const int8 = await createContainer("int8", { type: "quantizedFlat", dataType: "int8" });
    const int8Charge = (await int8.items.create({ ...doc, embedding: int8Embedding() })).requestCharge;
    assert.ok(int8Charge < quantized, `int8 ${int8Charge} RU against float32 ${quantized} RU`);
    // "Not adding the vector path to excludedPaths results in higher RU charge and
    // latency for vector insertions."
    const unexcluded = await createContainer("unexcluded", { type: "quantizedFlat", exclude: false });
    const unexcludedCharge = (await unexcluded.items.create(doc)).requestCharge;
    t.diagnostic(`${bytes} B item: quantizedFlat ${quantized}, diskANN ${graph}, int8 ${int8Charge}, path not excluded ${unexcludedCharge} RU`);
    assert.ok(unexcludedCharge > quantized * 1.5, `the vector path indexed: ${unexcludedCharge} RU against ${quantized} RU`);
  });

  test("TOP 10 searches: diskANN up to ~45 RU a partition, times the partitions hit; quantizedFlat < 40 RU on a small container", async (t) => {
    // One physical partition (400 RU/s) and two (12,000 RU/s: ceil(12,000 / 6,000)).
    const one = await createContainer("graph1", { type: "diskANN" });
    const two = await createContainer("graph2", { type: "diskANN", throughput: 12_000 });
    const quantized = await createContainer("quantized1", { type: "quantizedFlat" });
    const ranges = async (c) => (await c.readPartitionKeyRanges().fetchAll()).resources.length;
    assert.equal(await ranges(one), 1);
    assert.equal(await ranges(two), 2);
    // Enough vectors that each partition's search list (10 + 8 rows, times the default
    // searchListSizeMultiplier 10) is full.
    const docs = Array.from({ length: 500 }, (_, i) => ({ id: `v${i}`, pk: `p${i % 50}`, embedding: embedding() }));
    for (const c of [one, two, quantized]) {
      const some = c === two ? docs : docs.slice(0, 250);
      for (let i = 0; i < some.length; i += 50) {
        const results = await c.items.bulk(some.slice(i, i + 50).map((d) => ({ operationType: "Create", resourceBody: d })));
        for (const r of results) assert.equal(r.statusCode, 201);
      }
    }
    const q = embedding();
    const query = {
      query: "SELECT TOP 10 c.id, VectorDistance(c.embedding, @q) AS score FROM c ORDER BY VectorDistance(c.embedding, @q)",
      parameters: [{ name: "@q", value: q }],
    };
    const charge = async (c, options, rows = 10) => {
      const res = await c.items.query(query, options).fetchAll();
      assert.equal(res.resources.length, rows);
      return res.requestCharge;
    };
    // The approximate index is built by the first query that needs it, one physical
    // partition after another (the server logs each); until every partition has one, the
    // exact scan answers in the others (and is charged as one).
    const indexCharge = async (c, partitions) => {
      await charge(c);
      const built = new RegExp(`built the \\S+ index of container ${c.id}, partition`, "g");
      for (let i = 0; i < 600 && (server.output.match(built) ?? []).length < partitions; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal((server.output.match(built) ?? []).length, partitions, `${c.id}: an index built in every partition`);
      return charge(c);
    };
    const single = await indexCharge(one, 1);
    assert.ok(single <= 45 * 1.05 && single >= 45 * 0.6, `diskANN TOP 10 on one partition: ${single} RU, published "up to ~45 RUs"`);
    const cross = await indexCharge(two, 2);
    const ratio = cross / single;
    assert.ok(ratio >= 1.6 && ratio <= 2.4, `diskANN TOP 10 over 2 partitions: ${cross} RU, ${ratio.toFixed(2)}x one partition's ("~45 RUs x N partitions hit")`);

    const quantizedCharge = await indexCharge(quantized, 1);
    assert.ok(quantizedCharge < 40, `quantizedFlat TOP 10 over 250 vectors: ${quantizedCharge} RU, published "< 40 RUs (on small datasets)"`);
    const filtered = await charge(quantized, { partitionKey: "p7" }, 5); // v7, v57, ..., v207
    t.diagnostic(`diskANN one partition ${single}, two ${cross}; quantizedFlat ${quantizedCharge}, one logical partition ${filtered} RU`);
    assert.ok(filtered < 40, `quantizedFlat TOP 10 in one logical partition: ${filtered} RU, published "< 40 RUs"`);
  });

  test("full-text: charges follow the FAQ's drivers: selectivity, documents, partitions, phrases in a ranking", async (t) => {
    const WORDS = ["river", "stone", "garden", "window", "lantern", "harbor", "meadow", "copper", "violet", "thunder", "pencil", "orchard"];
    const local = seededRandom(77);
    const text = (i) => {
      const words = Array.from({ length: 8 + Math.floor(local() * 8) }, () => WORDS[Math.floor(local() * WORDS.length)]);
      if (i % 100 === 3) words.push("quartz");
      if (i % 4 === 0) words.splice(2, 0, "silver", "morning", "light");
      return words.join(" ");
    };
    const docs = Array.from({ length: 1200 }, (_, i) => ({ id: `t${i}`, pk: `p${i % 40}`, text: text(i) }));
    const makeContainer = async (id, throughput, count) => {
      const { container } = await database.containers.create(
        {
          id,
          partitionKey: { paths: ["/pk"], version: 2 },
          fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
          indexingPolicy: { fullTextIndexes: [{ path: "/text" }] },
        },
        { offerThroughput: throughput },
      );
      for (let i = 0; i < count; i += 100) {
        const results = await container.items.bulk(docs.slice(i, i + 100).map((d) => ({ operationType: "Create", resourceBody: d })));
        for (const r of results) assert.equal(r.statusCode, 201);
      }
      return container;
    };
    const small = await makeContainer("text600", 400, 600);
    const large = await makeContainer("text1200", 400, 1200);
    const spread = await makeContainer("text600x2", 12_000, 600); // two physical partitions
    const charge = async (c, query) => (await c.items.query(query).fetchAll()).requestCharge;

    // "Query selectivity": a word in 1% of the texts against one in most of them.
    const rare = await charge(small, "SELECT c.id FROM c WHERE FullTextContains(c.text, 'quartz')");
    const common = await charge(small, "SELECT c.id FROM c WHERE FullTextContains(c.text, 'river')");
    assert.ok(rare * 5 < common, `a rare word ${rare} RU, a common one ${common} RU`);
    // "Number of documents in the container": the same ranking over twice the texts.
    const ranking = "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'silver', 'morning', 'light')";
    const over600 = await charge(small, ranking);
    const over1200 = await charge(large, ranking);
    assert.ok(over1200 > over600 * 1.3, `over 600 texts ${over600} RU, over 1,200 ${over1200} RU`);
    // "Number of physical partitions": the same texts in two.
    const overTwo = await charge(spread, ranking);
    assert.ok(overTwo > over600, `one partition ${over600} RU, two ${overTwo} RU`);
    // "ORDER BY RANK FullTextScore(...) can be costly if the query includes long phrases":
    // the three words as one phrase against the same words as keywords.
    const phrase = await charge(small, "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'silver morning light')");
    assert.ok(phrase > over600 * 1.5, `the phrase ${phrase} RU, the keywords ${over600} RU`);
    t.diagnostic(`rare ${rare}, common ${common}; ranking over 600 ${over600}, 1,200 ${over1200}, two partitions ${overTwo}; phrase ${phrase} RU`);
  });
});
