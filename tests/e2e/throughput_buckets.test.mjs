// Throughput buckets and priority-based execution, enforced (issue 47): a request in a
// bucket over its share of its partition's RU/s gets 429 with substatus 3212
// (throughput-buckets FAQ), while requests of no bucket go on; with the partition over
// budget, low-priority requests are throttled before high-priority ones
// (priority-based-execution.md). Buckets are configured with Orrery's admin call, as the
// service configures them in its control plane (no data-plane SDK sets them).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, assertErrorResponse, dropDatabase } from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("throughput buckets and priority", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let database;
  before(async () => {
    server = await startServer({ args: ["--enforce-throughput"] });
    client = sdkClient(server, { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } });
    rest = restClient(server);
    dbId = uniqueId("buckets");
    ({ database } = await client.databases.create({ id: dbId }));
  });
  after(async () => {
    await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  const admin = async (containerId, body) => {
    const res = await rest.request(body ? "PUT" : "GET", ["_orrery", "dbs", dbId, "colls", containerId, "throughput"], body ? { body } : {});
    return res;
  };
  const newContainer = async () =>
    (await database.containers.create({ id: uniqueId("c"), partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 })).container;
  const pad = "x".repeat(900);

  test("a bucket's requests get 429/3212 past its share of the partition's RU/s; others go on", async () => {
    const container = await newContainer();
    const configured = await admin(container.id, { throughputBuckets: [{ id: 1, maxThroughputPercentage: 10 }] });
    assert.equal(configured.status, 200, configured.text);
    assert.deepEqual(configured.body.throughputBuckets, [{ id: 1, maxThroughputPercentage: 10 }]);
    // Bucket 1 may spend 40 of the partition's 400 RU/s: a handful of ~1 KB creates.
    let admitted = 0;
    let error;
    for (let i = 0; i < 40 && !error; i++) {
      try {
        await container.items.create({ id: `b${i}`, pk: "p", pad }, { throughputBucket: 1 });
        admitted++;
      } catch (e) {
        error = e;
      }
    }
    assert.ok(error, "bucket 1 was never throttled");
    assert.equal(error.code, 429);
    assert.equal(Number(error.substatus), 3212, `substatus of the bucket's 429: ${error.substatus}`);
    assert.ok(admitted >= 3 && admitted <= 12, `bucket 1 (40 RU/s) admitted ${admitted} creates of ~7 RU`);
    // The partition's budget is far from spent: no bucket, and a bucket not configured
    // (ids 1 to 5 are all valid), draw on it.
    await container.items.create({ id: "free", pk: "p", pad });
    await container.items.create({ id: "in-bucket-3", pk: "p", pad }, { throughputBucket: 3 });
    // Invalid ids are refused before anything runs.
    for (const bucket of ["0", "6", "x"]) {
      const res = await rest.request("POST", ["dbs", dbId, "colls", container.id, "docs"], {
        pk: ["p"],
        body: { id: `bad${bucket}`, pk: "p" },
        headers: { "x-ms-cosmos-throughput-bucket": bucket },
      });
      assertErrorResponse(res, 400, { what: `bucket ${bucket}` });
    }
    assert.equal((await container.item("bad6", "p").read()).statusCode, 404);
    // Invalid bucket configurations are refused with the reason.
    for (const buckets of [[{ id: 6, maxThroughputPercentage: 10 }], [{ id: 1, maxThroughputPercentage: 0 }], [{ id: 1, maxThroughputPercentage: 10 }, { id: 1, maxThroughputPercentage: 20 }]]) {
      const res = await admin(container.id, { throughputBuckets: buckets });
      assertErrorResponse(res, 400, { what: JSON.stringify(buckets) });
    }
    // Removed, bucket 1 draws on the whole budget again (after it has refilled).
    assert.equal((await admin(container.id, { throughputBuckets: [] })).status, 200);
    await new Promise((r) => setTimeout(r, 1200));
    for (let i = 0; i < 10; i++) await container.items.create({ id: `again${i}`, pk: "p", pad }, { throughputBucket: 1 });
  });

  test("over budget, low-priority requests are throttled before high-priority ones", async () => {
    const container = await newContainer();
    const outcome = { High: { ok: 0, throttled: 0 }, Low: { ok: 0, throttled: 0 } };
    const deadline = Date.now() + 1500;
    for (let i = 0; Date.now() < deadline; i++) {
      for (const priorityLevel of ["High", "Low"]) {
        try {
          await container.items.create({ id: `${priorityLevel}${i}`, pk: "p", pad }, { priorityLevel });
          outcome[priorityLevel].ok++;
        } catch (e) {
          if (e.code !== 429) throw e;
          assert.equal(Number(e.substatus), 3200);
          outcome[priorityLevel].throttled++;
        }
      }
    }
    const detail = JSON.stringify(outcome);
    assert.ok(outcome.High.throttled + outcome.Low.throttled > 0, `the partition was never over budget: ${detail}`);
    assert.ok(outcome.Low.throttled > outcome.High.throttled, `low priority throttled first: ${detail}`);
    assert.ok(outcome.High.ok > outcome.Low.ok, `high priority got more done: ${detail}`);
    // An unknown priority is refused.
    const res = await rest.request("POST", ["dbs", dbId, "colls", container.id, "docs"], {
      pk: ["p"],
      body: { id: "medium", pk: "p" },
      headers: { "x-ms-cosmos-priority-level": "Medium" },
    });
    assertErrorResponse(res, 400, { what: "priority Medium" });
    await new Promise((r) => setTimeout(r, 1500));  // the budget refilled
    assert.equal((await container.item("medium", "p").read()).statusCode, 404, "nothing was created");
  });
});
