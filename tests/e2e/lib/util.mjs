// Shared helpers for the e2e tests: SDK client construction, unique names,
// error/header assertions, and EPK hashing with the SDK's own code.

import assert from "node:assert/strict";
import crypto from "node:crypto";
import https from "node:https";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { CosmosClient } from "@azure/cosmos";
import { EMULATOR_KEY, RestClient } from "./rest.mjs";
import { REPO_ROOT } from "./server.mjs";

let counter = 0;
/** A name unique across files, processes and runs (valid as a db/container/item id). */
export function uniqueId(prefix = "e2e") {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}-${rnd}`;
}

/**
 * A CosmosClient for a started server, configured the way users configure it.
 * @param {{endpoint: string, tls?: boolean}} server
 * @param {{key?: string, plugins?: any[], options?: object}} [o]
 */
export function sdkClient(server, o = {}) {
  const opts = {
    endpoint: server.endpoint,
    key: o.key ?? EMULATOR_KEY,
    connectionPolicy: { enableEndpointDiscovery: true, ...(o.connectionPolicy ?? {}) },
    ...(o.options ?? {}),
  };
  if (server.endpoint.startsWith("https:")) {
    opts.agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });
  }
  if (o.plugins) opts.plugins = o.plugins;
  return new CosmosClient(opts);
}

/** A RestClient for a started server. */
export function restClient(server, o = {}) {
  return new RestClient({ endpoint: server.endpoint, key: o.key ?? EMULATOR_KEY });
}

/**
 * Awaits `p` (a promise or a function returning one), asserts that it rejects
 * with an SDK ErrorResponse with the given HTTP status (and substatus if given),
 * and returns the error.
 */
export async function expectCosmosError(p, { code, substatus, what = "operation" } = {}) {
  let err;
  try {
    const res = await (typeof p === "function" ? p() : p);
    assert.fail(`${what}: expected an error with status ${code}, got success (status ${res?.statusCode})`);
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    err = e;
  }
  assert.equal(
    err.code,
    code,
    `${what}: expected status ${code}, got code=${err.code} substatus=${err.substatus} message=${String(err.message).slice(0, 400)}`,
  );
  if (substatus !== undefined) {
    assert.equal(err.substatus, substatus, `${what}: expected substatus ${substatus}, got ${err.substatus} (${String(err.message).slice(0, 300)})`);
  }
  assert.equal(typeof err.message, "string", `${what}: error body must carry a message`);
  return err;
}

/** Asserts a REST response status, with the body in the failure message. */
export function assertStatus(res, status, what = "request") {
  assert.equal(res.status, status, `${what}: expected HTTP ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
}

/** Asserts a REST error response: status, JSON body with string message (and code name if given). */
export function assertErrorResponse(res, status, { code, substatus, what = "request" } = {}) {
  assertStatus(res, status, what);
  assert.ok(res.body && typeof res.body === "object", `${what}: error body must be a JSON object, got ${JSON.stringify(res.text.slice(0, 200))}`);
  assert.equal(typeof res.body.message, "string", `${what}: error body must have a string "message"`);
  assert.ok(res.body.message.length > 0, `${what}: error message must not be empty`);
  if (code !== undefined) assert.equal(res.body.code, code, `${what}: body.code`);
  if (substatus !== undefined) {
    assert.equal(Number(res.headers["x-ms-substatus"]), substatus, `${what}: x-ms-substatus (body ${res.text.slice(0, 300)})`);
  }
  assert.match(String(res.headers["content-type"] ?? ""), /application\/json/, `${what}: content-type of an error`);
}

export const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Request charge header: present, numeric, > 0 (positive) or >= 0. */
export function requestCharge(headers, { positive = true, what = "response" } = {}) {
  const raw = headers?.["x-ms-request-charge"];
  assert.notEqual(raw, undefined, `${what}: x-ms-request-charge header missing`);
  const n = Number(raw);
  assert.ok(Number.isFinite(n), `${what}: x-ms-request-charge "${raw}" is not a number`);
  if (positive) assert.ok(n > 0, `${what}: x-ms-request-charge must be > 0, got ${raw}`);
  else assert.ok(n >= 0, `${what}: x-ms-request-charge must be >= 0, got ${raw}`);
  return n;
}

/** x-ms-activity-id header present and a GUID. */
export function assertActivityId(headers, what = "response") {
  const a = headers?.["x-ms-activity-id"];
  assert.ok(a, `${what}: x-ms-activity-id header missing`);
  assert.match(a, GUID_RE, `${what}: x-ms-activity-id must be a GUID`);
  return a;
}

/** Byte length of a _rid (standard base64, "-" used for "/" in URLs). */
export function ridBytes(rid) {
  assert.equal(typeof rid, "string", "_rid must be a string");
  return Buffer.from(rid.replace(/-/g, "/"), "base64").length;
}

