// A full disk (on-disk mode, and only where this process may mount a tmpfs: root).
// The test mounts a 128 MB tmpfs, runs the server with its data directory there, and
// fills the rest of the disk with a ballast file. Then, through the SDK:
//   - writes until the disk is full get 507 with the service's error body, and every
//     kind of write (item writes, batches, bulk, metadata) gets it and changes nothing;
//   - reads, queries, the change feed and the pkranges feed keep working, and the
//     server stays up;
//   - once the ballast is deleted, writes succeed again without a restart;
//   - filled again and killed (-9), the server restarts on the full disk, with HTTPS
//     and the certificate its first start generated into the data directory too,
//     serves reads and refuses writes with 507; with space again, a restart writes;
//   - every acknowledged write is there at the end, with its checksum and etag, and no
//     write that got 507 is.
// Over HTTPS only small answers are read: with Debian 12's Boost 1.74, answers larger
// than one TLS record (16 KB) stall (a known Asio 1.74 SSL write bug, not a disk
// matter), so the bulk of the traffic is plain HTTP.
// The mount is removed even when the test fails (and at exit).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { startServer, IS_DISK } from "./lib/server.mjs";
import { sdkClient, restClient, assertErrorResponse, uniqueId } from "./lib/util.mjs";

const TIMEOUT = 90_000;
// Room for the data of two fills and a compaction of it once the ballast is gone.
const DISK_MB = 128;
// Free space the ballast leaves: less than the 16 MB a memtable flush needs.
const LEAVE_BYTES = 4 << 20;
const WRITERS = 16;
const MAX_FILL_WRITES = 20_000;
const MAX_FILL_MS = 30_000;
// RocksDB polls the free space every 5 s before it resumes writes.
const RESUME_WITHIN_MS = 25_000;
const FULL_MESSAGE = /disk holding the data directory is full/;
const READ_ONLY_MESSAGE = /was full when the server started.*restart the server/s;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Why the test cannot run here, or false.
function reasonToSkip() {
  if (!IS_DISK) return "on-disk mode only (ORRERY_E2E_STORAGE=disk)";
  if (process.platform !== "linux") return "mounts a tmpfs: Linux only";
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-e2e-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "pipe" });
    execFileSync("umount", [probe], { stdio: "pipe" });
    return false;
  } catch (e) {
    const why = String(e.stderr?.length ? e.stderr : e.message).trim().split("\n")[0];
    return `mounting a tmpfs is not permitted here (${why}); run as root to test a full disk`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
const SKIP = reasonToSkip();

/** A size-limited tmpfs under a temporary directory, unmounted even if the test fails. */
class SmallDisk {
  constructor(megabytes) {
    this.mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-e2e-full-disk-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", this.mountPoint], { stdio: "pipe" });
    this.mounted = true;
    this.ballast = path.join(this.mountPoint, "ballast");
    // A crash of the test process must not leave the mount behind (lazy: the server,
    // killed at exit too, may still hold it for a moment).
    this.onExit = () => this.unmount({ lazy: true });
    process.on("exit", this.onExit);
  }

  freeBytes() {
    const s = fs.statfsSync(this.mountPoint);
    return s.bavail * s.bsize;
  }

  /** Fills the disk with zeros until `leave` bytes are free (or nothing is). */
  placeBallast(leave) {
    const fd = fs.openSync(this.ballast, "a");
    const chunk = Buffer.alloc(1 << 20);
    try {
      for (let free = this.freeBytes(); free > leave; free = this.freeBytes()) {
        fs.writeSync(fd, chunk, 0, Math.min(chunk.length, free - leave));
      }
    } catch (e) {
      if (e.code !== "ENOSPC") throw e;
    } finally {
      fs.closeSync(fd);
    }
  }

  removeBallast() {
    fs.rmSync(this.ballast, { force: true });
  }

  unmount({ lazy = false } = {}) {
    if (!this.mounted) return;
    try {
      execFileSync("umount", lazy ? ["-l", this.mountPoint] : [this.mountPoint], { stdio: "pipe" });
    } catch {
      execFileSync("umount", ["-l", this.mountPoint], { stdio: "pipe" });
    }
    this.mounted = false;
    process.off("exit", this.onExit);
    fs.rmSync(this.mountPoint, { recursive: true, force: true });
  }
}

function checksum(doc) {
  return crypto.createHash("sha256").update(`${doc.id}|${doc.pk}|${doc.pad}`).digest("hex");
}

// About 8 KB of incompressible text, so that the disk fills after a few thousand writes.
function makeItem(id, n) {
  const doc = { id, pk: `p${n % 8}`, n, pad: crypto.randomBytes(6000).toString("base64") };
  doc.sum = checksum(doc);
  return doc;
}

describe("a full disk", { timeout: TIMEOUT, skip: SKIP }, () => {
  let disk;
  let dataDir;
  let server;
  let client;
  let container;
  const dbId = uniqueId("full");
  // id -> {pk, sum, etag} of every acknowledged create; ids of creates that got 507.
  const acked = new Map();
  const refused = new Set();
  let nextItem = 0;

  const connect = () => {
    client?.dispose();
    client = sdkClient(server);
    container = client.database(dbId).container("c");
  };

  async function createAcknowledged(doc) {
    const res = await container.items.create(doc);
    assert.equal(res.statusCode, 201);
    acked.set(doc.id, { pk: doc.pk, sum: doc.sum, etag: res.resource._etag });
  }

  /** Creates items from 16 writers until one gets 507; anything but 201 and 507 fails. */
  async function fillUntilFull(phase) {
    let full = null;
    let failure = null;
    const started = Date.now();
    const writer = async () => {
      while (!full && !failure) {
        if (nextItem >= MAX_FILL_WRITES || Date.now() - started > MAX_FILL_MS) {
          failure = new Error(`phase ${phase}: the disk never filled up (${acked.size} items written)`);
          return;
        }
        const doc = makeItem(`${phase}-${nextItem}`, nextItem++);
        try {
          await createAcknowledged(doc);
        } catch (e) {
          if (e.code !== 507) {
            failure = new Error(`phase ${phase}: a write got ${e.code}, not 201 or 507: ${String(e.message).slice(0, 400)}`);
            return;
          }
          refused.add(doc.id);
          full ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    if (failure) throw failure;
    return full;
  }

  /** Creates items until one succeeds (507s meanwhile), within RESUME_WITHIN_MS. */
  async function writeOnceThereIsRoom(prefix) {
    const deadline = Date.now() + RESUME_WITHIN_MS;
    for (;;) {
      const doc = makeItem(`${prefix}-${nextItem}`, nextItem++);
      try {
        await createAcknowledged(doc);
        return;
      } catch (e) {
        assert.equal(e.code, 507, `while space comes back: ${e.code} ${String(e.message).slice(0, 300)}`);
        refused.add(doc.id);
        assert.ok(Date.now() < deadline, `writes did not resume within ${RESUME_WITHIN_MS} ms of freeing space`);
        await sleep(250);
      }
    }
  }

  /** CPU seconds the server process has used (user + system; Linux counts in 1/100 s). */
  function cpuSeconds() {
    const fields = fs.readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  async function expectFull(what, fn, message = FULL_MESSAGE) {
    let error;
    try {
      await fn();
    } catch (e) {
      error = e;
    }
    assert.ok(error, `${what}: succeeded on a full disk`);
    // A transactional batch's error is the SDK's own, with the service's as its cause.
    if (error.code === undefined && error.cause) error = error.cause;
    assert.equal(error.code, 507, `${what}: expected 507, got ${error.code}: ${String(error.message).slice(0, 300)}`);
    assert.equal(error.body?.code, "InsufficientStorage", `${what}: body.code`);
    assert.match(error.body?.message ?? "", message, `${what}: body.message`);
  }

  /** Every acknowledged item, once, with its checksum and etag; no refused one. */
  async function verifyAcknowledged(what) {
    const { resources } = await container.items.readAll().fetchAll();
    const seen = new Map(resources.map((r) => [r.id, r]));
    assert.equal(seen.size, resources.length, `${what}: an item listed twice`);
    for (const [id, want] of acked) {
      const got = seen.get(id);
      assert.ok(got, `${what}: acknowledged item ${id} is missing`);
      assert.equal(checksum(got), want.sum, `${what}: ${id} does not match its checksum`);
      assert.equal(got.sum, want.sum, `${what}: ${id} changed`);
      assert.equal(got._etag, want.etag, `${what}: ${id} has another etag than the acknowledged one`);
    }
    for (const id of refused) assert.ok(!seen.has(id), `${what}: ${id} got 507 but was written`);
    assert.equal(seen.size, acked.size, `${what}: items that nobody acknowledged`);
    // Point reads of a sample, and a cross-partition query, agree.
    const sample = [...acked].filter((_, i) => i % 25 === 0);
    await Promise.all(sample.map(async ([id, want]) => {
      const { resource, statusCode } = await container.item(id, want.pk).read();
      assert.equal(statusCode, 200, `${what}: point read of ${id}`);
      assert.equal(resource.sum, want.sum);
    }));
    const { resources: count } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
    assert.equal(count[0], acked.size, `${what}: query count`);
  }

  async function drainChangeFeed() {
    const iterator = container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Beginning(), maxItemCount: 500 });
    const ids = new Set();
    for (let page = 0; page < 1000; page++) {
      const res = await iterator.readNext();
      if (res.statusCode === 304) return ids;
      for (const doc of res.result) ids.add(doc.id);
    }
    throw new Error("the change feed did not run dry");
  }

  function assertUp(what) {
    assert.ok(server.running, `${what}: the server is not running\n${server.output}`);
  }

  before(async () => {
    disk = new SmallDisk(DISK_MB);
    dataDir = path.join(disk.mountPoint, "data");
    // The first start, with HTTPS, generates the certificate into the data directory.
    const first = await startServer({ inMemory: false, tls: true, dataDir });
    const tlsClient = sdkClient(first);
    const { database } = await tlsClient.databases.create({ id: dbId });
    await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 12000 });
    tlsClient.dispose();
    assert.equal((await first.stop()).code, 0);
    for (const file of ["cert.pem", "key.pem"]) assert.ok(fs.existsSync(path.join(dataDir, file)), `${file} in the data directory`);
    server = await startServer({ inMemory: false, tls: false, dataDir });
    connect();
    for (let i = 0; i < 20; i++) await createAcknowledged(makeItem(`first-${i}`, i));
    // Items the background TTL purge deletes, once the disk lets it.
    const { container: expiring } = await client.database(dbId).containers.create({ id: "ttl", partitionKey: { paths: ["/pk"] }, defaultTtl: 1 });
    for (let i = 0; i < 20; i++) await expiring.items.create({ id: `e${i}`, pk: "p" });
  });

  after(async () => {
    client?.dispose();
    try {
      await server?.kill9();
    } finally {
      disk?.unmount();
    }
  });

  test("writes until the disk is full get 507 with the service's error body; nothing else fails", async () => {
    disk.placeBallast(LEAVE_BYTES);
    const full = await fillUntilFull("a");
    assert.equal(full.body?.code, "InsufficientStorage");
    assert.match(full.body?.message ?? "", FULL_MESSAGE);
    assert.ok(acked.size > 100, `only ${acked.size} writes fit`);
    // The raw answer: status, JSON error body, content type, charge.
    const res = await restClient(server).post(`dbs/${dbId}/colls/c/docs`, { body: makeItem("raw", 0), pk: ["p0"] });
    assertErrorResponse(res, 507, { code: "InsufficientStorage", what: "raw create on a full disk" });
    assert.match(res.body.message, FULL_MESSAGE);
    refused.add("raw");
    assertUp("after filling the disk");
    assert.match(server.io.stderr, /the disk holding the data directory .* is full/, "the server logs the full disk");
  });

  test("while the disk is full, every kind of write gets 507 and changes nothing", async () => {
    const [id, first] = [...acked][0];
    const original = (await container.item(id, first.pk).read()).resource;
    await expectFull("upsert", () => container.items.upsert({ ...original, extra: 1 }));
    await expectFull("replace", () => container.item(id, first.pk).replace({ ...original, extra: 2 }));
    await expectFull("patch", () => container.item(id, first.pk).patch([{ op: "set", path: "/extra", value: 3 }]));
    await expectFull("delete", () => container.item(id, first.pk).delete());
    refused.add("batch-new");
    await expectFull("transactional batch", () =>
      container.items.batch([{ operationType: "Create", resourceBody: makeItem("batch-new", 0) }, { operationType: "Delete", id }], first.pk),
    );
    const bulk = await container.items.executeBulkOperations(
      ["bulk-0", "bulk-1", "bulk-2"].map((bulkId, i) => {
        refused.add(bulkId);
        return { operationType: "Create", partitionKey: `p${i}`, resourceBody: makeItem(bulkId, i) };
      }),
    );
    assert.deepEqual(bulk.map((r) => r.response?.statusCode ?? r.error?.code), [507, 507, 507], "bulk creates");
    await expectFull("create database", () => client.databases.create({ id: uniqueId("full-db") }));
    await expectFull("create container", () => client.database(dbId).containers.create({ id: "other", partitionKey: { paths: ["/pk"] } }));
    await expectFull("replace container", async () => {
      const { resource } = await container.read();
      await container.replace({ ...resource, defaultTtl: 3600 });
    });
    assert.deepEqual((await container.item(id, first.pk).read()).resource, original, "the item is unchanged");
    assert.equal((await container.read()).resource.defaultTtl, undefined, "the container is unchanged");
    assertUp("after the refused writes");
  });

  test("while the disk is full, reads, queries, the change feed and the pkranges feed work", async () => {
    await client.getDatabaseAccount();
    await client.database(dbId).read();
    await container.read();
    const ranges = (await container.readPartitionKeyRanges().fetchAll()).resources;
    assert.ok(ranges.length >= 2, `pkranges: ${ranges.length}`);
    const ids = await drainChangeFeed();
    assert.deepEqual([...ids].sort(), [...acked.keys()].sort(), "the change feed holds every acknowledged item");
    const { resources } = await container.items
      .query({ query: "SELECT c.id, c.sum FROM c WHERE c.pk = @pk", parameters: [{ name: "@pk", value: "p3" }] })
      .fetchAll();
    assert.deepEqual(resources.map((r) => r.id).sort(), [...acked].filter(([, v]) => v.pk === "p3").map(([k]) => k).sort());
    await verifyAcknowledged("on the full disk");
    // Idle on the full disk, no background work (the TTL purge, the splitter) spins.
    const cpuBefore = cpuSeconds();
    await sleep(2000);
    const cpu = cpuSeconds() - cpuBefore;
    assert.ok(cpu < 0.5, `the idle server used ${cpu} s of CPU in 2 s on the full disk`);
    assertUp("after the reads");
  });

  test("once space is freed, writes succeed again without a restart", async () => {
    const pid = server.proc.pid;
    disk.removeBallast();
    await writeOnceThereIsRoom("resume");
    for (let i = 0; i < 50; i++) await createAcknowledged(makeItem(`after-${i}`, i));
    const [id, first] = [...acked][0];
    const { resource } = await container.item(id, first.pk).patch([{ op: "set", path: "/patched", value: true }]);
    acked.set(id, { ...first, etag: resource._etag });
    // The TTL purge, which rested while the disk was full, deletes the expired items.
    const stored = async () => (await restClient(server).get(`_orrery/dbs/${dbId}/colls/ttl/stats`)).body.itemCount;
    for (let i = 0; i < 40 && (await stored()) > 0; i++) await sleep(250);
    assert.equal(await stored(), 0, "expired items purged once there is room");
    assert.equal(server.proc.pid, pid, "the same process serves");
    assert.match(server.io.stderr, /writes resumed/, "the server logs that writes resumed");
    await verifyAcknowledged("after space was freed");
  });

  test("a restart on a full disk (kill -9) serves reads and refuses writes with 507, also over HTTPS", async () => {
    disk.placeBallast(LEAVE_BYTES);
    await fillUntilFull("b");
    client.dispose();
    client = null;
    await server.kill9();
    disk.placeBallast(0);

    // With HTTPS: the certificate of the first start is read, not written again.
    const secure = await startServer({ inMemory: false, tls: true, dataDir });
    try {
      assert.match(secure.io.stderr, /opened read-only/, "the server says it serves reads only");
      const tlsClient = sdkClient(secure);
      const tlsContainer = tlsClient.database(dbId).container("c");
      await tlsClient.getDatabaseAccount();
      const [id, want] = [...acked][0];
      const { resource } = await tlsContainer.item(id, want.pk).read();
      assert.equal(resource.sum, want.sum);
      refused.add("read-only-tls");
      await expectFull("create over HTTPS after a restart on the full disk", () => tlsContainer.items.create(makeItem("read-only-tls", 1)), READ_ONLY_MESSAGE);
      tlsClient.dispose();
    } finally {
      assert.equal((await secure.stop()).code, 0, "a clean stop on the full disk");
    }

    await server.restart();
    connect();
    assert.match(server.io.stderr, /opened read-only/, "the server says it serves reads only");
    await verifyAcknowledged("after a restart on the full disk");
    const ids = await drainChangeFeed();
    assert.equal(ids.size, acked.size, "the change feed after the restart");
    assert.ok((await container.readPartitionKeyRanges().fetchAll()).resources.length >= 2);
    refused.add("read-only");
    await expectFull("create after a restart on the full disk", () => container.items.create(makeItem("read-only", 1)), READ_ONLY_MESSAGE);
    assertUp("read-only");
  });

  test("with space again, a restart writes; every acknowledged write is there", async () => {
    disk.removeBallast();
    client.dispose();
    client = null;
    await server.restart();
    connect();
    assert.doesNotMatch(server.io.stderr, /read-only/, "with room, the store opens for writing");
    // Writes may wait for a compaction to make room, as on any nearly full disk.
    await writeOnceThereIsRoom("last");
    for (let i = 0; i < 20; i++) await createAcknowledged(makeItem(`last-${i}`, i));
    await verifyAcknowledged("at the end");
  });
});
