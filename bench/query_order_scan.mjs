#!/usr/bin/env node
// What returning items in creation order costs a query without ORDER BY (issue 15):
// for each server binary given (default: ORRERY_BIN or build/orrery), starts it in
// memory, creates N items of ~300 bytes over 50 logical partitions through the SDK,
// then pages through them 1,000 at a time three ways and prints the best of three
// wall times of each:
//   scan    SELECT VALUE c.id FROM c                   (a full scan)
//   lookup  SELECT VALUE c.id FROM c WHERE c.n >= 0    (an index lookup matching all)
//   one-pk  SELECT VALUE c.id FROM c, one logical partition
// Give two binaries (before and after a change), twice each, to compare them in one run
// on a shared machine:
//
//   node bench/query_order_scan.mjs 20000 old/orrery build/orrery old/orrery build/orrery
//
// Loopback only.

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));

async function run(bin, n) {
  const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await listeningPort(server, bin);
  const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY });
  try {
    const { database } = await client.databases.create({ id: "d" });
    const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, k) =>
          container.items.create({ id: `i${i + k}`, pk: `p${(i + k) % 50}`, n: i + k, pad: "x".repeat(200) }),
        ),
      );
    }
    const out = {};
    const shapes = [
      ["scan", "SELECT VALUE c.id FROM c", {}],
      ["lookup", "SELECT VALUE c.id FROM c WHERE c.n >= 0", {}],
      ["one-pk", "SELECT VALUE c.id FROM c", { partitionKey: "p7" }],
    ];
    for (const [name, query, options] of shapes) {
      const times = [];
      for (let rep = 0; rep < 3; rep++) {
        const t0 = performance.now();
        for (const it = container.items.query(query, { maxItemCount: 1000, ...options }); it.hasMoreResults(); ) {
          await it.fetchNext();
        }
        times.push(performance.now() - t0);
      }
      out[name + "_ms"] = Math.round(Math.min(...times));
    }
    return out;
  } finally {
    client.dispose();
    server.kill();
  }
}

const n = Number(process.argv[2] ?? 20000);
const bins = process.argv.slice(3);
if (bins.length === 0) bins.push(process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery"));
for (const bin of bins) console.log(JSON.stringify({ binary: bin, items: n, ...(await run(bin, n)) }));
