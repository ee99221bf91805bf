#!/usr/bin/env node
// Orrery against the peer people use today, @vercel/cosmosdb-server (an in-memory Node
// implementation), in one run on loopback: identical workloads, driven by the same wrk
// scripts with the same 64 connections, against each server in turn.
//
//   node bench/compare/compare.mjs              # or: make bench-compare
//   ORRERY_BIN=build-bench/orrery node bench/compare/compare.mjs --storage memory
//
// Options (all optional):
//   --storage disk|memory   Orrery's storage (default disk: RocksDB with its WAL, a fresh dir)
//   --duration S            measured seconds per point workload (default 10)
//   --query-duration S      measured seconds per query workload (default 30: the peer scans
//                           every item for each query, so 64 queued queries take many seconds)
//   --warmup S              un-measured seconds before each workload (default 2)
//   --connections N         wrk connections (default 64); --threads N wrk threads (default 2)
//   --items N               1 KB items preloaded for reads and upserts (default 10000)
//   --tenants N             logical partitions of 10 items each for the queries (default 200)
//   --startup-runs N        start-ups timed per server (default 5)
//   --out FILE              also write the results as JSON to FILE
// ORRERY_BENCH_STRICT=1 makes a missed target exit 3. A failed request (non-2xx or a socket
// error) in any measured run exits 1. The whole run stops after 20 minutes.
//
// Workloads, in this order for both servers (creates last, so that they do not grow the data
// the queries run over): point read, upsert (replacing preloaded items), single-partition
// query (the 10 items of one tenant), cross-partition ORDER BY (TOP 10 by a number, from a
// random lower bound, over every partition key), point create.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { itemBody, readId, readPk } from '../lib/bench_items.mjs';
import { sign } from '../lib/cosmos_auth.mjs';
import { freePort, memoryKb, request } from '../lib/loopback.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const LUA = path.join(ROOT, 'bench', 'lua');
const DB = 'benchdb';
const COLL = 'items';
const ITEM_SIZE = 1024;
const ITEMS_PER_TENANT = 10;

const opts = parseArgs(process.argv.slice(2));
const STORAGE = opts.storage || 'disk';
const DURATION = Number(opts.duration || 10);
const QUERY_DURATION = Number(opts['query-duration'] || 30);
const WARMUP = Number(opts.warmup ?? 2);
const CONNECTIONS = Number(opts.connections || 64);
const THREADS = Number(opts.threads || 2);
const ITEMS = Number(opts.items || 10000);
const TENANTS = Number(opts.tenants || 200);
const STARTUP_RUNS = Number(opts['startup-runs'] || 5);
const ORRERY_BIN = process.env.ORRERY_BIN || path.join(ROOT, 'build', 'orrery');

const WORKLOADS = [
  { key: 'read', label: 'point read', point: true },
  { key: 'upsert', label: 'point upsert', point: true },
  { key: 'query_single', label: 'single-partition query (10 items)', query: true },
  { key: 'query_cross', label: 'cross-partition ORDER BY, TOP 10', query: true, cross: true },
  { key: 'create', label: 'point create', point: true },
];

const children = new Set();
function killAll() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { killAll(); process.exit(130); });
const deadline = setTimeout(() => {
  console.error('compare: FAILED: time limit of 20 minutes reached');
  killAll();
  process.exit(124);
}, 20 * 60 * 1000);

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const next = argv[i + 1];
    out[argv[i].slice(2)] = next !== undefined && !next.startsWith('--') ? argv[++i] : 'true';
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => console.error(`[compare ${new Date().toISOString().slice(11, 19)}] ${msg}`);

// ---- the two servers ------------------------------------------------------------------------

function ensurePeerInstalled() {
  const marker = path.join(HERE, 'node_modules', '@vercel', 'cosmosdb-server', 'package.json');
  if (fs.existsSync(marker)) return;
  log('installing @vercel/cosmosdb-server (npm ci in bench/compare)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm ci in bench/compare failed');
}

