#!/usr/bin/env node
// What a query page costs as the container grows, now that pages resume where the
// previous one ended (continuation_token.h): for each item count given (default 10,000
// and 100,000), starts the server in memory with 4 physical partitions, bulk-loads N
// items of ~300 bytes over 10 logical partitions (n: a permutation of 0..N-1; team: N/20
// distinct values, 20 items each), then reads every page of 100 rows of each shape with
// one iterator (fetchNext) and prints the first page's wall time (it also carries the
// SDK's query-plan request) and charge, the median wall time and charge of a page, the
// total of all pages, and the same query read unpaged (maxItemCount 1,000,000: -1 would
// ask for the default page of 100; it still comes in several pages when a page reaches
// the time budget):
//   order_x   SELECT * FROM c ORDER BY c.n                        (across partitions)
//   order_1   SELECT * FROM c ORDER BY c.n, partitionKey "p7"     (one logical partition)
//   distinct  SELECT DISTINCT VALUE c.team FROM c
//   group     SELECT c.team, COUNT(1) AS cnt FROM c GROUP BY c.team
//   distinct_desc  SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team DESC
//   join_order     SELECT VALUE t FROM c JOIN t IN c.tags ORDER BY t  (tags: one number)
//   group_expr     SELECT LOWER(c.team) AS t, COUNT(1) AS cnt FROM c GROUP BY LOWER(c.team)
//   distinct_expr  SELECT DISTINCT VALUE LOWER(c.team) FROM c
// (No index orders the last two: their first page evaluates the query and keeps the
// rest of the result for the later pages, engine/result_cursors.h.)
// The target: the median page at 100,000 items within 1.5x of the one at 10,000.
//
//   node bench/query_paging.mjs [N ...] [--bin path/to/orrery] [--shapes name,name]
//
// Loopback only. ORRERY_BIN or --bin names the binary (default build/orrery).

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));

async function start(bin) {
  const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls", "--initial-partitions", "4"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await listeningPort(server, bin);
  return { server, port };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r2 = (x) => Math.round(x * 100) / 100;

async function readAll(container, query, options) {
  const times = [];
  const charges = [];
  let rows = 0;
  const t0 = performance.now();
  for (const it = container.items.query(query, options); it.hasMoreResults(); ) {
    const t = performance.now();
    const page = await it.fetchNext();
    times.push(performance.now() - t);
    charges.push(page.requestCharge);
    rows += page.resources.length;
  }
  return { times, charges, rows, totalMs: performance.now() - t0, totalRu: charges.reduce((a, b) => a + b, 0) };
}

async function run(bin, n) {
  const { server, port } = await start(bin);
  const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY });
  try {
    const { database } = await client.databases.create({ id: "d" });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    const teams = Math.max(1, Math.floor(n / 20));
    const item = (k) => ({ id: `i${k}`, pk: `p${k % 10}`, n: (k * 7919) % n, team: `t${k % teams}`, tags: [k % 997], pad: "x".repeat(200) });
    const t0 = performance.now();
    // Bulk: at most 100 operations per call, 10 calls at a time.
    for (let i = 0; i < n; i += 1000) {
      const calls = [];
      for (let j = i; j < Math.min(n, i + 1000); j += 100) {
        const ops = [];
        for (let k = j; k < Math.min(n, j + 100); k++) ops.push({ operationType: "Create", resourceBody: item(k) });
        calls.push(container.items.bulk(ops));
      }
      await Promise.all(calls);
    }
    const out = { items: n, teams, load_s: Math.round((performance.now() - t0) / 100) / 10, shapes: {} };
    const shapes = [
      ["order_x", "SELECT * FROM c ORDER BY c.n", {}, n],
      ["order_1", "SELECT * FROM c ORDER BY c.n", { partitionKey: "p7" }, n / 10],
      ["distinct", "SELECT DISTINCT VALUE c.team FROM c", {}, teams],
      ["group", "SELECT c.team, COUNT(1) AS cnt FROM c GROUP BY c.team", {}, teams],
      ["distinct_desc", "SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team DESC", {}, teams],
      ["join_order", "SELECT VALUE t FROM c JOIN t IN c.tags ORDER BY t", {}, n],
      ["group_expr", "SELECT LOWER(c.team) AS t, COUNT(1) AS cnt FROM c GROUP BY LOWER(c.team)", {}, teams],
      ["distinct_expr", "SELECT DISTINCT VALUE LOWER(c.team) FROM c", {}, teams],
    ].filter(([name]) => only === null || only.includes(name));
    for (const [name, query, options, expectedRows] of shapes) {
      const paged = await readAll(container, query, { maxItemCount: 100, ...options });
      if (paged.rows !== expectedRows) throw new Error(`${name}: ${paged.rows} rows, expected ${expectedRows}`);
      // The first page also carries the SDK's query-plan request: leave it out of the median.
      const later = paged.times.length > 1 ? 1 : 0;
      const whole = await readAll(container, query, { maxItemCount: 1000000, ...options });
      if (whole.rows !== expectedRows) throw new Error(`${name} unpaged: ${whole.rows} rows, expected ${expectedRows}`);
      out.shapes[name] = {
        pages: paged.times.length,
        first_ms: r2(paged.times[0]),
        first_ru: r2(paged.charges[0]),
        page_ms: r2(median(paged.times.slice(later))),
        page_ru: r2(median(paged.charges.slice(later))),
        all_pages_ms: Math.round(paged.totalMs),
        all_pages_ru: Math.round(paged.totalRu),
        unpaged_ms: Math.round(whole.totalMs),
        unpaged_ru: Math.round(whole.totalRu),
        unpaged_pages: whole.times.length,
      };
    }
    return out;
  } finally {
    client.dispose();
    server.kill();
  }
}

const args = process.argv.slice(2);
let bin = process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery");
const counts = [];
let only = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--bin") bin = args[++i];
  else if (args[i] === "--shapes") only = args[++i].split(",");
  else counts.push(Number(args[i]));
}
if (counts.length === 0) counts.push(10000, 100000);

const results = [];
for (const n of counts) {
  const r = await run(bin, n);
  console.error(JSON.stringify(r));
  results.push(r);
}
console.log(`binary: ${bin}`);
const head = ["shape", "items", "pages", "first ms", "first RU", "page ms", "page RU", "all pages ms", "all pages RU", "unpaged ms", "unpaged RU", "unpaged pages"];
const lines = [head];
for (const r of results) {
  for (const [name, s] of Object.entries(r.shapes)) {
    lines.push([name, r.items, s.pages, s.first_ms, s.first_ru, s.page_ms, s.page_ru, s.all_pages_ms, s.all_pages_ru, s.unpaged_ms, s.unpaged_ru, s.unpaged_pages].map(String));
  }
}
const widths = head.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const l of lines) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
if (results.length >= 2) {
  const [small, big] = [results[0], results[results.length - 1]];
  console.log(`\nmedian page at ${big.items} items / at ${small.items} items (target <= 1.5):`);
  for (const name of Object.keys(small.shapes)) {
    const ratio = big.shapes[name].page_ms / small.shapes[name].page_ms;
    const ruRatio = big.shapes[name].page_ru / small.shapes[name].page_ru;
    console.log(`  ${name.padEnd(9)} time x${r2(ratio)}  RU x${r2(ruRatio)}  ${ratio <= 1.5 ? "ok" : "OVER"}`);
  }
}
