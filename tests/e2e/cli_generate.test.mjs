// `orrery generate` (cli/generate.h, advise/generator.h): a spec's items as JSON lines,
// the same for the same seed, loaded by `orrery import`; the one hot tenant holds the
// share of items its factor gives (computed here from the spec); bad specs fail naming
// the field.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ORRERY_BIN } from "./lib/server.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

describe("orrery generate", { timeout: 120_000 }, () => {
  const env = withServerAndDatabase("cli-generate");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-generate-"));
  const run = (...args) => {
    const r = spawnSync(ORRERY_BIN, args, { encoding: "utf8", timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const spec = {
    count: 4000,
    seed: 11,
    fields: {
      tenantId: { type: "string", prefix: "t-", cardinality: 21, distribution: "hot", factor: 20 },
      deviceId: { type: "string", prefix: "d-", cardinality: 500 },
      at: { type: "timestamp", from: "2026-01-01T00:00:00Z", to: "2026-01-08T00:00:00Z" },
    },
  };

  test("writes the spec's items, the same each time, and import loads them", async () => {
    const specFile = path.join(dir, "spec.json");
    fs.writeFileSync(specFile, JSON.stringify(spec));
    const out = path.join(dir, "items.jsonl");
    const r = run("generate", "--spec", specFile, "--out", out);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /4000 items \(seed 11\)/);
    const lines = fs.readFileSync(out, "utf8").trim().split("\n");
    assert.equal(lines.length, 4000);
    const again = run("generate", "--spec", specFile);
    assert.equal(again.out, fs.readFileSync(out, "utf8"), "stdout holds the same items");
    const items = lines.map((l) => JSON.parse(l));
    assert.deepEqual(items.map((i) => i.id), items.map((_, n) => String(n)));
    // Weights 20 : 1 x 20 -> half of the items for t-0, within 3 points.
    const hot = items.filter((i) => i.tenantId === "t-0").length / items.length;
    assert.ok(Math.abs(hot - 0.5) < 0.03, `t-0 holds ${hot}`);
    for (const i of items) assert.ok(i.at >= "2026-01-01T00:00:00Z" && i.at < "2026-01-08T00:00:00Z", i.at);

    const { container } = await env.database.containers.create({ id: "generated", partitionKey: { paths: ["/tenantId"], version: 2 }, throughput: 10000 });
    const imported = run("import", "-d", env.dbId, "-c", "generated", "-f", out, "--endpoint", env.server.endpoint);
    assert.equal(imported.code, 0, imported.err);
    const { resources } = await container.items.query("SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = 't-0'").fetchAll();
    assert.equal(resources[0], items.filter((i) => i.tenantId === "t-0").length);
  });

  test("a bad spec fails naming the field", () => {
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ count: 5, fields: { tenantId: { type: "string", distribution: "zipf" } } }));
    const r = run("generate", "--spec", bad);
    assert.equal(r.code, 1);
    assert.match(r.err, /field 'tenantId' needs 'cardinality'/);
    assert.equal(r.out, "", "nothing written");
    fs.writeFileSync(bad, "{not json");
    assert.match(run("generate", "--spec", bad).err, /is not JSON/);
    assert.equal(run("generate", "--spec", path.join(dir, "missing.json")).code, 1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
