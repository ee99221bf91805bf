// What the SDKs' own samples do that Orrery once got wrong (issue 47), through
// @azure/cosmos 4.10.1 where it exposes it and raw REST where only other SDKs send it:
// items by their _self link, partition-key delete, legacy non-partitioned containers,
// the indexing directive and automatic: false, the root index path "/", patch set at the
// array's length, GROUP BY order and the substatus of errors.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { sdkClient, restClient, uniqueId, expectCosmosError, assertStatus, dropDatabase } from "./lib/util.mjs";

const TIMEOUT = 120_000;

describe("samples fidelity", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let database;
  before(async () => {
    server = await startServer();
    client = sdkClient(server);
    rest = restClient(server);
    dbId = uniqueId("samples");
    ({ database } = await client.databases.create({ id: dbId }));
  });
  after(async () => {
    await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  const newContainer = async (extra = {}) =>
    (await database.containers.create({ id: uniqueId("c"), partitionKey: { paths: ["/pk"], version: 2 }, ...extra })).container;
  const ids = async (container, query = "SELECT VALUE c.id FROM c", options = {}) =>
    (await container.items.query(query, options).fetchAll()).resources.sort();

  test("an item by its _self link (the Python SDK's dict items), signed with its rid, for every verb", async () => {
    const container = await newContainer();
    const { resource: item } = await container.items.create({ id: "d1", pk: "p", n: 1 });
    const path = item._self.replace(/\/$/, "");
    const signed = { signResourceType: "docs", signResourceLink: item._rid.toLowerCase(), urlPath: "/" + item._self, pk: ["p"] };
    const read = await rest.request("GET", path, signed);
    assertStatus(read, 200, "read by _self");
    assert.equal(read.body.id, "d1");
    const replaced = await rest.request("PUT", path, { ...signed, body: { id: "d1", pk: "p", n: 2 } });
    assertStatus(replaced, 200, "replace by _self");
    assert.equal(replaced.body._rid, item._rid);
    const patched = await rest.request("PATCH", path, { ...signed, body: { operations: [{ op: "incr", path: "/n", value: 5 }] } });
    assertStatus(patched, 200, "patch by _self");
    assert.equal(patched.body.n, 7);
    assertStatus(await rest.request("DELETE", path, signed), 204, "delete by _self");
    assertStatus(await rest.request("GET", path, signed), 404, "read of a deleted item's _self");
    assertStatus(await rest.request("PUT", path, { ...signed, body: { id: "d1", pk: "p" } }), 404, "replace of a deleted item's _self");
    // Signed over the names instead: not this request's signature.
    await container.items.create({ id: "d1", pk: "p" });
    assertStatus(await rest.request("GET", path, { ...signed, signResourceLink: `dbs/${dbId}/colls/${container.id}/docs/d1` }), 401, "names' link");
  });

  test("deleteAllItemsForPartitionKey: the key's items are gone at once, the others stay, the ids are free", async () => {
    const container = await newContainer();
    for (let i = 0; i < 3; i++) {
      await container.items.create({ id: `a${i}`, pk: "a" });
      await container.items.create({ id: `b${i}`, pk: "b" });
    }
    const response = await container.deleteAllItemsForPartitionKey("a");
    assert.equal(response.statusCode, 200);
    assert.deepEqual(await ids(container), ["b0", "b1", "b2"]);
    const { statusCode } = await container.item("a0", "a").read();
    assert.equal(statusCode, 404);
    assert.deepEqual(await ids(container, "SELECT VALUE c.id FROM c", { partitionKey: "a" }), []);
    await container.items.create({ id: "a0", pk: "a", again: true });
    assert.equal((await container.item("a0", "a").read()).resource.again, true);
    // The purge runs in the background; nothing of the key comes back meanwhile or after.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(await ids(container), ["a0", "b0", "b1", "b2"]);
    // With a hierarchical key, the full key only.
    const { container: hierarchical } = await database.containers.create({
      id: uniqueId("hpk"),
      partitionKey: { paths: ["/t", "/u"], kind: "MultiHash", version: 2 },
    });
    await hierarchical.items.create({ id: "1", t: "x", u: "y" });
    await hierarchical.items.create({ id: "2", t: "x", u: "z" });
    await expectCosmosError(hierarchical.deleteAllItemsForPartitionKey(["x"]), { code: 400, what: "prefix of a hierarchical key" });
    await hierarchical.deleteAllItemsForPartitionKey(["x", "y"]);
    assert.deepEqual(await ids(hierarchical), ["2"]);
  });

  test("a container created without a partition key by an older API version is non-partitioned, with the system key", async () => {
    const refused = await rest.request("POST", `dbs/${dbId}/colls`, { body: { id: "nokey" } });
    assertStatus(refused, 400, "a new client's create without a key");
    assert.match(refused.body.message, /A Partition key definition is not specified in the request\./);
    const created = await rest.request("POST", `dbs/${dbId}/colls`, { body: { id: "legacy" }, headers: { "x-ms-version": "2018-06-18" } });
    assertStatus(created, 201, "an older client's create without a key");
    assert.equal(created.body.partitionKey, undefined, "clients of that version see no key");
    const container = database.container("legacy");
    const { resource: definition } = await container.read();
    assert.deepEqual(definition.partitionKey, { paths: ["/_partitionKey"], kind: "Hash", systemKey: true });
    // The SDK sends [] for an item without _partitionKey, and reads its definition for an
    // item addressed without a key.
    await container.items.create({ id: "old", n: 1 });
    await container.items.create({ id: "keyed", _partitionKey: "k", n: 2 });
    assert.equal((await container.item("old").read()).resource.n, 1);
    assert.equal((await container.item("keyed", "k").read()).resource.n, 2);
    assert.equal((await container.item("keyed").read()).statusCode, 404);
    for (const none of [[], [{}], [null]]) {
      const read = await rest.request("GET", `dbs/${dbId}/colls/legacy/docs/old`, { pk: none });
      assertStatus(read, 200, `read with ${JSON.stringify(none)}`);
    }
    assertStatus(await rest.request("GET", `dbs/${dbId}/colls/legacy/docs/old`), 200, "read without a key header");
    assert.deepEqual(await ids(container, "SELECT VALUE c.id FROM c", { partitionKey: [] }), ["old"]);
    assert.deepEqual(await ids(container, "SELECT VALUE c.id FROM c", { partitionKey: "k" }), ["keyed"]);
    assert.deepEqual(await ids(container), ["keyed", "old"]);
    await container.item("old").delete();
    assert.deepEqual(await ids(container), ["keyed"]);
  });

  test("indexingDirective exclude and automatic: false keep items out of the index (the SDKs' IndexManagement samples)", async () => {
    const container = (await database.containers.create({ id: uniqueId("excl"), partitionKey: { paths: ["/id"] } })).container;
    const byOrder = (order) =>
      ids(container, { query: "SELECT VALUE r.id FROM r WHERE r.orderId = @o", parameters: [{ name: "@o", value: order }] });
    await container.items.create({ id: "doc1", orderId: "order1" });
    assert.deepEqual(await byOrder("order1"), ["doc1"]);
    await container.items.create({ id: "doc2", orderId: "order2" }, { indexingDirective: "exclude" });
    assert.deepEqual(await byOrder("order2"), []);
    assert.equal((await container.item("doc2", "doc2").read()).resource.orderId, "order2");
    assert.deepEqual(await ids(container, "SELECT VALUE r.id FROM r WHERE r.id = 'doc2'"), ["doc2"]);
    await container.item("doc2", "doc2").replace({ id: "doc2", orderId: "order2" }, { indexingDirective: "include" });
    assert.deepEqual(await byOrder("order2"), ["doc2"]);

    const manual = (await database.containers.create({ id: uniqueId("manual"), partitionKey: { paths: ["/id"] }, indexingPolicy: { automatic: false } }))
      .container;
    await manual.items.create({ id: "m1", orderId: "o1" });
    await manual.items.create({ id: "m2", orderId: "o1" }, { indexingDirective: "include" });
    assert.deepEqual(await ids(manual, "SELECT VALUE r.id FROM r WHERE r.orderId = 'o1'"), ["m2"]);
    assert.equal((await manual.item("m1", "m1").read()).statusCode, 200);
  });

  test("the root index path '/' is accepted for the whole tree (IndexManagement.ts)", async () => {
    const container = await newContainer({ indexingPolicy: { includedPaths: [{ path: "/" }], excludedPaths: [{ path: "/length/*" }] } });
    const { resource } = await container.read();
    assert.deepEqual(resource.indexingPolicy.includedPaths.map((p) => p.path), ["/"]);
    await container.items.create({ id: "w", pk: "p", width: 15 });
    assert.deepEqual(await ids(container, "SELECT VALUE c.id FROM c WHERE c.width > 10"), ["w"]);
  });

  test("patch set at the array's length appends; replace there and add beyond it are 400s", async () => {
    const container = await newContainer();
    await container.items.create({ id: "parent", pk: "p", children: [{ name: "c1" }] });
    const item = container.item("parent", "p");
    const { resource } = await item.patch([{ op: "set", path: "/children/1", value: { name: "c4" } }]);
    assert.deepEqual(resource.children, [{ name: "c1" }, { name: "c4" }]);
    await expectCosmosError(item.patch([{ op: "replace", path: "/children/2", value: 1 }]), { code: 400, what: "replace at the length" });
    await expectCosmosError(item.patch([{ op: "add", path: "/children/3", value: 1 }]), { code: 400, what: "add beyond the length" });
    assert.deepEqual((await item.read()).resource.children, [{ name: "c1" }, { name: "c4" }]);
  });

  test("GROUP BY: one key in key order, several in the order their first items are met (Microsoft's query samples)", async () => {
    const container = await newContainer();
    const seed = [
      ["3548979698", "python", true],
      ["4228924547", "javascript", false],
      ["2941063066", "c-sharp", true],
      ["9318573296", "javascript", true],
      ["3601062997", undefined, true],
      ["7074932233", "python", false],
      ["3798545532", "javascript", true],
    ];
    for (const [id, softwareDevelopment, mediaTrained] of seed) {
      await container.items.create({ id, pk: "e", capabilities: { softwareDevelopment, mediaTrained }, team: "Cloud software engineering" });
    }
    const rows = async (query) => (await container.items.query(query, { partitionKey: "e" }).fetchAll()).resources;
    assert.deepEqual(
      await rows(
        'SELECT e.capabilities.softwareDevelopment AS developmentLang FROM employees e WHERE e.team = "Cloud software engineering" GROUP BY e.capabilities.softwareDevelopment',
      ),
      [{}, { developmentLang: "c-sharp" }, { developmentLang: "javascript" }, { developmentLang: "python" }],
    );
    assert.deepEqual(
      await rows(
        "SELECT COUNT(1) AS employeesWithThisTraining, e.capabilities.softwareDevelopment AS developmentLang, e.capabilities.mediaTrained AS mediaReady " +
          'FROM employees e WHERE e.team = "Cloud software engineering" GROUP BY e.capabilities.softwareDevelopment, e.capabilities.mediaTrained',
      ),
      [
        { employeesWithThisTraining: 1, developmentLang: "python", mediaReady: true },
        { employeesWithThisTraining: 1, developmentLang: "javascript", mediaReady: false },
        { employeesWithThisTraining: 1, developmentLang: "c-sharp", mediaReady: true },
        { employeesWithThisTraining: 2, developmentLang: "javascript", mediaReady: true },
        { employeesWithThisTraining: 1, mediaReady: true },
        { employeesWithThisTraining: 1, developmentLang: "python", mediaReady: false },
      ],
    );
  });

  test("errors carry x-ms-substatus: 0 where the status says it all, 1003 when the owner is missing", async () => {
    const container = await newContainer();
    await container.items.create({ id: "dup", pk: "p" });
    const missing = await rest.request("GET", `dbs/${dbId}/colls/${container.id}/docs/nothing`, { pk: ["p"] });
    assertStatus(missing, 404);
    assert.equal(missing.headers["x-ms-substatus"], "0");
    const duplicate = await rest.request("POST", `dbs/${dbId}/colls/${container.id}/docs`, { pk: ["p"], body: { id: "dup", pk: "p" } });
    assertStatus(duplicate, 409);
    assert.equal(duplicate.headers["x-ms-substatus"], "0");
    const badJson = await rest.request("POST", `dbs/${dbId}/colls/${container.id}/docs`, { pk: ["p"], rawBody: "{" });
    assertStatus(badJson, 400);
    assert.equal(badJson.headers["x-ms-substatus"], "0");
    const unsigned = await rest.request("GET", "dbs", { auth: false });
    assertStatus(unsigned, 401);
    assert.equal(unsigned.headers["x-ms-substatus"], "0");
    await expectCosmosError(container.item("nothing", "p").delete(), { code: 404, substatus: 0, what: "delete of a missing item" });
    // Operations under a container or database that does not exist: the owner is missing.
    // (The SDK answers a point read's 404 without throwing.)
    const underMissingContainer = await database.container("never").item("x", "p").read();
    assert.equal(underMissingContainer.statusCode, 404);
    assert.equal(Number(underMissingContainer.substatus), 1003);
    const query = await rest.request("POST", `dbs/${dbId}/colls/never/docs`, {
      body: { query: "SELECT * FROM c" },
      headers: { "content-type": "application/query+json", "x-ms-documentdb-isquery": "true", "x-ms-documentdb-query-enablecrosspartition": "true" },
    });
    assertStatus(query, 404);
    assert.equal(query.headers["x-ms-substatus"], "1003");
    const containerRead = await rest.request("GET", `dbs/${dbId}/colls/never`);
    assertStatus(containerRead, 404);
    assert.equal(containerRead.headers["x-ms-substatus"], "0");
    const underMissingDatabase = await rest.request("GET", `dbs/nodb/colls`);
    assertStatus(underMissingDatabase, 404);
    assert.equal(underMissingDatabase.headers["x-ms-substatus"], "1003");
  });
});
