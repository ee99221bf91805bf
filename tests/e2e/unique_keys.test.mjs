// Unique key policies through the SDK: uniqueness per logical partition (the partition
// key is implicitly part of every unique key), missing values counting as one value,
// 409 with nothing written on a violation, in single writes and in batches.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("unique keys", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let database;
  let container;
  withServerAndDatabase("uk", {
    serverOptions: { args: ["--initial-partitions", "2"] },
    ready: async (env) => {
      ({ server, client, dbId, database } = env);
      ({ container } = await database.containers.create({
        id: "users",
        partitionKey: { paths: ["/tenant"], version: 2 },
        uniqueKeyPolicy: { uniqueKeys: [{ paths: ["/email"] }, { paths: ["/first", "/last"] }] },
      }));
    },
  });

  const count = async (tenant) => {
    const { resources } = await container.items
      .query({ query: "SELECT VALUE COUNT(1) FROM c WHERE c.tenant = @t", parameters: [{ name: "@t", value: tenant }] })
      .fetchAll();
    return resources[0];
  };

  test("the policy is kept on the container", async () => {
    const { resource } = await container.read();
    assert.deepEqual(resource.uniqueKeyPolicy, { uniqueKeys: [{ paths: ["/email"] }, { paths: ["/first", "/last"] }] });
  });

  test("a taken value in the same logical partition is a 409; another partition may reuse it", async () => {
    await container.items.create({ id: "1", tenant: "t1", email: "a@x", first: "A", last: "B" });
    const err = await expectCosmosError(container.items.create({ id: "2", tenant: "t1", email: "a@x", first: "C", last: "D" }), { code: 409 });
    assert.match(err.message, /Unique index constraint violation/);
    await expectCosmosError(container.items.create({ id: "3", tenant: "t1", email: "b@x", first: "A", last: "B" }), { code: 409, what: "the composite key" });
    await container.items.create({ id: "4", tenant: "t1", email: "b@x", first: "A", last: "Z" });
    await container.items.create({ id: "1", tenant: "t2", email: "a@x", first: "A", last: "B" });
    assert.equal(await count("t1"), 2);
  });

  test("replace and upsert are checked too; a released value can be taken again", async () => {
    await expectCosmosError(container.item("4", "t1").replace({ id: "4", tenant: "t1", email: "a@x", first: "A", last: "Z" }), { code: 409 });
    const { resource: unchanged } = await container.item("4", "t1").read();
    assert.equal(unchanged.email, "b@x");
    await container.items.upsert({ id: "1", tenant: "t1", email: "c@x", first: "A", last: "B" });
    await container.items.create({ id: "5", tenant: "t1", email: "a@x", first: "E", last: "F" });
    await container.item("5", "t1").delete();
    await container.items.create({ id: "6", tenant: "t1", email: "a@x", first: "G", last: "H" });
  });

  test("a missing value is a value: one item per partition may lack it", async () => {
    await container.items.create({ id: "m1", tenant: "t3", first: "M", last: "1" });
    await expectCosmosError(container.items.create({ id: "m2", tenant: "t3", first: "M", last: "2" }), { code: 409 });
    await container.items.create({ id: "m3", tenant: "t3", email: null, first: "M", last: "3" });
  });

  test("a batch that violates a unique key writes nothing", async () => {
    const res = await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "b1", tenant: "t4", email: "same", first: "1", last: "1" } },
        { operationType: "Create", resourceBody: { id: "b2", tenant: "t4", email: "same", first: "2", last: "2" } },
      ],
      "t4",
    );
    assert.equal(res.code, 207);
    assert.deepEqual(res.result.map((r) => r.statusCode), [424, 409]);
    assert.equal(await count("t4"), 0);
    const ok = await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "b1", tenant: "t4", email: "one", first: "1", last: "1" } },
        { operationType: "Replace", id: "b1", resourceBody: { id: "b1", tenant: "t4", email: "two", first: "1", last: "1" } },
        { operationType: "Create", resourceBody: { id: "b2", tenant: "t4", email: "one", first: "2", last: "2" } },
      ],
      "t4",
    );
    assert.equal(ok.code, 200, "a value released earlier in the batch can be taken later in it");
    assert.equal(await count("t4"), 2);
  });

  test("concurrent creates cannot both take one value", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => container.items.create({ id: `r${i}`, tenant: "t5", email: "race", first: `${i}`, last: "r" })),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal(await count("t5"), 1);
  });

  test("invalid policies are refused", async () => {
    const paths = Array.from({ length: 17 }, (_, i) => `/p${i}`);
    await expectCosmosError(
      database.containers.create({ id: "bad", partitionKey: { paths: ["/pk"], version: 2 }, uniqueKeyPolicy: { uniqueKeys: [{ paths }] } }),
      { code: 400 },
    );
    await expectCosmosError(
      database.containers.create({ id: "bad2", partitionKey: { paths: ["/pk"], version: 2 }, uniqueKeyPolicy: { uniqueKeys: [{ paths: ["no-slash"] }] } }),
      { code: 400 },
    );
  });
});
