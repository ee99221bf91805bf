#!/usr/bin/env node
// Query benchmark over HTTP: starts `orrery serve --in-memory --no-tls
// --initial-partitions 8`, loads ITEMS items of ~1 KB with plain signed creates, then
// runs each query of the query issue RUNS times (server-side execution, one request
// per query, as curl or the explorer sends them) and reports the round trip and the
// server's own time and counts from x-ms-documentdb-query-metrics:
//   - a filter on a non-indexed path (a full scan): items scanned per second;
//   - an indexed equality query returning 10 items;
//   - cross-partition ORDER BY c.ts DESC TOP 10 over 8 partitions.
//
//   node bench/query_http.mjs                     # 1,000,000 items (a few minutes)
//   ORRERY_BENCH_ITEMS=100000 node bench/query_http.mjs
//   ORRERY_BIN=build-bench/orrery node bench/query_http.mjs
//
// Prints one JSON object. Loopback only; the run is cut off after 20 minutes.

import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sign } from './lib/cosmos_auth.mjs';
import { request as loopbackRequest } from './lib/loopback.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.ORRERY_BIN || path.join(here, '..', 'build', 'orrery');
const ITEMS = Number(process.env.ORRERY_BENCH_ITEMS || 1_000_000);
const RUNS = Number(process.env.ORRERY_BENCH_RUNS || 20);
const CONCURRENCY = 64;
const DB = 'bench';
const COLL = 'items';
const deadline = setTimeout(() => {
  console.error('query_http: time limit reached');
  process.exit(1);
}, 20 * 60 * 1000);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const request = (...args) => loopbackRequest(agent, ...args);


function headersFor(verb, type, link) {
  const date = new Date().toUTCString();
  return { 'x-ms-date': date, 'x-ms-version': '2020-07-15', authorization: sign(verb, type, link, date) };
}

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['serve', '--port', '0', '--in-memory', '--no-tls', '--initial-partitions', '8', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)\//.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`orrery exited with ${code}: ${out}`)));
  });
}

const item = (i, payload) => `{"id":"item${i}","pk":"pk${i % 5000}","ts":${1700000000 + i},"k":${i % (ITEMS / 10)},` +
  `"name":"name${i % 977}","active":${i % 3 === 0},"payload":"${payload}","x":${i}}`;

async function load(port) {
  let r = await request(port, 'POST', '/dbs', { ...headersFor('POST', 'dbs', ''), 'content-type': 'application/json' }, JSON.stringify({ id: DB }));
  if (r.status !== 201) throw new Error(`create database: ${r.status} ${r.body}`);
  // `x` is not indexed: the scan query's path.
  const container = {
    id: COLL,
    partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 },
    indexingPolicy: { indexingMode: 'consistent', includedPaths: [{ path: '/*' }], excludedPaths: [{ path: '/x/?' }, { path: '/payload/?' }, { path: '/"_etag"/?' }] },
  };
  r = await request(port, 'POST', `/dbs/${DB}/colls`, { ...headersFor('POST', 'colls', `dbs/${DB}`), 'content-type': 'application/json' }, JSON.stringify(container));
  if (r.status !== 201) throw new Error(`create container: ${r.status} ${r.body}`);
  const payload = 'p'.repeat(880);
  let next = 0;
  let headers = { ...headersFor('POST', 'docs', `dbs/${DB}/colls/${COLL}`), 'content-type': 'application/json' };
  const resign = setInterval(() => { headers = { ...headersFor('POST', 'docs', `dbs/${DB}/colls/${COLL}`), 'content-type': 'application/json' }; }, 60_000);
  const t0 = process.hrtime.bigint();
  async function worker() {
    while (next < ITEMS) {
      const i = next++;
      const res = await request(port, 'POST', `/dbs/${DB}/colls/${COLL}/docs`, { ...headers, 'x-ms-documentdb-partitionkey': `["pk${i % 5000}"]` }, item(i, payload));
      if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${res.body.slice(0, 200)}`);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(resign);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function metricsOf(header) {
  const out = {};
  for (const part of String(header || '').split(';')) {
    const [k, v] = part.split('=');
    if (k) out[k] = Number(v);
  }
  return out;
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function measure(port, name, text, expectRows) {
  const round = [];
  const server = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    const headers = {
      ...headersFor('POST', 'docs', `dbs/${DB}/colls/${COLL}`),
      'content-type': 'application/query+json',
      'x-ms-documentdb-isquery': 'true',
      'x-ms-documentdb-query-enablecrosspartition': 'true',
      'x-ms-documentdb-populatequerymetrics': 'true',
      'x-ms-max-item-count': '1000',
    };
    const t0 = process.hrtime.bigint();
    const res = await request(port, 'POST', `/dbs/${DB}/colls/${COLL}/docs`, headers, JSON.stringify({ query: text }));
    round.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.body.slice(0, 300)}`);
    const rows = JSON.parse(res.body).Documents.length;
    if (rows !== expectRows) throw new Error(`${name}: ${rows} rows, expected ${expectRows}`);
    last = { metrics: metricsOf(res.headers['x-ms-documentdb-query-metrics']), charge: Number(res.headers['x-ms-request-charge']) };
    server.push(last.metrics.totalExecutionTimeInMs);
  }
  const serverMedian = percentile(server, 0.5);
  return {
    query: text,
    round_trip_ms: { p50: +percentile(round, 0.5).toFixed(3), p99: +percentile(round, 0.99).toFixed(3) },
    server_ms: { p50: +serverMedian.toFixed(3), min: +Math.min(...server).toFixed(3) },
    retrieved_documents: last.metrics.retrievedDocumentCount,
    output_documents: last.metrics.outputDocumentCount,
    request_charge: last.charge,
    items_per_s_server: Math.round(last.metrics.retrievedDocumentCount / (serverMedian / 1000)),
  };
}

const { child, port } = await startServer();
try {
  const loadSeconds = await load(port);
  const results = {
    items: ITEMS,
    partitions: 8,
    load: { seconds: +loadSeconds.toFixed(1), creates_per_s: Math.round(ITEMS / loadSeconds) },
    scan_non_indexed: await measure(port, 'scan', 'SELECT VALUE c.id FROM c WHERE c.x = -1', 0),
    indexed_equality_10: await measure(port, 'equality', `SELECT * FROM c WHERE c.k = ${ITEMS / 20}`, 10),
    order_by_ts_desc_top_10: await measure(port, 'order by', 'SELECT TOP 10 * FROM c ORDER BY c.ts DESC', 10),
  };
  console.log(JSON.stringify(results, null, 2));
} finally {
  child.kill('SIGTERM');
  agent.destroy();
  clearTimeout(deadline);
}
