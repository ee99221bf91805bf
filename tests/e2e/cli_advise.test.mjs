// `orrery advise` (issue 19), run as a user runs it: the built-in demos reach the
// conclusions of the partitioning articles from their own measurements, a study of the
// user's own items (generated or a JSON-lines file) with a synthetic key, the terminal
// summary with colours and progress on a terminal, the same seed giving the same
// report, and clear errors for bad input. Expected values come from the demos' specs
// (the hot tenant's share of items, 100 / (100 + 999)) and from the queries' text (which
// key each query pins), never from another run of advise.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ORRERY_BIN } from "./lib/server.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const run = (args, options = {}) => {
  const r = spawnSync(ORRERY_BIN, ["advise", ...args], { encoding: "utf8", timeout: 240_000, ...options });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const advise = (args) => {
  const r = run([...args, "--json"]);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
};
const byLabel = (study, label) => {
  const c = study.ranking.find((x) => x.label === label);
  assert.ok(c, `candidate ${label} in ${study.ranking.map((x) => x.label)}`);
  return c;
};
const op = (candidate, name) => {
  const o = candidate.operations.find((x) => x.name === name);
  assert.ok(o, `operation ${name}`);
  return o;
};

describe("orrery advise", { timeout: 600_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orrery-advise-"));

  test("the telemetry demo ranks /tenantId,/deviceId above /tenantId and flags the device query as fan-out", () => {
    const study = advise(["--demo", "telemetry", "--items", "30000"]);
    assert.equal(study.study, "telemetry");
    assert.equal(study.items, 30000);
    assert.deepEqual(study.ranking.map((c) => c.rank), [1, 2, 3]);
    assert.deepEqual(study.ranking[0].partitionKey, ["/tenantId", "/deviceId"]);
    const tenant = byLabel(study, "/tenantId");
    const both = byLabel(study, "/tenantId,/deviceId");
    const device = byLabel(study, "/deviceId");
    assert.ok(study.ranking.indexOf(both) < study.ranking.indexOf(tenant));
    // The hot tenant t-0 weighs 100 against 999 tenants of weight 1.
    assert.equal(tenant.logicalPartitions.largestKey, '["t-0"]');
    assert.ok(Math.abs(tenant.logicalPartitions.largestShare - 100 / 1099) < 0.01, `${tenant.logicalPartitions.largestShare}`);
    assert.equal(tenant.logicalPartitions.count, 1000);
    // 1e9 production events over 30,000 studied.
    assert.ok(Math.abs(study.scale - 1e9 / 30000) < 1);
    assert.ok(tenant.logicalPartitions.projectedLargestBytes > 20 * 2 ** 30);
    assert.equal(tenant.exceedsLogicalPartitionLimit, true);
    assert.match(tenant.reasons[0], /logical partition \["t-0"\] passes the 20 GB limit/);
    assert.equal(both.exceedsLogicalPartitionLimit, false);
    const deviceQuery = "events of device d-9 across all tenants";
    assert.equal(op(tenant, deviceQuery).routing, "fan-out");
    assert.equal(op(both, deviceQuery).routing, "fan-out");
    assert.equal(op(device, deviceQuery).routing, "single partition");
    assert.ok(both.reasons.some((r) => r.includes("fan-out for 5% of traffic") && r.includes(deviceQuery)), both.reasons.join("\n"));
    assert.equal(op(both, "latest events of a tenant").routing, "hierarchical prefix");
    assert.equal(op(device, "latest events of a tenant").routing, "fan-out");
    // A fan-out query reads every physical partition, one page request each.
    assert.equal(op(both, deviceQuery).partitionsTouched, both.physicalPartitions.length);
    for (const c of study.ranking) {
      assert.ok(c.physicalPartitions.length >= Math.ceil(c.logicalPartitions.totalBytes * study.scale / (50 * 2 ** 30)));
      assert.equal(c.splits, c.physicalPartitions.length - c.initialPartitions);
      // 20,000 RU/s manual: ceil(20000 / 6000) partitions at creation (the service's rule).
      assert.equal(c.initialPartitions, 4);
      assert.equal(c.itemsLoaded, 30000);
      const share = c.physicalPartitions.reduce((s, p) => s + p.storageShare, 0);
      assert.ok(Math.abs(share - 1) < 0.01, `${share}`);
    }
  });

  test("the ecommerce demo prefers categoryId for products, productId for reviews and one key for categories", () => {
    const report = advise(["--demo", "ecommerce", "--items", "12000"]);
    assert.deepEqual(report.ranking[0].partitionKey, ["/categoryId"], "the top level is the products study");
    assert.deepEqual(report.studies.map((s) => s.study), ["products", "reviews", "categories"]);
    const [products, reviews, categories] = report.studies;
    assert.deepEqual(products.ranking.map((c) => c.label), ["/categoryId", "/id"]);
    assert.equal(op(byLabel(products, "/id"), "a page of a category").routing, "fan-out");
    assert.equal(op(byLabel(products, "/categoryId"), "a page of a category").routing, "single partition");
    assert.ok(byLabel(products, "/id").reasons.some((r) => /fan-out for 60% of traffic/.test(r)));
    assert.deepEqual(reviews.ranking[0].partitionKey, ["/productId"]);
    assert.equal(op(byLabel(reviews, "/id"), "reviews of a product").routing, "fan-out");
    // The menu reads every category: one logical partition under /type, fan-out under /id.
    assert.deepEqual(categories.ranking[0].partitionKey, ["/type"]);
    assert.equal(byLabel(categories, "/type").logicalPartitions.count, 1);
    assert.equal(op(byLabel(categories, "/type"), "the category menu").routing, "single partition");
    assert.equal(op(byLabel(categories, "/id"), "the category menu").routing, "fan-out");
  });

  test("a study of generated items with a synthetic key, and of a JSON-lines file", () => {
    const spec = path.join(dir, "spec.json");
    fs.writeFileSync(spec, JSON.stringify({
      count: 3000, seed: 3,
      fields: {
        tenantId: { type: "string", prefix: "t-", cardinality: 40 },
        deviceId: { type: "string", prefix: "d-", cardinality: 300 },
        value: { type: "number", min: 0, max: 5 },
      },
    }));
    const workload = path.join(dir, "workload.json");
    fs.writeFileSync(workload, JSON.stringify({
      requestsPerSecond: 500,
      operations: [
        { name: "device of tenant", share: 3, query: "SELECT * FROM c WHERE c.tenantId = @t AND c.deviceId = @d", parameters: { "@t": "/tenantId", "@d": "/deviceId" } },
        { name: "tenant", share: 1, query: "SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t", parameters: { "@t": "/tenantId" } },
      ],
    }));
    const study = advise(["--generate", spec, "--workload", workload, "--candidates", "/tenantId+/deviceId", "/tenantId", "--throughput", "12000", "--scale", "1000"]);
    assert.equal(study.requestsPerSecond, 500);
    assert.equal(study.throughput, 12000);
    const synthetic = byLabel(study, "/tenantId+/deviceId");
    assert.deepEqual(synthetic.partitionKey, ["/tenantId_deviceId"]);
    assert.deepEqual(synthetic.syntheticOf, ["/tenantId", "/deviceId"]);
    assert.equal(synthetic.kind, "synthetic");
    assert.equal(op(synthetic, "device of tenant").routing, "single partition");
    assert.equal(op(synthetic, "tenant").routing, "fan-out");
    assert.equal(op(byLabel(study, "/tenantId"), "tenant").routing, "single partition");

    // The same items as a file: every line loaded, the tenants counted from the file.
    const lines = [];
    for (let i = 0; i < 500; i++) lines.push(JSON.stringify({ id: `i${i}`, tenantId: `t-${i % 7}`, n: i }));
    const file = path.join(dir, "items.jsonl");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const fromFile = advise(["--data", file, "--workload", workload, "--candidates", "/tenantId", "/id"]);
    assert.equal(fromFile.items, 500);
    assert.equal(byLabel(fromFile, "/tenantId").logicalPartitions.count, 7);
    assert.equal(byLabel(fromFile, "/id").logicalPartitions.count, 500);
  });

  test("the same seed gives the same report (one loading thread)", () => {
    // With two threads the items' creation order, and so which items a TOP query reads
    // first, depends on how the threads interleave; with one it is the items' order.
    const args = ["--demo", "telemetry", "--items", "4000", "--json", "--threads", "1"];
    const a = run(args);
    const b = run(args);
    assert.equal(a.code, 0, a.err);
    assert.equal(a.out, b.out);
  });

  test("on a terminal: progress while loading, a coloured summary and the recommendation", () => {
    // script(1) gives advise a terminal for stdout and stderr.
    const r = spawnSync("script", ["-qec", `${ORRERY_BIN} advise --demo telemetry --items 6000`, "/dev/null"], { encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /telemetry: loading +\[#+\] 100%/);
    assert.match(r.stdout, /\x1b\[32;1mRecommended: \/tenantId,\/deviceId\x1b\[0m/);
    const plain = run(["--demo", "telemetry", "--items", "6000"]);
    assert.equal(plain.code, 0, plain.err);
    assert.doesNotMatch(plain.out, /\x1b\[/, "no colour when stdout is not a terminal");
    assert.equal(plain.err, "", "no progress when stderr is not a terminal");
    assert.match(plain.out, /candidate +largest logical at scale +fan-out +RU\/request +throttled/);
    assert.match(plain.out, /Recommended: \/tenantId,\/deviceId - /);
  });

  test("bad input gets a clear error", () => {
    const workload = path.join(dir, "w.json");
    fs.writeFileSync(workload, JSON.stringify({ operations: [{ name: "q", share: 1, query: "SELECT * FROM c WHERE c.a = @a", parameters: { "@a": "/a" } }] }));
    const items = path.join(dir, "ok.jsonl");
    fs.writeFileSync(items, '{"id":"1","a":1}\n');
    const badQuery = path.join(dir, "bad-query.json");
    fs.writeFileSync(badQuery, JSON.stringify({ operations: [{ name: "broken", share: 1, query: "SELECT FROM c" }] }));
    const badItems = path.join(dir, "bad.jsonl");
    fs.writeFileSync(badItems, '{"id":"1","a":1}\n{"a":2}\n');
    const cases = [
      [["--demo", "retail"], /--demo: retail not in \{telemetry,ecommerce\}|retail/],
      [["--data", items, "--workload", workload], /give the partition keys to compare/],
      [["--data", items, "--candidates", "/a"], /give the traffic: --workload/],
      [["--candidates", "/a", "--workload", workload], /give the items: --data/],
      [["--data", items, "--workload", workload, "--candidates", "/a,/b,/c,/d"], /more than 3 levels/],
      [["--data", items, "--workload", workload, "--candidates", "a"], /candidate partition key 'a' has a bad path/],
      [["--data", items, "--workload", badQuery, "--candidates", "/a"], /operation 'broken' has a query that does not compile/],
      [["--data", badItems, "--workload", workload, "--candidates", "/a"], /bad\.jsonl line 2 has no "id" string/],
      [["--data", path.join(dir, "missing.jsonl"), "--workload", workload, "--candidates", "/a"], /cannot read .*missing\.jsonl/],
      [["--data", items, "--workload", workload, "--candidates", "/a", "--throughput", "450"], /throughput/i],
      [["--data", items, "--workload", workload, "--candidates", "/a", "--scale", "0"], /--scale must be above 0/],
    ];
    for (const [args, expected] of cases) {
      const r = run(args);
      assert.notEqual(r.code, 0, args.join(" "));
      assert.match(r.err, expected, args.join(" "));
      assert.equal(r.out, "", "nothing on stdout");
    }
  });
});

describe("orrery advise --endpoint", { timeout: 300_000 }, () => {
  const env = withServerAndDatabase("advise-endpoint");

  test("measures through the REST API of a running server and drops its database", async () => {
    const r = run(["--demo", "telemetry", "--items", "3000", "--samples", "8", "--json", "--endpoint", env.server.endpoint]);
    assert.equal(r.code, 0, r.err);
    const study = JSON.parse(r.out);
    assert.equal(study.partitionsAtScale, false);
    assert.deepEqual(study.ranking[0].partitionKey, ["/tenantId", "/deviceId"]);
    const tenant = byLabel(study, "/tenantId");
    const both = byLabel(study, "/tenantId,/deviceId");
    const device = byLabel(study, "/deviceId");
    assert.equal(tenant.exceedsLogicalPartitionLimit, true);
    assert.equal(tenant.logicalPartitions.largestKey, '["t-0"]');
    const deviceQuery = "events of device d-9 across all tenants";
    assert.equal(op(both, deviceQuery).routing, "fan-out");
    assert.equal(op(device, deviceQuery).routing, "single partition");
    for (const c of study.ranking) {
      assert.equal(c.itemsLoaded, 3000, c.label);
      // The server's own partitions: 20,000 RU/s manual makes ceil(20000 / 6000) = 4.
      assert.equal(c.physicalPartitions.length, 4, c.label);
      assert.match(c.reasons.at(-1), /4 physical partitions on the endpoint, for the sample/);
      // A fan-out query sends one query per partition key range.
      assert.equal(op(c, deviceQuery).partitionsTouched, c === device ? 1 : 4);
      // A point read of an item under 1 KB is 1 RU (the service's documented unit).
      assert.equal(op(c, "read an event").ruMedian, 1);
    }
    // The study's database is gone; the test's own is still there.
    const { resources } = await env.client.databases.readAll().fetchAll();
    assert.deepEqual(resources.filter((d) => d.id.startsWith("orrery-advise-")), []);
    assert.ok(resources.some((d) => d.id === env.dbId));
  });

  test("a wrong key is refused with the server's message", () => {
    const r = run(["--demo", "telemetry", "--items", "500", "--endpoint", env.server.endpoint, "--key", Buffer.from("wrong key").toString("base64")]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /\(401\)/);
  });
});
