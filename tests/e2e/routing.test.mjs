// Query routing (query-language.md §9; wire-protocol.md §9.5): equality on the whole
// partition key keeps a query in one partition, equality on a prefix of a hierarchical
// key in the partitions that prefix overlaps, anything else fans out — through the
// query plan's queryRanges for the SDK's pipeline, and in server-side execution, where
// the request charge shows how many partitions were contacted.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, dropDatabase, epkOf } from "./lib/util.mjs";
import { queryRecorder } from "./lib/query_recorder.mjs";

const TIMEOUT = 120_000;
const PARTITIONS = 8;

describe("query routing by partition key", { timeout: TIMEOUT * 2 }, () => {
  let server;
  let client;
  let recorder;
  let rest;
  let dbId;
  let single;
  let hierarchical;
  let ranges;
  const items = [];

  before(async () => {
    server = await startServer({ args: ["--initial-partitions", String(PARTITIONS)] });
    recorder = queryRecorder();
    client = sdkClient(server, { plugins: [recorder.plugin] });
    rest = restClient(server);
    dbId = uniqueId("route");
    const { database } = await client.databases.create({ id: dbId });
    ({ container: single } = await database.containers.create({ id: "single", partitionKey: { paths: ["/pk"], version: 2 } }));
    ({ container: hierarchical } = await database.containers.create({
      id: "multi",
      partitionKey: { paths: ["/tenant", "/user"], kind: "MultiHash", version: 2 },
    }));
    for (let i = 0; i < 120; i++) items.push({ id: `i${i}`, pk: `p${i % 12}`, tenant: `t${i % 3}`, user: `u${i % 10}`, n: i });
    for (let i = 0; i < items.length; i += 40) {
      await Promise.all(items.slice(i, i + 40).flatMap((d) => [single.items.create(d), hierarchical.items.create(d)]));
    }
    ({ resources: ranges } = await single.readPartitionKeyRanges().fetchAll());
    assert.equal(ranges.length, PARTITIONS);
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  /** The query-plan request the SDK sends before running a query itself. */
  async function queryPlan(docs, query) {
    const res = await rest.post(docs, {
      body: { query },
      headers: {
        "content-type": "application/query+json",
        "x-ms-documentdb-isquery": "true",
        "x-ms-cosmos-is-query-plan-request": "true",
        "x-ms-cosmos-supported-query-features": "Aggregate, CompositeAggregate, Distinct, MultipleOrderBy, OffsetAndLimit, OrderBy, Top, GroupBy, DCount",
        "x-ms-documentdb-query-enablecrosspartition": "true",
      },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return res;
  }

  const rangeOf = (epk) => ranges.find((r) => r.minInclusive <= epk && (r.maxExclusive === "FF" || epk < r.maxExclusive));
  const queriedRanges = () => new Set(recorder.log.filter((r) => !r.plan).map((r) => String(r.rangeId)));

  test("the plan's queryRanges is the key's point range, and the SDK queries only its partition", async () => {
    const res = await queryPlan(`dbs/${dbId}/colls/single/docs`, "SELECT * FROM c WHERE c.pk = 'p5' AND c.n > 10");
    const epk = epkOf(["p5"], { paths: ["/pk"], kind: "Hash", version: 2 });
    assert.deepEqual(res.body.queryRanges, [{ min: epk, max: epk, isMinInclusive: true, isMaxInclusive: true }]);

    recorder.log.length = 0;
    const { resources } = await single.items
      .query("SELECT VALUE c.id FROM c WHERE c.pk = 'p5' AND c.n > 10", { forceQueryPlan: true })
      .fetchAll();
    assert.deepEqual(resources.sort(), items.filter((d) => d.pk === "p5" && d.n > 10).map((d) => d.id).sort());
    assert.deepEqual([...queriedRanges()], [rangeOf(epk).id], "only the key's partition was queried");
  });

  test("server-side execution contacts one partition for a key, all of them otherwise", async () => {
    const docs = `dbs/${dbId}/colls/single/docs`;
    const charge = async (q) => {
      const res = await rest.query(docs, q, [], { headers: { "x-ms-documentdb-populatequerymetrics": "true" } });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      return { charge: Number(res.headers["x-ms-request-charge"]), rows: res.body.Documents, metrics: res.headers["x-ms-documentdb-query-metrics"] };
    };
    const routed = await charge("SELECT VALUE c.id FROM c WHERE c.pk = 'p7'");
    const fanned = await charge("SELECT VALUE c.id FROM c WHERE c.n % 12 = 7");
    assert.deepEqual(routed.rows.sort(), fanned.rows.sort(), "the same items either way");
    assert.match(routed.metrics, /retrievedDocumentCount=10;/, "only the logical partition's items were read");
    assert.match(fanned.metrics, /retrievedDocumentCount=120;/);
    // 2.5 RU for each further partition contacted (ru-model.md a.2 row 15).
    assert.ok(fanned.charge - routed.charge >= (PARTITIONS - 1) * 2.5, `fan-out ${fanned.charge} RU vs routed ${routed.charge} RU`);
  });

  test("a prefix of a hierarchical key reads only the partitions it overlaps", async () => {
    const def = { paths: ["/tenant", "/user"], kind: "MultiHash", version: 2 };
    const prefixEpk = epkOf(["t1"], def);
    const docs = `dbs/${dbId}/colls/multi/docs`;
    const plan = await queryPlan(docs, "SELECT * FROM c WHERE c.tenant = 't1'");
    assert.deepEqual(plan.body.queryRanges, [{ min: prefixEpk, max: prefixEpk + "FF", isMinInclusive: true, isMaxInclusive: false }]);

    recorder.log.length = 0;
    const { resources } = await hierarchical.items
      .query("SELECT VALUE c.id FROM c WHERE c.tenant = 't1'", { forceQueryPlan: true })
      .fetchAll();
    assert.deepEqual(resources.sort(), items.filter((d) => d.tenant === "t1").map((d) => d.id).sort());
    const { resources: multiRanges } = await hierarchical.readPartitionKeyRanges().fetchAll();
    const overlapping = multiRanges.filter((r) => r.minInclusive < prefixEpk + "FF" && (r.maxExclusive === "FF" || prefixEpk < r.maxExclusive));
    assert.ok(overlapping.length < multiRanges.length, "the prefix covers only part of the key space");
    assert.deepEqual([...queriedRanges()].sort(), overlapping.map((r) => r.id).sort());

    // Server-side too: the same answer, reading only the prefix's items.
    const res = await rest.query(docs, "SELECT VALUE c.id FROM c WHERE c.tenant = 't1'", [], {
      headers: { "x-ms-documentdb-populatequerymetrics": "true" },
    });
    assert.deepEqual(res.body.Documents.sort(), resources.sort());
    assert.match(res.headers["x-ms-documentdb-query-metrics"], /retrievedDocumentCount=40;/);
  });
});
