// kill -9 while partitions split (on-disk storage): a writer creates items without
// pause under a tiny --partition-split-bytes, so that splits run all the time, and the
// server is killed at 6 random moments and restarted. After each restart every
// acknowledged item is there exactly once (queries and the change feed), no item is
// there twice, and the partition key ranges still form a gap-free cover.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { IS_DISK } from "./lib/server.mjs";
import { sdkClient, restClient } from "./lib/util.mjs";
import { withServerAndContainer } from "./lib/fixture.mjs";

const TIMEOUT = 180_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("splits and kill -9", { timeout: TIMEOUT, skip: !IS_DISK && "needs on-disk storage" }, () => {
  const env = withServerAndContainer("splitcrash", ["--partition-split-bytes", String(16 * 1024)]);

  test("every acknowledged item survives, once, and the ranges stay a cover", async () => {
    const { server, dbId } = env;
    const acked = new Set();
    let n = 0;
    for (let round = 0; round < 6; round++) {
      const client = sdkClient(server, { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } });
      const container = client.database(dbId).container("c");
      let alive = true;
      const writer = async () => {
        while (alive) {
          const id = `i${n++}`;
          try {
            await container.items.create({ id, pk: `k${id}`, pad: "x".repeat(400) });
            acked.add(id);
          } catch {
            // the server went away mid-request: not acknowledged
          }
        }
      };
      const writers = Array.from({ length: 8 }, writer);
      await sleep(300 + Math.floor(Math.random() * 700));
      await server.kill9();
      alive = false;
      await Promise.all(writers);
      client.dispose();
      await server.restart();

      const check = sdkClient(server);
      try {
        const c = check.database(dbId).container("c");
        const { resources: ids } = await c.items.query("SELECT VALUE c.id FROM c").fetchAll();
        const present = new Set(ids);
        assert.equal(present.size, ids.length, `round ${round}: an item appears twice`);
        const missing = [...acked].filter((id) => !present.has(id));
        assert.deepEqual(missing, [], `round ${round}: acknowledged items lost`);
        const { resources: indexed } = await c.items.query("SELECT VALUE c.id FROM c WHERE STARTSWITH(c.pk, 'k')").fetchAll();
        assert.equal(indexed.length, ids.length, `round ${round}: the index agrees`);
        const rest = restClient(server);
        const res = await rest.request("GET", ["dbs", dbId, "colls", "c", "pkranges"]);
        const ranges = res.body.PartitionKeyRanges.sort((a, b) => (a.minInclusive < b.minInclusive ? -1 : 1));
        assert.equal(ranges[0].minInclusive, "");
        assert.equal(ranges.at(-1).maxExclusive, "FF");
        for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i].minInclusive, ranges[i - 1].maxExclusive);
      } finally {
        check.dispose();
      }
    }
    // The change feed from the beginning: every item once.
    const client = sdkClient(server);
    try {
      const c = client.database(dbId).container("c");
      const { ChangeFeedStartFrom } = await import("@azure/cosmos");
      const iterator = c.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning() });
      const seen = new Map();
      for (let i = 0; i < 1000; i++) {
        const page = await iterator.readNext();
        // Empty pages come from ranges with nothing new; stop once all are seen.
        if (!page.result?.length && [...acked].every((id) => seen.has(id))) break;
        for (const doc of page.result ?? []) seen.set(doc.id, (seen.get(doc.id) ?? 0) + 1);
      }
      assert.ok([...acked].every((id) => seen.get(id) === 1), "each acknowledged item once in the change feed");
      const { resources: ranges } = await c.readPartitionKeyRanges().fetchAll();
      assert.ok(ranges.length >= 4, `the container split (${ranges.length} ranges)`);
    } finally {
      client.dispose();
    }
  });
});
