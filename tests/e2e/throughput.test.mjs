// Throughput enforcement (--enforce-throughput): a container's RU/s is divided evenly
// among its physical partitions, so a load that the container as a whole could carry
// is throttled (429, x-ms-retry-after-ms, substatus 3200) when it all goes to one
// partition key value — and no throttled write is stored. Queries, change feeds,
// batches and bulk draw from the same budgets, a database's shared throughput is
// shared by its containers, and the admin call switches enforcement per container
// and reports each partition's RU and 429s.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, dropDatabase, expectCosmosError } from "./lib/util.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("throughput enforcement", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let container;
  withServerAndDatabase("ru", {
    serverOptions: { args: ["--enforce-throughput", "--initial-partitions", "4"] },
    // No SDK retries: the test counts the 429s itself.
    clientOptions: { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } },
    ready: async (env) => {
      ({ server, client, dbId } = env);
      ({ container } = await env.database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 4000 }));
    },
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

  // Counted through a client that retries its 429s: the container is still paying back
  // the hot load's debt when the count runs, and the count is not what is under test.
  const stored = async (prefix) => {
    const checker = sdkClient(server);
    try {
      const { resources } = await checker
        .database(dbId)
        .container("c")
        .items.query({ query: "SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, @p)", parameters: [{ name: "@p", value: prefix }] })
        .fetchAll();
      return resources[0];
    } finally {
      checker.dispose();
    }
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

/** Spends a partition's budget: `n` creates of ~0.9 KB items under key `pk`, errors kept. */
async function spend(container, prefix, pk, n) {
  const pad = "x".repeat(800);
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => container.items.create({ id: `${prefix}${i}`, pk, pad })),
  );
  return outcomes.filter((o) => o.status === "rejected" && o.reason.code === 429).length;
}

/** One ~1.5 MB create (~690 RU): admitted on a full bucket, it leaves the partition in
 * debt for about a second at 400 RU/s. */
async function overdraw(container, id, pk) {
  const { requestCharge } = await container.items.create({ id, pk, pad: "z".repeat(1_500_000) });
  assert.ok(requestCharge > 600, `a 1.5 MB create costs ${requestCharge} RU`);
}

async function admin(rest, method, dbId, containerId, body) {
  const res = await rest.request(method, ["_orrery", "dbs", dbId, "colls", containerId, "throughput"], body === undefined ? {} : { body });
  assert.equal(res.status, 200, `admin ${method}: ${res.text}`);
  return res.body;
}

