// The HTML report of `orrery advise` in a real browser: Debian's Chromium, headless,
// driven by playwright-core. The report is a single self-contained file (inline CSS and
// SVG, no JavaScript) that a user opens from disk, so a test that only greps the HTML
// would not notice a chart that renders empty, a page the browser complains about, or a
// report that disagrees with the measurements printed next to it. Each test runs one
// demo study with both --json and --html, opens the file:// URL, and checks that the page
// loads without console errors or page errors and fetches nothing else; that every
// chart is drawn with one bar or cell per measured value, each with a visible width; and
// that the ranking, the candidates' sections and their reasons match the JSON of the same
// run, in the JSON's order. Full-page screenshots are kept in build/test-artifacts/advise/
// (ORRERY_E2E_ARTIFACTS to change).

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { ORRERY_BIN, REPO_ROOT, makeTempDir } from "./lib/server.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ARTIFACTS = process.env.ORRERY_E2E_ARTIFACTS || path.join(REPO_ROOT, "build", "test-artifacts", "advise");
const ADVISE_TIMEOUT_MS = 120_000;
const MIN_SCREENSHOT_BYTES = 10 * 1024;

/** Runs `orrery advise --demo <demo> --items <items> --json --html <file>`; returns the parsed JSON. */
function advise(demo, items, htmlPath) {
  const argv = ["advise", "--demo", demo, "--items", String(items), "--json", "--html", htmlPath];
  const res = spawnSync(ORRERY_BIN, argv, {
    encoding: "utf8",
    timeout: ADVISE_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(res.error, undefined, `orrery ${argv.join(" ")} ran: ${res.error}`);
  assert.equal(res.status, 0, `orrery ${argv.join(" ")} exits 0; stderr:\n${res.stderr}`);
  assert.ok(fs.existsSync(htmlPath), `the report was written to ${htmlPath}`);
  return JSON.parse(res.stdout);
}

describe("the advise HTML report in Chromium", { timeout: 300_000 }, () => {
  let browser;
  let tmp;

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (make e2e-test installs Debian's chromium)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    tmp = makeTempDir("orrery-advise-html-");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
  });
  after(async () => {
    if (browser) await browser.close();
  });

  /**
   * Opens the report in a new page and records what the browser reports about it:
   * console errors, uncaught page errors, and every URL the page requested.
   */
  async function openReport(htmlPath) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = [];
    const requests = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("request", (req) => requests.push(req.url()));
    const url = pathToFileURL(htmlPath).href;
    await page.goto(url, { waitUntil: "load" });
    return { page, problems, requests, url };
  }

  /** Every rect under `scope` has a rendered, positive width and height. */
  async function assertRectsVisible(rects, what) {
    const n = await rects.count();
    for (let i = 0; i < n; ++i) {
      const box = await rects.nth(i).boundingBox();
      assert.ok(box, `${what}: rect ${i} is rendered`);
      assert.ok(box.width > 0, `${what}: rect ${i} has a positive width (got ${box.width})`);
      assert.ok(box.height > 0, `${what}: rect ${i} has a positive height (got ${box.height})`);
    }
  }

  /** Every label and figure of every chart lies inside its chart: none is cut off. */
  async function assertTextsInside(charts, what) {
    const outside = await charts.evaluateAll((svgs) => {
      const out = [];
      for (const svg of svgs) {
        const frame = svg.getBoundingClientRect();
        for (const text of svg.querySelectorAll("text")) {
          const box = text.getBoundingClientRect();
          if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) out.push(text.textContent);
        }
      }
      return out;
    });
    assert.deepEqual(outside, [], `${what}: chart texts cut off at the chart's edge`);
  }

  /** Checks one `<article class="study">` against the JSON of its study. */
  async function checkStudy(article, study) {
    const ranking = study.ranking;
    assert.ok(ranking.length > 0, `study ${study.study} ranks at least one candidate`);
    assert.equal(await article.locator("h2").textContent(), study.study);

    // Operations chart, then a size histogram and a heat chart per candidate.
    const charts = article.locator("svg.chart");
    assert.equal(await charts.count(), 1 + 2 * ranking.length, `${study.study}: number of charts`);
    await assertTextsInside(charts, study.study);

    // The ranking table: a header row, then one row per candidate in the JSON's order.
    const bodyRows = article.locator("table.ranking tr:has(td)");
    assert.equal(await article.locator("table.ranking tr").count(), ranking.length + 1);
    const rowLabels = await bodyRows.locator("td:first-child").allTextContents();
    assert.deepEqual(
      rowLabels,
      ranking.map((c, i) => `${i + 1}. ${c.label}`),
      `${study.study}: the ranking table lists the candidates best first, as the JSON does`,
    );

    // The operations chart: one bar per (operation, candidate), operations outermost.
    const operations = ranking[0].operations;
    for (const c of ranking) {
      assert.deepEqual(
        c.operations.map((op) => op.name),
        operations.map((op) => op.name),
        `${study.study}: every candidate is measured on the same operations`,
      );
    }
    const opsChart = article.locator("svg.chart:not(.heat)").first();
    const opsRects = opsChart.locator("rect");
    assert.equal(await opsRects.count(), operations.length * ranking.length, `${study.study}: operation bars`);
    const opsTitles = await opsRects.locator("title").allTextContents();
    const expectedPrefixes = [];
    for (const op of operations) for (const c of ranking) expectedPrefixes.push(`${op.name} | ${c.label}: `);
    opsTitles.forEach((title, i) =>
      assert.ok(title.startsWith(expectedPrefixes[i]), `operation bar ${i} is "${expectedPrefixes[i]}...", got "${title}"`),
    );
    await assertRectsVisible(opsRects, `${study.study} operations chart`);

    // Per candidate: heading, reasons, operations table, histogram, heat chart.
    const sections = article.locator("section.candidate");
    assert.equal(await sections.count(), ranking.length, `${study.study}: one section per candidate`);
    for (let i = 0; i < ranking.length; ++i) {
      const c = ranking[i];
      const section = sections.nth(i);
      const what = `${study.study} candidate ${i + 1} (${c.label})`;
      const heading = await section.locator("h3").textContent();
      assert.ok(heading.startsWith(`${i + 1}. ${c.label}`), `${what}: heading "${heading}"`);
      assert.deepEqual(await section.locator("ul > li").allTextContents(), c.reasons, `${what}: reasons`);
      // The operations table: a header row and one row per operation.
      const opRows = section.locator("table:not(.ranking) tr:has(td)");
      assert.deepEqual(
        await opRows.locator("td:first-child").allTextContents(),
        c.operations.map((op) => op.name),
        `${what}: operations table`,
      );

      const sectionCharts = section.locator("svg.chart");
      assert.equal(await sectionCharts.count(), 2, `${what}: a histogram and a heat chart`);
      const histogram = section.locator("svg.chart:not(.heat)");
      const histogramRects = histogram.locator("rect");
      assert.equal(
        await histogramRects.count(),
        c.logicalPartitions.sizeHistogram.length,
        `${what}: one histogram bar per non-empty size bucket`,
      );
      await assertRectsVisible(histogramRects, `${what} histogram`);
      // Each bar's tooltip gives its bucket's count of logical partitions, smallest
      // bucket first, as the JSON lists them: a whole number ("19,825", "1 logical partition").
      const histogramTitles = await histogramRects.locator("title").allTextContents();
      c.logicalPartitions.sizeHistogram.forEach((bucket, b) => {
        const m = /: ([\d,]+) logical partitions?$/.exec(histogramTitles[b]);
        assert.ok(m, `${what}: histogram bar ${b} tooltip "${histogramTitles[b]}"`);
        assert.equal(Number(m[1].replaceAll(",", "")), bucket.count, `${what}: histogram bar ${b} count`);
      });

      const heatRects = section.locator("svg.chart.heat rect");
      assert.equal(
        await heatRects.count(),
        2 * c.physicalPartitions.length,
        `${what}: a storage and a request-unit cell per physical partition`,
      );
      await assertRectsVisible(heatRects, `${what} heat chart`);
    }
  }

  /** Full-page screenshot into ARTIFACTS; the PNG must exist and not be trivially small. */
  async function screenshot(page, name) {
    const file = path.join(ARTIFACTS, `${name}.png`);
    fs.rmSync(file, { force: true });
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(fs.existsSync(file), `screenshot ${file} was written`);
    const size = fs.statSync(file).size;
    assert.ok(size > MIN_SCREENSHOT_BYTES, `screenshot ${file} is larger than 10 KB (got ${size} bytes)`);
  }

  async function assertCleanPage({ page, problems, requests, url }) {
    assert.equal(await page.locator("script").count(), 0, "the report carries no JavaScript");
    assert.deepEqual(problems, [], "no console errors or page errors");
    assert.deepEqual([...new Set(requests)], [url], "the report loads nothing but itself");
  }

  test("telemetry: one study, charts and ranking match the JSON", async () => {
    const htmlPath = path.join(tmp, "telemetry.html");
    const result = advise("telemetry", 20000, htmlPath);
    assert.ok(Array.isArray(result.ranking) && result.ranking.length > 0, "the JSON ranks candidates");
    const opened = await openReport(htmlPath);
    try {
      const { page } = opened;
      assert.match(await page.locator("h1").textContent(), /^orrery advise/);
      const articles = page.locator("article.study");
      assert.equal(await articles.count(), 1);
      assert.equal(await page.locator("svg.chart").count(), 1 + 2 * result.ranking.length);
      await checkStudy(articles.first(), result);
      await screenshot(page, "telemetry");
      await assertCleanPage(opened);
    } finally {
      await opened.page.close();
    }
  });

  test("ecommerce: three studies, products, reviews and categories, each matching its JSON", async () => {
    const htmlPath = path.join(tmp, "ecommerce.html");
    const result = advise("ecommerce", 8000, htmlPath);
    assert.ok(Array.isArray(result.studies), "the JSON lists the studies");
    assert.deepEqual(
      result.studies.map((s) => s.study),
      ["products", "reviews", "categories"],
    );
    const opened = await openReport(htmlPath);
    try {
      const { page } = opened;
      assert.match(await page.locator("h1").textContent(), /^orrery advise/);
      const articles = page.locator("article.study");
      assert.equal(await articles.count(), 3);
      assert.deepEqual(await articles.locator("h2").allTextContents(), ["products", "reviews", "categories"]);
      const totalCharts = result.studies.reduce((n, s) => n + 1 + 2 * s.ranking.length, 0);
      assert.equal(await page.locator("svg.chart").count(), totalCharts);
      for (let s = 0; s < result.studies.length; ++s) {
        await checkStudy(articles.nth(s), result.studies[s]);
      }
      await screenshot(page, "ecommerce");
      await assertCleanPage(opened);
    } finally {
      await opened.page.close();
    }
  });
});
