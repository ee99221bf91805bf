// The logical partition limit (403/1014, --logical-partition-max-bytes) and partition
// statistics: the service's own headers and body (x-ms-resource-usage with
// populateQuotaInfo, "statistics" with x-ms-documentdb-populatepartitionstatistics),
// the admin call GET /_orrery/dbs/{db}/colls/{c}/stats and `orrery stats`.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ORRERY_BIN, IS_DISK } from "./lib/server.mjs";
import { sdkClient, restClient, expectCosmosError } from "./lib/util.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 60_000;
const LIMIT = 100_000; // bytes one logical partition may hold

describe("logical partition limit and partition statistics", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let container;

  const env = withServerAndDatabase("stats", {
    serverOptions: { args: ["--initial-partitions", "4", "--logical-partition-max-bytes", String(LIMIT)] },
    ready: async (e) => {
      ({ server, client, dbId } = e);
      rest = restClient(server);
      ({ container } = await e.database.containers.create({
        id: "c",
        partitionKey: { paths: ["/tenantId", "/deviceId"], kind: "MultiHash", version: 2 },
      }));
      // The whale tenant holds 10x the others: 100 items over 5 devices; 9 other tenants
      // hold 10 each over 2 devices.
      const writes = [];
      for (let i = 0; i < 100; i++) writes.push({ id: `w${i}`, tenantId: "whale", deviceId: `d${i % 5}`, pad: "x".repeat(300) });
      for (let t = 0; t < 9; t++) {
        for (let i = 0; i < 10; i++) writes.push({ id: `t${t}-${i}`, tenantId: `t${t}`, deviceId: `d${i % 2}`, pad: "x".repeat(300) });
      }
      for (let i = 0; i < writes.length; i += 50) await Promise.all(writes.slice(i, i + 50).map((w) => container.items.create(w)));
    },
  });

  const adminStats = async () => {
    const res = await rest.request("GET", ["_orrery", "dbs", dbId, "colls", "c", "stats"]);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test("the admin call counts items, bytes and logical partitions per physical partition", async () => {
    const stats = await adminStats();
    assert.equal(stats.itemCount, 190);
    assert.equal(stats.logicalPartitions, 5 + 9 * 2);
    assert.equal(stats.physicalPartitions.length, 4);
    const sum = (k) => stats.physicalPartitions.reduce((a, p) => a + p[k], 0);
    assert.equal(sum("itemCount"), 190);
    assert.equal(sum("logicalPartitions"), 23);
    assert.equal(sum("sizeBytes"), stats.sizeBytes);
    assert.ok(stats.sizeBytes > 190 * 300);
    assert.ok(sum("requestCharge") >= 190 * 5, "the creates' RU are counted per partition");
    // Every whale device is a logical partition of 20 items, and each is listed among its
    // partition's largest.
    const whales = stats.physicalPartitions.flatMap((p) => p.largestLogicalPartitions).filter((l) => l.partitionKey[0] === "whale");
    assert.equal(whales.length, 5);
    assert.ok(whales.every((l) => l.itemCount === 20));
    for (const p of stats.physicalPartitions) {
      assert.ok(p.largestLogicalPartitions.every((l, i, a) => i === 0 || a[i - 1].sizeBytes >= l.sizeBytes), "largest first");
    }
  });

  test("container reads report usage and the service's statistics when asked", async () => {
    const { headers } = await container.read({ populateQuotaInfo: true });
    assert.match(headers["x-ms-resource-usage"], /documentsCount=190;/);
    const res = await rest.request("GET", ["dbs", dbId, "colls", "c"], { headers: { "x-ms-documentdb-populatepartitionstatistics": "true" } });
    assert.equal(res.status, 200);
    const statistics = res.body.statistics;
    assert.equal(statistics.length, 4);
    assert.equal(statistics.reduce((a, s) => a + s.documentCount, 0), 190);
    for (const s of statistics) {
      assert.equal(typeof s.id, "string");
      assert.ok(s.sizeInKB >= 0 && Array.isArray(s.partitionKeys));
      for (const k of s.partitionKeys) assert.ok(Array.isArray(k.partitionKey) && k.sizeInKB > 0);
    }
    const plain = await rest.request("GET", ["dbs", dbId, "colls", "c"]);
    assert.equal(plain.body.statistics, undefined, "only when asked");
  });

  test("`orrery stats` prints the statistics as a table and as JSON", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(ORRERY_BIN, ["stats", "--endpoint", server.endpoint, "-d", dbId, "-c", "c"]);
    assert.match(stdout, new RegExp(`${dbId}/c: 190 items, .*, 23 logical partitions, 4 physical partitions`));
    assert.match(stdout, /\["whale","d\d"\]/);
    const { stdout: json } = await run(ORRERY_BIN, ["stats", "--endpoint", server.endpoint, "-d", dbId, "-c", "c", "--json"]);
    assert.equal(JSON.parse(json).itemCount, 190);
    const missing = await run(ORRERY_BIN, ["stats", "--endpoint", server.endpoint, "-d", dbId, "-c", "nope"]).catch((e) => e);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /404/);
  });

  test("a full logical partition refuses writes with 403/1014 and writes nothing; a prefix may exceed it", async () => {
    const pad = "y".repeat(5000);
    let stored = 0;
    let err;
    for (let i = 0; i < 40 && !err; i++) {
      try {
        await container.items.create({ id: `full${i}`, tenantId: "full", deviceId: "d0", pad });
        stored++;
      } catch (e) {
        err = e;
      }
    }
    assert.ok(err, "the partition filled up");
    assert.equal(err.code, 403);
    assert.equal(err.substatus, 1014);
    assert.match(err.message, /Partition key reached maximum size/);
    assert.ok(stored >= 15 && stored < 20, `${stored} items of ~5 KB in ${LIMIT} bytes`);
    const refused = await container.item(`full${stored}`, ["full", "d0"]).read();
    assert.equal(refused.statusCode, 404, "the refused item was not stored");
    // Upserting a grown item is refused too; the other devices of the tenant are other
    // logical partitions, so the tenant as a whole passes the limit.
    await expectCosmosError(container.items.upsert({ id: "full0", tenantId: "full", deviceId: "d0", pad: pad + pad }), { code: 403, substatus: 1014 });
    for (let i = 0; i < stored; i++) await container.items.create({ id: `more${i}`, tenantId: "full", deviceId: "d1", pad });
    const { resources } = await container.items
      .query("SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = 'full'", { partitionKey: ["full"] })
      .fetchAll();
    assert.equal(resources[0], 2 * stored);
    // Deleting makes room again.
    await container.item("full0", ["full", "d0"]).delete();
    await container.items.create({ id: "again", tenantId: "full", deviceId: "d0", pad });
  });

  test("the sizes survive a restart", { skip: !IS_DISK && "needs on-disk storage" }, async () => {
    const before = await adminStats();
    await server.restart();
    client.dispose();
    client = sdkClient(server); // the endpoint changes with the restart
    env.client = client;
    rest = restClient(server);
    const after = await adminStats();
    assert.equal(after.itemCount, before.itemCount);
    assert.equal(after.sizeBytes, before.sizeBytes);
    assert.equal(after.logicalPartitions, before.logicalPartitions);
  });
});
