// Prometheus metrics at GET /metrics (api/request_metrics.h), scraped without a key and
// parsed with a Prometheus text-format parser (parse-prometheus-text-format): requests by
// resource, operation and status, request charges, 429s and a latency histogram as the
// SDK's own responses report them, and each container's and physical partition's items.
// Expected values are what this file did and what the SDK's responses said.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const pk = { paths: ["/pk"], version: 2 };

describe("metrics", { timeout: 120_000 }, () => {
  let server;
  let database;
  const env = withServerAndDatabase("metrics", {
    serverOptions: { args: ["--enforce-throughput", "--initial-partitions", "2"] },
    clientOptions: { connectionPolicy: { retryOptions: { maxRetryAttemptCount: 0 } } },
    ready: (e) => {
      ({ server, database } = e);
    },
  });

  async function scrape() {
    const res = await fetch(new URL("/metrics", server.endpoint));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    families.text = text;
    return families;
  }
  // One label set's histogram, parsed alone: the parser gives a histogram's buckets,
  // count and sum only for a family of one unlabelled series.
  const histogramOf = (scraped, name, labels) => {
    const set = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(",");
    const lines = scraped.text
      .split("\n")
      .filter((l) => l.startsWith(`${name}_`) && l.includes(`{${set}`))
      .map((l) => l.replace(`{${set},`, "{").replace(`{${set}}`, ""));
    const [family] = parsePrometheusTextFormat(`# TYPE ${name} histogram\n${lines.join("\n")}\n`);
    return family.metrics[0];
  };
  const value = (family, labels) => {
    const hit = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return hit === undefined ? 0 : Number(hit.value);
  };

  test("requests, charges, 429s and latency as the responses reported them", async () => {
    const { container } = await database.containers.create({ id: "m", partitionKey: pk, throughput: 400 });
    const before = await scrape();
    let charge = 0;
    for (let i = 0; i < 12; i++) charge += (await container.items.create({ id: `i${i}`, pk: `p${i % 3}`, n: i })).requestCharge;
    for (let i = 0; i < 5; i++) charge += (await container.item(`i${i}`, `p${i % 3}`).read()).requestCharge;
    assert.equal((await container.item("missing", "p0").read()).statusCode, 404); // the SDK does not throw
    // 400 RU/s over 2 partitions: a burst of creates into one partition is throttled.
    let throttled = 0;
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        container.items.create({ id: `b${i}`, pk: "hot", pad: "x".repeat(900) }).then(
          (r) => {
            charge += r.requestCharge;
          },
          (e) => {
            if (e.code !== 429) throw e;
            throttled++;
          },
        ),
      ),
    );
    assert.ok(throttled > 0, "the burst was throttled");
    const after = await scrape();
    const delta = (name, labels) => value(after.get(name), labels) - value(before.get(name), labels);

    assert.equal(after.get("orrery_requests_total").type, "COUNTER");
    assert.equal(delta("orrery_requests_total", { resource: "docs", operation: "Create", status: "201" }), 12 + 120 - throttled);
    assert.equal(delta("orrery_requests_total", { resource: "docs", operation: "Create", status: "429" }), throttled);
    assert.equal(delta("orrery_requests_total", { resource: "docs", operation: "Read", status: "200" }), 5);
    assert.equal(delta("orrery_requests_total", { resource: "docs", operation: "Read", status: "404" }), 1);
    assert.equal(delta("orrery_throttled_requests_total", { resource: "docs", operation: "Create" }), throttled);
    // The charges the SDK saw (each rounded to 0.01 in its header), plus the 404's and
    // the 429s' (which the SDK does not hand back): at least the sum seen.
    const charged = delta("orrery_request_charge_total", { resource: "docs", operation: "Create" }) + delta("orrery_request_charge_total", { resource: "docs", operation: "Read" });
    assert.ok(charged >= charge - 0.01 * 140 && charged < charge + 10 * (throttled + 1), `charged ${charged}, the SDK saw ${charge}`);

    // The latency histogram: buckets cumulative, +Inf = count = the requests.
    assert.equal(after.get("orrery_request_duration_seconds").type, "HISTOGRAM");
    const reads = histogramOf(after, "orrery_request_duration_seconds", { resource: "docs", operation: "Read" });
    const buckets = Object.entries(reads.buckets).map(([le, n]) => [Number(le), Number(n)]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i][1] >= buckets[i - 1][1], "cumulative");
    assert.equal(Number(reads.count), 6);
    assert.equal(buckets.at(-1)[1], 6, "+Inf holds every request");
    assert.ok(Number(reads.sum) > 0);
  });

  test("items per container and per physical partition", async () => {
    const { container } = await database.containers.create({ id: "sized", partitionKey: pk });
    const ids = Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, pk: `k${i % 7}` }));
    for (const d of ids) await container.items.create(d);
    await container.item("s0", "k0").delete();
    const m = await scrape();
    const labels = { database: env.dbId, container: "sized" };
    assert.equal(value(m.get("orrery_container_items"), labels), 39);
    assert.equal(value(m.get("orrery_container_logical_partitions"), labels), 7);
    assert.equal(value(m.get("orrery_container_physical_partitions"), labels), 2);
    const partitions = m.get("orrery_partition_items").metrics.filter((x) => x.labels.database === env.dbId && x.labels.container === "sized");
    assert.equal(partitions.length, 2);
    assert.equal(partitions.reduce((s, x) => s + Number(x.value), 0), 39);
    assert.ok(value(m.get("orrery_container_bytes"), labels) > 0);
    assert.equal(value(m.get("orrery_container_splits_total"), labels), 0);
    assert.equal(m.get("orrery_container_splits_total").type, "COUNTER");
  });
});