describe("throughput per request kind, shared throughput and the admin switch", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let database;

  before(async () => {
    // Not enforced by default: the admin call turns it on for single containers.
    server = await startServer();
    client = sdkClient(server, { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } });
    rest = restClient(server);
    dbId = uniqueId("ru2");
    ({ database } = await client.databases.create({ id: dbId }));
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  test("the admin switch turns enforcement on and off for one container", async () => {
    const { container } = await database.containers.create({ id: "sw", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    const { container: other } = await database.containers.create({ id: "free", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    assert.equal(await spend(container, "off", "a", 150), 0, "not enforced: no 429");
    const before = await admin(rest, "GET", dbId, "sw");
    assert.equal(before.enforced, false);
    assert.ok(before.partitions[0].requestCharge >= 150 * 5, `charges are counted unenforced: ${JSON.stringify(before)}`);

    const on = await admin(rest, "PUT", dbId, "sw", { enforced: true });
    assert.equal(on.enforced, true);
    const throttled = await spend(container, "on", "a", 150);
    assert.ok(throttled >= 50, `400 RU/s enforced: ${throttled} of 150 creates throttled`);
    const report = await admin(rest, "GET", dbId, "sw");
    assert.equal(report.partitions.length, 1);
    assert.equal(report.partitions[0].ruPerSecond, 400);
    assert.equal(report.partitions[0].throttledRequests, throttled);
    // The other container is not enforced.
    assert.equal(await spend(other, "o", "a", 150), 0);

    await admin(rest, "PUT", dbId, "sw", { enforced: false });
    assert.equal(await spend(container, "again", "a", 150), 0, "switched off again");

    const bad = await rest.request("PUT", ["_orrery", "dbs", dbId, "colls", "sw", "throughput"], { body: { enforced: "yes" } });
    assert.equal(bad.status, 400);
    const missing = await rest.request("GET", ["_orrery", "dbs", dbId, "colls", "nope", "throughput"]);
    assert.equal(missing.status, 404);
  });

  test("queries, change feed and transactional batches are throttled by the same budget", async () => {
    const { container } = await database.containers.create({ id: "q", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    await spend(container, "seed", "a", 20);
    await admin(rest, "PUT", dbId, "q", { enforced: true });
    await overdraw(container, "big", "a");
    const query = container.items.query("SELECT * FROM c", { partitionKey: "a" });
    const e = await expectCosmosError(query.fetchAll(), { code: 429, what: "a query on a spent partition" });
    assert.equal(e.substatus, 3200);
    assert.ok(e.retryAfterInMs > 0 || Number(e.headers?.["x-ms-retry-after-ms"]) > 0);
    await expectCosmosError(
      container.items.changeFeed("a", { startFromBeginning: true }).fetchNext(),
      { code: 429, what: "a change feed read on a spent partition" },
    );
    // The SDK wraps a failed batch request in a plain Error that keeps only the message.
    await assert.rejects(
      container.items.batch([{ operationType: "Create", resourceBody: { id: "tb1", pk: "a" } }], "a"),
      /Request rate is large/,
    );
    const report = await admin(rest, "GET", dbId, "q");
    assert.ok(report.partitions[0].throttledRequests >= 3);
    await new Promise((r) => setTimeout(r, 2000)); // the debt paid back
    const read = await container.item("tb1", "a").read();
    assert.equal(read.statusCode, 404, "the throttled batch wrote nothing");
  });

  test("bulk: throttled operations are answered 429 on their own and the SDK retries them", async () => {
    await database.containers.create({ id: "bk", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    await admin(rest, "PUT", dbId, "bk", { enforced: true });
    // The SDK sleeps each throttled operation's retry-after in turn, so the test keeps
    // the waits short: 150 creates of ~6 RU at 400 RU/s.
    const retrying = sdkClient(server); // default retry options
    try {
      const container = retrying.database(dbId).container("bk");
      const ops = Array.from({ length: 150 }, (_, i) => ({ operationType: "Create", partitionKey: "b", resourceBody: { id: `bulk${i}`, pk: "b", pad: "y".repeat(800) } }));
      const results = await container.items.executeBulkOperations(ops);
      const codes = results.map((r) => r.response?.statusCode ?? r.error?.code);
      assert.equal(codes.filter((c) => c === 201).length, 150, `bulk results: ${JSON.stringify(codes)}`);
      const report = await admin(rest, "GET", dbId, "bk");
      assert.ok(report.partitions[0].throttledRequests > 0, "some operations were throttled and retried");
      const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'bulk')", { partitionKey: "b" }).fetchAll();
      assert.equal(resources[0], 150);
    } finally {
      retrying.dispose();
    }
  });

  test("a database's shared throughput is drawn by all its containers", async () => {
    const sharedId = uniqueId("sharedru");
    const { database: shared } = await client.databases.create({ id: sharedId, throughput: 400 });
    try {
      const { container: a } = await shared.containers.create({ id: "a", partitionKey: { paths: ["/pk"], version: 2 } });
      const { container: b } = await shared.containers.create({ id: "b", partitionKey: { paths: ["/pk"], version: 2 } });
      await admin(rest, "PUT", sharedId, "a", { enforced: true });
      await admin(rest, "PUT", sharedId, "b", { enforced: true });
      const report = await admin(rest, "GET", sharedId, "a");
      assert.equal(report.sharedThroughput, true);
      assert.equal(report.partitions[0].ruPerSecond, 400);
      await overdraw(a, "x", "k");
      // Container b did nothing, but its database's budget is spent.
      await expectCosmosError(b.items.create({ id: "y", pk: "k" }), { code: 429, what: "a write to the other container" });
    } finally {
      await shared.delete();
    }
  });
});

describe("reads at the account's consistency level", { timeout: TIMEOUT }, () => {
  let server;
  let client;

  before(async () => {
    server = await startServer({ args: ["--consistency-level", "Strong"] });
    client = sdkClient(server);
  });

  after(async () => {
    client?.dispose();
    await server?.stop();
  });

  test("Strong reads cost twice the relaxed charge; a request may relax it; writes cost the same", async () => {
    const { resource: account } = await client.getDatabaseAccount();
    assert.equal(account.consistencyPolicy, "Strong");
    const { database } = await client.databases.create({ id: uniqueId("strong") });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const { requestCharge: write } = await container.items.create({ id: "a", pk: "p", pad: "x".repeat(600) });
    const strong = await container.item("a", "p").read();
    const eventual = await container.item("a", "p").read({ consistencyLevel: "Eventual" });
    assert.equal(strong.requestCharge, 2);
    assert.equal(eventual.requestCharge, 1);
    const q = (o) => container.items.query("SELECT * FROM c", { partitionKey: "p", ...o }).fetchAll();
    const [qs, qe] = [await q({}), await q({ consistencyLevel: "Eventual" })];
    assert.ok(Math.abs(qs.requestCharge - 2 * qe.requestCharge) < 0.02, `query: ${qs.requestCharge} vs ${qe.requestCharge}`);
    const { requestCharge: again } = await container.items.upsert({ id: "a", pk: "p", pad: "y".repeat(600) });
    assert.ok(again > write, "a replace costs more than the create, at any level");
    await database.delete();
  });

  test("a request cannot ask for more than the account's level", async () => {
    const relaxed = await startServer(); // Session
    const c = sdkClient(relaxed);
    try {
      const { database } = await c.databases.create({ id: uniqueId("sess") });
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      await container.items.create({ id: "a", pk: "p" });
      const e = await expectCosmosError(container.item("a", "p").read({ consistencyLevel: "Strong" }), { code: 400 });
      assert.match(e.message, /ConsistencyLevel Strong specified in the request is invalid when service is configured with consistency level Session/);
      // Checked before any work: a write asking for too much, or for no known level, is
      // refused and changes nothing.
      await expectCosmosError(container.items.create({ id: "b", pk: "p" }, { consistencyLevel: "Strong" }), { code: 400, what: "create at Strong" });
      await expectCosmosError(container.items.create({ id: "c", pk: "p" }, { consistencyLevel: "Bogus" }), { code: 400, what: "create at Bogus" });
      await expectCosmosError(container.item("a", "p").delete({ consistencyLevel: "Strong" }), { code: 400, what: "delete at Strong" });
      const ids = (await container.items.readAll().fetchAll()).resources.map((d) => d.id);
      assert.deepEqual(ids, ["a"]);
      assert.equal((await container.item("a", "p").read({ consistencyLevel: "Eventual" })).statusCode, 200);
    } finally {
      c.dispose();
      await relaxed.stop();
    }
  });
});
