#!/usr/bin/env node
// Server-side JavaScript (issue 48), as ratios in one run against one in-memory server,
// driven by @azure/cosmos over loopback:
//   1. a stored procedure that reads one item and returns it, against a point read of
//      the same item: executions per second (16 concurrent callers, SECONDS each);
//   2. the documented bulk-import procedure writing 10,000 items, called again from the
//      count it returns until all are in, against the same items written by
//      transactional batches of 100: items per second;
//   3. a query with a trivial UDF in its WHERE over ITEMS items, against the same query
//      with the built-in equivalent: time and request charge;
//   4. the peak RSS (VmHWM) the server adds while 100 executions run at once.
//
//   node bench/scripts.mjs
//   ORRERY_BENCH_ITEMS=20000 ORRERY_BENCH_SECONDS=3 node bench/scripts.mjs
//
// Prints one JSON object. Loopback only; bounded to 15 minutes.

import fs from "node:fs";
import { startServer } from "../tests/e2e/lib/server.mjs";
import { sdkClient } from "../tests/e2e/lib/util.mjs";

const ITEMS = Number(process.env.ORRERY_BENCH_ITEMS || 100_000);
const SECONDS = Number(process.env.ORRERY_BENCH_SECONDS || 5);
const deadline = setTimeout(() => {
  console.error("scripts bench: time limit reached");
  process.exit(1);
}, 15 * 60 * 1000);

const bulkImport = `function bulkImport(docs) {
  var collection = getContext().getCollection();
  var count = 0;
  if (!docs) throw new Error("The array is undefined or null.");
  if (docs.length == 0) { getContext().getResponse().setBody(0); return; }
  tryCreate(docs[count], callback);
  function tryCreate(doc, callback) {
    if (!collection.createDocument(collection.getSelfLink(), doc, callback)) getContext().getResponse().setBody(count);
  }
  function callback(err, doc, options) {
    if (err) throw err;
    count++;
    if (count >= docs.length) getContext().getResponse().setBody(count);
    else tryCreate(docs[count], callback);
  }
}`;

const readOne = `function readOne(id) {
  var c = getContext().getCollection();
  c.readDocument(c.getAltLink() + "/docs/" + id, function (err, doc) {
    if (err) throw err;
    getContext().getResponse().setBody(doc);
  });
}`;

const allocate = `function allocate(n) {
  var parts = [];
  for (var i = 0; i < n; i++) parts.push({ i: i, text: "item " + i });
  var until = Date.now() + 200;
  while (Date.now() < until) {}
  getContext().getResponse().setBody(parts.length);
}`;

async function rate(seconds, callers, op) {
  let done = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (Date.now() < end) {
        await op();
        done++;
      }
    }),
  );
  return done / seconds;
}

function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

const server = await startServer({ args: ["--initial-partitions", "4"] });
const client = sdkClient(server);
const out = { items: ITEMS, seconds: SECONDS };
try {
  const { database } = await client.databases.create({ id: "bench" });
  const { container } = await database.containers.create({
    id: "c",
    partitionKey: { paths: ["/pk"], version: 2 },
    throughput: 100000,
  });
  const scripts = container.scripts;
  await scripts.storedProcedures.create({ id: "bulkImport", body: bulkImport });
  await scripts.storedProcedures.create({ id: "readOne", body: readOne });
  await scripts.storedProcedures.create({ id: "allocate", body: allocate });
  await scripts.userDefinedFunctions.create({ id: "isEven", body: "function (n) { return n % 2 === 0; }" });

  // 1. Point read against a procedure that reads the item.
  await container.items.create({ id: "target", pk: "read", pad: "x".repeat(900) });
  const reads = await rate(SECONDS, 16, () => container.item("target", "read").read());
  const sprocReads = await rate(SECONDS, 16, () => scripts.storedProcedure("readOne").execute("read", ["target"]));
  out.point_read_per_s = Math.round(reads);
  out.sproc_read_per_s = Math.round(sprocReads);
  out.sproc_read_ratio = +(sprocReads / reads).toFixed(3);

  // 2. Bulk import of 10,000 items against batches of 100.
  const docs = (prefix, pk, n) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, pk, n: i, pad: "x".repeat(200) }));
  const toImport = docs("s", "bulk-sproc", 10_000);
  let started = Date.now();
  let calls = 0;
  for (let from = 0; from < toImport.length; calls++) {
    // Requests stay under 2 MB: 4,000 items of ~250 bytes per call.
    const { resource } = await scripts.storedProcedure("bulkImport").execute("bulk-sproc", [toImport.slice(from, from + 4000)]);
    from += resource;
  }
  const sprocSeconds = (Date.now() - started) / 1000;
  const toBatch = docs("b", "bulk-batch", 10_000);
  started = Date.now();
  for (let from = 0; from < toBatch.length; from += 100) {
    const res = await container.items.batch(
      toBatch.slice(from, from + 100).map((d) => ({ operationType: "Create", resourceBody: d })),
      "bulk-batch",
    );
    if (res.code !== 200) throw new Error(`batch failed: ${res.code}`);
  }
  const batchSeconds = (Date.now() - started) / 1000;
  out.bulk_import_items_per_s = Math.round(10_000 / sprocSeconds);
  out.bulk_import_calls = calls;
  out.batch_items_per_s = Math.round(10_000 / batchSeconds);
  out.bulk_import_ratio = +(batchSeconds / sprocSeconds).toFixed(3);

  // 3. A UDF in WHERE over ITEMS items against the built-in equivalent.
  const partitions = 10;
  for (let p = 0; p < partitions; p++) {
    const these = Array.from({ length: ITEMS / partitions }, (_, i) => ({ id: `q${i}`, pk: `q${p}`, n: p * (ITEMS / partitions) + i }));
    for (let from = 0; from < these.length; ) {
      const { resource } = await scripts.storedProcedure("bulkImport").execute(`q${p}`, [these.slice(from, from + 5000)]);
      from += resource;
    }
  }
  const timeQuery = async (text) => {
    const t = Date.now();
    const response = await container.items.query(text, { maxItemCount: -1 }).fetchAll();
    return { ms: Date.now() - t, ru: response.requestCharge, count: response.resources[0] };
  };
  const builtin = await timeQuery("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.pk, 'q') AND c.n % 2 = 0");
  const udf = await timeQuery("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.pk, 'q') AND udf.isEven(c.n)");
  if (builtin.count !== udf.count || builtin.count !== ITEMS / 2) {
    throw new Error(`counts differ: built-in ${builtin.count}, udf ${udf.count}, expected ${ITEMS / 2}`);
  }
  out.query_builtin = builtin;
  out.query_udf = udf;
  out.query_udf_time_ratio = +(udf.ms / builtin.ms).toFixed(3);
  out.query_udf_ru_ratio = +(udf.ru / builtin.ru).toFixed(3);

  // 4. Peak RSS added by 100 executions at once (each holds 10,000 small objects for 200 ms).
  const pid = server.proc.pid;
  const before = peakRss(pid);
  await Promise.all(Array.from({ length: 100 }, (_, i) => scripts.storedProcedure("allocate").execute(`rss${i}`, [10_000])));
  out.peak_rss_before_mb = +(before / 1048576).toFixed(1);
  out.peak_rss_added_mb = +((peakRss(pid) - before) / 1048576).toFixed(1);
} finally {
  client.dispose();
  await server.stop();
  clearTimeout(deadline);
}
console.log(JSON.stringify(out, null, 2));