/** Asserts the system properties every resource carries (wire-protocol §4.2). */
export function assertSystemProps(r, what = "resource") {
  assert.ok(r && typeof r === "object", `${what}: body missing`);
  assert.equal(typeof r.id, "string", `${what}: id`);
  assert.equal(typeof r._rid, "string", `${what}: _rid`);
  assert.ok(r._rid.length > 0, `${what}: _rid empty`);
  assert.equal(typeof r._self, "string", `${what}: _self`);
  assert.ok(r._self.endsWith("/"), `${what}: _self must end with "/" (${r._self})`);
  assert.equal(typeof r._etag, "string", `${what}: _etag`);
  assert.ok(r._etag.length > 0, `${what}: _etag empty`);
  assert.ok(Number.isInteger(r._ts), `${what}: _ts must be an integer (epoch seconds), got ${r._ts}`);
  const now = Math.floor(Date.now() / 1000);
  assert.ok(Math.abs(now - r._ts) < 600, `${what}: _ts ${r._ts} is not close to now (${now})`);
}

/** Deletes a database, ignoring errors (test cleanup). */
export async function dropDatabase(client, id) {
  try {
    await client.database(id).delete();
  } catch {
    /* ignore */
  }
}

/** A 1 KB (1024 bytes of JSON) item with about 10 properties. */
export function oneKbItem(id, pk, extra = {}) {
  const doc = { id, pk, ...extra };
  for (let i = 0; i < 8; i++) doc[`p${i}`] = "";
  const base = Buffer.byteLength(JSON.stringify(doc));
  const need = 1024 - base;
  assert.ok(need > 0, "item skeleton too large");
  const per = Math.floor(need / 8);
  for (let i = 0; i < 8; i++) doc[`p${i}`] = "x".repeat(per + (i < need - per * 8 ? 1 : 0));
  assert.equal(Buffer.byteLength(JSON.stringify(doc)), 1024);
  return doc;
}

/** An item whose JSON is exactly `bytes` bytes long (one big string property). */
export function sizedItem(id, pk, bytes) {
  const doc = { id, pk, blob: "" };
  const base = Buffer.byteLength(JSON.stringify(doc));
  doc.blob = "y".repeat(bytes - base);
  assert.equal(Buffer.byteLength(JSON.stringify(doc)), bytes);
  return doc;
}

/** Removes the system properties (to compare user content). */
export function userContent(doc) {
  const out = {};
  for (const [k, v] of Object.entries(doc)) if (!["_rid", "_self", "_etag", "_ts", "_attachments", "_lsn"].includes(k)) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------------
// EPK hashing: use the SDK's own implementation (not exported from the package's
// public entry point, so import its file directly; the package's "exports" map
// only applies to bare specifiers).
const require = createRequire(import.meta.url);
const sdkDir = path.dirname(require.resolve("@azure/cosmos/package.json"));
const hashModule = await import(pathToFileURL(path.join(sdkDir, "dist", "esm", "utils", "hashing", "hash.js")).href);

/**
 * EPK (uppercase hex) of a partition key value list for a container partitionKey
 * definition, computed by @azure/cosmos's hashPartitionKey. Use {} for "none".
 */
export function epkOf(values, pkDef) {
  return hashModule.hashPartitionKey(values, pkDef);
}

/** The partition key components of a document for a definition ({} where the path is missing). */
export function pkValuesOf(doc, pkDef) {
  return pkDef.paths.map((p) => {
    let v = doc;
    for (const part of p.split("/").filter(Boolean)) {
      if (v !== null && typeof v === "object" && part in v) v = v[part];
      else {
        v = undefined;
        break;
      }
    }
    return v === undefined ? {} : v;
  });
}

/** The EPK test vectors shipped with the repo (tests/testdata/epk-vectors.json). */
export function loadEpkVectors() {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "tests", "testdata", "epk-vectors.json"), "utf8"));
}

/** a <= x < b in plain string order ("" is the minimum, "FF" the max). */
export function inRange(epk, min, max) {
  return epk >= min && epk < max;
}

/** Collects every request the SDK sends (plugin on "request"). */
export function requestRecorder() {
  const log = [];
  const plugin = {
    on: "request",
    plugin: async (context, diagnosticNode, next) => {
      log.push({
        method: context.method,
        endpoint: context.endpoint,
        path: context.path,
        resourceType: context.resourceType,
        operationType: context.operationType,
      });
      return next(context, diagnosticNode);
    },
  };
  return { log, plugin };
}

/**
 * Everything a server stores, as one hash: databases, containers (partition key and
 * indexing policy) and every item with its etag. Equal before and after a request
 * means the request changed nothing.
 * @param {RestClient} rest
 */
export async function storeChecksum(rest) {
  const hash = crypto.createHash("sha256");
  const byId = (a, b) => (a.id < b.id ? -1 : 1);
  const { items: dbs } = await rest.readFeedAll("dbs", "Databases");
  for (const db of dbs.map((d) => d.id).sort()) {
    hash.update(`db:${db}`);
    const { items: colls } = await rest.readFeedAll(`dbs/${db}/colls`, "DocumentCollections");
    for (const c of colls.sort(byId)) {
      hash.update(`coll:${c.id}:${JSON.stringify(c.partitionKey)}:${JSON.stringify(c.indexingPolicy)}`);
      const { items: docs } = await rest.readFeedAll(`dbs/${db}/colls/${c.id}/docs`, "Documents");
      for (const d of docs.sort(byId)) hash.update(`doc:${d.id}:${d._etag}:${JSON.stringify(d)}`);
    }
  }
  return hash.digest("hex");
}

/**
 * A small deterministic generator (mulberry32) of numbers in [0, 1), so that a test's
 * random data is the same on every run and a failure can be replayed.
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
