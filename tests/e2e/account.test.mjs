// Account read (GET /) and endpoint discovery — wire-protocol.md §2, §17.1, §18.1.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import https from "node:https";
import tls from "node:tls";
import { startServer, IS_DISK } from "./lib/server.mjs";
import { RestClient } from "./lib/rest.mjs";
import {
  sdkClient,
  restClient,
  uniqueId,
  assertStatus,
  assertActivityId,
  requestCharge,
  requestRecorder,
  dropDatabase,
} from "./lib/util.mjs";

const TIMEOUT = 120_000;

function endpointsOf(list) {
  assert.ok(Array.isArray(list), "location list must be an array");
  return list.map((l) => l.databaseAccountEndpoint);
}

/** The leaf certificate the server presents (no verification). */
function peerCertificate(host, port) {
  return new Promise((resolve, reject) => {
    const sock = tls.connect({ host, port, rejectUnauthorized: false, servername: undefined }, () => {
      const cert = sock.getPeerCertificate();
      sock.end();
      resolve(cert);
    });
    sock.on("error", reject);
  });
}

/** A strict HTTPS GET that verifies the certificate; resolves with the error. */
function strictGetError(url) {
  return new Promise((resolve) => {
    const req = https.get(url, { agent: new https.Agent({ keepAlive: false }) }, (res) => {
      res.resume();
      resolve(null);
    });
    req.on("error", (e) => resolve(e));
  });
}

describe("account (plain HTTP)", { timeout: TIMEOUT }, () => {
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test("GET / answers 200 with the server's own URL in both location lists", async () => {
    assert.match(server.endpoint, /^http:\/\/[^/]+:\d+\/$/);
    const res = await restClient(server).get("");
    assertStatus(res, 200, "GET /");
    assert.match(String(res.headers["content-type"]), /application\/json/);
    assertActivityId(res.headers, "GET /");
    requestCharge(res.headers, { positive: false, what: "GET /" });
    const acct = res.body;
    assert.ok(acct && typeof acct === "object");
    assert.equal(typeof acct.id, "string");
    assert.ok(acct.id.length > 0, "account id must not be empty");
    assert.notEqual(acct.id, "localhost", 'account id "localhost" makes the SDK ignore the location lists');
    const w = endpointsOf(acct.writableLocations);
    const r = endpointsOf(acct.readableLocations);
    assert.ok(w.length >= 1, "writableLocations must not be empty");
    assert.ok(r.length >= 1, "readableLocations must not be empty");
    assert.ok(w.includes(server.endpoint), `writableLocations ${JSON.stringify(w)} must contain ${server.endpoint}`);
    assert.ok(r.includes(server.endpoint), `readableLocations ${JSON.stringify(r)} must contain ${server.endpoint}`);
    for (const e of [...w, ...r]) assert.ok(e.endsWith("/"), `location ${e} must end with "/"`);
    for (const l of [...acct.writableLocations, ...acct.readableLocations]) {
      assert.equal(typeof l.name, "string", "each location has a name");
    }
  });

  test("GET / body members have the types other SDKs parse", async () => {
    const { body } = await restClient(server).get("");
    if (body.queryEngineConfiguration !== undefined) {
      assert.equal(typeof body.queryEngineConfiguration, "string", "queryEngineConfiguration is a JSON-encoded string");
      const qec = JSON.parse(body.queryEngineConfiguration);
      assert.equal(typeof qec, "object");
    }
    if (body.userConsistencyPolicy !== undefined) {
      assert.ok(
        ["Strong", "BoundedStaleness", "Session", "Eventual", "ConsistentPrefix"].includes(body.userConsistencyPolicy.defaultConsistencyLevel),
        `defaultConsistencyLevel ${body.userConsistencyPolicy.defaultConsistencyLevel}`,
      );
    }
    assert.ok(
      body.enableMultipleWriteLocations === undefined || body.enableMultipleWriteLocations === false,
      "a single-region server must not enable multiple write locations",
    );
    assert.notEqual(body.enablePerPartitionFailoverBehavior, true, "per-partition failover must be off");
  });

  test("GET / without authorization is rejected with 401", async () => {
    const res = await restClient(server).get("", { auth: false });
    assert.equal(res.status, 401, res.text);
    assert.equal(typeof res.body?.message, "string");
  });

  test("SDK getDatabaseAccount() works and reports the server's endpoint", async () => {
    const client = sdkClient(server);
    try {
      const resp = await client.getDatabaseAccount();
      assert.equal(resp.statusCode, 200);
      const acct = resp.resource;
      assert.ok(acct, "DatabaseAccount resource");
      assert.ok(
        acct.writableLocations.some((l) => l.databaseAccountEndpoint === server.endpoint),
        `SDK writableLocations: ${JSON.stringify(acct.writableLocations)}`,
      );
      assert.ok(
        acct.readableLocations.some((l) => l.databaseAccountEndpoint === server.endpoint),
        `SDK readableLocations: ${JSON.stringify(acct.readableLocations)}`,
      );
      assert.ok(acct.consistencyPolicy, "consistencyPolicy");
      assert.ok(
        ["Strong", "BoundedStaleness", "Session", "Eventual", "ConsistentPrefix"].includes(acct.consistencyPolicy),
        `consistencyPolicy ${acct.consistencyPolicy}`,
      );
      assert.equal(await client.getWriteEndpoint(), server.endpoint);
      assert.equal(await client.getReadEndpoint(), server.endpoint);
    } finally {
      client.dispose();
    }
  });

  test("SDK sends every request to the advertised endpoint and does not re-read the account per operation", async () => {
    const rec = requestRecorder();
    const client = sdkClient(server, { plugins: [rec.plugin] });
    const dbId = uniqueId("acct");
    try {
      const { database } = await client.databases.create({ id: dbId });
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      await container.items.create({ id: "i1", pk: "a" });
      const before = rec.log.length;
      for (let i = 0; i < 5; i++) {
        const r = await container.item("i1", "a").read();
        assert.equal(r.statusCode, 200);
      }
      const during = rec.log.slice(before);
      const accountReads = during.filter((e) => e.path === "" || e.path === "/");
      assert.equal(
        accountReads.length,
        0,
        `the SDK re-read GET / ${accountReads.length} times during 5 point reads: the location lists or the account id are not usable`,
      );
      assert.equal(during.length, 5, `expected exactly 5 requests for 5 point reads, got ${JSON.stringify(during)}`);
      for (const e of rec.log) {
        assert.equal(e.endpoint, server.endpoint, `request ${e.method} ${e.path} went to ${e.endpoint}`);
      }
    } finally {
      await dropDatabase(client, dbId);
      client.dispose();
    }
  });
});

