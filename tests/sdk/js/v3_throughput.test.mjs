// @azure/cosmos 3.17.3 against a server that enforces throughput (--enforce-throughput):
// a container of 400 RU/s asked for about twice that at once. Without retries 3.x
// surfaces 429 (substatus 3200, x-ms-retry-after-ms); with its default retry policy
// every request succeeds after waiting, and the response says how often it retried.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { V3, v3Setup, v3Teardown, clientFor, SDKS, sleep, wire } from "./lib.mjs";

describe(`${V3} throughput: 429 and the SDK's retries`, { timeout: 120_000 }, () => {
  const env = {};
  let container;
  before(async () => {
    await v3Setup(env, "v3ru", { args: ["--enforce-throughput"], clientOptions: { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } } });
    ({ container } = await env.database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 }));
  });
  after(() => v3Teardown(env));

  const pad = "x".repeat(800); // ~0.9 KB items: a create costs several RU
  const count = async (prefix) =>
    (await container.items.query({ query: "SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, @p)", parameters: [{ name: "@p", value: prefix }] }).fetchAll()).resources[0];

  test("without retries: 429 with substatus 3200 and a retry-after, and nothing throttled is stored", async () => {
    const started = Date.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => container.items.create({ id: `n${i}`, pk: `k${i % 10}`, pad })));
    const seconds = (Date.now() - started) / 1000;
    const throttled = outcomes.filter((o) => o.status === "rejected");
    const others = throttled.filter((o) => o.reason.code !== 429);
    assert.deepEqual(others.map((o) => wire(o.reason)), [], "only 429s");
    // What got through is at most 400 RU/s over the run plus the one second of burst.
    const admitted = outcomes.filter((o) => o.status === "fulfilled").reduce((s, o) => s + o.value.requestCharge, 0);
    assert.ok(throttled.length > 0, "~1,600 RU asked at once of 400 RU/s: none throttled");
    assert.ok(admitted <= 400 * (seconds + 1) * 1.05, `${admitted} RU admitted in ${seconds} s at 400 RU/s`);
    for (const { reason: e } of throttled) {
      assert.equal(e.substatus, 3200, wire(e));
      assert.ok(e.retryAfterInMs > 0, `retry-after: ${wire(e)}`);
    }
    await sleep(1100);
    assert.equal(await count("n"), 300 - throttled.length);
  });

  test("with 3.x's default retry policy every request goes through", async () => {
    await sleep(1100); // let the budget refill
    const retrying = clientFor(SDKS.v3, env.server); // default: 9 attempts, up to 30 s
    try {
      const c = retrying.database(env.dbId).container("c");
      const started = Date.now();
      // Two writers, 75 creates each in turn: clients a little over the budget, which the
      // default policy (each 429's x-ms-retry-after-ms, up to 9 times) is made for.
      // (Orrery's retry-after is the time until the partition's bucket is out of debt, a
      // few ms, whoever else waits: 5 writers already exhaust 9 retries in ~60 ms; see
      // the README.)
      const results = [];
      await Promise.all(Array.from({ length: 2 }, async (_, w) => {
        for (let j = 0; j < 75; j++) {
          const i = w * 75 + j;
          results.push(await c.items.create({ id: `r${i}`, pk: `k${i % 10}`, pad }));
        }
      }));
      const seconds = (Date.now() - started) / 1000;
      assert.ok(results.every((r) => r.statusCode === 201));
      const retries = results.reduce((s, r) => s + Number(r.headers["x-ms-throttle-retry-count"] ?? 0), 0);
      assert.ok(retries > 0, "some creates were retried after a 429");
      const charge = results.reduce((s, r) => s + r.requestCharge, 0);
      // 400 RU/s plus one second of burst: the load cannot have gone through faster.
      assert.ok(seconds >= charge / 400 - 1 - 0.25, `${charge} RU in ${seconds} s at 400 RU/s`);
      // Queries are retried as well.
      const { resources } = await c.items.query("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'r')").fetchAll();
      assert.deepEqual(resources, [150]);
    } finally {
      retrying.dispose();
    }
  });

  test("raising the offer lets the same load through without a 429", async () => {
    const { resource: offer } = await container.readOffer();
    await env.client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 6000 } });
    await sleep(1100);
    const outcomes = await Promise.allSettled(Array.from({ length: 150 }, (_, i) => container.items.create({ id: `u${i}`, pk: `k${i % 10}`, pad })));
    const rejected = outcomes.filter((o) => o.status === "rejected").map((o) => wire(o.reason));
    assert.deepEqual(rejected, [], "6,000 RU/s carries ~800 RU at once");
  });
});
