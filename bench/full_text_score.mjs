#!/usr/bin/env node
// Ranking by FullTextScore of a common word, alone (issue 17): starts `orrery serve
// --in-memory` (ORRERY_BIN or build/orrery), loads Q short texts (default 100,000; the
// texts of bench/vector_search.mjs: 4-11 words of 16, each word in about 40% of the
// texts, then a tag) with a full-text index, and runs
//
//   SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, @w)   (@w one of the 16)
//
// one query at a time for SECONDS (default 10). Prints the server's pid first (for
// `perf record -p`), the load time in ms, then the queries run, their p50 in ms, the
// charge of the last one and the ids of the first answer (the same for every binary).
//
//   node bench/full_text_score.mjs [Q] [SECONDS]
//
// Loopback only; bounded by Q and SECONDS.
import { spawn } from "node:child_process";
import { CosmosClient } from "@azure/cosmos";
import { seededRandom } from "../tests/e2e/lib/util.mjs";
import { listeningPort } from "./lib/server_port.mjs";
const KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const WORDS = ["swim", "run", "dog", "cat", "fish", "bird", "tree", "rock", "sun", "moon", "river", "stone", "cloud", "wind", "fire", "snow"];
const q = Number(process.argv[2] || 100000), seconds = Number(process.argv[3] || 10);
const bin = process.env.ORRERY_BIN || "build/orrery";
const server = spawn(bin, ["serve", "--in-memory", "--port", "0", "--no-tls"], { stdio: ["ignore", "pipe", "inherit"] });
const port = await listeningPort(server);
console.log(`pid ${server.pid}`);
const client = new CosmosClient({ endpoint: `http://127.0.0.1:${port}`, key: KEY, connectionPolicy: { enableEndpointDiscovery: false } });
const { database } = await client.databases.create({ id: "ft" });
const { container } = await database.containers.create({ id: "texts", partitionKey: { paths: ["/pk"] },
  fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
  indexingPolicy: { fullTextIndexes: [{ path: "/text" }] } }, { offerThroughput: 100000 });
const next = seededRandom(7);
const docs = Array.from({ length: q }, (_, i) => ({ id: `t${i}`, pk: `p${i % 100}`, text: `${Array.from({ length: 4 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ")} tag${i % 1000}` }));
const tl = performance.now();
for (let i = 0; i < docs.length; i += 64) await Promise.all(docs.slice(i, i + 64).map((d) => container.items.create(d)));
console.log(`loaded in ${Math.round(performance.now() - tl)} ms`);
const lat = []; let charge = 0; let first;
const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  const t0 = performance.now();
  const r = await container.items.query({ query: "SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, @w)", parameters: [{ name: "@w", value: WORDS[Math.floor(next() * WORDS.length)] }] }).fetchAll();
  lat.push(performance.now() - t0); charge = r.requestCharge; first ??= r.resources.map((x) => x.id).join(",");
}
lat.sort((a, b) => a - b);
console.log(JSON.stringify({ n: lat.length, p50: lat[Math.floor(lat.length / 2)], charge, first }));
server.kill();
