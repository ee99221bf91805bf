// Approximate vector indexes across restarts (engine/account_vector_graphs.cc): a clean
// shutdown saves diskANN graphs and quantizedFlat's quantized vectors, and the next start
// loads them (the server says so in its log) instead of building them from the stored
// vectors; after a crash (SIGKILL) they are built again.
// Either way the TOP 10 is the exact one, computed here by brute force, at once (the
// exact scan answers until the index is ready) and once the index serves the query
// (the server has logged it built or loaded in both physical partitions, and the
// query's charge differs from the scan's).

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, seededRandom } from "./lib/util.mjs";

const TIMEOUT = 180_000;
const DIMS = 16;
const N = 1500;

const next = seededRandom(1234);
const vector = () => Array.from({ length: DIMS }, () => Math.round((next() * 2 - 1) * 1000) / 1000);
const QUERY = vector();
const cosine = (a, b) => {
  let dot = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
  return dot / Math.sqrt(aa * bb);
};
for (const type of ["diskANN", "quantizedFlat"]) describe(`${type} indexes across restarts`, { timeout: TIMEOUT }, () => {
  const LOADED = new RegExp(`loaded the saved ${type} index of container g`, "g");
  const READY = new RegExp(`(?:built the|loaded the saved) ${type} index of container g, partition`, "g");
  let server;
  let client;
  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  test("saved at a clean shutdown and loaded at the next start; built again after a crash", async () => {
    server = await startServer({ inMemory: false, args: ["--initial-partitions", "2"] });
    client = sdkClient(server);
    const { database } = await client.databases.create({ id: "vg" });
    const { container } = await database.containers.create(
      {
        id: "g",
        partitionKey: { paths: ["/pk"], version: 2 },
        vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: DIMS }] },
        indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type }] },
      },
      { offerThroughput: 20000 },
    );
    const items = [];
    for (let i = 0; i < N; i += 100) {
      const ops = [];
      for (let j = i; j < i + 100; j++) {
        const d = { id: `v${j}`, pk: `p${j % 37}`, e: vector() };
        items.push(d);
        ops.push({ operationType: "Create", resourceBody: d });
      }
      for (const r of await container.items.bulk(ops)) assert.equal(r.statusCode, 201);
    }
    const expected = items.map((d) => ({ id: d.id, s: cosine(d.e, QUERY) })).sort((x, y) => y.s - x.s).slice(0, 10).map((d) => d.id);
    const text = `SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, ${JSON.stringify(QUERY)})`;
    // The charge of the query tells which answered: the exact scan pays for the bytes of
    // every stored vector, a graph for its search lists at full precision, the quantized
    // scan for every quantized vector and its candidates (engine/throughput/cost_model.h;
    // at 1,500 vectors of 16 dimensions the scan is the cheapest of the three, as the
    // service says flat is for few vectors).
    const ranking = async (what) => {
      const c = sdkClient(server);
      try {
        const res = await c.database("vg").container("g").items.query(text).fetchAll();
        assert.deepEqual(res.resources.map((r) => r.id), expected, `${what}: the ranking`);
        return res.requestCharge;
      } finally {
        c.dispose();
      }
    };
    const scanCharge = await ranking("before the build");
    // Ready in both partitions: each is logged (just before it serves), then the charge
    // is no longer the scan's. A charge alone could change once the first partition's
    // index serves.
    const waitForGraph = async (what) => {
      for (let i = 0; i < 300 && (server.output.match(READY) ?? []).length < 2; i++) {
        await ranking(what);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok((server.output.match(READY) ?? []).length >= 2, `${what}: an index in both partitions`);
      for (let i = 0; i < 300; i++) {
        const charge = await ranking(what);
        if (charge !== scanCharge) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`${what}: the graph never answered`);
    };
    await waitForGraph("first build");
    await ranking("from the graph");
    assert.equal((server.output.match(LOADED) ?? []).length, 0, "nothing to load at the first start");

    await server.stop(); // SIGTERM: saved
    const firstRun = server.output;
    await server.restart();
    await ranking("just after the restart");
    await waitForGraph("after a clean restart");
    await ranking("from the loaded graph");
    assert.ok((server.output.match(LOADED) ?? []).length >= 1, `the saved graphs were loaded:\n${firstRun.slice(-2000)}\n${server.output.slice(-2000)}`);

    await server.kill9();
    await server.restart();
    await ranking("just after a crash");
    await waitForGraph("after a crash");
    await ranking("from the rebuilt graph");
    assert.equal((server.output.match(LOADED) ?? []).length, 0, `nothing loaded after a crash:\n${server.output.slice(-2000)}`);
  });
});
