// @azure/cosmos 3.17.3: databases and containers (single and hierarchical partition
// keys), their throughput through offers.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { V3, v3Setup, v3Teardown, expectStatus, step, uniqueId } from "./lib.mjs";

describe(`${V3} databases and containers`, { timeout: 120_000 }, () => {
  const env = {};
  before(() => v3Setup(env, "v3res"));
  after(() => v3Teardown(env));

  test("database create, read, list, query, createIfNotExists, delete", async () => {
    const { client } = env;
    const id = uniqueId("v3db");
    const created = await step(`${V3} create database`, () => client.databases.create({ id }));
    assert.equal(created.statusCode, 201);
    assert.equal(created.resource.id, id);
    assert.ok(created.resource._rid && created.resource._etag && created.resource._self);
    await expectStatus(() => client.databases.create({ id }), { status: 409, what: `${V3} create an existing database` });
    const again = await client.databases.createIfNotExists({ id });
    assert.equal(again.statusCode, 200, "createIfNotExists of an existing database reads it");
    assert.equal((await client.database(id).read()).resource._rid, created.resource._rid);
    const { resources: all } = await client.databases.readAll().fetchAll();
    assert.ok(all.some((d) => d.id === id));
    const { resources: q } = await client.databases
      .query({ query: "SELECT * FROM root r WHERE r.id = @id", parameters: [{ name: "@id", value: id }] })
      .fetchAll();
    assert.deepEqual(q.map((d) => d.id), [id]);
    assert.equal((await client.database(id).delete()).statusCode, 204);
    await expectStatus(() => client.database(id).read(), { status: 404, what: `${V3} read a deleted database` });
  });

  test("container create, read, replace (indexing policy, TTL), list, delete", async () => {
    const { database } = env;
    const { container, resource } = await step(`${V3} create container`, () =>
      database.containers.create({ id: "c1", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: -1 }),
    );
    assert.deepEqual(resource.partitionKey.paths, ["/pk"]);
    assert.equal(resource.partitionKey.version, 2);
    assert.equal(resource.partitionKey.kind, "Hash");
    assert.equal(resource.defaultTtl, -1);
    assert.equal(resource.indexingPolicy.indexingMode, "consistent", "the default indexing policy is filled in");
    const { resource: read } = await container.read();
    assert.equal(read._rid, resource._rid);
    const replaced = await step(`${V3} replace container`, () =>
      container.replace({ ...read, defaultTtl: 3600, indexingPolicy: { indexingMode: "consistent", automatic: true, includedPaths: [{ path: "/*" }], excludedPaths: [{ path: "/big/*" }, { path: '/"_etag"/?' }] } }),
    );
    assert.equal(replaced.resource.defaultTtl, 3600);
    assert.ok(replaced.resource.indexingPolicy.excludedPaths.some((p) => p.path === "/big/*"));
    assert.notEqual(replaced.resource._etag, read._etag);
    await expectStatus(() => container.replace({ ...read, partitionKey: { paths: ["/other"], version: 2 } }), { status: 400, what: `${V3} change a container's partition key` });
    const { resources } = await database.containers.readAll().fetchAll();
    assert.ok(resources.some((c) => c.id === "c1"));
    // A string partition key is the shorthand 3.x accepts for { paths: [it] }.
    const { resource: short } = await database.containers.createIfNotExists({ id: "c2", partitionKey: "/tenant" });
    assert.deepEqual(short.partitionKey.paths, ["/tenant"]);
    await expectStatus(() => database.containers.create({ id: "c2", partitionKey: "/tenant" }), { status: 409, what: `${V3} create an existing container` });
    assert.equal((await database.container("c2").delete()).statusCode, 204);
    await expectStatus(() => database.container("c2").read(), { status: 404, what: `${V3} read a deleted container` });
  });

  test("container and database throughput: read and replace through offers", async () => {
    const { client, database } = env;
    const { container } = await database.containers.create({ id: "tp", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 500 });
    const { resource: offer } = await step(`${V3} container.readOffer`, () => container.readOffer());
    assert.equal(offer.content.offerThroughput, 500);
    const { resource: cont } = await container.read();
    assert.equal(offer.offerResourceId, cont._rid);
    const replaced = await step(`${V3} replace offer`, () => client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 800 } }));
    assert.equal(replaced.resource.content.offerThroughput, 800);
    assert.equal((await container.readOffer()).resource.content.offerThroughput, 800);
    const { resources: offers } = await client.offers.readAll().fetchAll();
    assert.ok(offers.some((o) => o.id === offer.id && o.content.offerThroughput === 800));
    const { resources: byQuery } = await client.offers
      .query({ query: "SELECT * FROM root r WHERE r.resource = @self", parameters: [{ name: "@self", value: cont._self }] })
      .fetchAll();
    assert.deepEqual(byQuery.map((o) => o.id), [offer.id]);
    await expectStatus(() => client.offer(offer.id).replace({ ...offer, content: { offerThroughput: 50 } }), { status: 400, what: `${V3} replace an offer below 400 RU/s` });
    // Shared database throughput; the container in it has no offer of its own.
    const { database: shared } = await client.databases.create({ id: uniqueId("v3shared"), throughput: 1000 });
    try {
      const { resource: dbOffer } = await shared.readOffer();
      assert.equal(dbOffer.content.offerThroughput, 1000);
      const { container: inShared } = await shared.containers.create({ id: "s", partitionKey: { paths: ["/pk"], version: 2 } });
      const { resource: none } = await inShared.readOffer();
      assert.equal(none, undefined, "a container on shared throughput has no offer");
      // Autoscale through the 3.x request shape (maxThroughput).
      const { container: auto } = await database.containers.create({ id: "auto", partitionKey: { paths: ["/pk"], version: 2 }, maxThroughput: 4000 });
      const { resource: autoOffer } = await auto.readOffer();
      assert.equal(autoOffer.content.offerAutopilotSettings?.maxThroughput, 4000);
    } finally {
      await shared.delete();
    }
  });

  test("hierarchical partition keys: what 3.17.3 passes through", async () => {
    // 3.17.3's PartitionKeyDefinition has no `kind` and its partition key values are
    // scalars; since 3.16.0 (azure-sdk-for-js PR 21934) it sends a definition it is given
    // as is and an array partition key value as the header's array, so a MultiHash
    // container works with full keys. Prefix keys and bulk (which hashes only the first
    // path) are beyond it; see the skipped test below.
    const { database } = env;
    const def = { paths: ["/tenant", "/user"], kind: "MultiHash", version: 2 };
    const { container, resource } = await step(`${V3} create a MultiHash container`, () => database.containers.create({ id: "h", partitionKey: def }));
    assert.deepEqual(resource.partitionKey, def);
    const created = await step(`${V3} create in MultiHash`, () => container.items.create({ id: "x", tenant: "t1", user: "u1", n: 1 }));
    assert.equal(created.statusCode, 201);
    await container.items.create({ id: "x", tenant: "t1", user: "u2", n: 2 });
    await container.items.create({ id: "y", tenant: "t2", user: "u1", n: 3 });
    const { resource: r } = await container.item("x", ["t1", "u2"]).read();
    assert.equal(r.n, 2);
    const missing = await container.item("x", ["t2", "u1"]).read();
    assert.equal(missing.statusCode, 404);
    const { resource: rep } = await container.item("x", ["t1", "u1"]).replace({ id: "x", tenant: "t1", user: "u1", n: 10 });
    assert.equal(rep.n, 10);
    await expectStatus(() => container.item("x", ["t1", "u1"]).replace({ id: "x", tenant: "t9", user: "u1" }), { status: 400, substatus: 1001, what: `${V3} replace with another full key in the body` });
    const { resources } = await container.items.query("SELECT VALUE c.n FROM c", { partitionKey: ["t1", "u1"] }).fetchAll();
    assert.deepEqual(resources, [10]);
    const { resources: all } = await container.items.query("SELECT VALUE c.n FROM c WHERE c.tenant = 't1' ORDER BY c.n").fetchAll();
    assert.deepEqual(all, [2, 10]);
    assert.equal((await container.item("y", ["t2", "u1"]).delete()).statusCode, 204);
  });

  test("hierarchical partition keys: a query by a key prefix", { skip: "3.17.3 has no prefix partition key: its PartitionKey values are scalars (prefix keys arrived with MultiHash in 4.0.0)" }, () => {});
});
