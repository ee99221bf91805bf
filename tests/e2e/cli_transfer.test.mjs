// `orrery import` and `orrery export` (cli/transfer.h): JSON lines and JSON arrays in,
// every item landing once (checked through the SDK); throttled imports back off and
// finish; an import killed midway resumes from its checkpoint; export writes what
// import reads back; bad input is refused with the line it is on.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ORRERY_BIN } from "./lib/server.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const pk = { paths: ["/pk"], version: 2 };

describe("orrery import and export", { timeout: 180_000 }, () => {
  const env = withServerAndDatabase("cli-transfer", { serverOptions: { args: ["--enforce-throughput"] } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-transfer-"));
  const run = (...args) => {
    const r = spawnSync(ORRERY_BIN, [...args, "--endpoint", env.server.endpoint], { encoding: "utf8", timeout: 120_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const items = (n, prefix) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, pk: `k${i % 13}`, n: i, pad: "x".repeat(500) }));
  const all = async (container) => (await container.items.query("SELECT c.id, c.pk, c.n, c.pad FROM c").fetchAll()).resources;
  const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  test("JSON lines and a JSON array, every item once, throttled requests retried", async () => {
    // 1,000 RU/s: 1,500 upserts of ~0.6 KB take more than a second, so some are throttled.
    const { container } = await env.database.containers.create({ id: "lines", partitionKey: pk, throughput: 1000 });
    const data = items(1500, "l");
    const file = path.join(dir, "lines.jsonl");
    fs.writeFileSync(file, data.map((d) => JSON.stringify(d)).join("\n") + "\n");
    const r = run("import", "-d", env.dbId, "-c", "lines", "-f", file);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /1500 items in, 0 failed/);
    assert.deepEqual((await all(container)).sort(byId), [...data].sort(byId));
    assert.equal(fs.existsSync(`${file}.orrery-import`), false, "the checkpoint is gone once done");

    const { container: arrays } = await env.database.containers.create({ id: "array", partitionKey: pk, throughput: 10000 });
    const arrayFile = path.join(dir, "items.json");
    fs.writeFileSync(arrayFile, JSON.stringify(items(120, "a")));
    assert.equal(run("import", "-d", env.dbId, "-c", "array", "-f", arrayFile).code, 0);
    assert.equal((await all(arrays)).length, 120);
    // Again: upserts, so nothing doubles.
    assert.equal(run("import", "-d", env.dbId, "-c", "array", "-f", arrayFile).code, 0);
    assert.equal((await all(arrays)).length, 120);
  });

  test("an import killed midway resumes from its checkpoint", async () => {
    const { container } = await env.database.containers.create({ id: "resume", partitionKey: pk, throughput: 1500 });
    const data = items(4000, "r");
    const file = path.join(dir, "resume.jsonl");
    fs.writeFileSync(file, data.map((d) => JSON.stringify(d)).join("\n") + "\n");
    const child = spawn(ORRERY_BIN, ["import", "-d", env.dbId, "-c", "resume", "-f", file, "--endpoint", env.server.endpoint], { stdio: "ignore" });
    const checkpoint = `${file}.orrery-import`;
    for (let i = 0; i < 200 && !(fs.existsSync(checkpoint) && Number(fs.readFileSync(checkpoint, "utf8")) > 0); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    const saved = Number(fs.readFileSync(checkpoint, "utf8"));
    assert.ok(saved > 0 && saved < data.length, `killed midway: checkpoint ${saved}`);
    const before = (await all(container)).length;
    assert.ok(before >= saved, "every item the checkpoint counts is in");
    const r = run("import", "-d", env.dbId, "-c", "resume", "-f", file);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, new RegExp(`resuming after the first ${saved} items`));
    assert.match(r.err, new RegExp(`${data.length - saved} items in`));
    assert.deepEqual((await all(container)).sort(byId), [...data].sort(byId));
  });

  test("export writes what import reads back", async () => {
    const { container: source } = await env.database.containers.create({ id: "source", partitionKey: pk, throughput: 10000 });
    const data = items(300, "e");
    for (const d of data) await source.items.create(d);
    for (const [flag, name] of [[[], "out.jsonl"], [["--array"], "out.json"]]) {
      const file = path.join(dir, name);
      const r = run("export", "-d", env.dbId, "-c", "source", "-f", file, ...flag);
      assert.equal(r.code, 0, r.err);
      const text = fs.readFileSync(file, "utf8");
      const rows = flag.length ? JSON.parse(text) : text.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(rows.sort(byId), [...data].sort(byId), "the items without system properties");
      const target = `copy${flag.length}`;
      const { container: copy } = await env.database.containers.create({ id: target, partitionKey: pk, throughput: 10000 });
      assert.equal(run("import", "-d", env.dbId, "-c", target, "-f", file).code, 0);
      assert.deepEqual((await all(copy)).sort(byId), [...data].sort(byId));
    }
  });

  test("an item that fails keeps the checkpoint before it; mended, the import finishes", async () => {
    const { container } = await env.database.containers.create({ id: "mend", partitionKey: pk, throughput: 10000 });
    const data = items(450, "m");
    const file = path.join(dir, "mend.jsonl");
    const lines = data.map((d) => JSON.stringify(d));
    lines[250] = JSON.stringify({ ...data[250], pk: ["not", "a", "key"] });
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const failed = run("import", "-d", env.dbId, "-c", "mend", "-f", file);
    assert.equal(failed.code, 1);
    assert.match(failed.err, /item 251/);
    const saved = Number(fs.readFileSync(`${file}.orrery-import`, "utf8"));
    assert.ok(saved <= 250, `the checkpoint (${saved}) stays before the failed item`);
    lines[250] = JSON.stringify(data[250]);
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const mended = run("import", "-d", env.dbId, "-c", "mend", "-f", file);
    assert.equal(mended.code, 0, mended.err);
    assert.deepEqual((await all(container)).sort(byId), [...data].sort(byId));
  });

  test("on a terminal, a progress line counts the items in and the rate", async () => {
    // script(1) gives the import a terminal; 1,000 RU/s makes it last past the first
    // half-second report.
    const { container } = await env.database.containers.create({ id: "progress", partitionKey: pk, throughput: 1000 });
    const data = items(2000, "p");
    const file = path.join(dir, "progress.jsonl");
    fs.writeFileSync(file, data.map((d) => JSON.stringify(d)).join("\n") + "\n");
    const command = [ORRERY_BIN, "import", "-d", env.dbId, "-c", "progress", "-f", file, "--endpoint", env.server.endpoint]
      .map((a) => `'${a}'`)
      .join(" ");
    const r = spawnSync("script", ["-qefc", command, "/dev/null"], { encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const reports = [...r.stdout.matchAll(/\r(\d+) of 2000 items in, (\d+) items\/s/g)].map((m) => Number(m[1]));
    assert.ok(reports.length >= 1, `progress lines on the terminal: ${JSON.stringify(r.stdout.slice(0, 300))}`);
    for (let i = 1; i < reports.length; i++) assert.ok(reports[i] >= reports[i - 1], "the count only grows");
    assert.ok(reports.every((n) => n <= 2000));
    assert.match(r.stdout, /2000 items in, 0 failed/);
    assert.equal((await all(container)).length, 2000);
    // Without a terminal (the other tests) there is no progress line, only the summary.
    const quiet = run("import", "-d", env.dbId, "-c", "progress", "-f", file);
    assert.equal(quiet.code, 0, quiet.err);
    assert.doesNotMatch(quiet.err, /\r/);
  });

  test("bad input is refused with where it is", () => {
    const file = path.join(dir, "bad.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ id: "ok", pk: "a" })}\n{"id": "broken"\n`);
    const r = run("import", "-d", env.dbId, "-c", "source", "-f", file);
    assert.equal(r.code, 1);
    assert.match(r.err, /line 2 is not JSON/);
    const arrayFile = path.join(dir, "bad.json");
    fs.writeFileSync(arrayFile, `[${JSON.stringify({ id: "ok", pk: "a" })}, {"id": ]`);
    const array = run("import", "-d", env.dbId, "-c", "source", "-f", arrayFile);
    assert.equal(array.code, 1);
    assert.match(array.err, /array element 2 is not JSON/);
    const missing = run("import", "-d", env.dbId, "-c", "nope", "-f", file);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /\(404\)/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
