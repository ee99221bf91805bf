// Load test (issue 6): 256 concurrent connections of a mixed workload through
// @azure/cosmos — point reads, creates, deletes, upserts, single-partition and
// cross-partition queries, change feed reads — against a freshly started on-disk
// server that enforces provisioned throughput. The main container has more than the
// workload needs; a second one, of 400 RU/s, gets 5% of the operations (upserts to one
// partition key), more than it is provisioned for, so it answers 429s throughout,
// which the SDK retries.
//
// The data set keeps its size (creates are matched by deletes of the oldest created
// items). A warm-up of WARMUP_SECONDS (default 150) brings memtables, block cache and
// allocator to their working size; then LOAD_SECONDS (default 60) are measured.
// Passes when, over the measured run:
// - no operation fails, except with a 429 after the SDK's retries, and the hot
//   container did answer 429s;
// - p99 latency of the main container's operations in the last quarter is within 3x
//   of the second quarter's (the hot container's include the SDK's retry waits);
// - RSS has stopped growing: its peak over the second half exceeds the peak over the
//   first half by less than LOAD_RSS_GROWTH_MB (default 12; a leak of 400 bytes per
//   operation at 1,000 operations/s adds that in 30 s). Peaks, not samples: memtables
//   fill and flush, so RSS saws up and down by several MB.
// Prints the figures as JSON. 127.0.0.1 only; bounded in time.
//
//   node tests/load/mixed_load.mjs           # or: make test-load

import https from "node:https";
import fs from "node:fs";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { startServer } from "../e2e/lib/server.mjs";
import { restClient, sdkClient } from "../e2e/lib/util.mjs";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.WARMUP_SECONDS ?? 150);
const RSS_GROWTH_MB = Number(process.env.LOAD_RSS_GROWTH_MB ?? 12);
const CONNECTIONS = 256;
const ITEMS = 2000;
const PARTITION_KEYS = 50;
// Spread over 4 physical partitions: about twice what the workload asks for here.
const THROUGHPUT = 40000;
const HOT_THROUGHPUT = 400;
const MAX_HOT_IN_FLIGHT = 8;
const MAX_CREATED = 500; // created items kept before the oldest are deleted

const server = await startServer({
  inMemory: false,
  args: ["--initial-partitions", "4", "--enforce-throughput"],
});
// Over HTTPS an agent with room for every connection; over plain HTTP (the test
// servers' --no-tls) the SDK's own keep-alive agent, which does not cap sockets.
const agent = server.endpoint.startsWith("https:")
  ? new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: CONNECTIONS })
  : undefined;
