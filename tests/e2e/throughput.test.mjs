// Throughput enforcement (--enforce-throughput): a container's RU/s is divided evenly
// among its physical partitions, so a load that the container as a whole could carry
// is throttled (429, x-ms-retry-after-ms, substatus 3200) when it all goes to one
// partition key value — and no throttled write is stored.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, uniqueId, dropDatabase } from "./lib/util.mjs";

const TIMEOUT = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("throughput enforcement", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let container;

  before(async () => {
    server = await startServer({ args: ["--enforce-throughput", "--initial-partitions", "4"] });
    // No SDK retries: the test counts the 429s itself.
    client = sdkClient(server, { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } });
    dbId = uniqueId("ru");
    const { database } = await client.databases.create({ id: dbId });
    ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 4000 }));
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  /** 420 creates/s of ~0.9 KB items (~5.4 RU each: ~2,250 RU/s) for 2 s; pkOf(i) picks the key. */
  async function load(prefix, pkOf) {
    const outcome = { created: 0, throttled: 0, retryAfter: [], substatus: new Set(), charge: 0, seconds: 0 };
    const started = Date.now();
    const pad = "x".repeat(800);
    const pending = [];
    for (let tick = 0; tick < 20; tick++) {
      for (let k = 0; k < 42; k++) {
        const i = tick * 42 + k;
        pending.push(
          container.items.create({ id: `${prefix}${i}`, pk: pkOf(i), pad }).then(
            (r) => {
              outcome.created++;
              outcome.charge += r.requestCharge;
            },
            (e) => {
              if (e.code !== 429) throw e;
              outcome.throttled++;
              outcome.retryAfter.push(e.retryAfterInMs ?? Number(e.headers?.["x-ms-retry-after-ms"]));
              outcome.substatus.add(e.substatus);
            },
          ),
        );
      }
      await sleep(100);
    }
    await Promise.all(pending);
    outcome.seconds = (Date.now() - started) / 1000;
    return outcome;
  }

  const stored = async (prefix) => {
    const { resources } = await container.items
      .query({ query: "SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, @p)", parameters: [{ name: "@p", value: prefix }] })
      .fetchAll();
    return resources[0];
  };

  test("spread over many keys the load fits; on one key it is throttled", async () => {
    const spread = await load("s", (i) => `k${i}`);
    await sleep(1100); // let the budgets refill
    const hot = await load("h", () => "hot");

    assert.equal(spread.created + spread.throttled, 840);
    assert.ok(spread.throttled <= 84, `spread load: ${spread.throttled} of 840 throttled`);
    // One partition's share is 1,000 RU/s: what got through is at most its share over
    // the run plus one second of burst (3,000 RU for a 2 s run, of the ~4,500 asked).
    const allowance = 1000 * (hot.seconds + 1) * 1.05;
    assert.ok(hot.charge <= allowance, `hot key got ${hot.charge} RU through in ${hot.seconds} s`);
    assert.ok(hot.throttled >= 100, `hot key: only ${hot.throttled} of 840 throttled`);
    assert.ok(spread.charge > hot.charge + 1000, `spread ${spread.charge} RU vs hot ${hot.charge} RU`);
    assert.ok(hot.retryAfter.every((ms) => ms > 0), "every 429 says when to retry");
    assert.deepEqual([...hot.substatus], [3200]);
    // No throttled write was stored.
    assert.equal(await stored("h"), hot.created);
    assert.equal(await stored("s"), spread.created);
  });
});
