// @azure/cosmos 3.17.3's change feed: `items.changeFeed(partitionKey, options)`, one
// logical partition at a time (3.x has no getChangeFeedIterator and refuses a feed
// without a partition key), from the beginning, from now, from a saved continuation
// (the etag), and from a point in time.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { V3, v3Setup, v3Teardown, step, sleep } from "./lib.mjs";

/** Reads a 3.x change feed iterator until it answers 304; returns the docs and the last response. */
async function drain(iterator, what) {
  const docs = [];
  let last;
  for (let i = 0; i < 50; i++) {
    last = await step(what, () => iterator.fetchNext());
    docs.push(...(last.result ?? []));
    if (last.statusCode === 304) return { docs, last };
  }
  throw new Error(`${what}: no 304 after 50 pages`);
}

describe(`${V3} change feed`, { timeout: 120_000 }, () => {
  const env = {};
  let container;
  before(async () => {
    await v3Setup(env, "v3cf", { args: ["--initial-partitions", "2"] });
    ({ container } = await env.database.containers.create({ id: "cf", partitionKey: { paths: ["/pk"], version: 2 } }));
  });
  after(() => v3Teardown(env));

  test("from the beginning, paged, each version once, in order; 304 when idle", async () => {
    for (let i = 0; i < 7; i++) await container.items.create({ id: `a${i}`, pk: "A", n: i });
    await container.items.create({ id: "other", pk: "B", n: 100 });
    await container.item("a2", "A").replace({ id: "a2", pk: "A", n: 20 });
    const it = container.items.changeFeed("A", { startFromBeginning: true, maxItemCount: 3 });
    const { docs, last } = await drain(it, `${V3} change feed of A from the beginning`);
    // The latest version of each changed item, in the order of their last change.
    assert.deepEqual(docs.map((d) => d.id), ["a0", "a1", "a3", "a4", "a5", "a6", "a2"]);
    assert.equal(docs.at(-1).n, 20);
    assert.ok(docs.every((d) => typeof d._lsn === "number"), "_lsn on each item");
    for (let i = 1; i < docs.length; i++) assert.ok(docs[i]._lsn > docs[i - 1]._lsn, "in LSN order");
    assert.equal(last.statusCode, 304);
    assert.equal(last.count, 0);
    assert.equal(it.hasMoreResults, false);
    assert.ok(last.continuation, "the 304 carries the continuation (etag)");
  });

  test("from now sees only later changes; a saved continuation resumes exactly after it", async () => {
    const now = container.items.changeFeed("N");
    const first = await now.fetchNext();
    assert.equal(first.statusCode, 304, "nothing new yet");
    for (let i = 0; i < 4; i++) await container.items.create({ id: `n${i}`, pk: "N", n: i });
    const page = await now.fetchNext();
    assert.equal(page.statusCode, 200);
    assert.deepEqual(page.result.map((d) => d.id), ["n0", "n1", "n2", "n3"]);
    const saved = page.continuation;
    assert.ok(saved);
    await container.items.create({ id: "n4", pk: "N" });
    await container.item("n0", "N").delete();
    await container.items.upsert({ id: "n1", pk: "N", n: 11 });
    // A new iterator (another process, say) from the saved continuation.
    const resumed = container.items.changeFeed("N", { continuation: saved });
    const { docs } = await drain(resumed, `${V3} change feed of N from a saved continuation`);
    assert.deepEqual(docs.map((d) => d.id), ["n4", "n1"], "the delete is not in the feed; each later change once");
    assert.equal(docs[1].n, 11);
    // The original iterator sees the same.
    const { docs: same } = await drain(now, `${V3} change feed of N, the first iterator`);
    assert.deepEqual(same.map((d) => d.id), ["n4", "n1"]);
  });

  test("from a point in time (If-Modified-Since)", async () => {
    await container.items.create({ id: "t0", pk: "T" });
    await sleep(1100);
    const since = new Date();
    await sleep(1100);
    await container.items.create({ id: "t1", pk: "T" });
    const { docs } = await drain(container.items.changeFeed("T", { startTime: since }), `${V3} change feed of T from a time`);
    assert.deepEqual(docs.map((d) => d.id), ["t1"]);
  });

  test("a feed without a partition key is refused by 3.x itself", async () => {
    const it = container.items.changeFeed({ startFromBeginning: true });
    await assert.rejects(it.fetchNext(), /no partition key or partition key range id was specified/);
  });
});
