// @azure/cosmos 3.17.3: items with etags, patch (incl. conditional), transactional batch,
// bulk, and session tokens.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { V3, v3Setup, v3Teardown, expectStatus, step, clientFor, SDKS } from "./lib.mjs";

const IF_MATCH = (etag) => ({ accessCondition: { type: "IfMatch", condition: etag } });
const IF_NONE_MATCH = (etag) => ({ accessCondition: { type: "IfNoneMatch", condition: etag } });

describe(`${V3} items`, { timeout: 120_000 }, () => {
  const env = {};
  let container;
  before(async () => {
    await v3Setup(env, "v3items");
    ({ container } = await env.database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }));
  });
  after(() => v3Teardown(env));

  test("create, read, replace, upsert, delete with etags (If-Match 412, If-None-Match 304)", async () => {
    const created = await step(`${V3} create`, () => container.items.create({ id: "e1", pk: "a", n: 1 }));
    assert.equal(created.statusCode, 201);
    const etag1 = created.resource._etag;
    assert.match(etag1, /^".+"$/);
    assert.equal(created.etag, etag1);
    assert.ok(created.requestCharge > 0);
    const read = await container.item("e1", "a").read();
    assert.equal(read.statusCode, 200);
    assert.deepEqual({ id: read.resource.id, pk: read.resource.pk, n: read.resource.n }, { id: "e1", pk: "a", n: 1 });
    for (const p of ["_rid", "_self", "_etag", "_attachments", "_ts"]) assert.ok(read.resource[p] !== undefined, `system property ${p}`);

    const notModified = await container.item("e1", "a").read(IF_NONE_MATCH(etag1));
    assert.equal(notModified.statusCode, 304, "If-None-Match with the current etag");
    assert.ok(notModified.resource == null, "a 304 has no body");

    const replaced = await step(`${V3} replace If-Match current`, () => container.item("e1", "a").replace({ id: "e1", pk: "a", n: 2 }, IF_MATCH(etag1)));
    assert.equal(replaced.statusCode, 200);
    const etag2 = replaced.resource._etag;
    assert.notEqual(etag2, etag1, "a write makes a new etag");
    await expectStatus(() => container.item("e1", "a").replace({ id: "e1", pk: "a", n: 3 }, IF_MATCH(etag1)), { status: 412, what: `${V3} replace with a stale etag` });
    assert.equal((await container.item("e1", "a").read()).resource.n, 2, "a 412 changes nothing");
    const modified = await container.item("e1", "a").read(IF_NONE_MATCH(etag1));
    assert.equal(modified.statusCode, 200, "If-None-Match with an old etag reads the item");
    assert.equal(modified.resource.n, 2);

    const upNew = await container.items.upsert({ id: "e2", pk: "a", n: 5 });
    assert.equal(upNew.statusCode, 201);
    const upOld = await container.items.upsert({ id: "e2", pk: "a", n: 6 });
    assert.equal(upOld.statusCode, 200);
    await expectStatus(() => container.items.upsert({ id: "e2", pk: "a", n: 7 }, IF_MATCH(etag1)), { status: 412, what: `${V3} upsert with a stale etag` });

    // The same id under another partition key value is another item.
    assert.equal((await container.items.create({ id: "e1", pk: "b", n: 9 })).statusCode, 201);
    await expectStatus(() => container.items.create({ id: "e1", pk: "a" }), { status: 409, what: `${V3} create an existing id` });

    await expectStatus(() => container.item("e1", "a").delete(IF_MATCH(etag1)), { status: 412, what: `${V3} delete with a stale etag` });
    assert.equal((await container.item("e1", "a").delete(IF_MATCH(etag2))).statusCode, 204);
    assert.equal((await container.item("e1", "a").read()).statusCode, 404);
    assert.equal((await container.item("e1", "b").read()).resource.n, 9);
    await expectStatus(() => container.item("e1", "a").delete(), { status: 404, what: `${V3} delete a deleted item` });
    // 3.x refuses an id with '/' itself (isItemResourceValid), before any request.
    await assert.rejects(container.items.create({ id: "bad/id", pk: "a" }), (e) => /illegal chars/.test(e.message));
    await expectStatus(() => container.items.create({ id: "x".repeat(1024), pk: "a" }), { status: 400, what: `${V3} an id over 1,023 bytes` });
    await expectStatus(() => container.items.create({ id: "big", pk: "a", pad: "x".repeat(2 * 1024 * 1024 + 10) }), { status: 413, what: `${V3} an item over 2 MB` });
  });

  test("patch: every operation, and conditional patch", async () => {
    await container.items.create({ id: "p1", pk: "p", n: 1, s: "x", arr: [1, 2], obj: { a: 1 }, gone: true });
    const ops = [
      { op: "set", path: "/s", value: "y" },
      { op: "incr", path: "/n", value: 4 },
      { op: "add", path: "/arr/1", value: 9 },
      { op: "replace", path: "/obj/a", value: 2 },
      { op: "remove", path: "/gone" },
      { op: "add", path: "/added", value: { k: [true] } },
    ];
    const patched = await step(`${V3} patch`, () => container.item("p1", "p").patch(ops));
    assert.equal(patched.statusCode, 200);
    const r = patched.resource;
    assert.deepEqual({ n: r.n, s: r.s, arr: r.arr, obj: r.obj, gone: r.gone, added: r.added }, { n: 5, s: "y", arr: [1, 9, 2], obj: { a: 2 }, gone: undefined, added: { k: [true] } });
    const ok = await container.item("p1", "p").patch({ condition: "FROM c WHERE c.n = 5", operations: [{ op: "set", path: "/cond", value: 1 }] });
    assert.equal(ok.resource.cond, 1, "a true condition applies the patch");
    await expectStatus(() => container.item("p1", "p").patch({ condition: "FROM c WHERE c.n = 0", operations: [{ op: "set", path: "/cond", value: 2 }] }), { status: 412, what: `${V3} patch with a false condition` });
    assert.equal((await container.item("p1", "p").read()).resource.cond, 1, "a false condition changes nothing");
    await expectStatus(() => container.item("p1", "p").patch([{ op: "replace", path: "/nothere", value: 1 }]), { status: 400, what: `${V3} replace of a missing property` });
    await expectStatus(() => container.item("p1", "p").patch([{ op: "set", path: "/pk", value: "q" }]), { status: 400, what: `${V3} patch of the partition key` });
    await expectStatus(() => container.item("p1", "p").patch([{ op: "set", path: "/n", value: 1 }], IF_MATCH('"stale"')), { status: 412, what: `${V3} patch with a stale etag` });
    await expectStatus(() => container.item("nope", "p").patch([{ op: "set", path: "/n", value: 1 }]), { status: 404, what: `${V3} patch of a missing item` });
  });

  test("transactional batch: all or nothing", async () => {
    await container.items.create({ id: "b0", pk: "bt", n: 0 });
    const { resource: b0 } = await container.item("b0", "bt").read();
    const res = await step(`${V3} batch`, () =>
      container.items.batch(
        [
          { operationType: "Create", resourceBody: { id: "b1", pk: "bt", n: 1 } },
          { operationType: "Upsert", resourceBody: { id: "b2", pk: "bt", n: 2 } },
          { operationType: "Read", id: "b0" },
          { operationType: "Replace", id: "b0", resourceBody: { id: "b0", pk: "bt", n: 10 }, ifMatch: b0._etag },
          { operationType: "Patch", id: "b1", resourceBody: [{ op: "incr", path: "/n", value: 1 }] },
          { operationType: "Delete", id: "b2" },
        ],
        "bt",
      ),
    );
    assert.equal(res.code, 200); // 3.x's batch answers a bare Response: {headers, result, code}
    assert.deepEqual(res.result.map((r) => r.statusCode), [201, 201, 200, 200, 200, 204]);
    assert.equal(res.result[2].resourceBody.n, 0);
    assert.ok(res.result.every((r) => typeof r.requestCharge === "number"));
    assert.equal((await container.item("b1", "bt").read()).resource.n, 2);
    assert.equal((await container.item("b2", "bt").read()).statusCode, 404);

    // One failing operation (a create of an existing id) rolls back the others.
    const failed = await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "b3", pk: "bt" } },
        { operationType: "Create", resourceBody: { id: "b1", pk: "bt" } },
        { operationType: "Upsert", resourceBody: { id: "b0", pk: "bt", n: 99 } },
      ],
      "bt",
    );
    assert.equal(failed.code, 207);
    assert.deepEqual(failed.result.map((r) => r.statusCode), [424, 409, 424]);
    assert.equal((await container.item("b3", "bt").read()).statusCode, 404, "nothing of a failed batch is written");
    assert.equal((await container.item("b0", "bt").read()).resource.n, 10);
    // A stale etag fails the batch with 412.
    const stale = await container.items.batch([{ operationType: "Replace", id: "b0", resourceBody: { id: "b0", pk: "bt" }, ifMatch: b0._etag }], "bt");
    assert.deepEqual(stale.result.map((r) => r.statusCode), [412]);
  });

  test("bulk: 292 creates, reads, upserts, replaces, deletes and patches over 30 partition key values", async () => {
    const creates = Array.from({ length: 200 }, (_, i) => ({ operationType: "Create", resourceBody: { id: `k${i}`, pk: `bulk${i % 30}`, n: i } }));
    const res = await step(`${V3} bulk creates`, () => container.items.bulk(creates.slice(0, 100)));
    const res2 = await step(`${V3} bulk creates`, () => container.items.bulk(creates.slice(100)));
    assert.deepEqual([...res, ...res2].map((r) => r.statusCode), Array(200).fill(201));
    const mixed = [
      ...Array.from({ length: 20 }, (_, i) => ({ operationType: "Read", id: `k${i}`, partitionKey: `bulk${i % 30}` })),
      ...Array.from({ length: 20 }, (_, i) => ({ operationType: "Upsert", resourceBody: { id: `k${20 + i}`, pk: `bulk${(20 + i) % 30}`, n: -1 } })),
      ...Array.from({ length: 20 }, (_, i) => ({ operationType: "Replace", id: `k${40 + i}`, resourceBody: { id: `k${40 + i}`, pk: `bulk${(40 + i) % 30}`, n: -2 } })),
      ...Array.from({ length: 20 }, (_, i) => ({ operationType: "Delete", id: `k${60 + i}`, partitionKey: `bulk${(60 + i) % 30}` })),
      ...Array.from({ length: 10 }, (_, i) => ({ operationType: "Patch", id: `k${80 + i}`, partitionKey: `bulk${(80 + i) % 30}`, resourceBody: { operations: [{ op: "incr", path: "/n", value: 1000 }] } })),
      { operationType: "Create", resourceBody: { id: "k0", pk: "bulk0" } },
      { operationType: "Read", id: "missing", partitionKey: "bulk0" },
    ];
    const out = await step(`${V3} bulk mixed`, () => container.items.bulk(mixed, { continueOnError: true }));
    const expected = [...Array(20).fill(200), ...Array(20).fill(200), ...Array(20).fill(200), ...Array(20).fill(204), ...Array(10).fill(200), 409, 404];
    assert.deepEqual(out.map((r) => r.statusCode), expected);
    assert.equal(out[0].resourceBody.n, 0);
    const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.pk, 'bulk')").fetchAll();
    assert.deepEqual(resources, [180]);
    const { resources: sums } = await container.items.query("SELECT VALUE SUM(c.n) FROM c WHERE STARTSWITH(c.pk, 'bulk') AND c.n >= 1000").fetchAll();
    assert.deepEqual(sums, [Array.from({ length: 10 }, (_, i) => 1080 + i).reduce((a, b) => a + b)]);
  });

  test("session tokens: returned on writes, sent back on reads, accepted from another client", async () => {
    const seen = [];
    const plugin = { on: "request", plugin: async (context, next) => {
      const res = await next(context);
      seen.push({ method: context.method, path: context.path, sent: context.headers["x-ms-session-token"], got: res.headers?.["x-ms-session-token"] });
      return res;
    } };
    const client = clientFor(SDKS.v3, env.server, { consistencyLevel: "Session", plugins: [plugin] });
    try {
      const c = client.database(env.dbId).container("c");
      const w = await c.items.create({ id: "s1", pk: "sess", n: 1 });
      const token = w.headers["x-ms-session-token"];
      assert.match(token ?? "", /^[^:]+:(-?\d+#)?\d+/, `a session token like "0:-1#12" or "0:12": ${token}`);
      await c.item("s1", "sess").read();
      const read = seen.filter((s) => s.method === "GET" && s.path.endsWith("/docs/s1")).at(-1);
      assert.ok(read, "the read went out");
      assert.ok(read.sent && read.sent.includes(token.split(":")[1]), `the read sent back the write's token: sent ${read.sent}, written ${token}`);
      const w2 = await c.item("s1", "sess").replace({ id: "s1", pk: "sess", n: 2 });
      const t2 = w2.headers["x-ms-session-token"];
      assert.notEqual(t2, token, "the next write advances the token");
      // A token from one client passed to another's request (RequestOptions.sessionToken).
      const other = clientFor(SDKS.v3, env.server, { consistencyLevel: "Session" });
      try {
        const r = await other.database(env.dbId).container("c").item("s1", "sess").read({ sessionToken: t2 });
        assert.equal(r.resource.n, 2);
        const { resources } = await other.database(env.dbId).container("c").items.query("SELECT VALUE c.n FROM c", { partitionKey: "sess", sessionToken: t2 }).fetchAll();
        assert.deepEqual(resources, [2]);
      } finally {
        other.dispose();
      }
    } finally {
      client.dispose();
    }
  });
});
