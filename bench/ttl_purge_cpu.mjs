// What the background TTL purge costs while items expire: loads ITEMS small items into
// a container with defaultTtl 1 day, of which EXPIRING_PERCENT per minute expire during
// a measured window of WINDOW seconds (their own ttl is staggered evenly over it), and
// reports the server's CPU seconds over the window (utime + stime from
// /proc/<pid>/stat; no request runs meanwhile, so that is the purge, plus whatever
// RocksDB does in the background) and how many of the expiring items were purged by
// its end. A purge that scans the container pays for every item; one that reads an
// index of expiry times pays for what expires.
//
//   node bench/ttl_purge_cpu.mjs [--items 1000000] [--window 180] [--percent-per-minute 1]
//   ORRERY_BIN=/work/main/build/orrery node bench/ttl_purge_cpu.mjs ...   # another binary

import fs from "node:fs";
import { startServer } from "../tests/e2e/lib/server.mjs";
import { sdkClient, restClient } from "../tests/e2e/lib/util.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return Number(i >= 0 ? process.argv[i + 1] : fallback);
};
const items = arg("--items", 1000000);
const windowSeconds = arg("--window", 180);
const percentPerMinute = arg("--percent-per-minute", 1);
const expiring = Math.round((items * percentPerMinute * windowSeconds) / 60 / 100);
const settleSeconds = 20; // between the load and the window: the last flushes settle
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const server = await startServer({ inMemory: false, timeoutMs: 60_000 });
const client = sdkClient(server);
const rest = restClient(server);
const limit = setTimeout(() => {
  console.error("ttl_purge_cpu: FAILED: time limit of 20 minutes reached");
  server.proc.kill("SIGKILL");
  process.exit(124);
}, 20 * 60 * 1000);

const cpuSeconds = () => {
  const fields = fs.readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks of 10 ms
};
const itemCount = async () => {
  const res = await rest.request("GET", ["_orrery", "dbs", "ttl", "colls", "c", "stats"]);
  return res.body.itemCount;
};

// Creates `count` items with bulk requests, several in flight; `make(i)` is the item.
async function load(container, count, make) {
  const perRequest = 100;
  const inFlight = 8;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const start = next;
      next = Math.min(count, next + perRequest);
      const operations = [];
      for (let i = start; i < next; i++) operations.push({ operationType: "Create", resourceBody: make(i) });
      const results = await container.items.bulk(operations, { continueOnError: true });
      const failed = results.filter((r) => r.statusCode >= 400);
      if (failed.length) throw new Error(`bulk create: ${failed.length} failed, e.g. status ${failed[0].statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

try {
  const { database } = await client.databases.create({ id: "ttl" });
  // 10,000 RU/s: one physical partition; the purge deletes on spare throughput.
  const { container } = await database.containers.create(
    { id: "c", partitionKey: { paths: ["/pk"], version: 2 }, defaultTtl: 86400 },
    { offerThroughput: 10000 },
  );
  const loadStarted = Date.now();
  await load(container, items - expiring, (i) => ({ id: `k${i}`, pk: `p${i % 1000}`, n: i }));
  const loadedAt = Date.now();
  // The expiring ones last, so their clocks start together: the first expires as the
  // window opens, the last as it closes.
  const windowOpens = loadedAt + 60 * 1000; // a bound on the expiring items' load
  await load(container, expiring, (k) => {
    const expiresAt = windowOpens + ((k + 0.5) * windowSeconds * 1000) / expiring;
    return { id: `e${k}`, pk: `p${k % 1000}`, n: k, ttl: Math.max(1, Math.ceil((expiresAt - Date.now()) / 1000)) };
  });
  console.log(`ttl_purge_cpu: loaded ${items} items (${expiring} expiring) in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`);
  // The expiring items were given ttls counted from their creation, so the window
  // opens at a fixed time; the settle time before it is what the load left over.
  const restBefore = await (async () => {
    const wait = windowOpens - Date.now() - settleSeconds * 1000;
    if (wait > 0) await sleep(wait);
    const c0 = cpuSeconds();
    await sleep(settleSeconds * 1000);
    return cpuSeconds() - c0;
  })();
  const before = cpuSeconds();
  const countBefore = await itemCount();
  await sleep(Math.max(0, windowOpens + windowSeconds * 1000 - Date.now()));
  const used = cpuSeconds() - before;
  const countAfter = await itemCount();
  console.log(
    `ttl_purge_cpu: ${process.env.ORRERY_BIN ?? "build/orrery"}: ${items} items, ${expiring} expiring over ${windowSeconds} s ` +
      `(${percentPerMinute}%/min): server CPU ${used.toFixed(2)} s in the window (${((100 * used) / windowSeconds).toFixed(1)}% of a core); ` +
      `${countBefore - countAfter} items purged in it, ${countAfter - (items - expiring)} expiring items left; ` +
      `CPU in the ${settleSeconds} s before the window (no item due yet): ${restBefore.toFixed(2)} s`,
  );
} finally {
  clearTimeout(limit);
  client.dispose();
  await server.stop();
}
