#!/usr/bin/env node
// An approximate vector index (diskANN, or quantizedFlat with --type) across restarts,
// on disk: loads N vectors of D dimensions (clustered around 100 centres, the shape of
// real embeddings), waits for the indexes (one per physical partition: the server logs
// each one it builds or loads), then
//   - stops the server with SIGTERM (the graphs are saved: shutdown seconds) and starts
//     it again: seconds from the start until every graph is ready (loaded from its files);
//   - kills it with SIGKILL and starts it again: seconds until every graph is ready (built
//     again from the stored vectors, as every start did before graphs were saved).
// With each, the charge of the TOP 10 query then (the exact scan's before any graph).
// Prints one JSON line. Loopback only; each wait is bounded by SECONDS (default 600).
//
//   node bench/vector_graph_restart.mjs [N] [D] [--type diskANN|quantizedFlat] [--bin path/to/orrery]

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { seededRandom } from "../tests/e2e/lib/util.mjs";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.SECONDS_LIMIT ?? 600);

const args = process.argv.slice(2);
let bin = process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery");
let type = "diskANN";
const sizes = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--bin") bin = args[++i];
  else if (args[i] === "--type") type = args[++i];
  else sizes.push(Number(args[i]));
}
const [n = 20000, d = 128] = sizes;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-graph-bench-"));

function start() {
  const t0 = performance.now();
  const proc = spawn(bin, ["serve", "--port", "0", "--no-tls", "--data-dir", dataDir], { stdio: ["ignore", "pipe", "pipe"] });
  const handle = { proc, t0, ready: 0, loaded: 0 };
  proc.stderr.on("data", (chunk) => {
    const text = String(chunk);
    process.stderr.write(text);
    handle.ready += (text.match(new RegExp(`(built|loaded) the (saved )?${type} index`, "g")) ?? []).length;
    handle.loaded += (text.match(new RegExp(`loaded the saved ${type} index`, "g")) ?? []).length;
  });
  const port = listeningPort(proc, bin, 30_000);
  handle.port = port;
  return handle;
}
const stop = (proc, signal) => new Promise((resolve) => {
  const t0 = performance.now();
  proc.on("exit", () => resolve((performance.now() - t0) / 1000));
  proc.kill(signal);
});

const next = seededRandom(77);
const centres = Array.from({ length: 100 }, () => Array.from({ length: d }, () => next() * 2 - 1));
const point = () => {
  const c = centres[Math.floor(next() * centres.length)];
  return c.map((x) => Math.round((x + (next() * 2 - 1) * 0.3) * 1e4) / 1e4);
};
const query = point();
const text = `SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, ${JSON.stringify(query)})`;

const r2 = (x) => Math.round(x * 100) / 100;
const out = { items: n, dimensions: d };
let server = start();
let client = new CosmosClient({ endpoint: `http://127.0.0.1:${await server.port}`, key: KEY });
const { database } = await client.databases.create({ id: "bench" });
const { container } = await database.containers.create(
  {
    id: "vectors",
    partitionKey: { paths: ["/pk"], version: 2 },
    vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: d }] },
    indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type }] },
  },
  { offerThroughput: 20000 },
);
let t = performance.now();
for (let i = 0; i < n; i += 64) {
  await Promise.all(Array.from({ length: Math.min(64, n - i) }, (_, j) => container.items.create({ id: `v${i + j}`, pk: `p${(i + j) % 101}`, e: point() })));
}
out.load_s = r2((performance.now() - t) / 1000);

const charge = async () => (await client.database("bench").container("vectors").items.query(text).fetchAll()).requestCharge;
const scan = await charge();
out.scan_ru = r2(scan);
const partitions = (await container.readPartitionKeyRanges().fetchAll()).resources.length;
out.partitions = partitions;
// Seconds from `since` until every partition's graph is ready (a query starts the builds).
async function graphReady(since) {
  const limit = performance.now() + SECONDS * 1000;
  await charge();
  while (server.ready < partitions) {
    if (performance.now() > limit) throw new Error(`the graphs were not ready within ${SECONDS} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { s: r2((performance.now() - since) / 1000), ru: r2(await charge()), loaded: server.loaded };
}
t = performance.now();
out.first_build = await graphReady(t);

client.dispose();
out.shutdown_with_save_s = r2(await stop(server.proc, "SIGTERM"));
const files = fs.readdirSync(path.join(dataDir, "vector-graphs"));
out.saved_mb = r2(files.reduce((s, f) => s + fs.statSync(path.join(dataDir, "vector-graphs", f)).size, 0) / 1048576);
server = start();
client = new CosmosClient({ endpoint: `http://127.0.0.1:${await server.port}`, key: KEY });
out.after_clean_restart = await graphReady(server.t0);

await stop(server.proc, "SIGKILL");
client.dispose();
server = start();
client = new CosmosClient({ endpoint: `http://127.0.0.1:${await server.port}`, key: KEY });
out.after_crash = await graphReady(server.t0);
client.dispose();
await stop(server.proc, "SIGKILL");
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify(out));
