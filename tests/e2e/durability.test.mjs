// Durability of acknowledged writes across a crash (kill -9) and exclusive use of a
// data directory. On-disk mode only (ORRERY_E2E_STORAGE=disk); skipped in memory mode.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, runOrrery, IS_DISK } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, assertStatus, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 180_000;

describe("durability (on-disk mode)", { timeout: TIMEOUT, skip: !IS_DISK && "on-disk mode only (ORRERY_E2E_STORAGE=disk)" }, () => {
  let server;
  before(async () => {
    server = await startServer({ inMemory: false });
  });
  after(async () => {
    await server?.stop();
  });

  test("100 acknowledged items survive kill -9 and restart unchanged", async () => {
    const dbId = uniqueId("dur");
    let client = sdkClient(server);
    const { database } = await client.databases.create({ id: dbId });
    const { container, resource: collDef } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const dbDef = (await database.read()).resource;
    const expected = new Map();
    for (let i = 0; i < 100; i++) {
      const resp = await container.items.create({ id: `item-${i}`, pk: `p${i % 7}`, i, payload: { s: "x".repeat(i * 10), a: [i, String(i)] } });
      assert.equal(resp.statusCode, 201);
      expected.set(resp.resource.id, resp.resource);
    }
    // some acknowledged replaces and deletes too
    for (let i = 0; i < 10; i++) {
      const id = `item-${i}`;
      const resp = await container.item(id, `p${i % 7}`).replace({ id, pk: `p${i % 7}`, i, replaced: true });
      assert.equal(resp.statusCode, 200);
      expected.set(id, resp.resource);
    }
    for (let i = 90; i < 100; i++) {
      const resp = await container.item(`item-${i}`, `p${i % 7}`).delete();
      assert.equal(resp.statusCode, 204);
      expected.delete(`item-${i}`);
    }
    const ranges = (await container.readPartitionKeyRanges().fetchAll()).resources;
    client.dispose();

    const exit = await server.kill9();
    assert.equal(exit.signal, "SIGKILL");
    await server.restart();
    client = sdkClient(server);
    try {
      const db2 = client.database(dbId);
      assert.deepEqual((await db2.read()).resource, dbDef, "database definition after restart");
      const c2 = db2.container("c");
      const { resource: coll2 } = await c2.read();
      assert.deepEqual(coll2, collDef, "container definition after restart");
      const ranges2 = (await c2.readPartitionKeyRanges().fetchAll()).resources;
      assert.deepEqual(
        ranges2.map((r) => [r.id, r.minInclusive, r.maxExclusive]),
        ranges.map((r) => [r.id, r.minInclusive, r.maxExclusive]),
        "partition key ranges after restart",
      );
      for (let i = 0; i < 100; i++) {
        const id = `item-${i}`;
        const r = await c2.item(id, `p${i % 7}`).read();
        if (expected.has(id)) {
          assert.equal(r.statusCode, 200, `${id} lost after kill -9`);
          assert.deepEqual(r.resource, expected.get(id), `${id} changed after kill -9 (body incl. _etag, _ts, _rid)`);
        } else {
          assert.equal(r.statusCode, 404, `${id} was deleted before the crash but is back`);
        }
      }
      const all = await c2.items.readAll().fetchAll();
      assert.equal(all.resources.length, 90);
      // writes keep working; etags stay unique
      const n = await c2.items.create({ id: "after", pk: "p0" });
      assert.equal(n.statusCode, 201);
      const etags = new Set([...expected.values()].map((d) => d._etag));
      assert.ok(!etags.has(n.resource._etag), "a new write must not reuse an etag from before the crash");
      await expectCosmosError(() => c2.items.create({ id: "item-10", pk: `p${10 % 7}` }), { code: 409, what: "ids persisted" });
    } finally {
      client.dispose();
    }
  });

  test("graceful stop (SIGTERM) and restart keeps the data", async () => {
    const dbId = uniqueId("dur-term");
    let client = sdkClient(server);
    const { database } = await client.databases.create({ id: dbId });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const doc = (await container.items.create({ id: "x", pk: "p", v: 1 })).resource;
    client.dispose();
    await server.stop();
    await server.restart();
    client = sdkClient(server);
    try {
      const r = await client.database(dbId).container("c").item("x", "p").read();
      assert.equal(r.statusCode, 200);
      assert.deepEqual(r.resource, doc);
    } finally {
      client.dispose();
    }
  });

  test("a second server on the same data directory fails with a one-line error naming the data directory", async () => {
    assertStatus(await restClient(server).get(""), 200, "first server is up");
    const r = await runOrrery(["serve", "--port", "0", "--data-dir", server.dataDir, "--no-tls"], { timeoutMs: 10_000 });
    assert.equal(r.becameReady, false, `second server started on a data directory in use:\n${r.stdout}\n${r.stderr}`);
    assert.equal(r.timedOut, false, "second server neither started nor exited within 10 s");
    assert.notEqual(r.code, 0, `exit code must be non-zero (code ${r.code}, signal ${r.signal})`);
    assert.equal(r.signal, null, `second server died from signal ${r.signal} instead of exiting with an error`);
    const lines = r.stderr.split("\n").filter((l) => l.trim().length > 0);
    assert.equal(lines.length, 1, `expected a one-line error on stderr, got:\n${r.stderr}`);
    assert.ok(
      lines[0].includes(server.dataDir) || /data.?dir|data directory/i.test(lines[0]),
      `the error must mention the data directory: ${lines[0]}`,
    );
    // the first server is unaffected
    assertStatus(await restClient(server).get("dbs"), 200, "first server still serves");
  });
});
