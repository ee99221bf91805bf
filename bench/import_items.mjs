#!/usr/bin/env node
// `orrery import` of N items of ~1 KB (default 1,000,000) into an in-memory server
// (issue 18): writes them as JSON lines to a temporary file, starts `orrery serve
// --in-memory --no-tls`, creates a container of 1,000,000 RU/s (keys /pk, one per item),
// runs the import under /usr/bin/time, and prints one JSON line: items/s, the CLI's and
// the server's peak RSS, the import's RU. Loopback only; bounded by the N given.
//
//   node bench/import_items.mjs [N] [--bin path/to/orrery]

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listeningPort } from "./lib/server_port.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let bin = process.env.ORRERY_BIN ?? path.join(here, "..", "build", "orrery");
let n = 1_000_000;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--bin") bin = args[++i];
  else n = Number(args[i]);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-import-bench-"));
const file = path.join(dir, "items.jsonl");
const out = fs.openSync(file, "w");
const pad = "x".repeat(960);
for (let i = 0; i < n; i += 10000) {
  let chunk = "";
  for (let j = i; j < Math.min(n, i + 10000); j++) chunk += JSON.stringify({ id: `i${j}`, pk: `p${j}`, n: j, pad }) + "\n";
  fs.writeSync(out, chunk);
}
fs.closeSync(out);

const server = spawn(bin, ["serve", "--port", "0", "--in-memory", "--no-tls"], { stdio: ["ignore", "pipe", "inherit"] });
try {
  const port = await listeningPort(server, bin);
  const endpoint = `http://127.0.0.1:${port}`;
  const sql = (...a) => {
    const r = spawnSync(bin, ["sql", ...a, "--endpoint", endpoint], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
  };
  sql("database", "create", "-n", "bench");
  sql("container", "create", "-d", "bench", "-n", "items", "-p", "/pk", "--throughput", "1000000");
  const started = performance.now();
  const r = spawnSync("/usr/bin/time", ["-v", bin, "import", "-d", "bench", "-c", "items", "-f", file, "--endpoint", endpoint], { encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0);
  const ru = Number(/, ([\d.]+) RU/.exec(r.stderr)?.[1] ?? 0);
  const serverRss = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0);
  console.log(JSON.stringify({
    items: n,
    file_mb: Math.round(fs.statSync(file).size / 1e6),
    seconds: Math.round(seconds * 10) / 10,
    items_per_s: Math.round(n / seconds),
    cli_peak_rss_mb: Math.round(rss / 1024),
    server_peak_rss_mb: Math.round(serverRss / 1024),
    ru: Math.round(ru),
  }));
} finally {
  server.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
}
