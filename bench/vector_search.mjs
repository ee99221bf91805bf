#!/usr/bin/env node
// Vector and full-text search through the HTTP API (issue 17): starts the server
// (ORRERY_BIN or build/orrery) in memory, loads N vectors of D dimensions (default 10,000
// of 768) into a container with a vector policy and index of TYPE (default diskANN), and
// Q short documents (default 100,000) into a container with a full-text policy, then runs
//
//   SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, @v)          (random @v)
//   SELECT TOP 10 c.id FROM c WHERE FullTextContains(c.text, @w)       (random @w)
//   the same for a word in one document of 1,000 (each text ends in tag<i mod 1000>)
//   SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, @w)  (random @w)
//   the same for a word in one document of 1,000
//
// from CONC concurrent clients (default 4) for SECONDS each (default 10), and prints
// queries per second, p50/p99 latency, the charge of one query, recall@10 against an
// exact ranking computed here, the load time, the time a diskANN or quantizedFlat index
// takes to build in every partition (BUILD_LIMIT_S bounds the wait, default 900) and the
// server's peak RSS (DATA=clustered: vectors around 100 centres instead of uniform;
// QUANTIZATION_BYTES=M: the index's quantizationByteSize, product quantization for
// quantizedFlat):
//
//   node bench/vector_search.mjs [N] [D] [Q] [TYPE] [CONC] [SECONDS]
//
// Loopback only; bounded by SECONDS per phase and the sizes given.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { seededRandom } from "../tests/e2e/lib/util.mjs";
import { listeningPort } from "./lib/server_port.mjs";

const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const here = path.dirname(fileURLToPath(import.meta.url));
const WORDS = ["swim", "run", "dog", "cat", "fish", "bird", "tree", "rock", "sun", "moon", "river", "stone", "cloud", "wind", "fire", "snow"];

const peakRssKb = (pid) => {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
};

async function load(container, items, concurrency = 64) {
  for (let i = 0; i < items.length; i += concurrency) {
    await Promise.all(items.slice(i, i + concurrency).map((d) => container.items.create(d)));
  }
}

// Runs `one()` from `conc` loops for `seconds`; latencies in ms.
async function drive(one, conc, seconds) {
  const end = performance.now() + seconds * 1000;
  const latencies = [];
  let charge = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        charge = await one();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 100) / 100;
  return { queries: latencies.length, qps: Math.round(latencies.length / seconds), p50_ms: at(0.5), p99_ms: at(0.99), ru_per_query: Math.round(charge * 100) / 100 };
}

const cosine = (a, b) => {
  let dot = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
  return dot / Math.sqrt(aa * bb);
};