const SERVERS = {
  orrery: {
    label: `Orrery (${STORAGE === 'memory' ? '--in-memory' : 'on disk, WAL'})`,
    command(port) {
      const args = ['serve', '--port', String(port), '--no-tls', '--log-level', 'warn'];
      let dir = null;
      if (STORAGE === 'memory') {
        args.push('--in-memory');
      } else {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orrery-compare-'));
        args.push('--data-dir', dir);
      }
      return { bin: ORRERY_BIN, args, cleanup: () => dir && fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  peer: {
    label: '@vercel/cosmosdb-server 1.0.1',
    command(port) {
      return { bin: process.execPath, args: [path.join(HERE, 'peer_server.mjs'), String(port)], cleanup: () => {} };
    },
  },
};

// One signed GET / on a fresh connection; resolves with the status code.
function accountRead(port, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const date = new Date().toUTCString();
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: timeoutMs,
      headers: { 'x-ms-date': date, 'x-ms-version': '2020-07-15', authorization: sign('GET', '', '', date) } },
    (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

// Spawns a server and waits until it answers GET / with 200; the time is from the spawn.
async function startServer(name) {
  const port = await freePort();
  const cmd = SERVERS[name].command(port);
  const t0 = process.hrtime.bigint();
  const child = spawn(cmd.bin, cmd.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const until = Date.now() + 15000;
  while (Date.now() < until && child.exitCode === null) {
    try {
      const status = await accountRead(port);
      if (status !== 200) throw new Error(`GET / answered ${status}`);
      const readyMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const stop = async () => {
        child.kill('SIGTERM');
        const exited = await Promise.race([new Promise((r) => child.once('exit', r)), sleep(5000)]);
        if (exited === undefined && child.exitCode === null) child.kill('SIGKILL');
        children.delete(child);
        cmd.cleanup();
      };
      return { port, pid: child.pid, readyMs, stop };
    } catch {
      await sleep(1);
    }
  }
  child.kill('SIGKILL');
  cmd.cleanup();
  throw new Error(`${name} did not answer within 15 s: ${stderr.slice(0, 400)}`);
}

async function measureStartup(name) {
  const samples = [];
  let idleKb = null;
  for (let i = 0; i < STARTUP_RUNS; i++) {
    const s = await startServer(name);
    samples.push(s.readyMs);
    if (i === 0) {
      await sleep(1000);
      idleKb = memoryKb(s.pid).rss;
    }
    await s.stop();
  }
  samples.sort((x, y) => x - y);
  return { median_ms: samples[Math.floor(samples.length / 2)], samples_ms: samples, idle_rss_kb: idleKb };
}

// ---- data -----------------------------------------------------------------------------------

function signedHeaders(verb, type, link) {
  const date = new Date().toUTCString();
  return { 'x-ms-date': date, 'x-ms-version': '2020-07-15', authorization: sign(verb, type, link, date),
    'content-type': 'application/json', accept: 'application/json' };
}

const queryId = (t, k) => `q${String(t).padStart(3, '0')}-${String(k).padStart(2, '0')}`;
const queryPk = (t) => `q${String(t).padStart(3, '0')}`;

// The database, the container (partition key /pk) and every preloaded item: ITEMS point items
// (n = 0..ITEMS-1, one partition key each) and TENANTS × 10 query items (n continues).
async function preload(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let r = await request(agent, port, 'POST', '/dbs', signedHeaders('POST', 'dbs', ''), JSON.stringify({ id: DB }));
  if (r.status !== 201) throw new Error(`create database: ${r.status} ${r.body.slice(0, 300)}`);
  r = await request(agent, port, 'POST', `/dbs/${DB}/colls`, signedHeaders('POST', 'colls', `dbs/${DB}`),
    JSON.stringify({ id: COLL, partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 } }));
  if (r.status !== 201) throw new Error(`create container: ${r.status} ${r.body.slice(0, 300)}`);
  const docs = [];
  for (let i = 0; i < ITEMS; i++) docs.push([readPk(i), itemBody(readId(i), readPk(i), i, ITEM_SIZE)]);
  for (let t = 0; t < TENANTS; t++) {
    for (let k = 0; k < ITEMS_PER_TENANT; k++) {
      docs.push([queryPk(t), itemBody(queryId(t, k), queryPk(t), ITEMS + t * ITEMS_PER_TENANT + k, ITEM_SIZE)]);
    }
  }
  const headers = signedHeaders('POST', 'docs', `dbs/${DB}/colls/${COLL}`);
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const [pk, body] = docs[next++];
      const res = await request(agent, port, 'POST', `/dbs/${DB}/colls/${COLL}/docs`,
        { ...headers, 'x-ms-documentdb-partitionkey': JSON.stringify([pk]) }, body);
      if (res.status !== 201) throw new Error(`preload: ${res.status} ${res.body.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  agent.destroy();
  return docs.length;
}

const luaStr = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

// The read script's data: a signature per item (it covers the item's link).
function writeReadData(file) {
  const date = new Date().toUTCString();
  const lines = ['return {', `  date = ${luaStr(date)},`, '  reqs = {'];
  for (let i = 0; i < ITEMS; i++) {
    const link = `dbs/${DB}/colls/${COLL}/docs/${readId(i)}`;
    lines.push(`    {${luaStr('/' + link)},${luaStr(sign('GET', 'docs', link, date))},${luaStr(`["${readPk(i)}"]`)}},`);
  }
  lines.push('  },', '}', '');
  fs.writeFileSync(file, lines.join('\n'));
}

// ---- wrk ------------------------------------------------------------------------------------

function wrkArgs(workload, workDir, phase) {
  const date = new Date().toUTCString();
  const auth = sign('POST', 'docs', `dbs/${DB}/colls/${COLL}`, date);
  switch (workload) {
    case 'read': return ['read.lua', path.join(workDir, 'reads.lua')];
    case 'upsert': return ['upsert.lua', DB, COLL, date, auth, String(ITEMS), String(ITEM_SIZE)];
    case 'query_single': return ['query.lua', DB, COLL, date, auth, 'single', String(TENANTS), '0'];
    case 'query_cross':
      return ['query.lua', DB, COLL, date, auth, 'cross', '0', String(ITEMS + TENANTS * ITEMS_PER_TENANT - 10)];
    case 'create': return ['create.lua', DB, COLL, date, auth, `c${phase}${Date.now()}`, String(ITEM_SIZE)];
    default: throw new Error(workload);
  }
}

function runWrk(port, workload, workDir, seconds, phase) {
  const [script, ...scriptArgs] = wrkArgs(workload, workDir, phase);
  return spawnWrk(workload, `http://127.0.0.1:${port}`, script, scriptArgs, seconds, phase);
}

// A slow answer is measured, not dropped: wrk's own timeout (2 s) would count it as an error.
function spawnWrk(workload, url, script, scriptArgs, seconds, phase) {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '30s', '--latency',
    '-s', path.join(LUA, script), url, '--', ...scriptArgs];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BENCH_WRK_PHASE: phase } });
    children.add(child);
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 90) * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      const m = /^BENCH_RESULT (.*)$/m.exec(out);
      if (code !== 0 || !m) return reject(new Error(`wrk ${workload} failed (exit ${code}): ${out.slice(-400)}`));
      const r = Object.fromEntries(m[1].trim().split(/\s+/).map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
      r.ops_per_s = r.requests / (r.duration_us / 1e6);
      // A request still unanswered after 30 s is reported as a timeout, not as a failure.
      r.failed = r.status_errors + r.connect_errors + r.read_errors + r.write_errors;
      resolve(r);
    });
  });
}

