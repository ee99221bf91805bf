// Full-text ranking and hybrid search through @azure/cosmos: ORDER BY RANK FullTextScore
// (BM25 over the container's statistics), RRF of FullTextScore and VectorDistance with
// weights, TOP and OFFSET/LIMIT, through the SDK's direct path and its hybrid pipeline
// (hybridSearchQueryInfo: statistics query, component queries, RRF in the client).
// Expected rankings are computed here: BM25 with Lucene's standard parameters (k1 = 1.2,
// b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))) over texts whose words are their
// own stems and hold no stop words, and RRF with k = 60 and dense ranks, as the SDKs fuse.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { expectCosmosError, seededRandom } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const pk = { paths: ["/pk"], version: 2 };

// Words that Snowball's English stemmer leaves as they are, and no English stop words.
const WORDS = ["swim", "run", "dog", "cat", "fish", "bird", "tree", "rock", "sun", "moon"];

const next = seededRandom(77);
const DOCS = Array.from({ length: 90 }, (_, i) => {
  const length = 2 + Math.floor(next() * 9);
  const text = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
  const angle = next() * Math.PI * 2;
  return { id: `d${i}`, pk: `p${i % 13}`, text, e: [Math.cos(angle), Math.sin(angle)] };
});
// Some documents have no text: they count in N and rank last (or not at all).
DOCS.push({ id: "notext", pk: "p1", e: [1, 0] }, { id: "numtext", pk: "p2", text: 7, e: [0, 1] });

function bm25(docs, terms) {
  const texts = docs.map((d) => (typeof d.text === "string" ? d.text.split(" ") : []));
  const N = docs.length;
  const avg = texts.reduce((s, t) => s + t.length, 0) / N;
  const df = terms.map((term) => texts.filter((t) => t.includes(term)).length);
  return docs.map((d, i) => {
    if (typeof d.text !== "string") return undefined;
    const words = texts[i];
    let score = 0;
    terms.forEach((term, j) => {
      const tf = words.filter((w) => w === term).length;
      if (tf === 0) return;
      const idf = Math.log(1 + (N - df[j] + 0.5) / (df[j] + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * words.length) / avg));
    });
    return score;
  });
}

const cosine = (a, b) => (a[0] * b[0] + a[1] * b[1]) / (Math.hypot(...a) * Math.hypot(...b));

// Dense ranks from 1 over every document, `undefined` last.
function denseRanks(scores, descending) {
  const worst = descending ? -Infinity : Infinity;
  const values = scores.map((s) => (s === undefined ? worst : s));
  const distinct = [...new Set(values)].sort((x, y) => (descending ? y - x : x - y));
  return values.map((v) => distinct.indexOf(v) + 1);
}

function rrf(components) {
  return DOCS.map((_, i) => components.reduce((sum, { ranks, weight }) => sum + Math.abs(weight) / (60 + ranks[i]), 0));
}

// Asserts that `ids` are the first rows of `expected` (ids with keys, higher first),
// allowing any order among equal keys: the groups of equal keys must agree, and the last
// group shown may be cut anywhere.
function assertRankedPrefix(ids, expected, what, skip = 0) {
  const key = new Map(expected.map((e) => [e.id, e.key]));
  const wanted = expected.slice(skip, skip + ids.length);
  assert.equal(ids.length, wanted.length, `${what}: row count`);
  for (let i = 0; i < ids.length; i++) {
    assert.ok(key.has(ids[i]), `${what}: ${ids[i]} should not be ranked`);
    assert.ok(Math.abs(key.get(ids[i]) - wanted[i].key) < 1e-9, `${what}: row ${i} is ${ids[i]} (${key.get(ids[i])}), expected key ${wanted[i].key} (${wanted[i].id})`);
  }
}

const ranked = (keys) => DOCS.map((d, i) => ({ id: d.id, key: keys[i] })).filter((e) => e.key !== undefined).sort((a, b) => b.key - a.key);

