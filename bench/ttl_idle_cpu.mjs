// What the background TTL purge costs a server at rest: loads ITEMS items of 1 KB
// into a container with defaultTtl (none expires during the run), waits 3 s, then
// reports the server's CPU over the next 10 s. The purge reads a bounded number of
// items per round, so the figure should not grow with ITEMS.
//
//   node bench/ttl_idle_cpu.mjs [--items 100000] [--bin build/orrery]

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CosmosClient } from "@azure/cosmos";
import { freePort } from "./lib/loopback.mjs";

const EMULATOR_KEY =
  "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const bin = path.resolve(arg("bin", process.env.ORRERY_BIN ?? "build/orrery"));
const items = Number(arg("items", 100000));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-ttl-bench-"));
const port = await freePort();
const server = spawn(bin, ["serve", "--port", String(port), "--no-tls", "--data-dir", dir, "--log-level", "warn"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const cleanup = () => {
  server.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
};
const limit = setTimeout(() => {
  console.error("ttl_idle_cpu: FAILED: time limit of 5 minutes reached");
  cleanup();
  process.exit(124);
}, 5 * 60 * 1000);

try {
  await new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk) => chunk.toString().includes("listening") && resolve());
    server.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const client = new CosmosClient({
    endpoint: `http://127.0.0.1:${port}`,
    key: EMULATOR_KEY,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
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
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  };
  await new Promise((r) => setTimeout(r, 3000));
  const before = cpuTicks();
  await new Promise((r) => setTimeout(r, 10000));
  const percent = (cpuTicks() - before) / 10; // ticks of 10 ms over 10 s, in % of a core
  console.log(`ttl_idle_cpu: ${items} items under defaultTtl; server CPU at rest ${percent.toFixed(1)}% of a core`);
  client.dispose();
} finally {
  clearTimeout(limit);
  cleanup();
}