async function run(bin, n, d, q, type, conc, seconds) {
  const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls"], { stdio: ["ignore", "pipe", "pipe"] });
  // The server logs each partition's index build ("built the diskANN index of container
  // vectors, partition 3 ..."): the bench counts them to know when every partition has one.
  const builtPartitions = new Set();
  let logTail = "";
  server.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    logTail += chunk.toString();
    const lines = logTail.split("\n");
    logTail = lines.pop();
    for (const line of lines) {
      const m = /built the \S+ index of container vectors, partition (\d+)/.exec(line);
      if (m) builtPartitions.add(m[1]);
    }
  });
  const port = await listeningPort(server, bin);
  const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY });
  const next = seededRandom(1234);
  try {
    const { database } = await client.databases.create({ id: "bench" });
    const pk = { paths: ["/pk"], version: 2 };
    const { container: vectors } = await database.containers.create(
      {
        id: "vectors",
        partitionKey: pk,
        vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: d }] },
        indexingPolicy: { excludedPaths: [{ path: "/e/*" }], vectorIndexes: [{ path: "/e", type, ...(process.env.QUANTIZATION_BYTES ? { quantizationByteSize: Number(process.env.QUANTIZATION_BYTES) } : {}) }] },
      },
      { offerThroughput: 100000 },
    );
    // DATA=clustered: vectors around 100 random centres (spread 0.3), the shape of real
    // embeddings; default: uniform in [-1, 1]^d, which approximate search finds hardest.
    const clustered = process.env.DATA === "clustered";
    const centres = Array.from({ length: 100 }, () => Array.from({ length: d }, () => next() * 2 - 1));
    const point = () => {
      const c = centres[Math.floor(next() * centres.length)];
      return Array.from({ length: d }, (_, j) => Math.round((clustered ? c[j] + (next() * 2 - 1) * 0.3 : next() * 2 - 1) * 1e4) / 1e4);
    };
    const items = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, pk: `p${i % 100}`, e: point() }));
    let t0 = performance.now();
    await load(vectors, items);
    const vector_load_s = Math.round((performance.now() - t0) / 100) / 10;
    const queryVector = () => (clustered ? point() : Array.from({ length: d }, () => next() * 2 - 1));
    const top10 = async (v) =>
      vectors.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, @v)", parameters: [{ name: "@v", value: v }] }).fetchAll();
    // A diskANN graph or quantizedFlat's quantized vectors are built in the background, one
    // physical partition after another, after the first query that needs them; until then
    // the exact scan answers. The build time is until the server has logged a build for
    // every partition (bounded by BUILD_LIMIT_S).
    let graph_build_s = null;
    if (type !== "flat") {
      t0 = performance.now();
      const partitions = (await vectors.readPartitionKeyRanges().fetchAll()).resources.length;
      await top10(queryVector());
      const limit = Number(process.env.BUILD_LIMIT_S ?? 900) * 1000;
      while (performance.now() - t0 < limit && builtPartitions.size < partitions) {
        await new Promise((r) => setTimeout(r, 100));
      }
      if (builtPartitions.size >= partitions) graph_build_s = Math.round((performance.now() - t0) / 100) / 10;
    }
    // Recall@10 of 10 queries against the exact ranking computed here.
    let hits = 0;
    for (let k = 0; k < 10; k++) {
      const v = queryVector();
      const exact = new Set(items.map((it) => ({ id: it.id, s: cosine(it.e, v) })).sort((a, b) => b.s - a.s).slice(0, 10).map((x) => x.id));
      const { resources } = await vectors.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, @v)", parameters: [{ name: "@v", value: v }] }).fetchAll();
      hits += resources.filter((r) => exact.has(r.id)).length;
    }
    const vector = await drive(async () => {
      const r = await vectors.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.e, @v)", parameters: [{ name: "@v", value: queryVector() }] }).fetchAll();
      return r.requestCharge;
    }, conc, seconds);

    const { container: texts } = await database.containers.create(
      {
        id: "texts",
        partitionKey: pk,
        fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
        indexingPolicy: { fullTextIndexes: [{ path: "/text" }] },
      },
      { offerThroughput: 100000 },
    );
    const docs = Array.from({ length: q }, (_, i) => ({ id: `t${i}`, pk: `p${i % 100}`, text: `${Array.from({ length: 4 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ")} tag${i % 1000}` }));
    t0 = performance.now();
    await load(texts, docs);
    const text_load_s = Math.round((performance.now() - t0) / 100) / 10;
    const word = () => WORDS[Math.floor(next() * WORDS.length)];
    const contains = await drive(async () => {
      const r = await texts.items.query({ query: "SELECT TOP 10 c.id FROM c WHERE FullTextContains(c.text, @w)", parameters: [{ name: "@w", value: word() }] }).fetchAll();
      return r.requestCharge;
    }, conc, seconds);
    // A rare word: each tag is in one document of 1,000.
    const rare = await drive(async () => {
      const r = await texts.items.query({ query: "SELECT TOP 10 c.id FROM c WHERE FullTextContains(c.text, @w)", parameters: [{ name: "@w", value: `tag${Math.floor(next() * 1000)}` }] }).fetchAll();
      return r.requestCharge;
    }, conc, seconds);
    const ranked = await drive(async () => {
      const r = await texts.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, @w)", parameters: [{ name: "@w", value: word() }] }).fetchAll();
      return r.requestCharge;
    }, conc, seconds);
    const ranked_rare = await drive(async () => {
      const r = await texts.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, @w)", parameters: [{ name: "@w", value: `tag${Math.floor(next() * 1000)}` }] }).fetchAll();
      return r.requestCharge;
    }, conc, seconds);
    return {
      vectors: { items: n, dimensions: d, data: clustered ? "clustered" : "uniform", index: type, quantization_bytes: process.env.QUANTIZATION_BYTES ? Number(process.env.QUANTIZATION_BYTES) : null, load_s: vector_load_s, graph_build_s, recall_at_10: hits / 100, top10: vector },
      full_text: { documents: q, load_s: text_load_s, full_text_contains_top10: contains, full_text_contains_rare_word_top10: rare, full_text_score_top10: ranked, full_text_score_rare_word_top10: ranked_rare },
      server_peak_rss_mb: Math.round((peakRssKb(server.pid) ?? 0) / 1024),
      concurrency: conc,
      seconds_per_phase: seconds,
    };
  } finally {
    client.dispose();
    server.kill();
  }
}

const [n = 10000, d = 768, q = 100000, type = "diskANN", conc = 4, seconds = 10] = process.argv.slice(2).map((x, i) => (i === 3 ? x : Number(x)));
const bin = process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery");
console.log(JSON.stringify({ binary: bin, ...(await run(bin, n, d, q, type, conc, seconds)) }, null, 1));
