// Partial document update through the SDK's item.patch() — wire-protocol.md §7.4:
// both body shapes, every operation, conditional patch, If-Match, the limits, and
// atomicity against concurrent patches of the same item.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { restClient, expectCosmosError, userContent } from "./lib/util.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 120_000;

describe("patch", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let rest;
  let dbId;
  let container;

  withServerAndDatabase("patch", {
    ready: async (env) => {
      ({ server, client, dbId } = env);
      rest = restClient(server);
      ({ container } = await env.database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } }));
    },
  });

  async function fresh(id, extra = {}) {
    const { resource } = await container.items.create({ id, pk: "p", n: 5, tags: ["a", "b"], s: "x", g: 1, ...extra });
    return resource;
  }

  test("operations apply in order; the result is returned and stored with a new etag", async () => {
    const before = await fresh("ops");
    const res = await container.item("ops", "p").patch([
      { op: "add", path: "/tags/1", value: "z" },
      { op: "incr", path: "/n", value: 10 },
      { op: "set", path: "/s", value: "v" },
      { op: "remove", path: "/g" },
      { op: "replace", path: "/tags/0", value: "A" },
      { op: "add", path: "/obj", value: { k: 1 } },
      { op: "set", path: "/obj/k2", value: null },
    ]);
    assert.equal(res.statusCode, 200);
    const expected = { id: "ops", pk: "p", n: 15, tags: ["A", "z", "b"], s: "v", obj: { k: 1, k2: null } };
    assert.deepEqual(userContent(res.resource), expected);
    assert.notEqual(res.resource._etag, before._etag);
    assert.equal(res.resource._rid, before._rid, "a patch keeps the item's _rid");
    assert.ok(res.requestCharge > 5, `charged like a replace: ${res.requestCharge}`);
    const { resource: read } = await container.item("ops", "p").read();
    assert.deepEqual(userContent(read), expected);
  });

  test("the object body with a condition: applied when it holds, 412 and unchanged when not", async () => {
    await fresh("cond");
    const ok = await container.item("cond", "p").patch({
      condition: "FROM c WHERE c.n = 5",
      operations: [{ op: "set", path: "/flag", value: true }],
    });
    assert.equal(ok.resource.flag, true);
    await expectCosmosError(
      container.item("cond", "p").patch({ condition: "FROM c WHERE c.n > 100", operations: [{ op: "set", path: "/flag", value: false }] }),
      { code: 412, what: "false condition" },
    );
    const { resource } = await container.item("cond", "p").read();
    assert.equal(resource.flag, true);
    await expectCosmosError(
      container.item("cond", "p").patch({ condition: "FROM c WHERE c.n >", operations: [{ op: "set", path: "/flag", value: 1 }] }),
      { code: 400, what: "condition with a syntax error" },
    );
  });

  test("If-Match with a stale etag gives 412; a missing item 404", async () => {
    const item = await fresh("etag");
    await container.item("etag", "p").patch([{ op: "incr", path: "/n", value: 1 }]);
    await expectCosmosError(
      container.item("etag", "p").patch([{ op: "incr", path: "/n", value: 1 }], { accessCondition: { type: "IfMatch", condition: item._etag } }),
      { code: 412, what: "stale If-Match" },
    );
    const { resource } = await container.item("etag", "p").read();
    assert.equal(resource.n, 6);
    await expectCosmosError(container.item("nope", "p").patch([{ op: "set", path: "/a", value: 1 }]), { code: 404 });
  });

  test("bad operations answer 400 and change nothing", async () => {
    const item = await fresh("bad");
    const cases = [
      [{ op: "replace", path: "/missing", value: 1 }],
      [{ op: "remove", path: "/missing" }],
      [{ op: "set", path: "/no/such/parent", value: 1 }],
      [{ op: "incr", path: "/s", value: 1 }],
      [{ op: "set", path: "/pk", value: "other" }],
      [{ op: "set", path: "/id", value: "other" }],
      [{ op: "set", path: "/n", value: 1 }, { op: "remove", path: "/missing" }],
      Array.from({ length: 11 }, (_, i) => ({ op: "set", path: `/f${i}`, value: i })),
    ];
    for (const ops of cases) {
      const err = await expectCosmosError(container.item("bad", "p").patch(ops), { code: 400, what: JSON.stringify(ops).slice(0, 80) });
      assert.ok(err.message.length > 0);
    }
    const { resource } = await container.item("bad", "p").read();
    assert.equal(resource._etag, item._etag, "nothing was written");
  });

  test("concurrent patches of one item are all applied", async () => {
    await fresh("race", { n: 0 });
    await Promise.all(Array.from({ length: 25 }, () => container.item("race", "p").patch([{ op: "incr", path: "/n", value: 1 }])));
    const { resource } = await container.item("race", "p").read();
    assert.equal(resource.n, 25);
  });

  test("REST: a bare array without content type, and move", async () => {
    await fresh("rest");
    const res = await rest.request("PATCH", `dbs/${dbId}/colls/c/docs/rest`, {
      pk: ["p"],
      rawBody: JSON.stringify([{ op: "move", from: "/s", path: "/moved" }]),
      headers: { "content-type": undefined },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.body.moved, "x");
    assert.equal(res.body.s, undefined);
    assert.ok(res.headers.etag);
  });
});