// When wrk stops, a server may still hold requests it accepted (the peer answers one query at
// a time): wait until it answers GET / promptly, so that no run measures the last one's queue.
async function drain(port) {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const t0 = Date.now();
    try {
      await accountRead(port, 60_000);
      if (Date.now() - t0 < 100) return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('the server did not become idle within 180 s');
}

async function measureWorkloads(name) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `compare-${name}-`));
  const server = await startServer(name);
  try {
    const t0 = Date.now();
    const count = await preload(server.port);
    const memory = { idle: null, preloaded: memoryKb(server.pid) };
    log(`${name}: preloaded ${count} items in ${((Date.now() - t0) / 1000).toFixed(1)} s, ` +
      `RSS ${(memory.preloaded.rss / 1024).toFixed(0)} MB`);
    writeReadData(path.join(workDir, 'reads.lua'));
    const results = {};
    for (const w of WORKLOADS) {
      if (WARMUP > 0) {
        await runWrk(server.port, w.key, workDir, WARMUP, 'warmup');
        await drain(server.port);
      }
      const r = await runWrk(server.port, w.key, workDir, w.query ? QUERY_DURATION : DURATION, 'measure');
      r.memory_kb = memoryKb(server.pid);
      await drain(server.port);
      results[w.key] = r;
      log(`${name} ${w.key}: ${Math.round(r.ops_per_s)} ops/s, p50 ${(r.p50_us / 1000).toFixed(2)} ms, ` +
        `p99 ${(r.p99_us / 1000).toFixed(2)} ms, RSS ${(r.memory_kb.rss / 1024).toFixed(0)} MB` +
        (r.timeouts ? `, ${r.timeouts} unanswered after 30 s` : '') +
        (r.failed ? `, ${r.failed} FAILED requests` : ''));
    }
    return { workloads: results, memory };
  } finally {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

// The ceiling of this machine for a 1 KB answer over HTTP/1.1 with this client: nginx
// serving a static file, under the same wrk settings, tuned for a small file (read into
// the response, kept open; lib/nginx.sh). Skipped when nginx is not installed.
async function measureNginx() {
  if (spawnSync('nginx', ['-v']).error) return null;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-nginx-'));
  // Prepared and configured by lib/nginx.sh, as every nginx yardstick in bench/ is (the
  // 1 KB file, a free port, the tuned baseline); it prints the port.
  const dir = path.join(work, 'nginx');
  const setup = spawnSync('sh', ['-c', '. "$0" && nginx_prepare "$1" && nginx_conf "$NGX/nginx.conf" ' +
    '"$NGINX_TUNED" && echo "$NGX_PORT"', path.join(HERE, '..', 'lib', 'nginx.sh'), dir],
  { env: { ...process.env, HERE: path.join(HERE, '..') }, encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`lib/nginx.sh did not prepare nginx: ${setup.stderr}`);
  const port = Number(setup.stdout.trim());
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    { stdio: 'ignore' });
  children.add(child);
  try {
    const until = Date.now() + 5000;
    for (;;) {
      const ok = await new Promise((resolve) => {
        http.get({ host: '127.0.0.1', port, path: '/1k.txt', agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        }).on('error', () => resolve(false));
      });
      if (ok) break;
      if (Date.now() > until) throw new Error('nginx did not answer within 5 s');
      await sleep(20);
    }
    const url = `http://127.0.0.1:${port}/1k.txt`;
    if (WARMUP > 0) await spawnWrk('nginx', url, 'static.lua', [], WARMUP, 'warmup');
    return await spawnWrk('nginx', url, 'static.lua', [], DURATION, 'measure');
  } finally {
    child.kill('SIGKILL');
    children.delete(child);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---- report ---------------------------------------------------------------------------------

const ms = (us) => (us / 1000).toFixed(2);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const num = (x) => Math.round(x).toLocaleString('en-US');

function report(res) {
  const o = res.orrery;
  const p = res.peer;
  const lines = [];
  lines.push(`${WORKLOADS.length} workloads, 1 KB items, wrk -t${THREADS} -c${CONNECTIONS}, ${DURATION} s per point ` +
    `workload and ${QUERY_DURATION} s per query workload after ${WARMUP} s of warm-up, loopback, ` +
    `${os.cpus().length} cores shared by client and server.`);
  lines.push(`Orrery: ${SERVERS.orrery.label}. Peer: ${SERVERS.peer.label} (Node ${process.version}, keep-alive).`);
  lines.push('');
  lines.push('| workload | Orrery ops/s | p50 ms | p99 ms | peer ops/s | p50 ms | p99 ms | ops/s ratio |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|');
  for (const w of WORKLOADS) {
    const a = o.workloads[w.key];
    const b = p.workloads[w.key];
    const ratio = b.ops_per_s > 0 ? `${(a.ops_per_s / b.ops_per_s).toFixed(1)}×` : 'peer answered none';
    const late = (r) => (r.timeouts ? ` (${num(r.timeouts)} unanswered after 30 s)` : '');
    lines.push(`| ${w.label} | ${num(a.ops_per_s)}${late(a)} | ${ms(a.p50_us)} | ${ms(a.p99_us)} | ` +
      `${b.ops_per_s >= 100 ? num(b.ops_per_s) : b.ops_per_s.toFixed(1)}${late(b)} | ${ms(b.p50_us)} | ` +
      `${ms(b.p99_us)} | ${ratio} |`);
  }
  if (res.nginx) {
    lines.push(`| *ceiling: nginx, static 1 KB GET* | *${num(res.nginx.ops_per_s)}* | *${ms(res.nginx.p50_us)}* | ` +
      `*${ms(res.nginx.p99_us)}* | | | | |`);
  }
  lines.push('');
  lines.push('| | Orrery | peer |');
  lines.push('|---|--:|--:|');
  lines.push(`| start-up to first answer, median of ${STARTUP_RUNS} | ${o.startup.median_ms.toFixed(1)} ms | ` +
    `${p.startup.median_ms.toFixed(1)} ms |`);
  lines.push(`| RSS idle | ${mb(o.startup.idle_rss_kb)} | ${mb(p.startup.idle_rss_kb)} |`);
  lines.push(`| RSS after preload (${num(ITEMS + TENANTS * ITEMS_PER_TENANT)} items) | ${mb(o.memory.preloaded.rss)} | ` +
    `${mb(p.memory.preloaded.rss)} |`);
  for (const w of WORKLOADS) {
    lines.push(`| RSS after ${w.label} | ${mb(o.workloads[w.key].memory_kb.rss)} | ${mb(p.workloads[w.key].memory_kb.rss)} |`);
  }
  const last = WORKLOADS[WORKLOADS.length - 1].key;
  lines.push(`| peak RSS (VmHWM) | ${mb(o.workloads[last].memory_kb.peak)} | ${mb(p.workloads[last].memory_kb.peak)} |`);
  return lines.join('\n');
}

function targets(res) {
  const o = res.orrery;
  const p = res.peer;
  const out = [];
  const check = (name, ok, detail) => out.push({ name, verdict: ok ? 'MET' : 'MISS', detail });
  for (const w of WORKLOADS) {
    const ratio = o.workloads[w.key].ops_per_s / p.workloads[w.key].ops_per_s;
    if (w.point) check(`${w.label} >= 10x peer`, ratio >= 10, `${ratio.toFixed(1)}x`);
    if (w.cross) check(`${w.label} >= 20x peer`, ratio >= 20, `${ratio.toFixed(1)}x`);
    // A peer that answered nothing in the run has a median beyond the run's length.
    const peerP50 = p.workloads[w.key].requests ? p.workloads[w.key].p50_us : Infinity;
    check(`${w.label}: Orrery p99 < peer p50`, o.workloads[w.key].p99_us < peerP50,
      `${ms(o.workloads[w.key].p99_us)} ms vs ${ms(peerP50)} ms`);
  }
  check('start-up < 100 ms', o.startup.median_ms < 100, `${o.startup.median_ms.toFixed(1)} ms`);
  const rss = (r) => [r.startup.idle_rss_kb, r.memory.preloaded.rss, ...WORKLOADS.map((w) => r.workloads[w.key].memory_kb.rss)];
  const ours = rss(o);
  const theirs = rss(p);
  check('RSS under the peer\'s at every load', ours.every((x, i) => x < theirs[i]),
    ours.map((x, i) => `${mb(x)}/${mb(theirs[i])}`).join(', '));
  return out;
}

async function main() {
  if (!fs.existsSync(ORRERY_BIN)) throw new Error(`${ORRERY_BIN} not found (make build, or set ORRERY_BIN)`);
  if (spawnSync('wrk', ['--version']).error) throw new Error("'wrk' is not installed (make bench-deps)");
  ensurePeerInstalled();
  const res = {};
  for (const name of ['orrery', 'peer']) {
    log(`${name}: timing ${STARTUP_RUNS} start-ups`);
    const startup = await measureStartup(name);
    log(`${name}: start-up median ${startup.median_ms.toFixed(1)} ms, idle RSS ${mb(startup.idle_rss_kb)}`);
    res[name] = { startup, ...(await measureWorkloads(name)) };
  }
  log('nginx: the machine\'s ceiling for a 1 KB answer');
  res.nginx = await measureNginx();
  const table = report(res);
  const verdicts = targets(res);
  console.log(table);
  console.log('');
  console.log('Targets:');
  for (const t of verdicts) console.log(`  ${t.verdict}  ${t.name} (${t.detail})`);
  const failed = WORKLOADS.flatMap((w) => ['orrery', 'peer'].filter((n) => res[n].workloads[w.key].failed)
    .map((n) => `${n} ${w.key}: ${res[n].workloads[w.key].failed} failed requests`));
  for (const f of failed) console.log(`FAILED: ${f}`);
  if (opts.out) {
    fs.writeFileSync(opts.out, JSON.stringify({ settings: { STORAGE, DURATION, WARMUP, CONNECTIONS, THREADS,
      ITEMS, TENANTS, STARTUP_RUNS }, results: res, targets: verdicts }, null, 2));
  }
  if (failed.length) process.exitCode = 1;
  else if (process.env.ORRERY_BENCH_STRICT === '1' && verdicts.some((t) => t.verdict === 'MISS')) process.exitCode = 3;
}

try {
  await main();
} catch (e) {
  console.error(`compare: FAILED: ${e.message}`);
  killAll();
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
}
