// What the background TTL purge costs a server at rest: loads ITEMS items of 1 KB
// into a container with defaultTtl (none expires during the run), waits 3 s, then
// reports the server's CPU over the next 10 s. The purge reads a bounded number of
// items per round, so the figure should not grow with ITEMS.
//
//   node bench/ttl_idle_cpu.mjs [--items 100000]     # the server: $ORRERY_BIN, default build/orrery

import fs from "node:fs";
import { startServer } from "../tests/e2e/lib/server.mjs";
import { sdkClient } from "../tests/e2e/lib/util.mjs";

const i = process.argv.indexOf("--items");
const items = Number(i >= 0 ? process.argv[i + 1] : 100000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const server = await startServer({ inMemory: false });
const client = sdkClient(server);
const limit = setTimeout(() => {
  console.error("ttl_idle_cpu: FAILED: time limit of 5 minutes reached");
  server.proc.kill("SIGKILL");
  process.exit(124);
}, 5 * 60 * 1000);

try {
  const { database } = await client.databases.create({ id: "ttl" });
  const { container } = await database.containers.create({
    id: "c",
    partitionKey: { paths: ["/pk"], version: 2 },
    defaultTtl: 3600,
  });
  const pad = "x".repeat(900);
  for (let i = 0; i < items; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, items - i) }, (_, k) => container.items.create({ id: `i${i + k}`, pk: `p${(i + k) % 1000}`, pad })),
    );
  }
  const cpuTicks = () => {
    const fields = fs.readFileSync(`/proc/${server.proc.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  };
  await sleep(3000);
  const before = cpuTicks();
  await sleep(10000);
  const percent = (cpuTicks() - before) / 10; // ticks of 10 ms over 10 s, in % of a core
  console.log(`ttl_idle_cpu: ${items} items under defaultTtl; server CPU at rest ${percent.toFixed(1)}% of a core`);
} finally {
  clearTimeout(limit);
  client.dispose();
  await server.stop();
}
