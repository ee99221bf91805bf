#!/usr/bin/env node
// Helper for bench/point_ops.sh: master-key signing, start-up timing, database setup
// and preload, and generation of the wrk Lua data files. Plain node:http/net only (no SDK),
// so the client side costs as little as possible.
//
//   node cosmos_bench.mjs free-port
//   node cosmos_bench.mjs startup  --bin B --mode memory|disk --runs 5 [--rss-after-ms 1000]
//   node cosmos_bench.mjs setup    --url U --db D --coll C --items N --size BYTES [--concurrency K]
//                                  [--throughput RU/s]
//   node cosmos_bench.mjs gen-reads --db D --coll C --items N --out FILE.lua
//   node cosmos_bench.mjs sign-create --db D --coll C      (prints: <x-ms-date>\t<authorization>)
//
// Every command prints one JSON object (or one line) on stdout; diagnostics go to stderr.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { itemBody, readId, readPk } from './bench_items.mjs';
import { freePort, memoryKb, request } from './loopback.mjs';
import { sign } from './cosmos_auth.mjs';

export { sign };

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) {
      const k = argv[i].slice(2);
      const v = (i + 1 < argv.length && !argv[i + 1].startsWith('--')) ? argv[++i] : 'true';
      out[k] = v;
    }
  }
  return out;
}

