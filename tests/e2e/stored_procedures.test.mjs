// Stored procedures through @azure/cosmos (container.scripts) — server-side-scripts.md:
// the resources (create, read, replace, delete, list, query, rid links), execution with
// the documented samples (hello world, bulk import, bulk delete, the async sample),
// transactions (a throw rolls back every write), the partition scope, time limits,
// console.log, and bad input.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { TriggerOperation, TriggerType } from "@azure/cosmos";
import { sdkClient, uniqueId, dropDatabase, userContent } from "./lib/util.mjs";

const TIMEOUT = 120_000;

// Microsoft's "How to write stored procedures" samples, as published.
const helloWorld = `function helloWorld() {
  var context = getContext();
  var response = context.getResponse();
  response.setBody("Hello, World");
}`;

// The bulk import sample of azure-cosmosdb-js-server (samples/stored-procedures/BulkImport.js).
const bulkImport = `function bulkImport(docs) {
  var collection = getContext().getCollection();
  var collectionLink = collection.getSelfLink();
  var count = 0;
  if (!docs) throw new Error("The array is undefined or null.");
  var docsLength = docs.length;
  if (docsLength == 0) {
    getContext().getResponse().setBody(0);
    return;
  }
  tryCreate(docs[count], callback);
  function tryCreate(doc, callback) {
    var isAccepted = collection.createDocument(collectionLink, doc, callback);
    if (!isAccepted) getContext().getResponse().setBody(count);
  }
  function callback(err, doc, options) {
    if (err) throw err;
    count++;
    if (count >= docsLength) {
      getContext().getResponse().setBody(count);
    } else {
      tryCreate(docs[count], callback);
    }
  }
}`;

// The bulk delete sample (samples/stored-procedures/bulkDelete.js).
const bulkDelete = `function bulkDeleteSproc(query) {
  var collection = getContext().getCollection();
  var collectionLink = collection.getSelfLink();
  var response = getContext().getResponse();
  var responseBody = { deleted: 0, continuation: true };
  if (!query) throw new Error("The query is undefined or null.");
  tryQueryAndDelete();
  function tryQueryAndDelete(continuation) {
    var requestOptions = { continuation: continuation };
    var isAccepted = collection.queryDocuments(collectionLink, query, requestOptions, function (err, retrievedDocs, responseOptions) {
      if (err) throw err;
      if (retrievedDocs.length > 0) {
        tryDelete(retrievedDocs);
      } else if (responseOptions.continuation) {
        tryQueryAndDelete(responseOptions.continuation);
      } else {
        responseBody.continuation = false;
        response.setBody(responseBody);
      }
    });
    if (!isAccepted) response.setBody(responseBody);
  }
  function tryDelete(documents) {
    if (documents.length > 0) {
      var isAccepted = collection.deleteDocument(documents[0]._self, {}, function (err, responseOptions) {
        if (err) throw err;
        responseBody.deleted++;
        documents.shift();
        tryDelete(documents);
      });
      if (!isAccepted) response.setBody(responseBody);
    } else {
      tryQueryAndDelete();
    }
  }
}`;

