// Authorization — wire-protocol.md §3 (master key HMAC, clock skew, read-only keys,
// other token kinds, error shape for a bad signature).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "./lib/server.mjs";
import { RestClient, EMULATOR_KEY, randomKey, masterAuthorization } from "./lib/rest.mjs";
import {
  sdkClient,
  restClient,
  uniqueId,
  expectCosmosError,
  assertStatus,
  assertErrorResponse,
  dropDatabase,
} from "./lib/util.mjs";

const TIMEOUT = 120_000;
const SECONDARY_KEY = randomKey(64);
const READONLY_KEY = randomKey(64);
const WRONG_KEY = randomKey(64);

describe("authorization", { timeout: TIMEOUT }, () => {
  let server;
  let admin; // SDK client with the primary key
  before(async () => {
    server = await startServer({ args: ["--secondary-key", SECONDARY_KEY, "--readonly-key", READONLY_KEY] });
    admin = sdkClient(server);
  });
  after(async () => {
    admin?.dispose();
    await server?.stop();
  });

  test("primary (emulator) key: signed REST request succeeds", async () => {
    const rest = restClient(server);
    const res = await rest.get("dbs");
    assertStatus(res, 200, "GET /dbs with the primary key");
    assert.ok(Array.isArray(res.body.Databases));
  });

  test("bad signature -> 401 JSON {code: Unauthorized, message}; nothing is written", async () => {
    const dbId = uniqueId("auth-bad");
    const wrong = new RestClient({ endpoint: server.endpoint, key: WRONG_KEY });
    const res = await wrong.post("dbs", { body: { id: dbId } });
    assertErrorResponse(res, 401, { code: "Unauthorized", what: "create db with a wrong key" });

    // the SDK surfaces the same as ErrorResponse code 401
    const bad = sdkClient(server, { key: WRONG_KEY });
    try {
      await expectCosmosError(() => bad.databases.create({ id: dbId }), { code: 401, what: "SDK create db with wrong key" });
    } finally {
      bad.dispose();
    }

    // with the right key the database does not exist
    const check = await restClient(server).get(["dbs", dbId]);
    assertErrorResponse(check, 404, { what: "db created with a bad signature must not exist" });
    await expectCosmosError(() => admin.database(dbId).read(), { code: 404 });
  });

  test("signature over the wrong resource link or verb -> 401", async () => {
    const dbId = uniqueId("auth-link");
    await admin.databases.create({ id: dbId });
    try {
      const rest = restClient(server);
      // signed for another database
      let res = await rest.get(["dbs", dbId], { signResourceLink: `dbs/${dbId}-other` });
      assertErrorResponse(res, 401, { code: "Unauthorized", what: "signature for another link" });
      // signed with the wrong verb
      res = await rest.get(["dbs", dbId], { signVerb: "DELETE" });
      assertErrorResponse(res, 401, { code: "Unauthorized", what: "signature for another verb" });
      // signed with a lower-cased link (link case must be preserved)
      const mixed = uniqueId("Auth-MiXeD");
      await admin.databases.create({ id: mixed });
      try {
        res = await rest.get(["dbs", mixed]);
        assertStatus(res, 200, "case-preserving link");
        res = await rest.get(["dbs", mixed], { signResourceLink: `dbs/${mixed.toLowerCase()}` });
        assertErrorResponse(res, 401, { what: "lower-cased link must not verify" });
      } finally {
        await dropDatabase(admin, mixed);
      }
      // date header tampered after signing
      const date = new Date().toUTCString();
      const auth = masterAuthorization({ key: EMULATOR_KEY, verb: "GET", resourceType: "dbs", resourceLink: `dbs/${dbId}`, date });
      const later = new Date(Date.now() + 60_000).toUTCString();
      res = await rest.get(["dbs", dbId], { authorization: auth, date: later });
      assertErrorResponse(res, 401, { what: "x-ms-date differs from the signed date" });
    } finally {
      await dropDatabase(admin, dbId);
    }
  });

  test("authorization header accepted URL-encoded (SDK) and un-encoded", async () => {
    const rest = restClient(server);
    let res = await rest.get("dbs", { encodeAuth: true });
    assertStatus(res, 200, "URL-encoded authorization");
    res = await rest.get("dbs", { encodeAuth: false });
    assertStatus(res, 200, "un-encoded authorization");
  });

  test("missing authorization header -> 401 with a message", async () => {
    const rest = restClient(server);
    const res = await rest.get("dbs", { auth: false });
    assertErrorResponse(res, 401, { what: "no authorization" });
    const res2 = await rest.post("dbs", { auth: false, body: { id: uniqueId("noauth") } });
    assertErrorResponse(res2, 401, { what: "no authorization (create)" });
    const list = await rest.get("dbs");
    assert.ok(!list.body.Databases.some((d) => d.id.startsWith("noauth-")), "unauthenticated create must not write");
  });

  test("x-ms-date 20 minutes in the past (or future) -> 403; 5 minutes is tolerated", async () => {
    const rest = restClient(server);
    const past = new Date(Date.now() - 20 * 60 * 1000);
    let res = await rest.get("dbs", { date: past });
    assertErrorResponse(res, 403, { what: "x-ms-date 20 min in the past" });
    const future = new Date(Date.now() + 20 * 60 * 1000);
    res = await rest.get("dbs", { date: future });
    assertErrorResponse(res, 403, { what: "x-ms-date 20 min in the future" });
    const dbId = uniqueId("auth-skew");
    res = await rest.post("dbs", { date: past, body: { id: dbId } });
    assertErrorResponse(res, 403, { what: "create with a stale date" });
    assertErrorResponse(await rest.get(["dbs", dbId]), 404, { what: "stale-date create must not write" });

    res = await rest.get("dbs", { date: new Date(Date.now() - 5 * 60 * 1000) });
    assertStatus(res, 200, "x-ms-date 5 min in the past is within the 15 min window");
  });

  test("unparsable x-ms-date is rejected", async () => {
    const rest = restClient(server);
    // signed over the literal (bad) date string: the signature is fine, the date is not
    const res = await rest.get("dbs", { date: "not a date" });
    assert.ok(res.status === 401 || res.status === 403 || res.status === 400, `unparsable x-ms-date: got ${res.status}`);
    assert.equal(typeof res.body?.message, "string");
  });

  test("secondary key (--secondary-key) has full access", async () => {
    const client = sdkClient(server, { key: SECONDARY_KEY });
    const dbId = uniqueId("auth-sec");
    try {
      const { database, statusCode } = await client.databases.create({ id: dbId });
      assert.equal(statusCode, 201);
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      const c = await container.items.create({ id: "a", pk: "p" });
      assert.equal(c.statusCode, 201);
      const r = await container.item("a", "p").read();
      assert.equal(r.statusCode, 200);
      const d = await container.item("a", "p").delete();
      assert.equal(d.statusCode, 204);
      const rest = new RestClient({ endpoint: server.endpoint, key: SECONDARY_KEY });
      assertStatus(await rest.get(["dbs", dbId]), 200, "REST read with the secondary key");
      // visible to the primary key too
      assert.equal((await admin.database(dbId).read()).statusCode, 200);
    } finally {
      await dropDatabase(client, dbId);
      client.dispose();
    }
  });

  test("read-only key (--readonly-key) can read and query, every write -> 401 as the service answers it", async () => {
    const dbId = uniqueId("auth-ro");
    const { database } = await admin.databases.create({ id: dbId });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const orig = (await container.items.create({ id: "a", pk: "p", v: 1 })).resource;
    const ro = sdkClient(server, { key: READONLY_KEY });
    try {
      const roDb = ro.database(dbId);
      const roC = roDb.container("c");
      // reads
      assert.equal((await roDb.read()).statusCode, 200);
      assert.equal((await roC.read()).statusCode, 200);
      const r = await roC.item("a", "p").read();
      assert.equal(r.statusCode, 200);
      assert.equal(r.resource._etag, orig._etag);
      const dbs = await ro.databases.readAll().fetchAll();
      assert.ok(dbs.resources.some((d) => d.id === dbId));
      const cs = await roDb.containers.readAll().fetchAll();
      assert.deepEqual(cs.resources.map((c) => c.id), ["c"]);
      // queries are POSTs and must be allowed
      const q = await roC.items.query({ query: "SELECT * FROM c WHERE c.id = @id", parameters: [{ name: "@id", value: "a" }] }).fetchAll();
      assert.deepEqual(q.resources.map((d) => d.id), ["a"]);
      const qp = await roC.items.query("SELECT * FROM c", { partitionKey: "p" }).fetchAll();
      assert.equal(qp.resources.length, 1);
      const all = await roC.items.readAll().fetchAll();
      assert.equal(all.resources.length, 1);
      const dq = await ro.databases.query({ query: "SELECT * FROM root r WHERE r.id = @id", parameters: [{ name: "@id", value: dbId }] }).fetchAll();
      assert.equal(dq.resources.length, 1);
      const pkr = await roC.readPartitionKeyRanges().fetchAll();
      assert.ok(pkr.resources.length >= 1);

      // writes
      await expectCosmosError(() => ro.databases.create({ id: uniqueId("auth-ro-new") }), { code: 401, what: "ro create db" });
      await expectCosmosError(() => roDb.containers.create({ id: "c2", partitionKey: { paths: ["/pk"], version: 2 } }), { code: 401, what: "ro create container" });
      await expectCosmosError(() => roC.items.create({ id: "b", pk: "p" }), { code: 401, what: "ro create item" });
      await expectCosmosError(() => roC.items.upsert({ id: "a", pk: "p", v: 2 }), { code: 401, what: "ro upsert item" });
      await expectCosmosError(() => roC.item("a", "p").replace({ id: "a", pk: "p", v: 3 }), { code: 401, what: "ro replace item" });
      await expectCosmosError(() => roC.item("a", "p").delete(), { code: 401, what: "ro delete item" });
      await expectCosmosError(() => roC.item("a", "p").patch([{ op: "set", path: "/v", value: 4 }]), { code: 401, what: "ro patch item" });
      const def = (await roC.read()).resource;
      await expectCosmosError(() => roC.replace({ ...def, defaultTtl: 100 }), { code: 401, what: "ro replace container" });
      await expectCosmosError(() => roC.delete(), { code: 401, what: "ro delete container" });
      await expectCosmosError(() => roDb.delete(), { code: 401, what: "ro delete db" });

      // REST: read-only key, plain GET works, POST create is forbidden
      const rest = new RestClient({ endpoint: server.endpoint, key: READONLY_KEY });
      assertStatus(await rest.get(["dbs", dbId, "colls", "c", "docs", "a"], { pk: ["p"] }), 200, "ro REST read item");
      const roWrite = await rest.post(["dbs", dbId, "colls", "c", "docs"], { pk: ["p"], body: { id: "z", pk: "p" } });
      assertErrorResponse(roWrite, 401, { code: "Unauthorized", what: "ro REST create item" });
      // The service checks a write's signature against the read-write keys only.
      assert.match(roWrite.body.message, /^The input authorization token can't serve the request\./);
      

      // nothing changed
      const after = await container.item("a", "p").read();
      assert.equal(after.statusCode, 200);
      assert.equal(after.resource._etag, orig._etag);
      assert.equal(after.resource.v, 1);
      assert.equal((await container.item("b", "p").read()).statusCode, 404);
      const allAfter = await container.items.readAll().fetchAll();
      assert.equal(allAfter.resources.length, 1);
      assert.equal((await container.read()).resource.defaultTtl, def.defaultTtl);
    } finally {
      ro.dispose();
      await dropDatabase(admin, dbId);
    }
  });

  test("type=resource token is not accepted -> 401", async () => {
    const rest = restClient(server);
    const token = "type=resource&ver=1&sig=c29tZXRoaW5n;c29tZXRoaW5nZWxzZQ==;";
    let res = await rest.get("dbs", { authorization: encodeURIComponent(token) });
    assertErrorResponse(res, 401, { what: "resource token" });
    const dbId = uniqueId("auth-rt");
    res = await rest.post("dbs", { authorization: encodeURIComponent(token), body: { id: dbId } });
    assertErrorResponse(res, 401, { what: "resource token create" });
    assertErrorResponse(await rest.get(["dbs", dbId]), 404, { what: "resource-token create must not write" });
  });

  test("garbage authorization header -> 401", async () => {
    const rest = restClient(server);
    for (const authorization of ["garbage", "type=master&ver=1.0", "type=master&ver=1.0&sig=", encodeURIComponent("type=master&ver=1.0&sig=!!!notbase64!!!")]) {
      const res = await rest.get("dbs", { authorization });
      assertErrorResponse(res, 401, { what: `authorization ${JSON.stringify(authorization)}` });
    }
  });
});
