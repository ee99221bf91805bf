#!/usr/bin/env node
// What a spatial index saves an ST_DISTANCE radius query (issue 16): starts the server
// (ORRERY_BIN or build/orrery) in memory, loads N points (default 100,000) spread over
// a 2° × 2° square around Seattle into two containers through the SDK, one whose
// indexing policy has a spatial index on /location and one without, then runs
//
//   SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, <centre>) < 3000
//
// REPS times (default 7) on each, paging 1,000 at a time, and prints the median wall
// time and the request charge (RU) of each, and how many items matched:
//
//   node bench/spatial_radius.mjs [N] [REPS]
//
// With ORRERY_BENCH_SPATIAL=geometry both containers are Geometry containers (the
// indexed one's boundingBox is the square), and the radius is 0.027 coordinate units
// (about 3 km in degrees): the planar grid instead of the geographic one.
//
// Loopback only. Loading 2 × 100,000 items takes about a minute on two cores.

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));
const CENTRE = [-122.33, 47.61];
const GEOMETRY = process.env.ORRERY_BENCH_SPATIAL === "geometry";
const RADIUS = GEOMETRY ? 0.027 : 3000;

// A deterministic spread of points (a linear congruential generator), the same in both
// containers.
function* points(n) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    yield { id: `p${i}`, pk: `k${i % 50}`, location: { type: "Point", coordinates: [CENTRE[0] - 1 + 2 * next(), CENTRE[1] - 1 + 2 * next()] } };
  }
}

async function load(container, n) {
  let batch = [];
  for (const item of points(n)) {
    batch.push(container.items.create(item));
    if (batch.length === 200) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

async function measure(container, reps) {
  const query = `SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, {"type": "Point", "coordinates": [${CENTRE}]}) < ${RADIUS}`;
  const times = [];
  let charge = 0;
  let matches = 0;
  for (let rep = 0; rep < reps; rep++) {
    const t0 = performance.now();
    charge = 0;
    matches = 0;
    for (const it = container.items.query(query, { maxItemCount: 1000 }); it.hasMoreResults(); ) {
      const page = await it.fetchNext();
      charge += page.requestCharge;
      matches += page.resources.length;
    }
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median_ms: Math.round(times[Math.floor(times.length / 2)] * 10) / 10, ru: Math.round(charge * 100) / 100, matches };
}

async function run(bin, n, reps) {
  const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await listeningPort(server, bin);
  const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY });
  try {
    const { database } = await client.databases.create({ id: "d" });
    const base = { indexingMode: "consistent", includedPaths: [{ path: "/*" }], excludedPaths: [{ path: '/"_etag"/?' }] };
    const pk = { paths: ["/pk"], version: 2 };
    const spatialIndex = { path: "/location/*", types: ["Point"] };
    const system = {};
    if (GEOMETRY) {
      spatialIndex.boundingBox = { xmin: CENTRE[0] - 1, ymin: CENTRE[1] - 1, xmax: CENTRE[0] + 1, ymax: CENTRE[1] + 1 };
      system.geospatialConfig = { type: "Geometry" };
    }
    const { container: indexed } = await database.containers.create({
      id: "indexed",
      partitionKey: pk,
      ...system,
      indexingPolicy: { ...base, spatialIndexes: [spatialIndex] },
    });
    const { container: plain } = await database.containers.create({ id: "plain", partitionKey: pk, ...system, indexingPolicy: base });
    const t0 = performance.now();
    await load(indexed, n);
    await load(plain, n);
    const load_s = Math.round((performance.now() - t0) / 100) / 10;
    return { coordinates: GEOMETRY ? "geometry" : "geography", items: n, reps, load_s, with_spatial_index: await measure(indexed, reps), without: await measure(plain, reps) };
  } finally {
    client.dispose();
    server.kill();
  }
}

const n = Number(process.argv[2] ?? 100000);
const reps = Number(process.argv[3] ?? 7);
const bin = process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery");
console.log(JSON.stringify({ binary: bin, ...(await run(bin, n, reps)) }));
