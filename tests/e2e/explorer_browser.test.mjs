// The Data Explorer in a real browser (issue 18): Debian's Chromium, headless, driven by
// playwright-core. A user signs in with the account key, creates a database and a
// container with a hierarchical partition key, inserts and edits items, runs a
// cross-partition query and reads its charge, and opens the partitions view. Every
// effect is checked through the official SDK, not through the page; expected values
// are computed here from the items the test writes. Screenshots are kept in
// build/test-artifacts/explorer/ (ORRERY_E2E_ARTIFACTS to change).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer, REPO_ROOT } from "./lib/server.mjs";
import { sdkClient, restClient } from "./lib/util.mjs";
import { EMULATOR_KEY } from "./lib/rest.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ARTIFACTS = process.env.ORRERY_E2E_ARTIFACTS || path.join(REPO_ROOT, "build", "test-artifacts", "explorer");
const CHARGE_RE = /^\d+\.\d\d RU$/;

describe("the Data Explorer in Chromium", { timeout: 150_000 }, () => {
  let server;
  let browser;
  let page;
  let client;
  const db = "explorerdb";
  const coll = "devices";

  async function shot(name) {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }
  async function statusCharge() {
    const text = await page.locator(".status-charge").textContent();
    assert.match(text, CHARGE_RE, "the status bar shows the action's request charge");
    return Number.parseFloat(text);
  }
  async function statusText() {
    return page.locator(".status-text").textContent();
  }

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (make e2e-test installs Debian's chromium)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    server = await startServer({ args: ["--initial-partitions", "3", "--enforce-throughput"] });
    client = sdkClient(server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", (dialog) => dialog.accept());
    await page.goto(new URL("/_explorer/", server.endpoint).href);
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) await server.stop();
  });

  test("a wrong key is refused with the server's message, then the right one signs in", async () => {
    await page.getByLabel("Account key").fill(Buffer.alloc(64, 7).toString("base64"));
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("alert").waitFor();
    assert.match(await page.getByRole("alert").textContent(), /signature|authoriz/i);
    await shot("01-wrong-key");
    await page.getByLabel("Account key").fill(EMULATOR_KEY);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("button", { name: "Create database" }).waitFor();
  });

  test("creates a database and a container with a hierarchical key and autoscale", async () => {
    await page.getByLabel("New database id").fill(db);
    await page.getByRole("button", { name: "Create database" }).click();
    await page.locator(`[data-database="${db}"]`).waitFor();
    assert.equal(await statusText(), `Created database ${db}`);
    await statusCharge();
    const database = await client.database(db).read();
    assert.equal(database.resource.id, db);
    // A database whose containers share its throughput: manual 800 RU/s.
    await page.getByLabel("Database throughput").selectOption("manual");
    await page.getByLabel("Database RU/s").fill("800");
    await page.getByLabel("New database id").fill("shareddb");
    await page.getByRole("button", { name: "Create database" }).click();
    await page.locator('[data-database="shareddb"]').waitFor();
    const sharedOffer = await client.database("shareddb").readOffer();
    assert.equal(sharedOffer.resource.content.offerThroughput, 800);
    await page.getByLabel("Database throughput").selectOption("none");

    await page.locator(`[data-database="${db}"] button[title="New container"]`).click();
    await page.getByLabel("Container id").fill(coll);
    await page.getByLabel(/Partition key paths/).fill("/tenantId,/deviceId");
    await page.locator('select[name="throughputMode"]').selectOption("autoscale");
    await page.locator('input[name="throughput"]').fill("4000");
    await page.locator('select[name="ttl"]').selectOption("seconds");
    await page.locator('input[name="ttlSeconds"]').fill("86400");
    await page.getByLabel(/Unique keys/).fill("/serial");
    await shot("02-new-container");
    await page.getByRole("button", { name: "Create container" }).click();
    await page.getByRole("tab", { name: "Items" }).waitFor();
    assert.equal(await statusText(), `Created container ${db}/${coll}`);

    const { resource } = await client.database(db).container(coll).read();
    assert.deepEqual(resource.partitionKey.paths, ["/tenantId", "/deviceId"]);
    assert.equal(resource.partitionKey.kind, "MultiHash");
    assert.equal(resource.defaultTtl, 86400);
    assert.deepEqual(resource.uniqueKeyPolicy.uniqueKeys[0].paths, ["/serial"]);
    const offer = await client.database(db).container(coll).readOffer();
    assert.equal(offer.resource.content.offerAutopilotSettings.maxThroughput, 4000);
  });

  test("inserts an item, refuses invalid JSON without writing, and edits the item", async () => {
    await page.getByRole("button", { name: "New item" }).click();
    const editor = page.getByLabel("Item JSON");
    await editor.fill('{"id": "d1", "tenantId": "t1", "deviceId": "x", "serial": "s-1", "temp": 20');
    assert.match(await page.getByRole("alert").textContent(), /Not valid JSON/);
    assert.equal(await page.getByRole("button", { name: "Create", exact: true }).isDisabled(), true);
    await shot("03-invalid-json");
    await editor.fill('{"id": "d1", "tenantId": "t1", "deviceId": "x", "serial": "s-1", "temp": 20}');
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.locator('tr[data-id="d1"]').waitFor();
    assert.equal(await statusText(), "Created item d1");
    const createCharge = await statusCharge();
    const container = client.database(db).container(coll);
    const created = await container.item("d1", ["t1", "x"]).read();
    assert.equal(created.resource.temp, 20);
    assert.equal(createCharge, created.requestCharge > 0 ? createCharge : -1, "a write is charged");

    await editor.fill('{"id": "d1", "tenantId": "t1", "deviceId": "x", "serial": "s-1", "temp": 25}');
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForFunction(() => document.querySelector(".status-text")?.textContent === "Saved item d1");
    await statusCharge();
    const edited = await container.item("d1", ["t1", "x"]).read();
    assert.equal(edited.resource.temp, 25);
    assert.notEqual(edited.resource._etag, created.resource._etag);

    // A second item with the same serial in the same logical partition breaks the
    // unique key (unique keys hold per logical partition): the server's 409 is shown.
    await page.getByRole("button", { name: "New item" }).click();
    await editor.fill('{"id": "d2", "tenantId": "t1", "deviceId": "x", "serial": "s-1"}');
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForFunction(() => document.querySelector(".status")?.classList.contains("error"));
    assert.match(await statusText(), /409/);
    await shot("04-conflict");
    const { resources } = await container.items.query("SELECT VALUE c.id FROM c").fetchAll();
    assert.deepEqual(resources, ["d1"], "the refused item was not written");

    // An item created to be deleted: chosen in the list, deleted after the confirmation.
    await container.items.create({ id: "gone", tenantId: "t9", deviceId: "z", serial: "s-9" });
    await page.getByRole("button", { name: "Refresh", exact: true }).last().click();
    await page.locator('tr[data-id="gone"]').click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.locator('tr[data-id="gone"]').waitFor({ state: "detached" });
    assert.equal(await statusText(), "Deleted item gone");
    await statusCharge();
    // (The SDK answers a read of a missing item with its 404, not an error.)
    assert.equal((await container.item("gone", ["t9", "z"]).read()).statusCode, 404);
    assert.equal((await container.item("d1", ["t1", "x"]).read()).statusCode, 200);
  });

  test("runs a cross-partition query and shows its results, charge and partitions", async () => {
    const container = client.database(db).container(coll);
    const written = [];
    for (let i = 0; i < 40; i++) {
      const item = { id: `q${i}`, tenantId: `t${i % 8}`, deviceId: `dev${i}`, serial: `n${i}`, temp: i };
      await container.items.create(item);
      written.push(item);
    }
    written.push({ id: "d1", temp: 25 }); // the item the previous test edited
    const expected = written.filter((item) => item.temp >= 10).length;
    await page.getByRole("tab", { name: "Query" }).click();
    await page.getByLabel("Query text").fill("SELECT c.id, c.temp FROM c WHERE c.temp >= 10");
    await page.getByRole("button", { name: "Run query" }).click();
    await page.locator(".result-count").waitFor();
    assert.match(await page.locator(".result-count").textContent(), new RegExp(`^${expected} in 1 page`));
    const charge = await page.locator(".query-charge").textContent();
    assert.match(charge, CHARGE_RE);
    assert.ok(Number.parseFloat(charge) > 0);
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    assert.equal(ranges.length, 3);
    const touched = (await page.locator(".partitions-touched").textContent()).split(",");
    assert.deepEqual(touched, ranges.map((r) => r.id), "a cross-partition query reads every partition");
    const results = JSON.parse(await page.locator(".results").textContent());
    assert.deepEqual(results.map((r) => r.id).sort(), written.filter((w) => w.temp >= 10).map((w) => w.id).sort());
    await shot("05-query");

    // In pages of 7: each page by its continuation, until the last, adds up to the same rows.
    await page.getByLabel("Page size").fill("7");
    await page.getByRole("button", { name: "Run query" }).click();
    await page.waitForFunction(() => document.querySelector(".result-count")?.textContent.startsWith("7 in 1 page"));
    const pages = Math.ceil(expected / 7);
    for (let n = 2; n <= pages; n++) {
      await page.getByRole("button", { name: "Next page" }).click();
      await page.waitForFunction((n) => document.querySelector(".result-count")?.textContent.endsWith(`in ${n} pages`), n);
    }
    assert.equal(await page.getByRole("button", { name: "Next page" }).count(), 0, "no page after the last");
    const paged = JSON.parse(await page.locator(".results").textContent());
    assert.deepEqual(paged.map((r) => r.id).sort(), results.map((r) => r.id).sort());
    await page.getByLabel("Page size").fill("100");

    // Scoped to one full key, the query reads one partition.
    await page.getByLabel("Partition key").fill('["t3", "dev3"]');
    await page.getByLabel("Query text").fill("SELECT * FROM c");
    await page.getByRole("button", { name: "Run query" }).click();
    await page.waitForFunction(() => document.querySelector(".result-count")?.textContent.startsWith("1 in"));
    assert.equal((await page.locator(".partitions-touched").textContent()).split(",").length, 1);
  });

  test("the partitions view shows every physical partition with its range, storage and items", async () => {
    await page.getByRole("tab", { name: "Partitions" }).click();
    await page.locator(".partition").first().waitFor();
    const container = client.database(db).container(coll);
    const { resources: ranges } = await container.readPartitionKeyRanges().fetchAll();
    assert.equal(await page.locator(".partition").count(), ranges.length);
    for (const range of ranges) {
      const section = page.locator(`[data-partition="${range.id}"]`);
      const text = await section.locator(".range").textContent();
      assert.ok(text.includes(range.maxExclusive), `partition ${range.id} shows its range ${text}`);
    }
    assert.match(await page.locator(".summary").textContent(), /3 physical partitions · 41 items/);
    assert.ok((await page.locator(".limit-line").count()) > 0, "the logical partition limit is drawn");
    assert.match(await page.locator(".logical-row span").first().textContent(), /of 20\.00 GB/);
    await shot("06-partitions");
  });

  test("the partitions view counts the 429s of a hot logical partition", async () => {
    // 400 RU/s on one partition: 1 KB writes to one key, sent without retries as fast
    // as they come back, are throttled; the test counts the 429s it receives.
    await client.database(db).containers.create({ id: "hot", partitionKey: { paths: ["/pk"], version: 2 }, throughput: 400 });
    const rest = restClient(server);
    let throttled = 0;
    let written = 0;
    for (let i = 0; i < 300; i++) {
      const res = await rest.request("POST", `dbs/${db}/colls/hot/docs`, {
        body: { id: `h${i}`, pk: "hot", pad: "x".repeat(1000) },
        pk: ["hot"],
      });
      if (res.status === 429) throttled++;
      else if (res.status === 201) written++;
      else assert.fail(`unexpected status ${res.status}`);
    }
    assert.ok(throttled > 0, "the hot partition was throttled");
    await page.getByRole("button", { name: "Refresh", exact: true }).first().click();
    await page.locator('[data-container="hot"] a').click();
    await page.getByRole("tab", { name: "Partitions" }).click();
    await page.locator(".partition .throttled .count").first().waitFor();
    const counts = await page.locator(".partition .throttled .count").allTextContents();
    assert.equal(counts.reduce((sum, c) => sum + Number(c), 0), throttled);
    assert.match(await page.locator(".summary").textContent(), new RegExp(`physical partitions · ${written} items`));
    assert.equal(await page.locator(".throttled.hot").count(), 1, "the throttled partition is marked");
    const largest = await page.locator(".logical-row code").first().textContent();
    assert.equal(largest, '["hot"]');
    await shot("07-hot-partition");
  });

  test("deletes a container and a database, after the confirmation", async () => {
    await page.locator('[data-container="hot"] button[title="Delete container"]').click();
    await page.locator('[data-container="hot"]').waitFor({ state: "detached" });
    assert.equal(await statusText(), `Deleted container ${db}/hot`);
    await assert.rejects(client.database(db).container("hot").read(), (e) => e.code === 404);
    await page.locator('[data-database="shareddb"] button[title="Delete database"]').click();
    await page.locator('[data-database="shareddb"]').waitFor({ state: "detached" });
    await assert.rejects(client.database("shareddb").read(), (e) => e.code === 404);
    const { resources } = await client.databases.readAll().fetchAll();
    assert.deepEqual(resources.map((d) => d.id), [db], "only the chosen database went");
  });
});

describe("the Data Explorer over HTTPS, as make run serves it", { timeout: 90_000 }, () => {
  test("signs in and lists databases with the self-signed certificate accepted", async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const server = await startServer({ tls: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
    try {
      await sdkClient(server).databases.create({ id: "tlsdb" });
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto(new URL("/_explorer/", server.endpoint).href);
      assert.ok(page.url().startsWith("https://"));
      await page.getByLabel("Account key").fill(EMULATOR_KEY);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.locator('[data-database="tlsdb"]').waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, "08-https.png") });
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
