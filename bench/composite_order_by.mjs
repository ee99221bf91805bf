#!/usr/bin/env node
// What a composite index saves a multi-key ORDER BY (issue 16): for each server binary
// given, starts it in memory, creates a container whose policy has the composite index
// (/a ASC, /b DESC), bulk-loads N items of ~300 bytes over 100 logical partitions
// (a: 0..19, b: distinct), then runs each query shape below three times and prints the
// best wall time and the charge of its FIRST PAGE (100 rows) and of reading ALL pages:
//   order2   SELECT * FROM c ORDER BY c.a ASC, c.b DESC          (multi-key ORDER BY)
//   order2r  SELECT * FROM c ORDER BY c.a DESC, c.b ASC          (the reversed order)
//   eq_order SELECT * FROM c WHERE c.a = 7 ORDER BY c.b DESC     (equality, then ORDER BY)
//   eq_range SELECT * FROM c WHERE c.a = 7 AND c.b > <90th pct>  (equality, then range)
// The policy is the same for every binary. A binary that does not read composite
// indexes (one built before them) runs the very same queries by a full scan and a sort
// on every page: the service refuses a multi-key ORDER BY without the index, so "with
// vs without" can only be this binary against one that does not use it.
//
//   node bench/composite_order_by.mjs 100000 /path/to/old/orrery build/orrery
//
// Loopback only; the "all pages" column of order2/order2r is skipped above 20,000 items
// for old binaries' sake (each page re-sorts the whole container) unless ALL_PAGES=1.

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));

async function start(bin) {
  const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await listeningPort(server, bin);
  return { server, port };
}

async function run(bin, n) {
  const { server, port } = await start(bin);
  const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY });
  try {
    const { database } = await client.databases.create({ id: "d" });
    const { container } = await database.containers.create({
      id: "c",
      partitionKey: { paths: ["/pk"], version: 2 },
      indexingPolicy: {
        indexingMode: "consistent",
        includedPaths: [{ path: "/*" }],
        compositeIndexes: [[{ path: "/a", order: "ascending" }, { path: "/b", order: "descending" }]],
      },
    });
    const t0 = performance.now();
    // Bulk: at most 100 operations per call (the SDK's limit per partition), 10 calls
    // at a time.
    const item = (k) => ({ id: `i${k}`, pk: `p${k % 100}`, a: k % 20, b: (k * 7919) % n, pad: "x".repeat(200) });
    for (let i = 0; i < n; i += 1000) {
      const calls = [];
      for (let j = i; j < Math.min(n, i + 1000); j += 100) {
        const ops = [];
        for (let k = j; k < Math.min(n, j + 100); k++) ops.push({ operationType: "Create", resourceBody: item(k) });
        calls.push(container.items.bulk(ops));
      }
      await Promise.all(calls);
    }
    const loadMs = Math.round(performance.now() - t0);
    const cut = Math.floor(n * 0.9);
    const shapes = [
      ["order2", "SELECT * FROM c ORDER BY c.a ASC, c.b DESC", true],
      ["order2r", "SELECT * FROM c ORDER BY c.a DESC, c.b ASC", true],
      ["eq_order", "SELECT * FROM c WHERE c.a = 7 ORDER BY c.b DESC", false],
      ["eq_range", `SELECT * FROM c WHERE c.a = 7 AND c.b > ${cut}`, false],
    ];
    const out = { load_ms: loadMs };
    for (const [name, query, big] of shapes) {
      let firstMs = Infinity;
      let firstRu = 0;
      for (let rep = 0; rep < 3; rep++) {
        const t = performance.now();
        const page = await container.items.query(query, { maxItemCount: 100 }).fetchNext();
        firstMs = Math.min(firstMs, performance.now() - t);
        firstRu = page.requestCharge;
      }
      out[`${name}_first_ms`] = Math.round(firstMs);
      out[`${name}_first_ru`] = Math.round(firstRu * 100) / 100;
      if (big && n > 20000 && !process.env.ALL_PAGES) continue;
      const t = performance.now();
      let ru = 0;
      let rows = 0;
      for (const it = container.items.query(query, { maxItemCount: 1000 }); it.hasMoreResults(); ) {
        const page = await it.fetchNext();
        ru += page.requestCharge;
        rows += page.resources.length;
      }
      out[`${name}_all_ms`] = Math.round(performance.now() - t);
      out[`${name}_all_ru`] = Math.round(ru);
      out[`${name}_rows`] = rows;
    }
    return out;
  } finally {
    client.dispose();
    server.kill();
  }
}

const n = Number(process.argv[2] ?? 100000);
const bins = process.argv.slice(3);
if (bins.length === 0) bins.push(process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery"));
for (const bin of bins) console.log(JSON.stringify({ binary: bin, items: n, ...(await run(bin, n)) }));
