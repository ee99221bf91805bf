// kill -9 under 16 concurrent writers (on-disk storage). Each writer owns its own items
// and runs creates, replaces, deletes and transactional batches through the SDK without
// pause; the server is killed at random moments and restarted each time. After every
// restart:
//   - every acknowledged write is there: the item has the acknowledged version, or, if a
//     later write to it was in flight at the kill, that write's version;
//   - a batch in flight at the kill is applied whole or not at all;
//   - every item's body matches the checksum it carries, and no item exists that no
//     writer wrote;
//   - point reads, queries and the index agree.
// The second suite repeats this while partitions split all the time.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { IS_DISK } from "./lib/server.mjs";
import { sdkClient } from "./lib/util.mjs";
import { withServerAndContainer } from "./lib/fixture.mjs";

const WRITERS = 16;
const PKS_PER_WRITER = 3;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function checksum(doc) {
  return crypto.createHash("sha256").update(`${doc.id}|${doc.pk}|${doc.seq}|${doc.pad}`).digest("hex");
}

function makeDoc(id, pk, seq) {
  const pad = crypto.randomBytes(Math.floor(Math.random() * 1500)).toString("base64");
  const doc = { id, pk, seq, pad };
  doc.sum = checksum(doc);
  return doc;
}

// What one writer knows of its items: `acked` holds the acknowledged version of each item
// (a seq, or null once deleted); `inFlight` the unacknowledged write cut short by the kill.
class Writer {
  constructor(index) {
    this.index = index;
    this.next = 0;
    this.acked = new Map();
    this.inFlight = null; // { changes: Map id -> seq|null, batch: bool }
    // What became of the writes in flight at the kills (either is correct).
    this.outcomes = { applied: 0, dropped: 0 };
  }

  pk(j) {
    return `w${this.index}-p${j}`;
  }

  pkOf(id) {
    return this.pk(Number(id.split("-")[1]));
  }

  present(pk) {
    return [...this.acked].filter(([id, seq]) => seq !== null && this.pkOf(id) === pk).map(([id]) => id);
  }

  newId(j) {
    return `w${this.index}-${j}-${this.next++}`;
  }

  // One random operation: the SDK call and the versions it leaves when it succeeds.
  plan(container) {
    const j = Math.floor(Math.random() * PKS_PER_WRITER);
    const pk = this.pk(j);
    const present = this.present(pk);
    const pick = () => present.splice(Math.floor(Math.random() * present.length), 1)[0];
    const roll = Math.random();
    const changes = new Map();
    if (roll < 0.15 && present.length >= 2) {
      const created = makeDoc(this.newId(j), pk, 1);
      const replacedId = pick();
      const replaced = makeDoc(replacedId, pk, this.acked.get(replacedId) + 1);
      const deletedId = pick();
      changes.set(created.id, 1).set(replacedId, replaced.seq).set(deletedId, null);
      const operations = [
        { operationType: "Create", resourceBody: created },
        { operationType: "Replace", id: replacedId, resourceBody: replaced },
        { operationType: "Delete", id: deletedId },
      ];
      return {
        changes,
        batch: true,
        run: async () => {
          const res = await container.items.batch(operations, pk);
          const codes = res.result.map((r) => r.statusCode);
          assert.ok(codes.every((c) => c < 300), `batch answered ${codes}`);
        },
      };
    }
    if (roll < 0.45 && present.length > 0) {
      const id = pick();
      const doc = makeDoc(id, pk, this.acked.get(id) + 1);
      changes.set(id, doc.seq);
      return { changes, run: () => container.item(id, pk).replace(doc) };
    }
    if (roll < 0.6 && present.length > 0) {
      const id = pick();
      changes.set(id, null);
      return { changes, run: () => container.item(id, pk).delete() };
    }
    const doc = makeDoc(this.newId(j), pk, 1);
    changes.set(doc.id, 1);
    return { changes, run: () => container.items.create(doc) };
  }

  // Writes until the server goes away (the first failed request).
  async runUntilKilled(container, counters) {
    for (;;) {
      const op = this.plan(container);
      try {
        await op.run();
      } catch (err) {
        if (err instanceof assert.AssertionError) throw err;
        if (typeof err.code === "number" && err.code < 500) {
          throw new Error(`writer ${this.index}: unexpected ${err.code}: ${err.message}`);
        }
        this.inFlight = op;
        return;
      }
      for (const [id, seq] of op.changes) this.acked.set(id, seq);
      counters[op.batch ? "batches" : "writes"]++;
    }
  }

