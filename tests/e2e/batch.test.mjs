// Transactional batch and bulk through the SDK — wire-protocol.md §8: every operation
// type in one batch, all or nothing (207 with the failing operation's status and 424
// for the rest, nothing written), and bulk over several physical partitions, where
// each operation stands on its own.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, uniqueId, dropDatabase, userContent } from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("transactional batch and bulk", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let container;

  before(async () => {
    server = await startServer({ args: ["--initial-partitions", "4"] });
    client = sdkClient(server);
    dbId = uniqueId("batch");
    const { database } = await client.databases.create({ id: dbId });
    ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }));
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  const ids = async (pk) => {
    const { resources } = await container.items.query({ query: "SELECT VALUE c.id FROM c WHERE c.pk = @pk", parameters: [{ name: "@pk", value: pk }] }).fetchAll();
    return resources.sort();
  };

  test("every operation type in one batch; each sees the ones before it", async () => {
    await container.items.create({ id: "old", pk: "b1", n: 1 });
    const res = await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "x", pk: "b1", n: 1 } },
        { operationType: "Upsert", resourceBody: { id: "y", pk: "b1", n: 2 } },
        { operationType: "Read", id: "x" },
        { operationType: "Replace", id: "y", resourceBody: { id: "y", pk: "b1", n: 3 } },
        { operationType: "Patch", id: "x", resourceBody: { operations: [{ op: "incr", path: "/n", value: 10 }] } },
        { operationType: "Delete", id: "old" },
      ],
      "b1",
    );
    assert.equal(res.code, 200);
    assert.deepEqual(res.result.map((r) => r.statusCode), [201, 201, 200, 200, 200, 204]);
    assert.ok(res.result.every((r) => r.requestCharge > 0));
    assert.equal(res.result[2].resourceBody.n, 1, "the read sees the create before it");
    assert.equal(res.result[4].resourceBody.n, 11);
    assert.ok(res.result[0].eTag);
    assert.deepEqual(await ids("b1"), ["x", "y"]);
    const { resource } = await container.item("y", "b1").read();
    assert.deepEqual(userContent(resource), { id: "y", pk: "b1", n: 3 });
  });

  test("one failing operation fails the batch: 207, 424 for the others, nothing written", async () => {
    await container.items.create({ id: "exists", pk: "b2", n: 1 });
    const res = await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "new1", pk: "b2" } },
        { operationType: "Patch", id: "exists", resourceBody: { operations: [{ op: "set", path: "/n", value: 99 }] } },
        { operationType: "Create", resourceBody: { id: "exists", pk: "b2" } },
        { operationType: "Create", resourceBody: { id: "new2", pk: "b2" } },
      ],
      "b2",
    );
    assert.equal(res.code, 207);
    assert.deepEqual(res.result.map((r) => r.statusCode), [424, 424, 409, 424]);
    assert.deepEqual(await ids("b2"), ["exists"]);
    const { resource } = await container.item("exists", "b2").read();
    assert.equal(resource.n, 1, "the patch before the failure was not applied");
  });

  test("a stale ifMatch fails the batch with 412", async () => {
    const { resource: item } = await container.items.create({ id: "e", pk: "b3", n: 1 });
    await container.item("e", "b3").replace({ id: "e", pk: "b3", n: 2 });
    const res = await container.items.batch([{ operationType: "Replace", id: "e", ifMatch: item._etag, resourceBody: { id: "e", pk: "b3", n: 3 } }], "b3");
    assert.equal(res.code, 207);
    assert.equal(res.result[0].statusCode, 412);
  });

  test("bulk across partitions: each operation on its own", async () => {
    await container.items.create({ id: "dup", pk: "k7", n: 0 });
    const ops = Array.from({ length: 40 }, (_, i) => ({ operationType: "Create", partitionKey: `k${i}`, resourceBody: { id: i === 7 ? "dup" : `bulk${i}`, pk: `k${i}`, n: i } }));
    ops.push({ operationType: "Upsert", partitionKey: "k7", resourceBody: { id: "dup", pk: "k7", n: 77 } });
    const results = await container.items.executeBulkOperations(ops);
    assert.equal(results.length, 41);
    const codes = results.map((r) => r.response?.statusCode ?? r.error?.code);
    assert.equal(codes[7], 409, "the duplicate create fails alone");
    assert.equal(codes.filter((c) => c === 201).length, 39);
    assert.equal(codes[40], 200, "the upsert of the existing item");
    const { resource } = await container.item("dup", "k7").read();
    assert.equal(resource.n, 77);
    const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'bulk')").fetchAll();
    assert.equal(resources[0], 39);
  });
});
