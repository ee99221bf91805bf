// The change feed (latest-version mode) through the SDK's change feed iterator —
// wire-protocol.md §12: from the beginning, from now, from a continuation, per
// partition key; 304 when nothing is new; every item exactly once, in its latest
// version, while writes continue.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 120_000;

/** Reads pages until the feed answers 304; returns the documents and the last continuation. */
async function drain(iterator, maxPages = 500) {
  const docs = [];
  let continuation;
  for (let i = 0; i < maxPages; i++) {
    const res = await iterator.readNext();
    continuation = res.continuationToken ?? continuation;
    if (res.statusCode === 304) return { docs, continuation };
    docs.push(...res.result);
  }
  throw new Error("the change feed did not run dry");
}

describe("change feed", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let database;
  withServerAndDatabase("cf", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: (env) => ({ server, client, dbId, database } = env),
  });

  test("from the beginning, then only what changed, each item once in its latest version", async () => {
    const { container } = await database.containers.create({ id: "c1", partitionKey: { paths: ["/pk"], version: 2 } });
    for (let i = 0; i < 30; i++) await container.items.create({ id: `i${i}`, pk: `p${i % 6}`, v: 0 });
    const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 5 });
    const first = await drain(iterator);
    assert.deepEqual(first.docs.map((d) => d.id).sort(), Array.from({ length: 30 }, (_, i) => `i${i}`).sort());
    assert.ok(first.docs.every((d) => Number.isInteger(d._lsn) && d._lsn > 0), "every change carries _lsn");
    // Per logical partition, modification order.
    for (let p = 0; p < 6; p++) {
      const lsns = first.docs.filter((d) => d.pk === `p${p}`).map((d) => d._lsn);
      assert.deepEqual(lsns, [...lsns].sort((a, b) => a - b));
    }

    for (let i = 0; i < 5; i++) {
      await container.items.upsert({ id: `i${i}`, pk: `p${i % 6}`, v: 1 });
      await container.items.upsert({ id: `i${i}`, pk: `p${i % 6}`, v: 2 });
    }
    await container.items.create({ id: "new", pk: "p0", v: 2 });
    await container.item("i29", "p5").delete();
    const second = await drain(iterator);
    assert.deepEqual(second.docs.map((d) => d.id).sort(), ["i0", "i1", "i2", "i3", "i4", "new"]);
    assert.ok(second.docs.every((d) => d.v === 2), "only the latest version");

    // A continuation resumes exactly there; from now sees only later writes.
    const resumed = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Continuation(second.continuation) });
    assert.equal((await resumed.readNext()).statusCode, 304);
    const fromNow = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() });
    assert.equal((await fromNow.readNext()).statusCode, 304);
    await container.items.create({ id: "later", pk: "p3" });
    assert.deepEqual((await drain(resumed)).docs.map((d) => d.id), ["later"]);
    assert.deepEqual((await drain(fromNow)).docs.map((d) => d.id), ["later"]);
  });

  test("per partition key", async () => {
    const { container } = await database.containers.create({ id: "c2", partitionKey: { paths: ["/pk"], version: 2 } });
    for (let i = 0; i < 20; i++) await container.items.create({ id: `i${i}`, pk: `p${i % 4}` });
    const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning("p2") });
    const { docs } = await drain(iterator);
    assert.deepEqual(docs.map((d) => d.id).sort(), ["i10", "i14", "i18", "i2", "i6"]);
  });

  test("reads everything exactly once while writes continue", async () => {
    const { container } = await database.containers.create({ id: "c3", partitionKey: { paths: ["/pk"], version: 2 } });
    const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 7 });
    const seen = new Map();
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 200; i++) {
        await Promise.all([0, 1].map((k) => container.items.create({ id: `w${i}-${k}`, pk: `p${(i + k) % 9}` })));
      }
      writing = false;
    })();
    for (let round = 0; round < 5000 && (writing || round === 0); round++) {
      const res = await iterator.readNext();
      if (res.statusCode !== 304) for (const d of res.result) seen.set(d.id, (seen.get(d.id) ?? 0) + 1);
    }
    await writer;
    for (const d of (await drain(iterator)).docs) seen.set(d.id, (seen.get(d.id) ?? 0) + 1);
    assert.equal(seen.size, 400, "every item");
    assert.ok([...seen.values()].every((n) => n === 1), "exactly once");
  });
});
