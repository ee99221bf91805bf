// `orrery sql database|container ...` (cli/sql.h), shaped as `az cosmosdb sql`: each verb
// against a running server, checked through the SDK (what the server holds), not through
// the CLI's own output alone; errors print the service's message and exit non-zero;
// deletes need --yes without a terminal.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ORRERY_BIN } from "./lib/server.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

describe("orrery sql", { timeout: 120_000 }, () => {
  const env = withServerAndDatabase("cli-sql");
  const sql = (...args) => {
    const r = spawnSync(ORRERY_BIN, ["sql", ...args, "--endpoint", env.server.endpoint], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  test("database create, show, list and delete", async () => {
    const created = sql("database", "create", "--name", "cli-db1", "--throughput", "600");
    assert.equal(created.code, 0, created.err);
    assert.equal(JSON.parse(created.out).id, "cli-db1");
    const { resource } = await env.client.database("cli-db1").read();
    assert.equal(resource.id, "cli-db1");
    const offer = await env.client.database("cli-db1").readOffer();
    assert.equal(offer.resource.content.offerThroughput, 600);

    const shown = sql("database", "show", "-n", "cli-db1");
    assert.equal(shown.code, 0, shown.err);
    assert.equal(JSON.parse(shown.out)._rid, resource._rid);
    const listed = sql("database", "list");
    assert.equal(listed.code, 0, listed.err);
    assert.ok(JSON.parse(listed.out).some((d) => d.id === "cli-db1"));

    const again = sql("database", "create", "--name", "cli-db1");
    assert.equal(again.code, 1);
    assert.match(again.err, /\(409\).*already exists/s);

    const unconfirmed = sql("database", "delete", "-n", "cli-db1");
    assert.equal(unconfirmed.code, 1);
    assert.match(unconfirmed.err, /--yes/);
    assert.equal((await env.client.database("cli-db1").read()).statusCode, 200, "still there");
    const deleted = sql("database", "delete", "-n", "cli-db1", "--yes");
    assert.equal(deleted.code, 0, deleted.err);
    await assert.rejects(env.client.database("cli-db1").read(), (e) => e.code === 404);
  });

  test("container create with a hierarchical key, throughput, TTL and a policy file; list, show, delete", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-cli-"));
    const policy = path.join(dir, "policy.json");
    fs.writeFileSync(policy, JSON.stringify({ indexingMode: "consistent", includedPaths: [{ path: "/tenantId/?" }], excludedPaths: [{ path: "/*" }] }));
    const created = sql("container", "create", "-d", env.dbId, "-n", "devices", "--partition-key-path", "/tenantId,/deviceId", "--throughput", "800", "--ttl", "3600", "--idx", `@${policy}`);
    assert.equal(created.code, 0, created.err);
    const { resource } = await env.database.container("devices").read();
    assert.deepEqual(resource.partitionKey.paths, ["/tenantId", "/deviceId"]);
    assert.equal(resource.partitionKey.kind, "MultiHash");
    assert.equal(resource.defaultTtl, 3600);
    assert.deepEqual(resource.indexingPolicy.includedPaths.map((p) => p.path), ["/tenantId/?"]);
    assert.equal((await env.database.container("devices").readOffer()).resource.content.offerThroughput, 800);

    const autoscale = sql("container", "create", "-d", env.dbId, "-n", "auto", "-p", "/pk", "--max-throughput", "4000");
    assert.equal(autoscale.code, 0, autoscale.err);
    const offer = (await env.database.container("auto").readOffer()).resource;
    assert.equal(offer.content.offerAutopilotSettings.maxThroughput, 4000);

    const listed = sql("container", "list", "-d", env.dbId);
    assert.equal(listed.code, 0, listed.err);
    assert.deepEqual(JSON.parse(listed.out).map((c) => c.id).sort(), ["auto", "devices"]);
    const shown = sql("container", "show", "-d", env.dbId, "-n", "devices");
    assert.equal(JSON.parse(shown.out)._rid, resource._rid);

    const bad = sql("container", "create", "-d", env.dbId, "-n", "x", "-p", "/pk", "--idx", "{not json");
    assert.equal(bad.code, 1);
    assert.match(bad.err, /--idx is not JSON/);
    const missing = sql("container", "show", "-d", env.dbId, "-n", "nope");
    assert.equal(missing.code, 1);
    assert.match(missing.err, /\(404\)/);
    const noKey = sql("container", "create", "-d", env.dbId, "-n", "y");
    assert.equal(noKey.code, 2, "a missing required flag is a usage error");
    assert.match(noKey.err, /--partition-key-path is required/);

    assert.equal(sql("container", "delete", "-d", env.dbId, "-n", "auto", "--yes").code, 0);
    await assert.rejects(env.database.container("auto").read(), (e) => e.code === 404);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("container update, throughput show and update, unique keys, and query", async () => {
    const created = sql("container", "create", "-d", env.dbId, "-n", "people", "-p", "/team", "--throughput", "500", "--unique-key-policy", JSON.stringify({ uniqueKeys: [{ paths: ["/email"] }] }));
    assert.equal(created.code, 0, created.err);
    const people = env.database.container("people");
    assert.deepEqual((await people.read()).resource.uniqueKeyPolicy.uniqueKeys[0].paths, ["/email"]);

    const updated = sql("container", "update", "-d", env.dbId, "-n", "people", "--ttl", "120");
    assert.equal(updated.code, 0, updated.err);
    assert.equal((await people.read()).resource.defaultTtl, 120);

    const shown = sql("container", "throughput", "show", "-d", env.dbId, "-n", "people");
    assert.equal(shown.code, 0, shown.err);
    assert.equal(JSON.parse(shown.out).content.offerThroughput, 500);
    const raised = sql("container", "throughput", "update", "-d", env.dbId, "-n", "people", "--throughput", "900");
    assert.equal(raised.code, 0, raised.err);
    assert.equal((await people.readOffer()).resource.content.offerThroughput, 900);

    const docs = Array.from({ length: 25 }, (_, i) => ({ id: `p${i}`, team: `t${i % 4}`, email: `p${i}@example.com`, n: i }));
    for (const d of docs) await people.items.create(d);
    const expected = docs.filter((d) => d.n >= 10).map((d) => d.id).sort();
    const json = sql("query", "-d", env.dbId, "-c", "people", "-q", "SELECT c.id, c.n FROM c WHERE c.n >= 10");
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out).map((r) => r.id).sort(), expected);
    assert.match(json.err, /^15 rows, request charge \d+(\.\d+)? RU/);
    const table = sql("query", "-d", env.dbId, "-c", "people", "-q", "SELECT c.id, c.n FROM c WHERE c.n = 3", "--output", "table");
    assert.equal(table.code, 0, table.err);
    const lines = table.out.trim().split("\n");
    assert.match(lines[0], /^id\s+n$/);
    assert.match(lines[2], /^p3\s+3$/);
    const syntax = sql("query", "-d", env.dbId, "-c", "people", "-q", "SELEC nothing");
    assert.equal(syntax.code, 1);
    assert.match(syntax.err, /\(400\)/);
  });

  test("every verb has --help", () => {
    for (const args of [["database", "create"], ["database", "list"], ["database", "show"], ["database", "delete"], ["container", "create"], ["container", "list"], ["container", "show"], ["container", "delete"], ["container", "update"], ["container", "throughput", "show"], ["container", "throughput", "update"], ["query"]]) {
      const r = spawnSync(ORRERY_BIN, ["sql", ...args, "--help"], { encoding: "utf8" });
      assert.equal(r.status, 0, args.join(" "));
      assert.match(r.stdout, /--endpoint/);
    }
  });
});