describe("stored procedures", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let container;

  before(async () => {
    server = await startServer({ args: ["--initial-partitions", "2"] });
    client = sdkClient(server);
    dbId = uniqueId("sprocs");
    const { database } = await client.databases.create({ id: dbId });
    ({ container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }));
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  const ids = async (pk) => {
    const { resources } = await container.items
      .query({ query: "SELECT VALUE c.id FROM c WHERE c.pk = @pk", parameters: [{ name: "@pk", value: pk }] })
      .fetchAll();
    return resources.sort();
  };

  test("create, read, replace, list, query and delete; system properties and etags", async () => {
    const { resource: created, statusCode } = await container.scripts.storedProcedures.create({ id: "hello", body: helloWorld });
    assert.equal(statusCode, 201);
    assert.equal(created.id, "hello");
    assert.equal(created.body, helloWorld);
    assert.match(created._rid, /^[A-Za-z0-9+\-]+=*$/);
    assert.match(created._self, /^dbs\/[^/]+\/colls\/[^/]+\/sprocs\/[^/]+\/$/);
    assert.match(created._etag, /^"[^"]+"$/);
    assert.equal(typeof created._ts, "number");

    const { resource: read } = await container.scripts.storedProcedure("hello").read();
    assert.deepEqual(read, created);

    const second = `function second() { getContext().getResponse().setBody(2); }`;
    await container.scripts.storedProcedures.create({ id: "second", body: second });
    const { resources: listed } = await container.scripts.storedProcedures.readAll().fetchAll();
    assert.deepEqual(listed.map((s) => s.id), ["hello", "second"], "listed in creation order");
    const { resources: queried } = await container.scripts.storedProcedures
      .query({ query: "SELECT s.id FROM s WHERE s.id = @id", parameters: [{ name: "@id", value: "second" }] })
      .fetchAll();
    assert.deepEqual(queried, [{ id: "second" }]);

    const { resource: replaced } = await container.scripts
      .storedProcedure("second")
      .replace({ id: "second", body: `function second() { getContext().getResponse().setBody(22); }` });
    assert.notEqual(replaced._etag, listed[1]._etag);
    assert.equal(replaced._rid, listed[1]._rid, "a replace keeps the rid");
    const { resource: result } = await container.scripts.storedProcedure("second").execute("p");
    assert.equal(result, 22);

    // A stale etag is refused and changes nothing.
    await assert.rejects(
      container.scripts.storedProcedure("second").replace({ id: "second", body: second }, { accessCondition: { type: "IfMatch", condition: listed[1]._etag } }),
      (e) => e.code === 412,
    );
    await assert.rejects(container.scripts.storedProcedures.create({ id: "hello", body: helloWorld }), (e) => e.code === 409);
    const { statusCode: deleted } = await container.scripts.storedProcedure("second").delete();
    assert.equal(deleted, 204);
    await assert.rejects(container.scripts.storedProcedure("second").read(), (e) => e.code === 404);
    await assert.rejects(container.scripts.storedProcedure("second").execute("p"), (e) => e.code === 404);
  });

  test("hello world returns its body as JSON", async () => {
    const { resource, requestCharge, statusCode } = await container.scripts.storedProcedure("hello").execute("any");
    assert.equal(statusCode, 200);
    assert.equal(resource, "Hello, World");
    assert.ok(requestCharge > 0);
  });

  test("a body that does not compile is refused with the script error", async () => {
    await assert.rejects(container.scripts.storedProcedures.create({ id: "broken", body: "function broken( { return 1; }" }), (e) => {
      assert.equal(e.code, 400);
      assert.match(e.message, /SyntaxError/);
      return true;
    });
    await assert.rejects(container.scripts.storedProcedure("broken").read(), (e) => e.code === 404);
  });

  test("bulk import creates every item of the partition, in one transaction", async () => {
    await container.scripts.storedProcedures.create({ id: "bulkImport", body: bulkImport });
    const docs = Array.from({ length: 50 }, (_, i) => ({ id: `bulk-${i}`, pk: "imp", n: i }));
    const { resource } = await container.scripts.storedProcedure("bulkImport").execute("imp", [docs]);
    assert.equal(resource, 50);
    assert.equal((await ids("imp")).length, 50);
    const { resource: one } = await container.item("bulk-7", "imp").read();
    assert.deepEqual(userContent(one), { id: "bulk-7", pk: "imp", n: 7 });

    // One duplicate in the second run: the error is rethrown, and none of that run's
    // items is kept.
    const again = [{ id: "fresh-1", pk: "imp" }, { id: "bulk-3", pk: "imp" }, { id: "fresh-2", pk: "imp" }];
    await assert.rejects(container.scripts.storedProcedure("bulkImport").execute("imp", [again]), (e) => {
      assert.equal(e.code, 400);
      assert.equal(e.substatus, 409);
      // The rethrown callback error: its message is the create's error body.
      assert.match(e.message, /Encountered exception while executing function\. Exception = Error: \{\\?"Errors\\?":\[\\?"[^"\\]*already exists/);
      assert.match(e.message, /Stack trace: Error: .*(\\n|\n) {3}at callback \(script\.js:\d+:\d+\)/s);
      return true;
    });
    assert.equal((await ids("imp")).length, 50);
    // (The SDK answers a read of a missing item with its 404, without throwing.)
    assert.equal((await container.item("fresh-1", "imp").read()).statusCode, 404);
  });

  test("bulk delete removes what its query finds, through _self links", async () => {
    await container.scripts.storedProcedures.create({ id: "bulkDelete", body: bulkDelete });
    for (let i = 0; i < 12; i++) await container.items.create({ id: `del-${i}`, pk: "del", even: i % 2 === 0 });
    await container.items.create({ id: "other-partition", pk: "keep", even: true });
    const { resource } = await container.scripts
      .storedProcedure("bulkDelete")
      .execute("del", ["SELECT c._self FROM c WHERE c.even = true"]);
    assert.deepEqual(resource, { deleted: 6, continuation: false });
    assert.deepEqual(await ids("del"), ["del-1", "del-11", "del-3", "del-5", "del-7", "del-9"]);
    assert.deepEqual(await ids("keep"), ["other-partition"], "other partitions are not seen");
  });

  test("a throw after writes rolls every write back", async () => {
    const body = `function failAfterWrites(pk) {
      var c = getContext().getCollection();
      c.createDocument(c.getSelfLink(), { id: "tx-1", pk: pk }, function (err) {
        if (err) throw err;
        c.createDocument(c.getAltLink(), { id: "tx-2", pk: pk }, function (err2) {
          if (err2) throw err2;
          throw new Error("changed my mind");
        });
      });
    }`;
    await container.scripts.storedProcedures.create({ id: "failAfterWrites", body });
    await assert.rejects(container.scripts.storedProcedure("failAfterWrites").execute("tx", ["tx"]), (e) => {
      assert.equal(e.code, 400);
      assert.match(e.message, /Exception = Error: changed my mind/);
      return true;
    });
    assert.deepEqual(await ids("tx"), []);
  });

  test("writes to another partition are refused", async () => {
    const body = `function elsewhere() {
      var c = getContext().getCollection();
      c.createDocument(c.getSelfLink(), { id: "x", pk: "somewhere-else" }, function (err) {
        getContext().getResponse().setBody({ status: err.number, message: err.message });
      });
    }`;
    await container.scripts.storedProcedures.create({ id: "elsewhere", body });
    const { resource } = await container.scripts.storedProcedure("elsewhere").execute("here");
    assert.equal(resource.status, 400);
    assert.match(resource.message, /Requests originating from scripts cannot reference partition keys other than the one for which client request was submitted\./);
    assert.deepEqual(await ids("somewhere-else"), []);
  });

  test("the documented async/await sample reads and replaces an item", async () => {
    const body = `async function incrementCounter(id) {
      const container = getContext().getCollection();
      const readItem = (link) => new Promise((resolve, reject) => {
        const accepted = container.readDocument(link, (err, item) => (err ? reject(err) : resolve(item)));
        if (!accepted) reject(new Error(429, "not accepted"));
      });
      const replaceItem = (item) => new Promise((resolve, reject) => {
        const accepted = container.replaceDocument(item._self, item, (err, result) => (err ? reject(err) : resolve(result)));
        if (!accepted) reject(new Error(429, "not accepted"));
      });
      try {
        const item = await readItem(\`\${container.getAltLink()}/docs/\${id}\`);
        item.count += 1;
        const replaced = await replaceItem(item);
        getContext().getResponse().setBody(replaced.count);
      } catch (err) {
        getContext().abort(err);
      }
    }`;
    await container.items.create({ id: "counter", pk: "async", count: 41 });
    await container.scripts.storedProcedures.create({ id: "incrementCounter", body });
    const { resource } = await container.scripts.storedProcedure("incrementCounter").execute("async", ["counter"]);
    assert.equal(resource, 42);
    const { resource: read } = await container.item("counter", "async").read();
    assert.equal(read.count, 42);
  });

  test("console.log comes back in the script log header when asked for", async () => {
    const body = `function logging(a) { console.log("got %s", a); console.log("!"); getContext().getResponse().setBody(a); }`;
    await container.scripts.storedProcedures.create({ id: "logging", body });
    const response = await container.scripts.storedProcedure("logging").execute("p", ["x y"], { enableScriptLogging: true });
    assert.equal(response.resource, "x y");
    assert.equal(decodeURIComponent(response.headers["x-ms-documentdb-script-log-results"]), "got x y!");
  });

  test("a script that runs away is stopped at the time limit, and nothing it wrote is kept", async () => {
    const body = `function runaway(pk) {
      var c = getContext().getCollection();
      c.createDocument(c.getSelfLink(), { id: "before-loop", pk: pk }, function () { while (true) {} });
    }`;
    await container.scripts.storedProcedures.create({ id: "runaway", body });
    const started = Date.now();
    await assert.rejects(container.scripts.storedProcedure("runaway").execute("loop", ["loop"]), (e) => {
      assert.equal(e.code, 408);
      assert.match(e.message, /exceeded maximum alloted time/);
      return true;
    });
    assert.ok(Date.now() - started < 30_000);
    assert.deepEqual(await ids("loop"), []);
    // The server kept serving.
    const { resource } = await container.scripts.storedProcedure("hello").execute("x");
    assert.equal(resource, "Hello, World");
  });

  test("triggers and user-defined functions are stored like procedures; a write naming a trigger is refused", async () => {
    const trigger = `function validateToDoItemTimestamp() {
      var context = getContext();
      var request = context.getRequest();
      var itemToCreate = request.getBody();
      if (!("timestamp" in itemToCreate)) {
        var ts = new Date();
        itemToCreate["timestamp"] = ts.getTime();
      }
      request.setBody(itemToCreate);
    }`;
    const { resource: t, statusCode } = await container.scripts.triggers.create({
      id: "validateToDoItemTimestamp",
      body: trigger,
      triggerType: TriggerType.Pre,
      triggerOperation: TriggerOperation.Create,
    });
    assert.equal(statusCode, 201);
    assert.equal(t.triggerType, TriggerType.Pre);
    assert.equal(t.triggerOperation, TriggerOperation.Create);
    assert.match(t._self, /\/triggers\/[^/]+\/$/);
    const { resources: triggers } = await container.scripts.triggers.readAll().fetchAll();
    assert.deepEqual(triggers.map((x) => x.id), ["validateToDoItemTimestamp"]);
    await assert.rejects(
      container.scripts.triggers.create({ id: "bad", body: trigger, triggerType: "Sideways", triggerOperation: "All" }),
      (e) => e.code === 400,
    );

    const tax = `function tax(income) {
      if (income == undefined) throw 'no input';
      if (income < 1000) return income * 0.1;
      else if (income < 10000) return income * 0.2;
      else return income * 0.4;
    }`;
    const { resource: u } = await container.scripts.userDefinedFunctions.create({ id: "Tax", body: tax });
    assert.match(u._self, /\/udfs\/[^/]+\/$/);
    const { resource: readUdf } = await container.scripts.userDefinedFunction("Tax").read();
    assert.equal(readUdf.body, tax);
    await container.scripts.userDefinedFunction("Tax").delete();
    await assert.rejects(container.scripts.userDefinedFunction("Tax").read(), (e) => e.code === 404);

  });

  test("a pre-trigger changes the item it is named for; it does not run unless named", async () => {
    const before = Date.now();
    const { resource: stamped } = await container.items.create(
      { id: "stamped", pk: "trig" },
      { preTriggerInclude: ["validateToDoItemTimestamp"] },
    );
    assert.equal(typeof stamped.timestamp, "number");
    assert.ok(stamped.timestamp >= before - 5_000 && stamped.timestamp <= Date.now() + 5_000);
    const { resource: kept } = await container.items.create(
      { id: "has-one", pk: "trig", timestamp: 7 },
      { preTriggerInclude: ["validateToDoItemTimestamp"] },
    );
    assert.equal(kept.timestamp, 7, "an item with a timestamp keeps it");
    const { resource: plain } = await container.items.create({ id: "plain", pk: "trig" });
    assert.equal(plain.timestamp, undefined, "a trigger never runs unless the request names it");
    const { resource: read } = await container.item("stamped", "trig").read();
    assert.equal(read.timestamp, stamped.timestamp);
  });

  test("a create trigger cannot run for a replace, and a missing trigger is an error; neither writes", async () => {
    await assert.rejects(
      container.item("plain", "trig").replace({ id: "plain", pk: "trig", changed: true }, { preTriggerInclude: ["validateToDoItemTimestamp"] }),
      (e) => e.code === 400,
    );
    await assert.rejects(
      container.items.create({ id: "ghost", pk: "trig" }, { preTriggerInclude: ["noSuchTrigger"] }),
      (e) => e.code === 404,
    );
    const { resource } = await container.item("plain", "trig").read();
    assert.equal(resource.changed, undefined);
    assert.equal((await container.item("ghost", "trig").read()).statusCode, 404);
  });

  test("a post-trigger updates a metadata item in the same transaction; its failure undoes the create", async () => {
    // The documented updateMetadata post-trigger (how-to-write-stored-procedures-triggers-udfs.md).
    const updateMetadata = `function updateMetadata() {
      var context = getContext();
      var container = context.getCollection();
      var response = context.getResponse();
      var createdItem = response.getBody();
      var filterQuery = 'SELECT * FROM root r WHERE r.id = "_metadata"';
      var accept = container.queryDocuments(container.getSelfLink(), filterQuery, updateMetadataCallback);
      if (!accept) throw "Unable to update metadata, abort";
      function updateMetadataCallback(err, items, responseOptions) {
        if (err) throw new Error("Error" + err.message);
        if (items.length != 1) throw "Unable to find metadata document";
        var metadataItem = items[0];
        metadataItem.createdItems += 1;
        metadataItem.createdNames += " " + createdItem.id;
        var accept = container.replaceDocument(metadataItem._self, metadataItem, function (err, itemReplaced) {
          if (err) throw "Unable to update metadata, abort";
        });
        if (!accept) throw "Unable to update metadata, abort";
        return;
      }
    }`;
    await container.scripts.triggers.create({
      id: "updateMetadata",
      body: updateMetadata,
      triggerType: TriggerType.Post,
      triggerOperation: TriggerOperation.Create,
    });
    await container.items.create({ id: "_metadata", pk: "meta", createdItems: 0, createdNames: "" });
    await container.items.create({ id: "first", pk: "meta" }, { postTriggerInclude: ["updateMetadata"] });
    await container.items.create({ id: "second", pk: "meta" }, { postTriggerInclude: ["updateMetadata"] });
    const { resource: metadata } = await container.item("_metadata", "meta").read();
    assert.equal(metadata.createdItems, 2);
    assert.equal(metadata.createdNames, " first second");

    // In a partition without the metadata item the trigger throws: the create is undone.
    await assert.rejects(
      container.items.create({ id: "orphan", pk: "no-meta" }, { postTriggerInclude: ["updateMetadata"] }),
      (e) => {
        assert.equal(e.code, 400);
        assert.match(e.message, /Unable to find metadata document/);
        return true;
      },
    );
    assert.deepEqual(await ids("no-meta"), []);
  });

  test("user-defined functions run in queries: WHERE and SELECT, across partitions through the SDK's query plan", async () => {
    const tax = `function tax(income) {
      if (income == undefined) throw 'no input';
      if (income < 1000) return income * 0.1;
      else if (income < 10000) return income * 0.2;
      else return income * 0.4;
    }`;
    await container.scripts.userDefinedFunctions.create({ id: "tax", body: tax });
    const incomes = [
      { id: "i1", pk: "inc-a", income: 500 },
      { id: "i2", pk: "inc-b", income: 8000 },
      { id: "i3", pk: "inc-c", income: 60000 },
      { id: "i4", pk: "inc-d", income: 120000 },
    ];
    for (const item of incomes) await container.items.create(item);
    const expectedTax = (income) => (income < 1000 ? income * 0.1 : income < 10000 ? income * 0.2 : income * 0.4);
    // Cross-partition, as the documented example runs it.
    const { resources } = await container.items
      .query("SELECT t.id FROM Incomes t WHERE STARTSWITH(t.pk, 'inc-') AND udf.tax(t.income) > 20000")
      .fetchAll();
    assert.deepEqual(resources.map((r) => r.id).sort(), incomes.filter((i) => expectedTax(i.income) > 20000).map((i) => i.id).sort());
    const { resources: projected } = await container.items
      .query({ query: "SELECT VALUE udf.tax(t.income) FROM t WHERE t.pk = @pk", parameters: [{ name: "@pk", value: "inc-b" }] })
      .fetchAll();
    assert.deepEqual(projected, [expectedTax(8000)]);
    // A UDF that throws fails the query; an unknown one is refused.
    await container.items.create({ id: "i5", pk: "inc-null", income: null });
    await assert.rejects(
      container.items.query("SELECT VALUE udf.tax(t.income) FROM t WHERE t.pk = 'inc-null'").fetchAll(),
      (e) => {
        assert.equal(e.code, 400);
        assert.match(e.message, /no input/);
        return true;
      },
    );
    await assert.rejects(container.items.query("SELECT VALUE udf.nope(t.income) FROM t").fetchAll(), (e) => e.code === 400);
  });
});
