// Offers through the SDK — wire-protocol.md §13: container.readOffer() finds the
// container's offer by its _self, offer.replace() changes the throughput at once (and
// it is kept across a restart), invalid throughput is refused.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { IS_DISK } from "./lib/server.mjs";
import { sdkClient, uniqueId, expectCosmosError } from "./lib/util.mjs";
import { withServerAndDatabase } from "./lib/fixture.mjs";

const TIMEOUT = 60_000;

describe("offers", { timeout: TIMEOUT }, () => {
  let server;
  let client;
  let dbId;
  let database;
  const env = withServerAndDatabase("offer", { ready: (e) => ({ server, client, dbId, database } = e) });

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
    // Asked for no throughput in a database without shared throughput: the service's
    // default of 400 RU/s.
    const { resource: byDefault } = await (await database.containers.create({ id: "n", partitionKey: { paths: ["/pk"], version: 2 } })).container.readOffer();
    assert.equal(byDefault.content.offerThroughput, 400);
    await expectCosmosError(client.offer(offer.id).replace({ ...offer, content: { offerThroughput: 400 } }), { code: 400, what: "autoscale to manual" });
  });

  test("a database's shared throughput: its containers have no offer of their own; replace", async () => {
    const { database: shared } = await client.databases.create({ id: uniqueId("shared"), throughput: 800 });
    try {
      const { container } = await shared.containers.create({ id: "s", partitionKey: { paths: ["/pk"], version: 2 } });
      const { resource: none } = await container.readOffer();
      assert.equal(none, undefined, "a container sharing its database's throughput has no offer");
      const { resource: offer } = await shared.readOffer();
      assert.equal(offer.content.offerThroughput, 800);
      const { resource: replaced, headers } = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 1200 } });
      assert.equal(replaced.content.offerThroughput, 1200);
      assert.equal(headers["x-ms-offer-replace-pending"], "false");
      const { resource: again } = await shared.readOffer();
      assert.equal(again.content.offerThroughput, 1200);
      await expectCosmosError(client.offer(offer.id).replace({ ...offer, content: { offerAutopilotSettings: { maxThroughput: 4000 } } }), { code: 400, what: "manual to autoscale" });
    } finally {
      await shared.delete();
    }
  });

  test("a replace beyond partitions x 10,000 RU/s is pending, and locks further replaces", async () => {
    // 1,000 RU/s: one physical partition, which serves up to 10,000 RU/s.
    const { container } = await database.containers.create({ id: "p", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 1000 });
    const { resource: offer } = await container.readOffer();
    const atOnce = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 10000 } });
    assert.equal(atOnce.headers["x-ms-offer-replace-pending"], "false");
    assert.equal(atOnce.resource.content.offerThroughput, 10000);

    const pending = await client.offer(offer.id).replace({ ...atOnce.resource, content: { ...offer.content, offerThroughput: 25000 } });
    assert.equal(pending.headers["x-ms-offer-replace-pending"], "true");
    // Until partitions are added the offer keeps the throughput it has.
    assert.equal(pending.resource.content.offerThroughput, 10000);
    const read = await client.offer(offer.id).read();
    assert.equal(read.headers["x-ms-offer-replace-pending"], "true");
    assert.equal(read.resource.content.offerThroughput, 10000);
    await expectCosmosError(client.offer(offer.id).replace({ ...read.resource, content: { ...offer.content, offerThroughput: 5000 } }), { code: 423, what: "a replace while one is pending" });
  });

  test("a replace cannot go below 1/100 of the highest throughput ever set", async () => {
    // 60,000 RU/s: ten physical partitions, so 100,000 RU/s applies at once.
    const { container } = await database.containers.create({ id: "h", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 60000 });
    const { resource: offer } = await container.readOffer();
    const high = await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 100000 } });
    assert.equal(high.headers["x-ms-offer-replace-pending"], "false");
    const e = await expectCosmosError(client.offer(offer.id).replace({ ...high.resource, content: { ...offer.content, offerThroughput: 900 } }), { code: 400, what: "below the floor" });
    assert.match(e.message, /minimum of 1000 RU\/s/);
    const low = await client.offer(offer.id).replace({ ...high.resource, content: { ...offer.content, offerThroughput: 1000 } });
    assert.equal(low.resource.content.offerThroughput, 1000);
    const read = await client.offer(offer.id).read();
    assert.equal(read.headers["x-ms-cosmos-min-throughput"], "1000");
  });

  test("a shared database holds at most 25 containers that share its throughput", async () => {
    const { database: shared } = await client.databases.create({ id: uniqueId("cap"), throughput: 400 });
    try {
      for (let i = 0; i < 25; i++) {
        await shared.containers.create({ id: `c${i}`, partitionKey: { paths: ["/pk"], version: 2 } });
      }
      const e = await expectCosmosError(shared.containers.create({ id: "c25", partitionKey: { paths: ["/pk"], version: 2 } }), { code: 400, what: "a 26th sharing container" });
      assert.match(e.message, /at most 25 containers/);
      // A container with throughput of its own does not share, and may be added.
      const { resource } = await shared.containers.create({ id: "own", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
      assert.equal(resource.id, "own");
    } finally {
      await shared.delete();
    }
  });

  test("a replaced throughput survives a restart", { skip: !IS_DISK && "needs on-disk storage" }, async () => {
    const { container } = await database.containers.create({ id: "r", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 600 });
    const { resource: offer } = await container.readOffer();
    await client.offer(offer.id).replace({ ...offer, content: { ...offer.content, offerThroughput: 700 } });
    await server.restart();
    client.dispose();
    client = sdkClient(server); // the endpoint changes with the restart
    env.client = client;
    const { resource: after } = await client.database(dbId).container("r").readOffer();
    assert.equal(after.content.offerThroughput, 700);
  });
});