  // Checks the items found after a restart against what was acknowledged, then takes
  // them as the truth for the next round.
  reconcile(found, round) {
    const where = `round ${round}, writer ${this.index}`;
    const versionOf = (id) => (found.has(id) ? found.get(id).seq : null);
    const flight = this.inFlight;
    if (flight) {
      const applied = [...flight.changes].map(([id, seq]) => versionOf(id) === seq);
      const untouched = [...flight.changes].map(([id]) => versionOf(id) === (this.acked.get(id) ?? null));
      const whole = applied.every(Boolean) || untouched.every(Boolean);
      assert.ok(whole, `${where}: the write in flight is half-applied: ${JSON.stringify([...flight.changes])}`);
      if (applied.every(Boolean)) for (const [id, seq] of flight.changes) this.acked.set(id, seq);
      this.outcomes[applied.every(Boolean) ? "applied" : "dropped"]++;
      this.inFlight = null;
    }
    for (const [id, seq] of this.acked) {
      assert.equal(versionOf(id), seq, `${where}: item ${id} should be at version ${seq}`);
    }
  }
}

function crashSuite(name, { rounds, serverArgs, expectSplits }) {
  describe(name, { timeout: 300_000, skip: !IS_DISK && "needs on-disk storage" }, () => {
    const env = withServerAndContainer("crash", serverArgs);

    test(`${rounds} kills: every acknowledged write present, none half-applied, every body intact`, async (t) => {
      const { server, dbId } = env;
      const writers = Array.from({ length: WRITERS }, (_, i) => new Writer(i));
      const counters = { writes: 0, batches: 0 };
      for (let round = 0; round < rounds; round++) {
        const client = sdkClient(server, { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } });
        const container = client.database(dbId).container("c");
        const running = writers.map((w) => w.runUntilKilled(container, counters));
        await sleep(200 + Math.floor(Math.random() * 800));
        await server.kill9();
        await Promise.all(running);
        client.dispose();
        await server.restart();
        await verify(server, dbId, writers, round);
      }
      const applied = writers.reduce((n, w) => n + w.outcomes.applied, 0);
      const dropped = writers.reduce((n, w) => n + w.outcomes.dropped, 0);
      t.diagnostic(`${counters.writes} writes and ${counters.batches} batches acknowledged; ` +
        `of the writes in flight at the kills, ${applied} were applied and ${dropped} were not`);
      assert.ok(counters.writes > rounds * 50, `writes were acknowledged (${counters.writes})`);
      assert.ok(counters.batches > rounds * 5, `batches were acknowledged (${counters.batches})`);
      if (expectSplits) {
        const client = sdkClient(server);
        const { resources: ranges } = await client.database(dbId).container("c").readPartitionKeyRanges().fetchAll();
        client.dispose();
        assert.ok(ranges.length >= 4, `the container split (${ranges.length} ranges)`);
      }
    });
  });
}

async function verify(server, dbId, writers, round) {
  const client = sdkClient(server);
  try {
    const container = client.database(dbId).container("c");
    const { resources: docs } = await container.items.query("SELECT * FROM c").fetchAll();
    const found = new Map();
    for (const doc of docs) {
      assert.ok(!found.has(doc.id), `round ${round}: ${doc.id} appears twice`);
      assert.equal(doc.sum, checksum(doc), `round ${round}: the body of ${doc.id} does not match its checksum`);
      assert.match(doc.id, /^w(\d+)-\d+-\d+$/, `round ${round}: an item nobody wrote: ${doc.id}`);
      found.set(doc.id, doc);
    }
    for (const w of writers) {
      const mine = new Map([...found].filter(([id]) => id.startsWith(`w${w.index}-`)));
      w.reconcile(mine, round);
    }
    const expected = writers.reduce((n, w) => n + [...w.acked.values()].filter((s) => s !== null).length, 0);
    assert.equal(found.size, expected, `round ${round}: no item beyond the acknowledged ones`);
    // The index (a prefix scan of /pk) and point reads see the same items.
    const { resources: indexed } = await container.items
      .query("SELECT VALUE c.id FROM c WHERE STARTSWITH(c.pk, 'w')")
      .fetchAll();
    assert.equal(indexed.length, found.size, `round ${round}: the index agrees with the items`);
    const sample = [...found.values()].sort(() => Math.random() - 0.5).slice(0, 20);
    for (const doc of sample) {
      const { resource } = await container.item(doc.id, doc.pk).read();
      assert.equal(resource?.sum, doc.sum, `round ${round}: point read of ${doc.id}`);
    }
  } finally {
    client.dispose();
  }
}

crashSuite("kill -9 under 16 writers", { rounds: 20, serverArgs: [] });
crashSuite("kill -9 under 16 writers while partitions split", {
  rounds: 20,
  serverArgs: ["--partition-split-bytes", String(64 * 1024)],
  expectSplits: true,
});