const client = sdkClient(server, agent ? { options: { agent } } : {});
const rest = restClient(server);
const rss = () => Number(fs.readFileSync(`/proc/${server.proc.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) * 1024;

let exitCode = 0;
try {
  const { database } = await client.databases.create({ id: "load" });
  const { container } = await database.containers.create({
    id: "c",
    partitionKey: { paths: ["/pk"], version: 2 },
    throughput: THROUGHPUT,
  });
  const { container: hot } = await database.containers.create({
    id: "hot",
    partitionKey: { paths: ["/pk"], version: 2 },
    throughput: HOT_THROUGHPUT,
  });
  const pad = "x".repeat(900);
  const pkOf = (i) => `p${i % PARTITION_KEYS}`;
  for (let i = 0; i < ITEMS; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, k) => container.items.create({ id: `i${i + k}`, pk: pkOf(i + k), n: i + k, pad })));
  }

  const errors = [];
  let throttledAfterRetries = 0;
  let createdCount = 0;
  const created = []; // ids of created items, oldest first
  let hotInFlight = 0;
  const randomItem = () => Math.floor(Math.random() * ITEMS);
  const readOne = () => { const i = randomItem(); return container.item(`i${i}`, pkOf(i)).read(); };
  const ops = [
    ["read", readOne],
    ["create", async () => {
      const n = createdCount++;
      await container.items.create({ id: `n${n}`, pk: pkOf(n), n, pad });
      created.push(n);
    }],
    ["delete", async () => {
      if (created.length <= MAX_CREATED) return readOne(); // until there is something to delete
      const n = created.shift();
      return container.item(`n${n}`, pkOf(n)).delete();
    }],
    ["upsert", () => { const i = randomItem(); return container.items.upsert({ id: `i${i}`, pk: pkOf(i), n: i, pad, t: Date.now() }); }],
    ["query", () => {
      const pk = pkOf(Math.floor(Math.random() * PARTITION_KEYS));
      return container.items.query({ query: "SELECT * FROM c WHERE c.pk = @p AND c.n > @n", parameters: [{ name: "@p", value: pk }, { name: "@n", value: 10 }] }, { partitionKey: pk }).fetchAll();
    }],
    ["cross-query", () => container.items.query("SELECT TOP 10 c.id, c.n FROM c ORDER BY c.n DESC").fetchAll()],
    ["change-feed", () => container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() }).readNext()],
    ["hot-upsert", async () => {
      // Throttled requests wait out their retries; a few at a time keep the other
      // connections busy with the main workload.
      if (hotInFlight >= MAX_HOT_IN_FLIGHT) return readOne();
      hotInFlight++;
      try {
        await hot.items.upsert({ id: `h${Math.floor(Math.random() * 100)}`, pk: "hot", pad });
      } finally {
        hotInFlight--;
      }
    }],
  ];
  const weights = [35, 10, 10, 15, 15, 5, 5, 5];
  const pick = () => {
    let r = Math.random() * 100;
    for (let i = 0; i < ops.length; i++) if ((r -= weights[i]) < 0) return ops[i];
    return ops[0];
  };
  // Runs the workload for `seconds`; returns per-quarter latencies (ms), counts and
  // RSS samples (one a second).
  const run = async (seconds) => {
    const started = Date.now();
    const deadline = started + seconds * 1000;
    const phase = { latencies: [[], [], [], []], counts: {}, rss: [] };
    const sampler = setInterval(() => phase.rss.push(rss()), 1000);
    const worker = async () => {
      while (Date.now() < deadline) {
        const [name, op] = pick();
        const t0 = Date.now();
        try {
          await op();
          phase.counts[name] = (phase.counts[name] ?? 0) + 1;
        } catch (e) {
          if (e.code === 429) throttledAfterRetries++;
          else errors.push(`${name}: ${e.code} ${e.message?.slice(0, 120)}`);
        }
        const quarter = Math.min(3, Math.floor(((t0 - started) / 1000 / seconds) * 4));
        if (name !== "hot-upsert") phase.latencies[quarter].push(Date.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    clearInterval(sampler);
    return phase;
  };
  const warmup = await run(WARMUP_SECONDS);
  const measured = await run(SECONDS);

  const throttled = async (containerId) => {
    const usage = await rest.request("GET", ["_orrery", "dbs", "load", "colls", containerId, "throughput"]);
    if (usage.status !== 200) throw new Error(`throughput report: ${usage.status} ${usage.text}`);
    return usage.body.partitions.reduce((sum, p) => sum + (p.throttledRequests ?? 0), 0);
  };
  const throttledByServer = { main: await throttled("c"), hot: await throttled("hot") };
  const p99 = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length * 0.99)] ?? 0; };
  const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const half = Math.floor(measured.rss.length / 2);
  const firstPeak = Math.max(...measured.rss.slice(0, half));
  const secondPeak = Math.max(...measured.rss.slice(half));
  const result = {
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    connections: CONNECTIONS,
    operations: measured.counts,
    opsPerSecond: Math.round(Object.values(measured.counts).reduce((a, b) => a + b, 0) / SECONDS),
    throttledByServer,
    throttledAfterRetries,
    errors: errors.length,
    firstErrors: errors.slice(0, 5),
    p99Ms: measured.latencies.map(p99),
    rssMb: {
      warmupStart: mb(warmup.rss[0]),
      warmupEnd: mb(warmup.rss.at(-1)),
      firstHalfPeak: mb(firstPeak),
      secondHalfPeak: mb(secondPeak),
    },
    rssTrace: process.env.LOAD_RSS_TRACE ? [...warmup.rss, ...measured.rss].filter((_, i) => i % 5 === 0).map(mb) : undefined,
  };
  console.log(JSON.stringify(result, null, 2));
  const failures = [];
  if (errors.length > 0) failures.push(`${errors.length} failed operations`);
  if (throttledByServer.hot === 0) failures.push("the hot container answered no 429");
  if (result.p99Ms[3] > 3 * Math.max(result.p99Ms[1], 20)) failures.push(`p99 grew from ${result.p99Ms[1]} to ${result.p99Ms[3]} ms`);
  if (secondPeak - firstPeak > RSS_GROWTH_MB * 2 ** 20) {
    failures.push(`RSS kept growing: its peak went from ${mb(firstPeak)} MB in the first half to ${mb(secondPeak)} MB in the second`);
  }
  if (failures.length) {
    console.error("mixed_load: FAILED: " + failures.join("; "));
    exitCode = 1;
  }
} finally {
  client.dispose();
  agent?.destroy();
  await server.stop();
}
process.exit(exitCode);
