// @azure/cosmos 3.17.3 while a container splits (--partition-split-bytes 49152): a
// client that learnt the single range before the splits writes, reads and pages a
// query across them. No error surfaces, nothing is missed or doubled. 3.x has no 410
// handling worth the name (bulk throws on a 410, "the partitions have split"), so this
// also checks that Orrery never answers one.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { V3, v3Setup, v3Teardown, clientFor, SDKS, sleep, step, wire } from "./lib.mjs";

const TOTAL = 1500;
const FIRST = 80; // ~30 KB: below the split threshold
const item = (i) => ({ id: `i${i}`, pk: `k${i % 150}`, n: i, pad: "x".repeat(300) });

describe(`${V3} a container splitting under the SDK`, { timeout: 180_000 }, () => {
  const env = {};
  let container;
  const pagedQueryFindings = []; // what the readers' paged queries missed or doubled
  let saved; // the first page of a paged query begun before the splits, and its token
  before(async () => {
    await v3Setup(env, "v3split", { args: ["--partition-split-bytes", String(48 * 1024)] });
    ({ container } = await env.database.containers.create({ id: "s", partitionKey: { paths: ["/pk"], version: 2 } }));
    for (let i = 0; i < FIRST; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => container.items.create(item(i + k))));
  });
  after(() => v3Teardown(env));

  const ranges = async (c = container) => (await c.readPartitionKeyRanges().fetchAll()).resources;

  test("writes, reads, a paged query and bulk go on while it splits", async () => {
    // A query paged before the splits: first page now, the rest after them.
    const it = container.items.query("SELECT c.id FROM c", { maxItemCount: 25 });
    const first = await it.fetchNext();
    assert.equal(first.resources.length, 25);
    assert.ok(first.continuationToken);
    saved = { iterator: it, first: first.resources.map((r) => r.id), token: first.continuationToken };
    assert.equal((await ranges()).length, 1, "one range before the splits");

    const errors = [];
    let next = FIRST;
    const writer = async () => {
      while (next < TOTAL) {
        const i = next++;
        await container.items.create(item(i)).catch((e) => errors.push(`create i${i}: ${wire(e)}`));
      }
    };
    let writing = true;
    let loops = 0;
    const reader = async () => {
      while (writing) {
        try {
          const i = Math.floor(Math.random() * FIRST);
          const r = await container.item(`i${i}`, `k${i % 150}`).read();
          if (r.statusCode !== 200) errors.push(`read i${i}: ${wire(r)}`);
          // Page a query through to its end, 50 rows at a time.
          const seen = new Map();
          const spec = { query: "SELECT c.id FROM c WHERE c.n < @m", parameters: [{ name: "@m", value: FIRST }] };
          const paged = container.items.query(spec, { maxItemCount: 50 });
          const trail = [];
          while (paged.hasMoreResults()) {
            const page = await paged.fetchNext();
            trail.push(`${page.resources.length} rows, activityId=${page.activityId}, continuation=${page.continuationToken ?? "-"}`);
            for (const row of page.resources) seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
          }
          const missed = Array.from({ length: FIRST }, (_, k) => `i${k}`).filter((id) => !seen.has(id));
          const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
          if (missed.length || twice.length) {
            pagedQueryFindings.push(`paged query during a split: missed [${missed}] twice [${twice}]; pages: ${trail.join(" | ")}`);
          }
          const { resources: top } = await container.items.query("SELECT TOP 10 c.n FROM c ORDER BY c.n DESC").fetchAll();
          if (!top.every((r, k) => k === 0 || top[k - 1].n > r.n)) errors.push("ORDER BY out of order");
          loops++;
        } catch (e) {
          errors.push(`reader: ${wire(e)}`);
        }
      }
    };
    const readers = [reader(), reader()];
    await Promise.all(Array.from({ length: 8 }, writer));
    // Bulk while the splitter may still be at work (3.x reads the ranges once per call).
    const bulk = await step(`${V3} bulk during splits`, () =>
      container.items.bulk(Array.from({ length: 100 }, (_, i) => ({ operationType: "Upsert", resourceBody: { ...item(i), touched: true } }))),
    );
    const bulkStatuses = bulk.map((r) => r.statusCode);
    // Let the splits finish while the readers go on.
    let count = 0;
    for (let i = 0; i < 60; i++) {
      const now = (await ranges()).length;
      if (now === count && now >= 4) break;
      count = now;
      await sleep(500);
    }
    writing = false;
    await Promise.all(readers);
    assert.deepEqual(errors, [], "no error surfaced; reads, ORDER BY and writes right");
    assert.deepEqual(bulkStatuses, Array(100).fill(200));
    assert.ok(loops > 0);
    const after = await ranges();
    assert.ok(after.length >= 4, `${after.length} ranges after ~${TOTAL * 0.35 | 0} KB`);
  });

  test(
    "queries paged 50 rows at a time during the splits miss nothing and double nothing",
    () => {
      assert.deepEqual(pagedQueryFindings, []);
    },
  );

  test("the query paged before the splits finishes, and resumes from its saved token, each row once", async () => {
    assert.ok(saved, "the first test ran");
    const finish = async (iterator) => {
      const ids = [...saved.first];
      for (let p = 0; iterator.hasMoreResults() && p < 200; p++) ids.push(...(await iterator.fetchNext()).resources.map((r) => r.id));
      return ids;
    };
    const resumed = container.items.query("SELECT c.id FROM c", { maxItemCount: 25, continuationToken: saved.token });
    for (const [name, ids] of [["the same iterator", await finish(saved.iterator)], ["a new iterator from the saved token", await finish(resumed)]]) {
      assert.equal(new Set(ids).size, ids.length, `${name}: a row twice`);
      const set = new Set(ids);
      const missing = Array.from({ length: FIRST }, (_, i) => `i${i}`).filter((id) => !set.has(id));
      assert.deepEqual(missing, [], `${name}: items that existed before the query began are missed`);
      assert.ok(ids.every((id) => /^i\d+$/.test(id) && Number(id.slice(1)) < TOTAL));
    }
  });

  test("afterwards: every item reads back, queries from old and new clients see each once", async () => {
    const late = clientFor(SDKS.v3, env.server);
    try {
      for (const [name, c] of [["early client", container], ["late client", late.database(env.dbId).container("s")]]) {
        const ids = [];
        const paged = c.items.query("SELECT VALUE c.id FROM c", { maxItemCount: 200 });
        while (paged.hasMoreResults()) ids.push(...(await paged.fetchNext()).resources);
        assert.equal(ids.length, TOTAL, `${name}: rows`);
        assert.equal(new Set(ids).size, TOTAL, `${name}: each once`);
        const { resources: ordered } = await c.items.query("SELECT VALUE c.n FROM c ORDER BY c.n").fetchAll();
        assert.deepEqual(ordered, Array.from({ length: TOTAL }, (_, i) => i), `${name}: ORDER BY`);
        const { resources: touched } = await c.items.query("SELECT VALUE COUNT(1) FROM c WHERE c.touched = true").fetchAll();
        assert.deepEqual(touched, [100], `${name}: the bulk upserts`);
      }
      for (let i = 0; i < TOTAL; i += 100) {
        const reads = await Promise.all(Array.from({ length: 100 }, (_, k) => container.item(`i${i + k}`, `k${(i + k) % 150}`).read()));
        assert.ok(reads.every((r) => r.statusCode === 200 && r.resource.n === Number(r.resource.id.slice(1))));
      }
      // A logical partition's change feed across the splits: each of its items once.
      const feed = container.items.changeFeed("k7", { startFromBeginning: true });
      const ids = [];
      for (let p = 0; p < 20; p++) {
        const page = await feed.fetchNext();
        if (page.statusCode === 304) break;
        ids.push(...page.result.map((d) => d.id));
      }
      const expected = Array.from({ length: TOTAL }, (_, i) => i).filter((i) => i % 150 === 7).map((i) => `i${i}`);
      assert.deepEqual([...ids].sort(), [...expected].sort());
      // A transactional batch into one of the split partitions.
      const batch = await container.items.batch([{ operationType: "Read", id: "i7" }, { operationType: "Patch", id: "i7", resourceBody: [{ op: "set", path: "/b", value: 1 }] }], "k7");
      assert.deepEqual(batch.result.map((r) => r.statusCode), [200, 200]);
    } finally {
      late.dispose();
    }
  });
});