describe("account (TLS, self-signed certificate)", { timeout: TIMEOUT }, () => {
  let server;
  before(async () => {
    server = await startServer({ tls: true });
  });
  after(async () => {
    await server?.stop();
  });

  test("the server prints an https endpoint and GET / advertises it", async () => {
    assert.match(server.endpoint, /^https:\/\/[^/]+:\d+\/$/);
    const rest = new RestClient({ endpoint: server.endpoint, rejectUnauthorized: false });
    const res = await rest.get("");
    assertStatus(res, 200, "GET / over TLS");
    assert.ok(endpointsOf(res.body.writableLocations).includes(server.endpoint));
    assert.ok(endpointsOf(res.body.readableLocations).includes(server.endpoint));
  });

  test("the certificate is self-signed: a verifying client refuses it", async () => {
    const err = await strictGetError(server.endpoint);
    assert.ok(err, "a verifying TLS client must not accept a self-signed certificate");
    assert.match(String(err.code), /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/, `unexpected TLS error ${err.code}: ${err.message}`);
    const cert = await peerCertificate("127.0.0.1", server.port);
    assert.ok(cert && cert.raw, "server presents a certificate");
  });

  test("SDK with an agent that accepts the self-signed certificate works end to end", async () => {
    const client = sdkClient(server);
    const dbId = uniqueId("tls");
    try {
      const acct = await client.getDatabaseAccount();
      assert.equal(acct.statusCode, 200);
      const { database, statusCode } = await client.databases.create({ id: dbId });
      assert.equal(statusCode, 201);
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      const created = await container.items.create({ id: "x", pk: "p", v: 1 });
      assert.equal(created.statusCode, 201);
      const read = await container.item("x", "p").read();
      assert.equal(read.statusCode, 200);
      assert.equal(read.resource.v, 1);
    } finally {
      await dropDatabase(client, dbId);
      client.dispose();
    }
  });

  // Beast 1.74's TLS stream lost the rest of a response whose head and body together
  // passed 16 KB: the client waited for the body until it timed out.
  test("large items, pages and query results go through TLS whole", async () => {
    const client = sdkClient(server);
    const dbId = uniqueId("tls-large");
    try {
      const { database } = await client.databases.create({ id: dbId });
      const { container } = await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
      const sizes = [16_000, 16_384, 17_000, 100_000, 1_500_000];
      for (const size of sizes) {
        const body = { id: `x${size}`, pk: "p", pad: "p".repeat(size) };
        const created = await container.items.create(body);
        assert.equal(created.statusCode, 201, `create of ${size} bytes`);
        const read = await container.item(body.id, "p").read();
        assert.equal(read.resource.pad.length, size, `read of ${size} bytes`);
      }
      const { resources } = await container.items.query("SELECT c.id, LENGTH(c.pad) AS n FROM c").fetchAll();
      assert.deepEqual(resources.map((r) => r.n).sort((a, b) => a - b), sizes);
      const { resources: all } = await container.items.readAll().fetchAll();
      assert.equal(all.reduce((total, item) => total + item.pad.length, 0), sizes.reduce((a, b) => a + b, 0));
    } finally {
      await dropDatabase(client, dbId);
      client.dispose();
    }
  });

  test("disk mode: the generated certificate is kept in the data directory across restarts", { skip: !IS_DISK && "disk mode only" }, async () => {
    const before = await peerCertificate("127.0.0.1", server.port);
    await server.restart();
    const after = await peerCertificate("127.0.0.1", server.port);
    assert.equal(after.fingerprint256, before.fingerprint256, "certificate changed across a restart on the same data directory");
  });
});
