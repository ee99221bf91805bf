// Time to live through the SDK, with expiry at 3 s: defaultTtl on the container, ttl
// on items (-1 never), expired items gone at once for reads, queries and creates. (An
// item's _ts has whole seconds, so one with ttl n expires between n - 1 and n seconds
// after its write: with n = 1 a read right after the create could already miss it.)

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("time to live", { timeout: TIMEOUT }, () => {
  let database;
  withServerAndDatabase("ttl", { ready: (env) => ({ database } = env) });

  test("items expire 3 s after their last write, unless their ttl says otherwise", async () => {
    const { container: byDefault } = await database.containers.create({ id: "d1", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: 3 });
    const { container: optIn } = await database.containers.create({ id: "dm1", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: -1 });
    const { resource: c } = await byDefault.read();
    assert.equal(c.defaultTtl, 3);
    await byDefault.items.create({ id: "gone", pk: "p" });
    await byDefault.items.create({ id: "kept", pk: "p", ttl: -1 });
    await optIn.items.create({ id: "gone", pk: "p", ttl: 3 });
    await optIn.items.create({ id: "kept", pk: "p" });
    assert.equal((await byDefault.item("gone", "p").read()).statusCode, 200);

    await sleep(4100);
    for (const container of [byDefault, optIn]) {
      assert.equal((await container.item("gone", "p").read()).statusCode, 404, "expired: not readable");
      assert.equal((await container.item("kept", "p").read()).statusCode, 200);
      const { resources } = await container.items.query("SELECT VALUE c.id FROM c").fetchAll();
      assert.deepEqual(resources, ["kept"], "expired: not in queries");
      const { resources: feed } = await container.items.readAll().fetchAll();
      assert.deepEqual(feed.map((d) => d.id), ["kept"], "expired: not in the read feed");
    }
    // The id is free again.
    const { statusCode } = await byDefault.items.create({ id: "gone", pk: "p" });
    assert.equal(statusCode, 201);
    await expectCosmosError(byDefault.items.create({ id: "bad", pk: "p", ttl: 0 }), { code: 400, what: "ttl 0" });
  });
});
