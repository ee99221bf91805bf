// Queries running while items are updated see every write whole (src/storage/README.md:
// writers apply their batches in parallel, and query pages read a snapshot that holds
// only whole writes). Items that exist before and after the updates are returned once
// each by every query, never missing (old index entry gone, new one not yet there) nor
// twice; the two items a transactional batch updates together always show the same
// version. Bounded: a fixed number of queries while the writers run.
//
// The expectations come from what the test writes: 40 items that every update keeps,
// with n >= 0, and pairs (one per partition key) whose two items are only ever written
// together. The window in which a write is partly visible is microseconds long, so this
// check is probabilistic: a build without the snapshot views failed it in one run of
// three; the storage test (src/storage/store_read_view_test.cc) sees torn writes in every
// run without them.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 120_000;
const ITEMS = 200;
const PKS = 4;
const QUERIES = 200;
const UPSERTERS = 8;

const pkOf = (i) => `p${i % PKS}`;
const idOf = (i) => `i${String(i).padStart(3, "0")}`;

describe("queries alongside writes see each write whole", { timeout: TIMEOUT }, () => {
  const env = withServerAndDatabase("isolation", {
    serverOptions: { args: ["--initial-partitions", "2"] },
  });

  test("every item once per query; a batch's items at one version", { timeout: TIMEOUT }, async () => {
    const { container } = await env.database.containers.create({
      id: "c",
      partitionKey: { paths: ["/pk"], version: 2 },
    });
    for (let i = 0; i < ITEMS; i++) {
      await container.items.create({ id: idOf(i), pk: pkOf(i), n: i, pair: 0 });
    }
    const expectedIds = Array.from({ length: ITEMS }, (_, i) => idOf(i));
    // Items i and i + PKS share partition key p<i>: pair i, which one transactional
    // batch writer updates together.
    const pairOf = (p) => [p, p + PKS];

    let writing = true;
    let updates = 0;
    let batches = 0;
    const batchWriter = async (p) => {
      for (let v = 1; writing; v++) {
        // Both items, with a new n each (so their index entries move) and one version.
        const ops = pairOf(p).map((i) => ({
          operationType: "Replace",
          id: idOf(i),
          resourceBody: { id: idOf(i), pk: pkOf(i), n: ITEMS + v * 2 * PKS + i, pair: v },
        }));
        const res = await container.items.batch(ops, pkOf(p));
        assert.equal(res.code, 200, "a pair's batch");
        batches += 1;
      }
    };
    const upserter = async (w) => {
      for (let v = 1; writing; v++) {
        // Any item outside the pairs, with a new n >= 0 (its index entry moves).
        const i = 2 * PKS + ((v * UPSERTERS + w) % (ITEMS - 2 * PKS));
        await container.items.upsert({ id: idOf(i), pk: pkOf(i), n: ITEMS + v * UPSERTERS + w, pair: 0 });
        updates += 1;
      }
    };
    const writers = [
      ...Array.from({ length: PKS }, (_, p) => batchWriter(p)),
      ...Array.from({ length: UPSERTERS }, (_, w) => upserter(w)),
    ];

    const problems = [];
    try {
      for (let q = 0; q < QUERIES; q++) {
        // Through the index of /n (a range), across partitions.
        const { resources } = await container.items
          .query("SELECT c.id, c.pair FROM c WHERE c.n >= 0", { maxItemCount: 1000 })
          .fetchAll();
        const ids = resources.map((r) => r.id).sort();
        if (JSON.stringify(ids) !== JSON.stringify(expectedIds)) {
          problems.push(`query ${q}: ${ids.length} rows, ${new Set(ids).size} distinct ids`);
        }
        // A pair in one logical partition: one page of one partition, one read.
        const p = q % PKS;
        const { resources: inP } = await container.items
          .query("SELECT c.id, c.pair FROM c WHERE c.n >= 0", { partitionKey: pkOf(p) })
          .fetchAll();
        const pairIds = pairOf(p).map(idOf);
        const versions = inP.filter((r) => pairIds.includes(r.id)).map((r) => r.pair);
        if (versions.length !== 2 || versions[0] !== versions[1]) {
          problems.push(`query ${q}: pair ${p} at versions ${JSON.stringify(versions)}`);
        }
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    assert.ok(updates > 0 && batches > 0, `writers ran: ${updates} updates, ${batches} batches`);
    assert.deepEqual(problems, [], `${problems.length} of ${QUERIES} queries saw part of a write`);
  });
});