describe("hybrid search", { timeout: TIMEOUT * 2 }, () => {
  let database;
  let container;
  withServerAndDatabase("hybrid", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: async (env) => {
      ({ database } = env);
      ({ container } = await database.containers.create(
        {
          id: "docs",
          partitionKey: pk,
          fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
          vectorEmbeddingPolicy: { vectorEmbeddings: [{ path: "/e", dataType: "float32", distanceFunction: "cosine", dimensions: 2 }] },
          indexingPolicy: { fullTextIndexes: [{ path: "/text" }], vectorIndexes: [{ path: "/e", type: "flat" }] },
        },
        { offerThroughput: 24000 },
      ));
      for (let i = 0; i < DOCS.length; i += 30) await Promise.all(DOCS.slice(i, i + 30).map((d) => container.items.create(d)));
    },
  });

  const ids = async (query, options = {}) => (await container.items.query(query, options).fetchAll()).resources.map((r) => r.id);
  const bothPaths = async (query, check) => {
    check(await ids(query), "direct");
    check(await ids(query, { forceQueryPlan: true }), "hybrid pipeline");
  };

  test("ORDER BY RANK FullTextScore ranks by BM25 over the container's statistics", async () => {
    for (const terms of [["swim"], ["dog", "moon"], ["cat", "tree", "rock"]]) {
      const scores = bm25(DOCS, terms);
      // Only documents holding a term are ranked.
      const expected = ranked(scores.map((s) => (s > 0 ? s : undefined)));
      const list = terms.map((t) => `'${t}'`).join(", ");
      await bothPaths(`SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, ${list})`, (rows, path) =>
        assertRankedPrefix(rows, expected.slice(0, 10), `${terms} (${path})`));
      // The array form of the terms, and OFFSET/LIMIT.
      const array = JSON.stringify(terms);
      await bothPaths(`SELECT c.id FROM c ORDER BY RANK FullTextScore(c.text, ${array}) OFFSET 3 LIMIT 5`, (rows, path) =>
        assertRankedPrefix(rows, expected, `${terms} offset 3 limit 5 (${path})`, 3));
    }
    // Fewer matches than TOP: only those.
    const rare = bm25(DOCS, ["zebra"]).filter((s) => s > 0).length;
    assert.equal((await ids("SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'zebra')")).length, rare);
  });

  test("RRF fuses FullTextScore and VectorDistance ranks, with weights", async () => {
    const query = [0.6, 0.8];
    const text = bm25(DOCS, ["swim", "fish"]);
    const vector = DOCS.map((d) => cosine(d.e, query));
    const fused = rrf([{ ranks: denseRanks(text, true), weight: 1 }, { ranks: denseRanks(vector, true), weight: 1 }]);
    await bothPaths(`SELECT TOP 12 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'swim', 'fish'), VectorDistance(c.e, [0.6, 0.8]))`, (rows, path) =>
      assertRankedPrefix(rows, ranked(fused).slice(0, 12), `RRF (${path})`));
    // Weights: 3 for the text, and a negative weight ranks the vectors least similar first.
    const weighted = rrf([{ ranks: denseRanks(text, true), weight: 3 }, { ranks: denseRanks(vector, false), weight: -0.5 }]);
    await bothPaths(`SELECT TOP 8 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'swim', 'fish'), VectorDistance(c.e, [0.6, 0.8]), [3, -0.5])`, (rows, path) =>
      assertRankedPrefix(rows, ranked(weighted).slice(0, 8), `weighted RRF (${path})`));
    // Two full-text components, with OFFSET/LIMIT.
    const two = rrf([{ ranks: denseRanks(bm25(DOCS, ["dog"]), true), weight: 1 }, { ranks: denseRanks(bm25(DOCS, ["sun"]), true), weight: 2 }]);
    await bothPaths(`SELECT c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'dog'), FullTextScore(c.text, 'sun'), [1, 2]) OFFSET 2 LIMIT 6`, (rows, path) =>
      assertRankedPrefix(rows, ranked(two), `two full-text components (${path})`, 2));
  });

  test("ORDER BY RANK within one logical partition ranks with the container's statistics", async () => {
    const scores = bm25(DOCS, ["bird"]);
    const inPartition = ranked(scores.map((s, i) => (s > 0 && DOCS[i].pk === "p5" ? s : undefined)));
    const rows = await ids("SELECT TOP 5 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'bird')", { partitionKey: "p5" });
    assertRankedPrefix(rows, inPartition.slice(0, 5), "one partition");
  });

  test("misuses of the ranking functions get a 400", async () => {
    const cases = [
      ["SELECT TOP 5 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'swim') DESC", /Specifying a sort order \(ASC or DESC\) in the ORDER BY RANK clause is not allowed/],
      ["SELECT c.id, FullTextScore(c.text, 'swim') AS s FROM c", /FullTextScore can only be used in an ORDER BY RANK clause/],
      ["SELECT c.id FROM c WHERE RRF(FullTextScore(c.text, 'a'), FullTextScore(c.text, 'b')) > 0", /RRF can only be used in an ORDER BY RANK clause/],
      ["SELECT TOP 5 c.id FROM c ORDER BY RANK c.text", /ORDER BY RANK takes FullTextScore, VectorDistance or RRF/],
      ["SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'a'), FullTextScore(c.text, 'b'), [1])", /one weight for each/],
      ["SELECT TOP 5 c.id FROM c ORDER BY RANK FullTextScore(c.text, 3)", /terms of FullTextScore must be strings/],
    ];
    for (const [query, message] of cases) {
      const e = await expectCosmosError(container.items.query(query).fetchAll(), { code: 400, what: query });
      assert.match(e.message, message, query);
    }
  });

  test("with a full-text index a ranking reads the texts of its terms, not every text", async () => {
    // 300 texts of common words; "zebra" in 6 of them. The same ranking with and without
    // the inverted index: the same rows (BM25 computed here), and the indexed one counts
    // its statistics from index entries and reads only the 6 texts.
    const local = seededRandom(5);
    const docs = Array.from({ length: 300 }, (_, i) => {
      const words = Array.from({ length: 3 + Math.floor(local() * 6) }, () => WORDS[Math.floor(local() * WORDS.length)]);
      if (i % 50 === 7) words.splice(1, 0, "zebra");
      return { id: `z${i}`, pk: `p${i % 17}`, text: words.join(" ") };
    });
    const rank = (terms) => bm25(docs, terms).map((key, i) => ({ id: docs[i].id, key })).filter((e) => e.key > 0).sort((a, b) => b.key - a.key);
    assert.equal(rank(["zebra"]).length, 6);
    const charges = {};
    for (const indexed of [true, false]) {
      const { container: c } = await database.containers.create(
        {
          id: indexed ? "ranked-indexed" : "ranked-plain",
          partitionKey: pk,
          fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
          indexingPolicy: indexed ? { fullTextIndexes: [{ path: "/text" }] } : {},
        },
        { offerThroughput: 24000 },
      );
      for (let i = 0; i < docs.length; i += 50) await Promise.all(docs.slice(i, i + 50).map((d) => c.items.create(d)));
      for (const forceQueryPlan of [false, true]) {
        const what = `${indexed ? "indexed" : "plain"}${forceQueryPlan ? ", hybrid pipeline" : ""}`;
        const rare = await c.items.query("SELECT TOP 10 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'zebra')", { forceQueryPlan }).fetchAll();
        assertRankedPrefix(rare.resources.map((r) => r.id), rank(["zebra"]), `zebra (${what})`);
        charges[what] = rare.requestCharge;
        const both = await c.items.query("SELECT TOP 20 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'zebra', 'moon')", { forceQueryPlan }).fetchAll();
        assertRankedPrefix(both.resources.map((r) => r.id), rank(["zebra", "moon"]), `zebra moon (${what})`);
      }
    }
    for (const path of ["", ", hybrid pipeline"]) {
      assert.ok(charges[`indexed${path}`] * 4 < charges[`plain${path}`], `a rare word's ranking with the index (${charges[`indexed${path}`]} RU) should cost far less than reading every text (${charges[`plain${path}`]} RU)`);
    }
  });
});
