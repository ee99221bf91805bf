// What the JavaScript SDK suites share: the two SDK majors (4.10.1 as `@azure/cosmos`,
// 3.17.3 under the npm alias `@azure/cosmos-v3`), the storage mode of this run, servers
// started through the e2e harness (tests/e2e/lib/server.mjs), clients configured the
// way users configure them, and failure messages that name the SDK, the scenario and
// the wire exchange (status, substatus, activity id, message).

import assert from "node:assert/strict";
import https from "node:https";
import { createRequire } from "node:module";
import * as cosmos4 from "@azure/cosmos";
import * as cosmos3 from "@azure/cosmos-v3";
import { startServer } from "../../e2e/lib/server.mjs";
import { EMULATOR_KEY } from "../../e2e/lib/rest.mjs";

const require = createRequire(import.meta.url);
const version = (name) => require(`${name}/package.json`).version;

/**
 * The SDKs under test. `tls`: whether its servers are started with TLS. 3.17.3 sends its
 * requests through the current @azure/core-rest-pipeline (the lock resolves its `^1.2.0`
 * to the version 4.10.1 uses), which refuses plain http:// unless
 * `allowInsecureConnection` is set, and 3.x has no option to set it; so, as against the
 * emulator, 3.x talks HTTPS to a self-signed certificate it is told to trust.
 */
export const SDKS = {
  v4: { key: "v4", name: `@azure/cosmos ${version("@azure/cosmos")}`, major: 4, cosmos: cosmos4, tls: false },
  v3: { key: "v3", name: `@azure/cosmos ${version("@azure/cosmos-v3")}`, major: 3, cosmos: cosmos3, tls: true },
};

export const STORAGE = (process.env.ORRERY_SDK_STORAGE || "memory").toLowerCase();
if (STORAGE !== "memory" && STORAGE !== "disk") {
  throw new Error(`ORRERY_SDK_STORAGE must be "memory" or "disk", got "${STORAGE}"`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let counter = 0;
export function uniqueId(prefix) {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** A fresh server in this run's storage mode, speaking TLS where the SDK needs it. */
export function startFor(sdk, args = []) {
  return startServer({ inMemory: STORAGE === "memory", tls: sdk.tls, args });
}

/** A CosmosClient of the SDK for a started server. */
export function clientFor(sdk, server, options = {}) {
  const opts = { endpoint: server.endpoint, key: EMULATOR_KEY, ...options };
  if (server.endpoint.startsWith("https:")) {
    opts.agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });
  }
  return new sdk.cosmos.CosmosClient(opts);
}

/** The wire side of an SDK error or response: status, substatus, activity id, message. */
export function wire(x) {
  if (!x) return "no response";
  const h = x.headers ?? {};
  const status = x.code ?? x.statusCode;
  const sub = x.substatus ?? h["x-ms-substatus"];
  const activity = x.activityId ?? h["x-ms-activity-id"];
  const msg = x.message ?? x.body?.message;
  return `status=${status} substatus=${sub ?? "-"} activityId=${activity ?? "-"}` + (msg ? ` message=${String(msg).slice(0, 300)}` : "");
}

/**
 * Awaits `p` (a promise or a function returning one) and asserts it fails with status
 * (and substatus, if given) — by an SDK ErrorResponse, or, for the calls the SDKs answer
 * without throwing (a point read's 404 and 304), by the response's statusCode.
 * `what` names the SDK and the scenario. Returns the error or response.
 */
export async function expectStatus(p, { status, substatus, what }) {
  let outcome;
  try {
    outcome = await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    if (e.code === undefined) throw new Error(`${what}: expected status ${status}, got a non-HTTP error: ${e.stack}`);
    outcome = e;
  }
  const got = outcome.code ?? outcome.statusCode;
  assert.equal(got, status, `${what}: expected status ${status}, got ${wire(outcome)}`);
  if (substatus !== undefined) {
    const sub = Number(outcome.substatus ?? outcome.headers?.["x-ms-substatus"] ?? 0);
    assert.equal(sub, substatus, `${what}: expected substatus ${substatus}, got ${wire(outcome)}`);
  }
  return outcome;
}

/** Runs f; an SDK error that escapes is rethrown with the SDK, the step and the wire exchange. */
export async function step(what, f) {
  try {
    return await f();
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    const err = new Error(`${what}: ${wire(e)}`);
    err.cause = e;
    throw err;
  }
}

/** Drops a database, ignoring a 404. */
export async function dropDatabase(client, id) {
  try {
    await client.database(id).delete();
  } catch (e) {
    if (e.code !== 404) throw e;
  }
}

/**
 * For one describe block of the 3.x suite: a server (this run's storage, TLS, extra
 * `args`), a 3.x client (`clientOptions`) and a database of its own, created before its
 * tests; dropped and stopped after them. Returns the env object the hooks fill in.
 */
export async function v3Setup(env, prefix, { args = [], clientOptions = {} } = {}) {
  env.sdk = SDKS.v3;
  env.server = await startFor(SDKS.v3, args);
  env.client = clientFor(SDKS.v3, env.server, clientOptions);
  env.dbId = uniqueId(prefix);
  ({ database: env.database } = await step(`${SDKS.v3.name} create database`, () => env.client.databases.create({ id: env.dbId })));
  return env;
}

export async function v3Teardown(env) {
  if (env.client) await dropDatabase(env.client, env.dbId).catch(() => {});
  env.client?.dispose?.();
  await env.server?.stop();
}

/** The test-name prefix of the 3.x suite: the SDK and the storage. */
export const V3 = `${SDKS.v3.name} [${STORAGE}]`;
