// The JavaScript driver of the shared scenarios (tests/sdk/scenarios/scenarios.json),
// for both majors of @azure/cosmos: `scenarioSuite(sdk, {partitions})` registers one
// describe block that starts a server, creates the scenario containers and items through
// the SDK, then runs every query (page by page with maxItemCount and fetchNext(); after
// the first page a fresh iterator resumes from the saved continuationToken), every
// error (checked by the ErrorResponse's code and substatus, or the response's
// statusCode for the calls the SDK answers without throwing) and every charge (the
// requestCharge the SDK reports). A failure names the SDK, the storage, the scenario
// and the wire exchange.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE, startFor, clientFor, uniqueId, dropDatabase, expectStatus, step, wire } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCENARIOS = JSON.parse(fs.readFileSync(path.join(here, "../scenarios/scenarios.json"), "utf8"));

/**
 * Scenarios that fail because of a known server gap: run as `todo`, so they still run
 * and report, without failing the suite. None at present.
 */
const KNOWN_SERVER_GAPS = {};

/** The SDK's partition key value for a scenario's array (a single value for one path). */
const pkValue = (arr) => (arr.length === 1 ? arr[0] : arr);

function containerBody(name, def) {
  const partitionKey =
    def.partitionKeyPaths.length === 1
      ? { paths: def.partitionKeyPaths, version: 2 }
      : { paths: def.partitionKeyPaths, kind: "MultiHash", version: 2 };
  const body = { id: name, partitionKey };
  if (def.throughput) body.throughput = def.throughput;
  if (def.compositeIndexes || def.spatialIndexes || def.includedPaths) {
    body.indexingPolicy = { indexingMode: "consistent", automatic: true };
    if (def.includedPaths) body.indexingPolicy.includedPaths = def.includedPaths;
    if (def.compositeIndexes) body.indexingPolicy.compositeIndexes = def.compositeIndexes;
    if (def.spatialIndexes) body.indexingPolicy.spatialIndexes = def.spatialIndexes;
  }
  if (def.computedProperties) body.computedProperties = def.computedProperties;
  return body;
}

const canonical = (rows) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * Reads a query page by page: the first page through one iterator, the rest through a
 * new iterator resumed from the first page's continuation token.
 */
async function readPaged(container, sc) {
  const spec = sc.parameters ? { query: sc.query, parameters: sc.parameters } : sc.query;
  const opts = {};
  if (sc.pageSize) opts.maxItemCount = sc.pageSize;
  if (sc.partitionKey) opts.partitionKey = pkValue(sc.partitionKey);
  const pages = [];
  let it = container.items.query(spec, opts);
  const first = await it.fetchNext();
  pages.push(first);
  let resumed = false;
  if (first.hasMoreResults && first.continuationToken) {
    it = container.items.query(spec, { ...opts, continuationToken: first.continuationToken });
    resumed = true;
  }
  while (it.hasMoreResults()) {
    if (pages.length > 100) throw new Error("more than 100 pages");
    pages.push(await it.fetchNext());
  }
  return { rows: pages.flatMap((p) => p.resources ?? []), pages, resumed };
}

async function runError(sdk, env, sc) {
  const db = sc.database ? env.client.database(sc.database) : env.database;
  const container = sc.container ? db.container(sc.container) : null;
  const body = sc.body ? { ...sc.body } : undefined;
  if (body && sc.bodyPadBytes) body.pad = "x".repeat(sc.bodyPadBytes);
  const item = () => container.item(sc.id, pkValue(sc.partitionKey));
  switch (sc.op) {
    case "read":
      return item().read();
    case "create":
      return container.items.create(body);
    case "upsert":
      return container.items.upsert(body);
    case "replace":
      return item().replace(body, sc.ifMatch ? { accessCondition: { type: "IfMatch", condition: sc.ifMatch } } : {});
    case "delete":
      return item().delete();
    case "patch":
      return item().patch(sc.condition ? { operations: sc.patch, condition: sc.condition } : sc.patch);
    case "query": {
      const opts = sc.partitionKey ? { partitionKey: pkValue(sc.partitionKey) } : {};
      return container.items.query(sc.query, opts).fetchAll();
    }
    case "readContainer":
      return db.container(sc.id).read();
    case "createContainer":
      return db.containers.create(containerBody(sc.id, sc.body));
    case "readDatabase":
      return env.client.database(sc.id).read();
    case "createDatabase":
      return env.client.databases.create({ id: sc.id });
    default:
      throw new Error(`unknown op ${sc.op}`);
  }
}