function need(a, k) {
  if (a[k] === undefined) { console.error(`missing --${k}`); process.exit(2); }
  return a[k];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One raw HTTP/1.1 GET / (signed), resolves with the status code or rejects on a socket error.
function rawAccountRead(port) {
  return new Promise((resolve, reject) => {
    const date = new Date().toUTCString();
    const req = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-ms-date: ${date}\r\n` +
      `x-ms-version: 2020-07-15\r\nauthorization: ${sign('GET', '', '', date)}\r\n` +
      'Connection: close\r\n\r\n';
    const sock = net.connect({ host: '127.0.0.1', port });
    let buf = '';
    let done = false;
    const finish = (fn, v) => { if (!done) { done = true; sock.destroy(); fn(v); } };
    sock.setTimeout(2000, () => finish(reject, new Error('timeout')));
    sock.on('connect', () => sock.write(req));
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(buf);
      if (m) finish(resolve, Number(m[1]));
    });
    sock.on('error', (e) => finish(reject, e));
    sock.on('close', () => finish(reject, new Error('closed before a status line')));
  });
}

function waitExit(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => { clearTimeout(t); resolve(true); });
  });
}

// The server being timed, killed if this helper is itself stopped (time limit, Ctrl-C).
let currentChild = null;
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(sig, () => {
    if (currentChild && currentChild.exitCode === null) currentChild.kill('SIGKILL');
    process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 15));
  });
}

async function startupOnce(bin, mode, rssAfterMs) {
  const port = await freePort();
  let dir = null;
  const serveArgs = ['serve', '--port', String(port), '--no-tls'];
  if (mode === 'memory') {
    serveArgs.push('--in-memory');
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orrery-bench-start-'));
    serveArgs.push('--data-dir', dir);
  }
  const extra = (process.env.ORRERY_BENCH_SERVER_ARGS || '').split(/\s+/).filter(Boolean);
  serveArgs.push(...extra);
  const t0 = process.hrtime.bigint();
  const child = spawn(bin, serveArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  currentChild = child;
  let listenMs = null;
  let readyMs = null;  // the server's own "ready in X ms" (measured from the start of main's serve)
  let stderr = '';
  child.stdout.on('data', (d) => {
    const text = d.toString();
    if (listenMs === null && text.includes('listening')) {
      listenMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const m = /ready in ([\d.]+) ms/.exec(text);
      if (m) readyMs = Number(m[1]);
    }
  });
  child.stderr.on('data', (d) => { stderr += d.toString(); });
  let answeredMs = null;
  let status = null;
  let attempts = 0;
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    attempts++;
    try {
      status = await rawAccountRead(port);
      answeredMs = Number(process.hrtime.bigint() - t0) / 1e6;
      break;
    } catch {
      await sleep(1);
    }
  }
  let rss = null;
  if (rssAfterMs > 0 && answeredMs !== null) {
    await sleep(rssAfterMs);
    rss = memoryKb(child.pid).rss;
  }
  child.kill('SIGTERM');
  if (!(await waitExit(child, 5000))) {
    child.kill('SIGKILL');
    await waitExit(child, 2000);
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (answeredMs === null) {
    throw new Error(`server did not answer within 10 s (exit ${child.exitCode}): ${stderr.slice(0, 500)}`);
  }
  return { answeredMs, listenMs, readyMs, status, attempts, rssKb: rss };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

async function cmdStartup(a) {
  const bin = need(a, 'bin');
  const mode = a.mode || 'memory';
  const runs = Number(a.runs || 5);
  const rssAfterMs = Number(a['rss-after-ms'] || 1000);
  const samples = [];
  let idleRssKb = null;
  for (let i = 0; i < runs; i++) {
    // The first run also measures the idle RSS of a freshly started server.
    const r = await startupOnce(bin, mode, i === 0 ? rssAfterMs : 0);
    if (r.status !== 200) throw new Error(`GET / answered ${r.status}, expected 200`);
    if (i === 0) idleRssKb = r.rssKb;
    samples.push(r);
  }
  const answered = samples.map((s) => s.answeredMs);
  const listen = samples.map((s) => s.listenMs).filter((x) => x !== null);
  const ready = samples.map((s) => s.readyMs).filter((x) => x !== null);
  console.log(JSON.stringify({
    mode, runs,
    median_ms: +median(answered).toFixed(1),
    min_ms: +Math.min(...answered).toFixed(1),
    max_ms: +Math.max(...answered).toFixed(1),
    samples_ms: answered.map((x) => +x.toFixed(1)),
    listen_line_median_ms: listen.length ? +median(listen).toFixed(1) : null,
    self_reported_ready_median_ms: ready.length ? +median(ready).toFixed(1) : null,
    idle_rss_kb: idleRssKb,
  }));
}

// ---- setup + preload ----------------------------------------------------------------------

function commonHeaders(date, auth) {
  return {
    'x-ms-date': date,
    'x-ms-version': '2020-07-15',
    authorization: auth,
    accept: 'application/json',
  };
}

async function cmdSetup(a) {
  const url = new URL(need(a, 'url'));
  const port = Number(url.port);
  const db = need(a, 'db');
  const coll = need(a, 'coll');
  const items = Number(a.items || 10000);
  const size = Number(a.size || 1024);
  const concurrency = Number(a.concurrency || 64);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  let date = new Date().toUTCString();
  let r = await request(agent, port, 'POST', '/dbs',
    { ...commonHeaders(date, sign('POST', 'dbs', '', date)), 'content-type': 'application/json' },
    JSON.stringify({ id: db }));
  if (r.status !== 201) throw new Error(`create database: ${r.status} ${r.body.slice(0, 300)}`);
  // --throughput: the container's RU/s (the service's default is 400), for runs with
  // --enforce-throughput that must not be throttled.
  const throughputHeader = a.throughput ? { 'x-ms-offer-throughput': String(a.throughput) } : {};
  r = await request(agent, port, 'POST', `/dbs/${db}/colls`,
    { ...commonHeaders(date, sign('POST', 'colls', `dbs/${db}`, date)),
      'content-type': 'application/json', ...throughputHeader },
    JSON.stringify({ id: coll, partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 } }));
  if (r.status !== 201) throw new Error(`create container: ${r.status} ${r.body.slice(0, 300)}`);

  // Preload: `concurrency` workers over one shared counter, one reused create signature.
  date = new Date().toUTCString();
  const createAuth = sign('POST', 'docs', `dbs/${db}/colls/${coll}`, date);
  const base = { ...commonHeaders(date, createAuth), 'content-type': 'application/json' };
  let next = 0;
  let errors = 0;
  let firstError = null;
  const t0 = process.hrtime.bigint();
  async function worker() {
    while (next < items) {
      const i = next++;
      const body = itemBody(readId(i), readPk(i), i, size);
      const res = await request(agent, port, 'POST', `/dbs/${db}/colls/${coll}/docs`,
        { ...base, 'x-ms-documentdb-partitionkey': `["${readPk(i)}"]` }, body);
      if (res.status !== 201) {
        errors++;
        if (!firstError) firstError = `${res.status} ${res.body.slice(0, 300)}`;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;

  // One sample read, to report the size of what the read benchmark transfers.
  date = new Date().toUTCString();
  const id0 = readId(0);
  r = await request(agent, port, 'GET', `/dbs/${db}/colls/${coll}/docs/${id0}`,
    { ...commonHeaders(date, sign('GET', 'docs', `dbs/${db}/colls/${coll}/docs/${id0}`, date)),
      'x-ms-documentdb-partitionkey': `["${readPk(0)}"]` });
  agent.destroy();
  if (r.status !== 200) throw new Error(`sample read: ${r.status} ${r.body.slice(0, 300)}`);
  const headerBytes = Object.entries(r.headers)
    .reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
  console.log(JSON.stringify({
    items, size, concurrency, errors, first_error: firstError,
    seconds: +seconds.toFixed(3), rate: Math.round(items / seconds),
    read_body_bytes: Buffer.byteLength(r.body), read_header_bytes: headerBytes,
  }));
  if (errors) process.exitCode = 1;
}

// ---- wrk data --------------------------------------------------------------------------------

const luaStr = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function cmdGenReads(a) {
  const db = need(a, 'db');
  const coll = need(a, 'coll');
  const items = Number(a.items || 10000);
  const out = need(a, 'out');
  const date = new Date().toUTCString();
  const lines = [`-- generated by bench/lib/cosmos_bench.mjs gen-reads; x-ms-date ${date}`,
    'return {', `  date = ${luaStr(date)},`, '  reqs = {'];
  for (let i = 0; i < items; i++) {
    const id = readId(i);
    const link = `dbs/${db}/colls/${coll}/docs/${id}`;
    lines.push(`    {${luaStr('/' + link)},${luaStr(sign('GET', 'docs', link, date))},` +
      `${luaStr(`["${readPk(i)}"]`)}},`);
  }
  lines.push('  },', '}', '');
  fs.writeFileSync(out, lines.join('\n'));
  console.log(JSON.stringify({ out, items, date }));
}

// create-container --url --db --coll --policy JSON: a container (partition key /pk) with
// the given indexing policy, in an existing database.
async function cmdCreateContainer(a) {
  const url = new URL(need(a, 'url'));
  const db = need(a, 'db');
  const coll = need(a, 'coll');
  const agent = new http.Agent({ keepAlive: false });
  const date = new Date().toUTCString();
  const r = await request(agent, Number(url.port), 'POST', `/dbs/${db}/colls`,
    { ...commonHeaders(date, sign('POST', 'colls', `dbs/${db}`, date)), 'content-type': 'application/json' },
    JSON.stringify({ id: coll, partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 },
                     indexingPolicy: JSON.parse(need(a, 'policy')) }));
  if (r.status !== 201) throw new Error(`create container: ${r.status} ${r.body.slice(0, 300)}`);
  console.log(JSON.stringify({ created: coll }));
}

function cmdSignCreate(a) {
  const db = need(a, 'db');
  const coll = need(a, 'coll');
  const date = new Date().toUTCString();
  console.log(`${date}\t${sign('POST', 'docs', `dbs/${db}/colls/${coll}`, date)}`);
}

// ---- report ----------------------------------------------------------------------------------

function readText(file) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return null; }
}

function readJson(file) {
  const t = readText(file);
  if (t === null) return null;
  try { return JSON.parse(t.trim().split('\n').pop()); } catch { return null; }
}

// Parses wrk's output: our done() line (BENCH_RESULT k=v ...) plus wrk's own summary lines.
function parseWrk(file) {
  const text = readText(file);
  if (text === null) return null;
  const r = { raw: text };
  const m = /^BENCH_RESULT (.*)$/m.exec(text);
  if (m) {
    for (const kv of m[1].trim().split(/\s+/)) {
      const [k, v] = kv.split('=');
      r[k] = Number(v);
    }
    r.rps = r.duration_us > 0 ? r.requests / (r.duration_us / 1e6) : 0;
  }
  const non2xx = /Non-2xx or 3xx responses:\s*(\d+)/.exec(text);
  r.non2xx_line = non2xx ? Number(non2xx[1]) : 0;
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  r.socket_errors = sock ? sock.slice(1).map(Number).reduce((x, y) => x + y, 0) : 0;
  const wrkRps = /Requests\/sec:\s*([\d.]+)/.exec(text);
  r.wrk_rps = wrkRps ? Number(wrkRps[1]) : null;
  return r;
}

function cmdReport(a) {
  const dir = need(a, 'dir');
  const strict = process.env.ORRERY_BENCH_STRICT === '1';
  const startMem = readJson(path.join(dir, 'startup-memory.json'));
  const startDisk = readJson(path.join(dir, 'startup-disk.json'));
  const setup = readJson(path.join(dir, 'setup.json'));
  const num = (f) => { const t = readText(path.join(dir, f)); return t ? Number(t.trim()) : null; };
  const rssIdle = num('rss-idle.kb');
  const rssAfter = num('rss-after.kb');
  const hwmAfter = num('hwm-after.kb');
  const withCpu = (name) => {
    const r = parseWrk(path.join(dir, `wrk-${name}.txt`));
    const cpu = readJson(path.join(dir, `cpu-${name}.json`));
    if (r && cpu && r.requests > 0) {
      r.server_cpu_us_per_op = cpu.server_cpu_s * 1e6 / r.requests;
      r.server_cores = cpu.server_cpu_s / (r.duration_us / 1e6);
      r.wrk_cores = cpu.wrk_cpu_s / (r.duration_us / 1e6);
    }
    return r;
  };
  const read = withCpu('read');
  const create = withCpu('create');
  const nginx = withCpu('nginx');

  const failures = [];
  const checkWrk = (name, r) => {
    if (!r || r.requests === undefined) { failures.push(`${name}: no wrk result`); return; }
    if (!(r.requests > 0)) failures.push(`${name}: wrk completed 0 requests`);
    const non2xx = Math.max(r.status_errors || 0, r.non2xx_line);
    if (non2xx > 0) {
      failures.push(`${name}: wrk reported ${non2xx} Non-2xx or 3xx responses (of ${r.requests})`);
    }
    if (r.socket_errors > 0) failures.push(`${name}: wrk reported ${r.socket_errors} socket errors`);
  };
  checkWrk('read', read);
  checkWrk('create', create);
  checkWrk('nginx static', nginx);
  if (!setup) failures.push('setup/preload: no result');
  else if (setup.errors) failures.push(`preload: ${setup.errors} creates failed: ${setup.first_error}`);
  if (!startMem) failures.push('start-up (memory): no result');
  if (!startDisk) failures.push('start-up (disk): no result');

  const f0 = (x) => (x === null || x === undefined || Number.isNaN(x)) ? 'n/a' :
    Math.round(x).toLocaleString('en-US');
  const ms = (us) => (us === undefined || us === null) ? 'n/a' : (us / 1000).toFixed(2);
  const mb = (kb) => (kb === null || kb === undefined) ? 'n/a' : (kb / 1024).toFixed(1);
  const ok = (r) => r && r.requests > 0;
  const ratio = ok(read) && ok(nginx) ? read.rps / nginx.rps : null;

  const targets = [];
  const target = (what, value, pass, goal) => targets.push({ what, value, goal,
    verdict: value === null || value === undefined ? 'n/a' : (pass ? 'PASS' : 'MISS') });
  target('read / nginx ops ratio', ratio === null ? null : ratio.toFixed(2), ratio >= 0.6, '>= 0.60');
  target('create ops/s', ok(create) ? f0(create.rps) : null, ok(create) && create.rps >= 10000,
    '>= 10,000');
  target('start-up, in-memory (median ms)', startMem?.median_ms, startMem?.median_ms < 100, '< 100');
  target('start-up, on disk (median ms)', startDisk?.median_ms, startDisk?.median_ms < 100, '< 100');
  target('idle RSS, fresh in-memory (MB)', startMem ? mb(startMem.idle_rss_kb) : null,
    startMem?.idle_rss_kb < 30 * 1024, '< 30');
  target('idle RSS, fresh on disk (MB)', startDisk ? mb(startDisk.idle_rss_kb) : null,
    startDisk?.idle_rss_kb < 30 * 1024, '< 30');
  target(`idle RSS, ${a.storage} server before load (MB)`, rssIdle === null ? null : mb(rssIdle),
    rssIdle < 30 * 1024, '< 30');

  const out = [];
  const line = '-'.repeat(104);
  out.push('', `Orrery point-operation benchmark  (${new Date().toISOString()})`);
  out.push(`  binary:  ${a.bin}`);
  const load = readText(path.join(dir, 'loadavg-start.txt'));
  if (load) out.push(`  host:    load average ${load.trim()} at start (1/5/15 min; anything well above 0 skews results)`);
  out.push(`  server:  ${a.storage === 'memory' ? '--in-memory' : '--data-dir <fresh temp dir>'}` +
    `${process.env.ORRERY_BENCH_SERVER_ARGS ? ' ' + process.env.ORRERY_BENCH_SERVER_ARGS : ''}; wrk ${a.wrk}; ${os.cpus().length} CPUs` +
    ' shared by wrk and the server');
  if (setup) {
    out.push(`  data:    ${setup.items} items of ${setup.size} B preloaded in ${setup.seconds} s ` +
      `(${f0(setup.rate)}/s, node keep-alive x${setup.concurrency}); a read returns ` +
      `${setup.read_body_bytes} B body + ~${setup.read_header_bytes} B headers`);
  }
  out.push(line);
  out.push(`${'benchmark'.padEnd(26)}${'ops/s'.padStart(12)}${'p50 ms'.padStart(10)}` +
    `${'p90 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'non-2xx'.padStart(9)}` +
    `${'srv us/op'.padStart(11)}${'srv/wrk cores'.padStart(15)}`);
  for (const [name, r] of [[`read 1 KB (${a.storage})`, read], [`create 1 KB (${a.storage})`, create],
                           ['nginx static 1 KB', nginx]]) {
    if (!r || r.requests === undefined) { out.push(`${name.padEnd(26)}${'no result'.padStart(12)}`); continue; }
    out.push(`${name.padEnd(26)}${f0(r.rps).padStart(12)}${ms(r.p50_us).padStart(10)}` +
      `${ms(r.p90_us).padStart(10)}${ms(r.p99_us).padStart(10)}` +
      `${String(Math.max(r.status_errors || 0, r.non2xx_line)).padStart(9)}` +
      `${(r.server_cpu_us_per_op === undefined ? 'n/a' : r.server_cpu_us_per_op.toFixed(0)).padStart(11)}` +
      `${(r.server_cores === undefined ? 'n/a' : `${r.server_cores.toFixed(2)} / ${r.wrk_cores.toFixed(2)}`).padStart(15)}`);
  }
  out.push('  srv us/op = server CPU time (user+sys, all threads/workers) per request; cores = CPU seconds / wall seconds');
  out.push(line);
  out.push(`read / nginx ratio           ${ratio === null ? 'n/a' : ratio.toFixed(2)}`);
  const st = (s) => s ? `${s.median_ms} ms median (min ${s.min_ms}, max ${s.max_ms}; ` +
    `samples ${s.samples_ms.join(', ')}; "listening" line at ${s.listen_line_median_ms} ms, of which ` +
    `${s.self_reported_ready_median_ms} ms inside serve)` : 'n/a';
  out.push(`start-up, in-memory          ${st(startMem)}`);
  out.push(`start-up, on disk            ${st(startDisk)}`);
  out.push(`idle RSS, fresh (1 s idle)   in-memory ${mb(startMem?.idle_rss_kb)} MB, ` +
    `on disk ${mb(startDisk?.idle_rss_kb)} MB`);
  out.push(`RSS of the ${a.storage} server     before load ${mb(rssIdle)} MB, ` +
    `1 s after load ${mb(rssAfter)} MB (peak VmHWM ${mb(hwmAfter)} MB)`);
  out.push(line);
  out.push('targets');
  for (const t of targets) {
    out.push(`  ${t.verdict.padEnd(5)} ${t.what.padEnd(44)} ${String(t.value ?? 'n/a').padStart(8)}` +
      `   (target ${t.goal})`);
  }
  out.push(line);
  if (failures.length) {
    out.push('', '!'.repeat(78), '!! BENCHMARK FAILED — results above are not valid:');
    for (const f of failures) out.push(`!!   ${f}`);
    out.push('!'.repeat(78));
  } else {
    out.push('checks: all wrk runs finished with 0 non-2xx responses and 0 socket errors');
  }
  console.log(out.join('\n'));

  const results = {
    when: new Date().toISOString(), bin: a.bin, storage: a.storage, wrk: a.wrk,
    read: read && { rps: read.rps, server_cpu_us_per_op: read.server_cpu_us_per_op, server_cores: read.server_cores, wrk_cores: read.wrk_cores, p50_us: read.p50_us, p90_us: read.p90_us, p99_us: read.p99_us,
                    requests: read.requests, non2xx: read.non2xx_line },
    create: create && { rps: create.rps, server_cpu_us_per_op: create.server_cpu_us_per_op, server_cores: create.server_cores, wrk_cores: create.wrk_cores, p50_us: create.p50_us, p90_us: create.p90_us,
                        p99_us: create.p99_us, requests: create.requests, non2xx: create.non2xx_line },
    nginx: nginx && { rps: nginx.rps, server_cpu_us_per_op: nginx.server_cpu_us_per_op, server_cores: nginx.server_cores, wrk_cores: nginx.wrk_cores, p50_us: nginx.p50_us, p90_us: nginx.p90_us,
                      p99_us: nginx.p99_us, requests: nginx.requests, non2xx: nginx.non2xx_line },
    read_nginx_ratio: ratio, startup_memory: startMem, startup_disk: startDisk, setup,
    rss_kb: { before_load: rssIdle, after_load: rssAfter, peak_after_load: hwmAfter },
    targets, failures,
  };
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  if (failures.length) process.exitCode = 1;
  else if (strict && targets.some((t) => t.verdict === 'MISS')) process.exitCode = 3;
}

const [cmd, ...rest] = process.argv.slice(2);
const a = args(rest);
const commands = {
  'free-port': async () => console.log(await freePort()),
  startup: () => cmdStartup(a),
  setup: () => cmdSetup(a),
  'gen-reads': () => cmdGenReads(a),
  'sign-create': () => cmdSignCreate(a),
  'create-container': () => cmdCreateContainer(a),
  report: () => cmdReport(a),
};
if (!commands[cmd]) {
  console.error(`usage: cosmos_bench.mjs ${Object.keys(commands).join('|')} [--options]`);
  process.exit(2);
}
try {
  await commands[cmd]();
} catch (e) {
  console.error(`cosmos_bench ${cmd}: ${e.message}`);
  process.exit(1);
}
