// Offers through the SDK — wire-protocol.md §13: container.readOffer() finds the
// container's offer by its _self, offer.replace() changes the throughput at once (and
// it is kept across a restart), invalid throughput is refused.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, IS_DISK } from "./lib/server.mjs";
import { sdkClient, uniqueId, dropDatabase, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 60_000;

describe("offers", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let database;

  before(async () => {
    server = await startServer();
    client = sdkClient(server);
    dbId = uniqueId("offer");
    ({ database } = await client.databases.create({ id: dbId }));
  });

  after(async () => {
    if (client && dbId) await dropDatabase(client, dbId);
    client?.dispose();
    await server?.stop();
  });

  test("readOffer and replace of manual throughput", async () => {
    const { container } = await database.containers.create({ id: "m", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 1000 });
    const { resource: c } = await container.read();
    const { resource: offer } = await container.readOffer();
    assert.ok(offer, "the container's offer");
    assert.equal(offer.resource, c._self);
    assert.equal(offer.offerResourceId, c._rid);
    assert.equal(offer.offerVersion, "V2");
    assert.equal(offer.content.offerThroughput, 1000);

    const { resource: replaced } = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 2500 } });
    assert.equal(replaced.content.offerThroughput, 2500);
    const { resource: again } = await container.readOffer();
    assert.equal(again.content.offerThroughput, 2500);

    await expectCosmosError(client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 250 } }), { code: 400 });
    await expectCosmosError(client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 1050 } }), { code: 400 });
    const { resources: all } = await client.offers.readAll().fetchAll();
    assert.ok(all.some((o) => o.id === offer.id && o.content.offerThroughput === 2500));
  });

  test("autoscale offers and containers without their own throughput", async () => {
    const { container } = await database.containers.create({
      id: "a",
      partitionKey: { paths: ["/pk"], version: 2 },
      maxThroughput: 4000,
    });
    const { resource: offer } = await container.readOffer();
    assert.equal(offer.content.offerAutopilotSettings.maxThroughput, 4000);
    const { resource: none } = await (await database.containers.create({ id: "n", partitionKey: { paths: ["/pk"], version: 2 } })).container.readOffer();
    assert.equal(none, undefined, "no dedicated throughput, no offer");
    await expectCosmosError(client.offer(offer.id).replace({ ...offer, content: { offerThroughput: 400 } }), { code: 400, what: "autoscale to manual" });
  });

  test("a replaced throughput survives a restart", { skip: !IS_DISK && "needs on-disk storage" }, async () => {
    const { container } = await database.containers.create({ id: "r", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 600 });
    const { resource: offer } = await container.readOffer();
    await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 700 } });
    await server.restart();
    client.dispose();
    client = sdkClient(server); // the endpoint changes with the restart
    const { resource: after } = await client.database(dbId).container("r").readOffer();
    assert.equal(after.content.offerThroughput, 700);
  });
});