/** Why a JS SDK cannot express an error scenario, or null. */
function errorSkipReason(sc) {
  if ((sc.op === "create" || sc.op === "upsert") && sc.partitionKey && sc.body) {
    const def = SCENARIOS.containers[sc.container];
    const fromBody = def.partitionKeyPaths.map((p) => sc.body[p.slice(1)]);
    if (JSON.stringify(fromBody) !== JSON.stringify(sc.partitionKey)) {
      return "the JS SDKs take a create's partition key from its body (extractPartitionKey[s] in Items.create), so they cannot send one unlike the body's";
    }
  }
  return null;
}

/**
 * @param {object} sdk one of SDKS
 * @param {{partitions?: number}} [o] `--initial-partitions` of the server (cross-partition
 *   queries then fan out over several ranges)
 */
export function scenarioSuite(sdk, { partitions } = {}) {
  const label = `${sdk.name} [${STORAGE}${partitions ? `, ${partitions} partitions` : ""}]`;
  describe(`${label} shared scenarios`, { timeout: 120_000 }, () => {
    const env = { server: null, client: null, database: null, dbId: uniqueId("scn") };
    before(async () => {
      env.server = await startFor(sdk, partitions ? ["--initial-partitions", String(partitions)] : []);
      env.client = clientFor(sdk, env.server);
      ({ database: env.database } = await step(`${label} create database`, () => env.client.databases.create({ id: env.dbId })));
      for (const [name, def] of Object.entries(SCENARIOS.containers)) {
        await step(`${label} create container ${name}`, () => env.database.containers.create(containerBody(name, def)));
      }
      for (const [name, items] of Object.entries(SCENARIOS.items)) {
        const container = env.database.container(name);
        for (const item of items) await step(`${label} create item ${name}/${item.id}`, () => container.items.create(item));
      }
    });
    after(async () => {
      if (env.client) await dropDatabase(env.client, env.dbId).catch(() => {});
      env.client?.dispose?.();
      await env.server?.stop();
    });

    for (const sc of SCENARIOS.queries) {
      const what = `${label} query "${sc.name}"`;
      const todo = KNOWN_SERVER_GAPS[sc.name];
      test(`query: ${sc.name}`, { todo }, async () => {
        const container = env.database.container(sc.container);
        const { rows, pages, resumed } = await step(what, () => readPaged(container, sc));
        const last = pages.at(-1);
        const context = `${what}: ${pages.length} page(s)${resumed ? ", resumed from a saved continuation" : ""}; last page activityId=${last.activityId} charge=${last.requestCharge}`;
        if (sc.pageSize) {
          for (const p of pages) assert.ok(p.resources.length <= sc.pageSize, `${context}: a page of ${p.resources.length} rows > maxItemCount ${sc.pageSize}`);
          if (sc.expected.length > sc.pageSize) assert.ok(resumed, `${context}: ${sc.expected.length} rows in pages of ${sc.pageSize} but no continuation token after the first page`);
        }
        if (sc.ordered) assert.deepEqual(rows, sc.expected, `${context}: rows differ`);
        else assert.deepEqual(canonical(rows), canonical(sc.expected), `${context}: rows differ (as a multiset)`);
        for (const p of pages) assert.ok(p.requestCharge > 0, `${context}: a page without x-ms-request-charge`);
      });
    }

    for (const sc of SCENARIOS.errors) {
      const what = `${label} error "${sc.name}"`;
      const skip = errorSkipReason(sc) ?? undefined;
      test(`error: ${sc.name}`, { skip, todo: KNOWN_SERVER_GAPS[sc.name] }, async () => {
        await expectStatus(() => runError(sdk, env, sc), { status: sc.status, substatus: sc.substatus, what });
      });
    }

    for (const sc of SCENARIOS.charges) {
      const what = `${label} charge "${sc.name}"`;
      test(`charge: ${sc.name}`, async () => {
        const container = env.database.container(sc.container);
        let res;
        if (sc.op === "read") res = await step(what, () => container.item(sc.id, pkValue(sc.partitionKey)).read());
        else if (sc.op === "create") res = await step(what, () => container.items.create(sc.body));
        else if (sc.op === "query") res = await step(what, () => container.items.query(sc.query).fetchAll());
        else throw new Error(`unknown op ${sc.op}`);
        const charge = res.requestCharge;
        assert.ok(
          typeof charge === "number" && Math.abs(charge - sc.charge) <= sc.tolerance,
          `${what}: charge ${charge}, expected ${sc.charge} ± ${sc.tolerance} (${wire(res)})`,
        );
      });
    }
  });
}
