// Load test (issue 6): 256 concurrent connections for LOAD_SECONDS (default 60) of a
// mixed workload through @azure/cosmos — point reads, creates, upserts, single-partition
// and cross-partition queries, change feed reads — against a freshly started server.
// Passes when nothing fails (429s would be expected under --enforce-throughput; this
// run does not enforce), p99 latency in the last quarter of the run is within 3x of the
// second quarter's, and the server's RSS grows by less than 50% from the middle of the
// run to its end (no leak). Prints the figures as JSON. 127.0.0.1 only; bounded in time.
//
//   node tests/load/mixed_load.mjs           # or: make test-load

import https from "node:https";
import fs from "node:fs";
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { startServer } from "../e2e/lib/server.mjs";
import { sdkClient } from "../e2e/lib/util.mjs";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = 256;
const ITEMS = 2000;

const server = await startServer({ args: ["--initial-partitions", "4"] });
// Over HTTPS an agent with room for every connection; over plain HTTP (the test
// servers' --no-tls) the SDK's own keep-alive agent, which does not cap sockets.
const agent = server.endpoint.startsWith("https:")
  ? new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: CONNECTIONS })
  : undefined;
const client = sdkClient(server, agent ? { options: { agent } } : {});
const rss = () => Number(fs.readFileSync(`/proc/${server.proc.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) * 1024;

let exitCode = 0;
try {
  const { database } = await client.databases.create({ id: "load" });
  const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
  const pad = "x".repeat(900);
  for (let i = 0; i < ITEMS; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, k) => container.items.create({ id: `i${i + k}`, pk: `p${(i + k) % 50}`, n: i + k, pad })));
  }

  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const latencies = [[], [], [], []]; // per quarter of the run, in ms
  const errors = [];
  const counts = {};
  const rssSamples = [];
  const sampler = setInterval(() => rssSamples.push({ t: (Date.now() - started) / 1000, rss: rss() }), 1000);
  let created = 0;
  const ops = [
    ["read", () => { const i = Math.floor(Math.random() * ITEMS); return container.item(`i${i}`, `p${i % 50}`).read(); }],
    ["create", () => container.items.create({ id: `n${created++}-${Math.random()}`, pk: `p${created % 50}`, n: created, pad })],
    ["upsert", () => { const i = Math.floor(Math.random() * ITEMS); return container.items.upsert({ id: `i${i}`, pk: `p${i % 50}`, n: i, pad, t: Date.now() }); }],
    ["query", () => container.items.query({ query: "SELECT * FROM c WHERE c.pk = @p AND c.n > @n", parameters: [{ name: "@p", value: `p${Math.floor(Math.random() * 50)}` }, { name: "@n", value: 10 }] }, { partitionKey: `p${Math.floor(Math.random() * 50)}` }).fetchAll()],
    ["cross-query", () => container.items.query("SELECT TOP 10 c.id, c.n FROM c ORDER BY c.n DESC").fetchAll()],
    ["change-feed", () => container.items.getChangeFeedIterator({ changeFeedStartFrom: ChangeFeedStartFrom.Now() }).readNext()],
  ];
  const weights = [40, 15, 15, 15, 10, 5];
  const pick = () => {
    let r = Math.random() * 100;
    for (let i = 0; i < ops.length; i++) if ((r -= weights[i]) < 0) return ops[i];
    return ops[0];
  };
  const worker = async () => {
    while (Date.now() < deadline) {
      const [name, op] = pick();
      const t0 = Date.now();
      try {
        await op();
        counts[name] = (counts[name] ?? 0) + 1;
      } catch (e) {
        if (e.code !== 429) errors.push(`${name}: ${e.code} ${e.message?.slice(0, 120)}`);
      }
      const quarter = Math.min(3, Math.floor(((t0 - started) / 1000 / SECONDS) * 4));
      latencies[quarter].push(Date.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  clearInterval(sampler);

  const p99 = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length * 0.99)] ?? 0; };
  const at = (fraction) => rssSamples[Math.min(rssSamples.length - 1, Math.floor(rssSamples.length * fraction))].rss;
  const result = {
    seconds: SECONDS,
    connections: CONNECTIONS,
    operations: counts,
    opsPerSecond: Math.round(Object.values(counts).reduce((a, b) => a + b, 0) / SECONDS),
    errors: errors.length,
    firstErrors: errors.slice(0, 5),
    p99Ms: latencies.map(p99),
    rssMb: { middle: Math.round(at(0.5) / 2 ** 20), end: Math.round(at(1) / 2 ** 20) },
  };
  console.log(JSON.stringify(result, null, 2));
  const failures = [];
  if (errors.length > 0) failures.push(`${errors.length} failed operations`);
  if (result.p99Ms[3] > 3 * Math.max(result.p99Ms[1], 20)) failures.push(`p99 grew from ${result.p99Ms[1]} to ${result.p99Ms[3]} ms`);
  if (at(1) > 1.5 * at(0.5)) failures.push(`RSS grew from ${result.rssMb.middle} to ${result.rssMb.end} MB`);
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
