// Query pages that resume where the previous one ended (continuation_token.h): paging
// through the SDK's iterator (fetchNext, continuationToken) over a container of 4
// physical partitions, for ORDER BY on one path (one logical partition and across
// partitions, ascending and descending, unique and tied sort values), multi-key ORDER BY
// through a composite index, DISTINCT, GROUP BY with COUNT/SUM and OFFSET/LIMIT; writes
// between pages (inserts ahead of and behind the position, deletes, updates) never make
// an unchanged row come twice or go missing; a saved token resumes in a new client; the
// charge of a page does not grow with its number; an altered or earlier-version token
// is refused with the 400 "Invalid Continuation Token: ..."; and a server whose pages end
// after 1 ms still returns the complete result.
//
// Every expectation is computed here from the items the test wrote.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { sdkClient, expectCosmosError, restClient } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const N = 3000;
const PKS = 16;
const TEAMS = 400;

// n and b are permutations of 0..N-1 (7919 and 131 are prime to 3000); a and v repeat.
function makeItem(i) {
  return {
    id: `i${String(i).padStart(5, "0")}`,
    pk: `p${i % PKS}`,
    n: (i * 7919) % N,
    a: i % 7,
    b: (i * 131) % N,
    v: i % 13,
    team: `t${String((i * 37) % TEAMS).padStart(3, "0")}`,
    pad: "x".repeat(40),
  };
}
const ALL = Array.from({ length: N }, (_, i) => makeItem(i));

// 400 items, every fifth without n (n: distinct values otherwise).
const UN = 400;
const uItem = (i) => (i % 5 === 0 ? { id: `u${String(i).padStart(4, "0")}`, pk: `p${i % 6}` } : { id: `u${String(i).padStart(4, "0")}`, pk: `p${i % 6}`, n: (i * 7) % UN });
const U_DOCS = Array.from({ length: UN }, (_, i) => uItem(i));

const POLICY = {
  indexingMode: "consistent",
  includedPaths: [{ path: "/*" }],
  excludedPaths: [{ path: '/"_etag"/?' }],
  compositeIndexes: [[{ path: "/a", order: "ascending" }, { path: "/b", order: "descending" }]],
};

async function bulkCreate(container, docs) {
  for (let i = 0; i < docs.length; i += 1000) {
    const calls = [];
    for (let j = i; j < Math.min(docs.length, i + 1000); j += 100) {
      const ops = docs.slice(j, Math.min(docs.length, j + 100, i + 1000)).map((d) => ({ operationType: "Create", resourceBody: d }));
      calls.push(container.items.bulk(ops));
    }
    for (const results of await Promise.all(calls)) {
      for (const r of results) assert.equal(r.statusCode, 201, `bulk create: ${JSON.stringify(r).slice(0, 300)}`);
    }
  }
}

const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
/** `docs` sorted by keys [[field, "asc"|"desc"], ...]. */
function sortedBy(docs, keys) {
  return [...docs].sort((x, y) => {
    for (const [f, dir] of keys) {
      const c = cmp(x[f], y[f]);
      if (c !== 0) return dir === "desc" ? -c : c;
    }
    return 0;
  });
}
const ids = (docs) => docs.map((d) => d.id);

/**
 * Pages through `q` with fetchNext. With fresh = true every page after the first comes
 * from a new iterator given the previous page's continuationToken (the way a web app
 * resumes). Returns {rows, pages: [{rows, charge, token}]}. `between(pageIndex, rows)`
 * (may be async) runs after each page that has a continuation.
 */
async function pageThrough(container, q, options, { fresh = false, between, maxPages = 2000 } = {}) {
  const pages = [];
  const rows = [];
  let it = container.items.query(q, options);
  let token;
  for (let p = 0; p < maxPages; p++) {
    if (fresh && p > 0) it = container.items.query(q, { ...options, continuationToken: token });
    const page = await it.fetchNext();
    const got = page.resources ?? [];
    rows.push(...got);
    token = page.continuationToken;
    pages.push({ rows: got, charge: page.requestCharge, token });
    if (!fresh ? !it.hasMoreResults() : !token) return { rows, pages };
    if (options.maxItemCount > 0) assert.ok(got.length <= options.maxItemCount, `page ${p}: ${got.length} rows > maxItemCount`);
    await between?.(p, rows);
  }
  assert.fail(`${q}: still more pages after ${maxPages}`);
}

function assertNoDuplicates(values, what) {
  const seen = new Set();
  for (const v of values) {
    const k = JSON.stringify(v);
    assert.ok(!seen.has(k), `${what}: ${k} returned twice`);
    seen.add(k);
  }
}

function groupExpectation(docs) {
  const m = new Map();
  for (const d of docs) {
    const g = m.get(d.team) ?? { team: d.team, cnt: 0, s: 0 };
    g.cnt += 1;
    g.s += d.v;
    m.set(d.team, g);
  }
  return [...m.values()].sort((x, y) => cmp(x.team, y.team));
}

describe("query paging", { timeout: TIMEOUT * 4 }, () => {
  let container;
  let env;
  env = withServerAndDatabase("qpage", {
    serverOptions: { args: ["--initial-partitions", "4"] },
    ready: async (e) => {
      ({ container } = await e.database.containers.create({ id: "main", partitionKey: { paths: ["/pk"], version: 2 }, indexingPolicy: POLICY }));
      await bulkCreate(container, ALL);
    },
  });

  test("the container has several physical partitions", async () => {
    const { resources } = await container.readPartitionKeyRanges().fetchAll();
    assert.ok(resources.length >= 4, `${resources.length} ranges`);
  });

  test("ORDER BY on one path, asc and desc, across partitions and in one, pages equal a sort", { timeout: TIMEOUT }, async () => {
    const one = ALL.filter((d) => d.pk === "p3");
    const cases = [
      ["SELECT VALUE c.id FROM c ORDER BY c.n", {}, sortedBy(ALL, [["n", "asc"]])],
      ["SELECT VALUE c.id FROM c ORDER BY c.n DESC", {}, sortedBy(ALL, [["n", "desc"]])],
      ["SELECT c.id, c.n FROM c WHERE c.n >= 1000 ORDER BY c.n ASC", {}, sortedBy(ALL.filter((d) => d.n >= 1000), [["n", "asc"]])],
      ["SELECT VALUE c.id FROM c ORDER BY c.b DESC", { partitionKey: "p3" }, sortedBy(one, [["b", "desc"]])],
      ["SELECT VALUE c.id FROM c ORDER BY c.n", { partitionKey: "p3" }, sortedBy(one, [["n", "asc"]])],
    ];
    for (const [q, opts, expected] of cases) {
      for (const [maxItemCount, fresh] of [[73, false], [50, true]]) {
        const { rows, pages } = await pageThrough(container, q, { maxItemCount, ...opts }, { fresh });
        const got = rows.map((r) => (typeof r === "string" ? r : r.id));
        assert.deepEqual(got, ids(expected), `${q} ${JSON.stringify(opts)} pages of ${maxItemCount}${fresh ? ", new iterator per page" : ""}`);
        assert.ok(pages.length >= Math.ceil(expected.length / maxItemCount), `${q}: ${pages.length} pages`);
      }
    }
  });

  test("ORDER BY on a tied value: every item once, values in order", { timeout: TIMEOUT }, async () => {
    for (const [q, dir] of [["SELECT c.id, c.v FROM c ORDER BY c.v", "asc"], ["SELECT c.id, c.v FROM c ORDER BY c.v DESC", "desc"]]) {
      for (const opts of [{}, { partitionKey: "p5" }]) {
        const docs = opts.partitionKey ? ALL.filter((d) => d.pk === opts.partitionKey) : ALL;
        const { rows } = await pageThrough(container, q, { maxItemCount: 60, ...opts }, { fresh: true });
        assertNoDuplicates(rows.map((r) => r.id), q);
        assert.deepEqual(rows.map((r) => r.v), sortedBy(docs, [["v", dir]]).map((d) => d.v), `${q}: the values in order`);
        assert.deepEqual([...rows.map((r) => r.id)].sort(), ids(docs).sort(), `${q}: every item`);
      }
    }
  });

  test("multi-key ORDER BY through the composite index, in the declared and reversed order", { timeout: TIMEOUT }, async () => {
    const cases = [
      ["SELECT VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC", {}, sortedBy(ALL, [["a", "asc"], ["b", "desc"]])],
      ["SELECT VALUE c.id FROM c ORDER BY c.a DESC, c.b ASC", {}, sortedBy(ALL, [["a", "desc"], ["b", "asc"]])],
      [
        "SELECT VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC",
        { partitionKey: "p9" },
        sortedBy(ALL.filter((d) => d.pk === "p9"), [["a", "asc"], ["b", "desc"]]),
      ],
    ];
    for (const [q, opts, expected] of cases) {
      const { rows } = await pageThrough(container, q, { maxItemCount: 64, ...opts }, { fresh: true });
      assert.deepEqual(rows, ids(expected), `${q} ${JSON.stringify(opts)}`);
    }
  });

  test("DISTINCT of one path, paged: every value exactly once", { timeout: TIMEOUT }, async () => {
    const teams = [...new Set(ALL.map((d) => d.team))].sort();
    const nums = [...new Set(ALL.map((d) => d.v))].sort((x, y) => x - y);
    for (const fresh of [false, true]) {
      const dv = await pageThrough(container, "SELECT DISTINCT VALUE c.team FROM c", { maxItemCount: 50 }, { fresh });
      assertNoDuplicates(dv.rows, "DISTINCT VALUE c.team");
      assert.deepEqual([...dv.rows].sort(), teams);
      assert.ok(dv.pages.length >= teams.length / 50, `${dv.pages.length} pages`);

      const d = await pageThrough(container, "SELECT DISTINCT c.team FROM c", { maxItemCount: 50 }, { fresh });
      assertNoDuplicates(d.rows, "DISTINCT c.team");
      assert.deepEqual(d.rows.map((r) => r.team).sort(), teams);
    }
    // One logical partition, and a filtered DISTINCT of a number.
    const one = await pageThrough(container, "SELECT DISTINCT VALUE c.team FROM c", { maxItemCount: 7, partitionKey: "p2" }, { fresh: true });
    assertNoDuplicates(one.rows, "DISTINCT in p2");
    assert.deepEqual([...one.rows].sort(), [...new Set(ALL.filter((x) => x.pk === "p2").map((x) => x.team))].sort());
    const dn = await pageThrough(container, "SELECT DISTINCT VALUE c.v FROM c WHERE c.n > 10", { maxItemCount: 4 }, { fresh: true });
    assert.deepEqual([...dn.rows].sort((x, y) => x - y), nums);
    assertNoDuplicates(dn.rows, "DISTINCT VALUE c.v");
  });

  test("DISTINCT ordered by its path, paged both ways: every value once, in order", { timeout: TIMEOUT }, async () => {
    const teams = [...new Set(ALL.map((d) => d.team))].sort();
    for (const fresh of [false, true]) {
      const up = await pageThrough(container, "SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team", { maxItemCount: 20 }, { fresh });
      assert.deepEqual(up.rows, teams);
      const down = await pageThrough(container, "SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team DESC", { maxItemCount: 20 }, { fresh });
      assert.deepEqual(down.rows, [...teams].reverse());
    }
    const inP2 = [...new Set(ALL.filter((x) => x.pk === "p2").map((x) => x.team))].sort().reverse();
    const one = await pageThrough(container, "SELECT DISTINCT c.team FROM c ORDER BY c.team DESC", { maxItemCount: 7, partitionKey: "p2" }, { fresh: true });
    assert.deepEqual(one.rows.map((r) => r.team), inP2);
  });

  test("GROUP BY with COUNT and SUM, paged: every group once with its aggregates", { timeout: TIMEOUT }, async () => {
    const expected = groupExpectation(ALL);
    for (const fresh of [false, true]) {
      const { rows, pages } = await pageThrough(
        container,
        "SELECT c.team AS team, COUNT(1) AS cnt, SUM(c.v) AS s FROM c GROUP BY c.team",
        { maxItemCount: 60 },
        { fresh },
      );
      assertNoDuplicates(rows.map((r) => r.team), "GROUP BY c.team");
      assert.deepEqual([...rows].sort((x, y) => cmp(x.team, y.team)), expected);
      assert.ok(pages.length >= Math.ceil(TEAMS / 60), `${pages.length} pages`);
    }
    // SELECT VALUE form, with a filter, in one logical partition.
    const docs = ALL.filter((d) => d.pk === "p7" && d.n < 2000);
    const { rows } = await pageThrough(
      container,
      "SELECT VALUE {team: c.team, cnt: COUNT(1)} FROM c WHERE c.n < 2000 GROUP BY c.team",
      { maxItemCount: 9, partitionKey: "p7" },
      { fresh: true },
    );
    assert.deepEqual(
      [...rows].sort((x, y) => cmp(x.team, y.team)),
      groupExpectation(docs).map(({ team, cnt }) => ({ team, cnt })),
    );
  });

  test("OFFSET/LIMIT, paged", { timeout: TIMEOUT }, async () => {
    const sorted = ids(sortedBy(ALL, [["n", "asc"]]));
    const ol = await pageThrough(container, "SELECT VALUE c.id FROM c ORDER BY c.n OFFSET 130 LIMIT 700", { maxItemCount: 55 }, { fresh: true });
    assert.deepEqual(ol.rows, sorted.slice(130, 830));
    // Without ORDER BY: the order is the server's, but it is 700 distinct items.
    const plain = await pageThrough(container, "SELECT VALUE c.id FROM c OFFSET 2500 LIMIT 700", { maxItemCount: 90 }, { fresh: true });
    assert.equal(plain.rows.length, 500);
    assertNoDuplicates(plain.rows, "OFFSET 2500 LIMIT 700");
    // The two halves of a plain scan cut by OFFSET/LIMIT are the whole container.
    const first = await pageThrough(container, "SELECT VALUE c.id FROM c OFFSET 0 LIMIT 2500", { maxItemCount: 100 }, { fresh: true });
    assert.deepEqual([...first.rows, ...plain.rows].sort(), ids(ALL).sort());
    // In one logical partition.
    const one = ALL.filter((d) => d.pk === "p1");
    const p1 = await pageThrough(
      container,
      "SELECT VALUE c.id FROM c ORDER BY c.n DESC OFFSET 10 LIMIT 100",
      { maxItemCount: 30, partitionKey: "p1" },
      { fresh: true },
    );
    assert.deepEqual(p1.rows, ids(sortedBy(one, [["n", "desc"]])).slice(10, 110));
  });

  test("a plain query paged in creation order returns every item once", { timeout: TIMEOUT }, async () => {
    for (const opts of [{}, { partitionKey: "p4" }]) {
      const docs = opts.partitionKey ? ALL.filter((d) => d.pk === opts.partitionKey) : ALL;
      const { rows } = await pageThrough(container, "SELECT VALUE c.id FROM c WHERE c.v != 99", { maxItemCount: 97, ...opts }, { fresh: true });
      assertNoDuplicates(rows, "plain");
      assert.deepEqual([...rows].sort(), ids(docs).sort());
    }
  });

  test("a saved token resumes in a new client and iterator", { timeout: TIMEOUT }, async () => {
    const cases = [
      ["SELECT VALUE c.id FROM c ORDER BY c.n DESC", {}, ids(sortedBy(ALL, [["n", "desc"]]))],
      ["SELECT VALUE c.id FROM c ORDER BY c.a DESC, c.b ASC", {}, ids(sortedBy(ALL, [["a", "desc"], ["b", "asc"]]))],
      ["SELECT VALUE c.id FROM c ORDER BY c.n", { partitionKey: "p0" }, ids(sortedBy(ALL.filter((d) => d.pk === "p0"), [["n", "asc"]]))],
      ["SELECT VALUE c.team FROM c GROUP BY c.team", {}, groupExpectation(ALL).map((g) => g.team)],
    ];
    for (const [q, opts, expected] of cases) {
      const it = container.items.query(q, { maxItemCount: 40, ...opts });
      const head = [];
      let token;
      for (let p = 0; p < 3; p++) {
        const page = await it.fetchNext();
        head.push(...page.resources);
        token = page.continuationToken;
      }
      assert.equal(typeof token, "string", `${q}: a continuation after 3 pages`);
      const other = sdkClient(env.server);
      try {
        const c2 = other.database(env.dbId).container("main");
        const { rows } = await pageThrough(c2, q, { maxItemCount: 100, continuationToken: token, ...opts });
        const all = [...head, ...rows];
        if (q.includes("GROUP BY")) assert.deepEqual([...all].sort(), expected);
        else assert.deepEqual(all, expected, q);
      } finally {
        other.dispose();
      }
    }
  });

  test("the charge of a page does not grow with the page number", { timeout: TIMEOUT }, async () => {
    const cases = [
      ["SELECT * FROM c ORDER BY c.n", { maxItemCount: 50 }],
      ["SELECT * FROM c ORDER BY c.n DESC", { maxItemCount: 5, partitionKey: "p6" }],
      ["SELECT * FROM c ORDER BY c.a ASC, c.b DESC", { maxItemCount: 50 }],
      ["SELECT VALUE c.id FROM c", { maxItemCount: 50 }],
      ["SELECT DISTINCT VALUE c.team FROM c", { maxItemCount: 10 }],
      ["SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team DESC", { maxItemCount: 10 }],
      ["SELECT c.team, COUNT(1) AS cnt FROM c GROUP BY c.team", { maxItemCount: 10 }],
      ["SELECT * FROM c ORDER BY c.n OFFSET 0 LIMIT 2000", { maxItemCount: 50 }],
    ];
    for (const [q, opts] of cases) {
      const { pages } = await pageThrough(container, q, opts, { fresh: true });
      assert.ok(pages.length > 30, `${q}: ${pages.length} pages`);
      const [c2, c30] = [pages[1].charge, pages[29].charge];
      assert.ok(c2 > 0 && c30 > 0, `${q}: charges ${c2}, ${c30}`);
      assert.ok(c30 <= 1.5 * c2, `${q}: page 30 charged ${c30} RU, page 2 ${c2} RU`);
    }
  });

  // GROUP BY and DISTINCT over expressions: no index orders them, so the first page of
  // each partition range evaluates the query and keeps the rest; paging through them in
  // pages of 10 costs about what one unpaged run does, not once per page.
  test("GROUP BY and DISTINCT over expressions, paged: each evaluated once, every row once", { timeout: TIMEOUT }, async () => {
    const lowerCounts = new Map();
    for (const d of ALL) lowerCounts.set(d.team.toLowerCase(), (lowerCounts.get(d.team.toLowerCase()) ?? 0) + 1);
    const mod = [...new Set(ALL.map((d) => d.n % 97))].sort((x, y) => x - y);
    for (const [q, check] of [
      [
        "SELECT LOWER(c.team) AS t, COUNT(1) AS cnt FROM c GROUP BY LOWER(c.team)",
        (rows) => assert.deepEqual(new Map(rows.map((r) => [r.t, r.cnt]).sort()), new Map([...lowerCounts].sort())),
      ],
      ["SELECT DISTINCT VALUE c.n % 97 FROM c", (rows) => assert.deepEqual([...rows].sort((x, y) => x - y), mod)],
    ]) {
      const whole = await pageThrough(container, q, { maxItemCount: 1000 }, { fresh: true });
      const wholeCharge = whole.pages.reduce((sum, p) => sum + p.charge, 0);
      for (const fresh of [false, true]) {
        const paged = await pageThrough(container, q, { maxItemCount: 10 }, { fresh });
        assertNoDuplicates(paged.rows, q);
        check(paged.rows);
        assert.ok(paged.pages.length >= 9, `${q}: ${paged.pages.length} pages`);
        const total = paged.pages.reduce((sum, p) => sum + p.charge, 0);
        assert.ok(total <= 1.5 * wholeCharge, `${q}: ${paged.pages.length} pages charged ${total} RU in all, one page ${wholeCharge} RU`);
      }
    }
  });

  test("an altered or earlier-version token is refused with a 400 that says so", { timeout: TIMEOUT }, async () => {
    for (const [q, opts] of [
      ["SELECT VALUE c.id FROM c ORDER BY c.n", {}],
      ["SELECT DISTINCT VALUE c.team FROM c", {}],
      ["SELECT VALUE c.id FROM c", { partitionKey: "p2" }],
    ]) {
      const page = await container.items.query(q, { maxItemCount: 20, ...opts }).fetchNext();
      const token = page.continuationToken;
      assert.equal(typeof token, "string");
      const raw = Buffer.from(token, "base64").toString("latin1");
      assert.match(raw, /^[A-Z]\d+/, `token layout: ${raw}`);
      // Another emitted count, same tag.
      const altered = Buffer.from(raw.replace(/^([A-Z])(\d+)/, (_, k, n) => `${k}${Number(n) + 1}`), "latin1").toString("base64");
      for (const bad of [altered, Buffer.from("O20", "latin1").toString("base64"), "not a token!"]) {
        const err = await expectCosmosError(
          () => container.items.query(q, { maxItemCount: 20, continuationToken: bad, ...opts }).fetchNext(),
          { code: 400, what: `${q} with token ${bad}` },
        );
        assert.match(err.message, /Invalid Continuation Token/, err.message);
      }
      const earlier = await expectCosmosError(
        () => container.items.query(q, { maxItemCount: 20, continuationToken: Buffer.from("O20").toString("base64"), ...opts }).fetchNext(),
        { code: 400 },
      );
      assert.match(earlier.message, /earlier version/, earlier.message);
    }
  });

  // Items without the sort path sort first ascending and last descending (query-language
  // §"Items where the key is undefined"), under the default policy (/* : undefined values
  // are not in the index, found by a scan) and with the path explicitly included (they are).
  const explicitPolicy = { indexingMode: "consistent", includedPaths: [{ path: "/n/?" }, { path: "/*" }] };
  for (const [label, indexingPolicy] of [["default policy", undefined], ["/n/? explicitly included", explicitPolicy]]) {
    test(`items without the sort path, paged (${label})`, { timeout: TIMEOUT }, async () => {
      const { container: uc } = await env.database.containers.create({
        id: `undef-${indexingPolicy ? "explicit" : "default"}`,
        partitionKey: { paths: ["/pk"], version: 2 },
        ...(indexingPolicy ? { indexingPolicy } : {}),
      });
      await bulkCreate(uc, U_DOCS);
      const undef = U_DOCS.filter((d) => d.n === undefined).map((d) => d.id).sort();
      const defined = U_DOCS.filter((d) => d.n !== undefined);
      for (const dir of ["ASC", "DESC"]) {
        for (const opts of [{}, { partitionKey: "p0" }]) {
          const inScope = (d) => !opts.partitionKey || d.pk === opts.partitionKey;
          const { rows } = await pageThrough(uc, `SELECT c.id, c.n FROM c ORDER BY c.n ${dir}`, { maxItemCount: 25, ...opts }, { fresh: true });
          const u = undef.filter((id) => inScope(U_DOCS.find((d) => d.id === id)));
          const sortedDefined = ids(sortedBy(defined.filter(inScope), [["n", dir === "ASC" ? "asc" : "desc"]]));
          const [head, tail] = dir === "ASC" ? [rows.slice(0, u.length), rows.slice(u.length)] : [rows.slice(sortedDefined.length), rows.slice(0, sortedDefined.length)];
          assert.deepEqual(head.map((r) => r.id).sort(), u, `${dir} ${JSON.stringify(opts)}: the items without n, ${dir === "ASC" ? "first" : "last"}`);
          assert.ok(head.every((r) => r.n === undefined));
          assert.deepEqual(tail.map((r) => r.id), sortedDefined, `${dir} ${JSON.stringify(opts)}: the items with n, in order`);
        }
      }
      // Grouped: the items without n make one group of their own (no n in its row).
      const g = await pageThrough(uc, "SELECT c.n AS n, COUNT(1) AS cnt FROM c GROUP BY c.n", { maxItemCount: 7 }, { fresh: true });
      const expectedGroups = [{ cnt: undef.length }, ...sortedBy(defined, [["n", "asc"]]).map((d) => ({ n: d.n, cnt: 1 }))];
      const byN = (x, y) => (x.n === undefined ? -1 : y.n === undefined ? 1 : x.n - y.n);
      assert.deepEqual([...g.rows].sort(byN), expectedGroups);
      const dv = await pageThrough(uc, "SELECT DISTINCT VALUE c.n FROM c", { maxItemCount: 7 }, { fresh: true });
      assert.deepEqual([...dv.rows].sort((x, y) => x - y), defined.map((d) => d.n).sort((x, y) => x - y));
      if (indexingPolicy) {
        // Undefined values in the index: the first page reads about what a later one does.
        const { pages } = await pageThrough(uc, "SELECT * FROM c ORDER BY c.n", { maxItemCount: 25 }, { fresh: true });
        assert.ok(pages[0].charge <= 1.5 * pages[3].charge, `first page ${pages[0].charge} RU, fourth ${pages[3].charge} RU`);
      }
    });
  }

  // Under the default policy (/*) an undefined sort or group value is not in the index;
  // the server counts, per physical partition, the items and the entries under each path
  // (engine/path_presence.h), so when every item has the path the first page of an
  // ascending ORDER BY, of a GROUP BY and of a DISTINCT reads what a later one does
  // instead of every item (3,000 items here: about 900 RU before, 30 for page 2).
  test("the first page costs about what a later page does under the default policy", { timeout: TIMEOUT }, async () => {
    for (const q of [
      "SELECT * FROM c ORDER BY c.n",
      "SELECT * FROM c ORDER BY c.n DESC",
      "SELECT DISTINCT VALUE c.team FROM c",
      "SELECT c.team, COUNT(1) AS cnt FROM c GROUP BY c.team",
    ]) {
      const opts = { maxItemCount: 20 };
      const p1 = await container.items.query(q, opts).fetchNext();
      const p2 = await container.items.query(q, { ...opts, continuationToken: p1.continuationToken }).fetchNext();
      assert.ok(p1.requestCharge <= 3 * p2.requestCharge, `${q}: page 1 charged ${p1.requestCharge} RU, page 2 ${p2.requestCharge} RU`);
    }
  });

  // The counts follow every kind of write: an item that loses the path (replace, patch,
  // upsert, batch, create) comes first again, and once none lacks it the first page is
  // cheap again.
  test("items that lose or regain the sort path are found on the first page", { timeout: TIMEOUT }, async () => {
    const { container: lc } = await env.database.containers.create({ id: "lose-path", partitionKey: { paths: ["/pk"], version: 2 } });
    const docs = Array.from({ length: 600 }, (_, i) => ({ id: `l${String(i).padStart(4, "0")}`, pk: `p${i % 4}`, n: i, pad: "x".repeat(200) }));
    await bulkCreate(lc, docs);
    const q = "SELECT c.id, c.n FROM c ORDER BY c.n";
    const firstPage = async () => {
      const page = await lc.items.query(q, { maxItemCount: 10 }).fetchNext();
      return { ids: page.resources.map((r) => r.id), charge: page.requestCharge };
    };
    const cheap = await firstPage();
    assert.deepEqual(cheap.ids, docs.slice(0, 10).map((d) => d.id));
    // Each way of writing an item without n.
    await lc.item("l0100", "p0").replace({ id: "l0100", pk: "p0" });
    await lc.item("l0201", "p1").patch([{ op: "remove", path: "/n" }]);
    await lc.items.upsert({ id: "l0302", pk: "p2" });
    await lc.items.batch([{ operationType: "Replace", id: "l0403", resourceBody: { id: "l0403", pk: "p3" } }], "p3");
    await lc.items.create({ id: "new", pk: "p1" });
    const lacking = ["l0100", "l0201", "l0302", "l0403", "new"];
    const found = await firstPage();
    assert.deepEqual(found.ids.slice(0, 5).sort(), lacking, "the items without n come first");
    assert.deepEqual(found.ids.slice(5), docs.slice(0, 5).map((d) => d.id));
    // They regain n, or go: the first page is cheap again.
    await lc.item("l0100", "p0").replace({ id: "l0100", pk: "p0", n: 100 });
    await lc.item("l0201", "p1").patch([{ op: "add", path: "/n", value: 201 }]);
    await lc.items.upsert({ id: "l0302", pk: "p2", n: 302 });
    await lc.item("l0403", "p3").delete();
    await lc.items.batch([{ operationType: "Delete", id: "new" }], "p1");
    const again = await firstPage();
    assert.deepEqual(again.ids, docs.slice(0, 10).map((d) => d.id));
    assert.ok(again.charge <= 1.5 * cheap.charge, `first page ${again.charge} RU, at first ${cheap.charge} RU`);
  });

  // WHERE <equality half the items match> ORDER BY <one key>: the pages stream through
  // the ORDER BY path and resume, so a page costs the same in a container four times as
  // large (seeking the matches again for every page made it cost four times as much).
  test("an equality most items match pages in ORDER BY order at a cost that does not grow with the container", { timeout: TIMEOUT }, async () => {
    const medianPage = {};
    for (const size of [600, 2400]) {
      const { container: ec } = await env.database.containers.create({ id: `broad-eq-${size}`, partitionKey: { paths: ["/pk"], version: 2 } });
      const docs = Array.from({ length: size }, (_, i) => ({ id: `e${i}`, pk: `p${i % 16}`, flag: i % 2, n: (i * 7919) % size, pad: "x".repeat(100) }));
      await bulkCreate(ec, docs);
      for (const dir of ["asc", "desc"]) {
        const q = `SELECT c.id, c.n FROM c WHERE c.flag = 1 ORDER BY c.n ${dir.toUpperCase()}`;
        const expected = ids(sortedBy(docs.filter((d) => d.flag === 1), [["n", dir]]));
        const paged = await pageThrough(ec, q, { maxItemCount: 20 });
        assert.deepEqual(paged.rows.map((r) => r.id), expected, `${size} items, ${dir}: the matches in order`);
        const charges = paged.pages.slice(1, -1).map((p) => p.charge).sort((a, b) => a - b);
        medianPage[`${size} ${dir}`] = charges[Math.floor(charges.length / 2)];
      }
    }
    for (const dir of ["asc", "desc"]) {
      const [small, large] = [medianPage[`600 ${dir}`], medianPage[`2400 ${dir}`]];
      assert.ok(large <= 1.5 * small, `${dir}: a page costs ${small} RU over 600 items, ${large} RU over 2,400`);
    }
  });

  // ORDER BY the alias of a JOIN over an array streams through the array's index: the
  // rows in element order, each once (equal elements of one item too), pages within
  // maxItemCount, and a page costs the same in a container four times as large.
  test("ORDER BY a JOIN alias pages in element order at a cost that does not grow with the container", { timeout: TIMEOUT }, async () => {
    const medianPage = {};
    for (const size of [300, 1200]) {
      const { container: jc } = await env.database.containers.create({ id: `join-order-${size}`, partitionKey: { paths: ["/pk"], version: 2 } });
      const docs = Array.from({ length: size }, (_, i) => ({ id: `j${i}`, pk: `p${i % 16}`, tags: [(i * 7) % 100, (i * 7) % 100, 1000 + i] }));
      await bulkCreate(jc, docs);
      const rowsOf = (d) => d.tags.map((t) => [t, d.id]);
      for (const dir of ["asc", "desc"]) {
        const sign = dir === "asc" ? 1 : -1;
        const expected = docs.flatMap(rowsOf).sort((x, y) => sign * (x[0] - y[0]) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
        const paged = await pageThrough(jc, `SELECT VALUE [t, c.id] FROM c JOIN t IN c.tags ORDER BY t ${dir.toUpperCase()}`, { maxItemCount: 20 });
        assert.deepEqual(paged.rows.map((r) => r[0]), expected.map((r) => r[0]), `${size} items, ${dir}: elements in order`);
        const byKey = (rows) => rows.map((r) => `${r[0]}|${r[1]}`).sort();
        assert.deepEqual(byKey(paged.rows), byKey(expected), `${size} items, ${dir}: every row once`);
        const charges = paged.pages.slice(1, -1).map((p) => p.charge).sort((a, b) => a - b);
        medianPage[`${size} ${dir}`] = charges[Math.floor(charges.length / 2)];
      }
    }
    for (const dir of ["asc", "desc"]) {
      const [small, large] = [medianPage[`300 ${dir}`], medianPage[`1200 ${dir}`]];
      assert.ok(large <= 1.5 * small, `${dir}: a page costs ${small} RU over 300 items, ${large} RU over 1,200`);
    }
  });

  // GROUP BY several keys and DISTINCT of several values page by an item path among
  // them; a page may end among one team's rows, and the next goes on from there.
  test("GROUP BY several keys and DISTINCT of several values, paged", { timeout: TIMEOUT }, async () => {
    const counts = new Map();
    for (const d of ALL) {
      const k = `${d.team}|${d.a}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const g = await pageThrough(container, "SELECT c.team, c.a, COUNT(1) AS cnt FROM c GROUP BY c.team, c.a", { maxItemCount: 7 }, { fresh: true });
    const got = new Map(g.rows.map((r) => [`${r.team}|${r.a}`, r.cnt]));
    assert.equal(g.rows.length, counts.size, "each group once");
    assert.deepEqual(new Map([...got].sort()), new Map([...counts].sort()));
    const d = await pageThrough(container, "SELECT DISTINCT c.a, c.team FROM c", { maxItemCount: 7 }, { fresh: true });
    assertNoDuplicates(d.rows.map((r) => `${r.team}|${r.a}`), "DISTINCT c.a, c.team");
    assert.deepEqual(new Set(d.rows.map((r) => `${r.team}|${r.a}`)), new Set(counts.keys()));
  });

  // Groups stream in value order: a group inserted ahead of the last one returned comes,
  // one behind does not, a group deleted before its turn does not, and every group left
  // alone comes once with its final aggregate.
  for (const q of ["SELECT DISTINCT VALUE c.team FROM c", "SELECT c.team AS team, COUNT(1) AS cnt FROM c GROUP BY c.team"]) {
    test(`writes between pages of groups: ${q}`, { timeout: TIMEOUT }, async () => {
      const { container: gc } = await env.database.containers.create({
        id: `g-${q.includes("GROUP") ? "group" : "distinct"}`,
        partitionKey: { paths: ["/pk"], version: 2 },
      });
      const docs = ALL.slice(0, 1200).map((d) => ({ id: d.id, pk: d.pk, team: d.team }));
      await bulkCreate(gc, docs);
      const counts = new Map();
      for (const d of docs) counts.set(d.team, (counts.get(d.team) ?? 0) + 1);
      const deleted = new Set();
      const ahead = new Set();
      const behind = new Set();
      let extra = 0;
      const teamOf = (r) => (typeof r === "string" ? r : r.team);
      const between = async (p, rows) => {
        const last = teamOf(rows[rows.length - 1]);
        const seen = new Set(rows.map(teamOf));
        // delete every item of the last team not yet returned
        const pending = [...counts.keys()].filter((t) => !seen.has(t) && !deleted.has(t) && t > last).sort();
        const gone = pending[pending.length - 1];
        if (gone) {
          for (const d of docs.filter((x) => x.team === gone)) await gc.item(d.id, d.pk).delete();
          deleted.add(gone);
        }
        // a new group just after the last one returned, and one just before it
        for (const [team, set] of [[`${last}a`, ahead], [`${last.slice(0, -1)}`, behind]]) {
          if (counts.has(team) || seen.has(team)) continue;
          await gc.items.create({ id: `g${extra++}`, pk: `p${extra % 16}`, team });
          set.add(team);
        }
      };
      const { rows } = await pageThrough(gc, q, { maxItemCount: 20 }, { fresh: true, between });
      const got = rows.map(teamOf);
      for (let i = 1; i < got.length; i++) assert.ok(got[i - 1] < got[i], `value order: ${got[i - 1]} then ${got[i]}`);
      for (const [team, cnt] of counts) {
        if (deleted.has(team)) {
          assert.ok(!got.includes(team), `${team} deleted before its turn was returned`);
          continue;
        }
        const found = rows.filter((r) => teamOf(r) === team);
        assert.equal(found.length, 1, `${team} returned ${found.length} times`);
        if (typeof found[0] === "object") assert.equal(found[0].cnt, cnt, `${team}: COUNT`);
      }
      for (const t of ahead) assert.equal(got.filter((x) => x === t).length, 1, `${t}, inserted ahead, returned once`);
      for (const t of behind) assert.ok(!got.includes(t), `${t}, inserted behind, was returned`);
      assert.ok(deleted.size >= 5 && ahead.size >= 5 && behind.size >= 3, `${deleted.size} deleted, ${ahead.size} ahead, ${behind.size} behind`);
    });
  }

  // Writes between pages. Each case gets a container of its own.
  const WN = 1200;
  const wItem = (i) => ({ id: `w${String(i).padStart(5, "0")}`, pk: `p${i % 8}`, n: (i * 7919) % WN * 10, tag: 0 });
  for (const [name, q, opts, dir] of [
    ["ORDER BY asc across partitions", "SELECT * FROM c ORDER BY c.n", {}, "asc"],
    ["ORDER BY desc in one logical partition", "SELECT * FROM c ORDER BY c.n DESC", { partitionKey: "p3" }, "desc"],
    ["a plain query in creation order", "SELECT * FROM c", {}, null],
  ]) {
    test(`writes between pages, ${name}: no unchanged row twice, none skipped`, { timeout: TIMEOUT }, async () => {
      const { container: wc } = await env.database.containers.create({
        id: `w-${name.replace(/[^a-z]/gi, "")}`,
        partitionKey: { paths: ["/pk"], version: 2 },
      });
      const docs = Array.from({ length: WN }, (_, i) => wItem(i));
      await bulkCreate(wc, docs);
      const inScope = (d) => !opts.partitionKey || d.pk === opts.partitionKey;
      const changed = new Set(); // ids updated or deleted
      const updatedTag = new Map(); // id -> tag of an update made before it was returned
      const deleted = new Set();
      const insertedAhead = new Set();
      const insertedBehind = new Set();
      let extra = 0;
      const byId = new Map(docs.map((d) => [d.id, d]));
      const before = (x, y) => (dir === "desc" ? x > y : x < y); // x sorts before y
      const between = async (p, rows) => {
        if (p % 2 === 1) return;
        const last = rows[rows.length - 1];
        const seen = new Set(rows.map((r) => r.id));
        const pending = [...byId.values()].filter((d) => inScope(d) && !seen.has(d.id) && !changed.has(d.id));
        // delete two not yet returned
        for (const d of pending.slice(-2)) {
          await wc.item(d.id, d.pk).delete();
          changed.add(d.id);
          deleted.add(d.id);
        }
        // update one not yet returned (a field that is not the sort key), one already returned
        const upd = pending[Math.floor(pending.length / 2)];
        if (upd) {
          await wc.item(upd.id, upd.pk).replace({ ...upd, tag: p + 1 });
          changed.add(upd.id);
          updatedTag.set(upd.id, p + 1);
        }
        const old = rows[0];
        await wc.item(old.id, old.pk).replace({ ...byId.get(old.id), tag: 100 + p });
        changed.add(old.id);
        // insert one ahead of the position and one behind it
        const pk = opts.partitionKey ?? `p${extra % 8}`;
        if (dir) {
          const aheadN = dir === "asc" ? last.n + 5 : last.n - 5; // between existing values (multiples of 10)
          const behindN = dir === "asc" ? last.n - 5 : last.n + 5;
          for (const [n, set] of [[aheadN, insertedAhead], [behindN, insertedBehind]]) {
            const d = { id: `x${extra++}`, pk, n, tag: 0 };
            await wc.items.create(d);
            set.add(d.id);
          }
          assert.ok(before(behindN, aheadN));
        } else {
          const d = { id: `x${extra++}`, pk, n: -1, tag: 0 };
          await wc.items.create(d);
          insertedAhead.add(d.id);
        }
      };
      const { rows } = await pageThrough(wc, q, { maxItemCount: opts.partitionKey ? 15 : 50, ...opts }, { fresh: true, between });
      const got = rows.map((r) => r.id);
      const unchanged = ids(docs.filter((d) => inScope(d) && !changed.has(d.id)));
      const counts = new Map();
      for (const id of got) counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const id of unchanged) assert.equal(counts.get(id) ?? 0, 1, `${id} (unchanged) returned ${counts.get(id) ?? 0} times`);
      for (const id of deleted) assert.ok(!counts.has(id), `deleted ${id} returned`);
      assert.ok(deleted.size >= 4, `${deleted.size} deletes made`);
      if (dir) {
        for (const id of insertedAhead) assert.equal(counts.get(id), 1, `${id} inserted ahead of the position: returned ${counts.get(id) ?? 0} times`);
        for (const id of insertedBehind) assert.ok(!counts.has(id), `${id} inserted behind the position was returned`);
        // The order holds across pages.
        for (let i = 1; i < rows.length; i++) {
          assert.ok(!before(rows[i].n, rows[i - 1].n), `row ${i}: ${rows[i - 1].n} then ${rows[i].n}`);
        }
      }
      // An update of a row not yet returned shows in the row returned.
      for (const [id, tag] of updatedTag) {
        if (deleted.has(id)) continue;
        const returned = rows.filter((r) => r.id === id);
        assert.equal(returned.length, 1, `${id}, updated before its turn, returned ${returned.length} times`);
        assert.equal(returned[0].tag, tag, `${id} is returned as updated`);
      }
    });
  }
});

describe("query paging with 1 ms pages", { timeout: TIMEOUT * 2 }, () => {
  const M = 2000;
  const docs = ALL.slice(0, M);
  let container;
  let rest;
  let dbId;
  withServerAndDatabase("qpage1ms", {
    serverOptions: { args: ["--initial-partitions", "3", "--query-page-time-ms", "1"] },
    ready: async (e) => {
      rest = restClient(e.server);
      dbId = e.dbId;
      ({ container } = await e.database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 }, indexingPolicy: POLICY }));
      await bulkCreate(container, docs);
    },
  });

  const sortedTeams = () => [...new Set(docs.map((d) => d.team))].sort();
  const cases = [
    ["SELECT VALUE c.id FROM c ORDER BY c.n DESC", {}, (rows) => assert.deepEqual(rows, ids(sortedBy(docs, [["n", "desc"]])))],
    ["SELECT VALUE c.id FROM c ORDER BY c.a ASC, c.b DESC", {}, (rows) => assert.deepEqual(rows, ids(sortedBy(docs, [["a", "asc"], ["b", "desc"]])))],
    ["SELECT VALUE c.id FROM c", {}, (rows) => assert.deepEqual([...rows].sort(), ids(docs).sort())],
    ["SELECT DISTINCT VALUE c.team FROM c", {}, (rows) => assert.deepEqual(rows.sort(), sortedTeams())],
    [
      "SELECT c.team AS team, COUNT(1) AS cnt, SUM(c.v) AS s FROM c GROUP BY c.team",
      {},
      (rows) => assert.deepEqual([...rows].sort((x, y) => cmp(x.team, y.team)), groupExpectation(docs)),
    ],
    ["SELECT VALUE c.id FROM c ORDER BY c.n OFFSET 100 LIMIT 1500", {}, (rows) => assert.deepEqual(rows, ids(sortedBy(docs, [["n", "asc"]])).slice(100, 1600))],
    // Shapes evaluated whole for every page.
    ["SELECT VALUE COUNT(1) FROM c", {}, (rows) => assert.deepEqual(rows, [M])],
    ["SELECT VALUE c.id FROM c WHERE c.a = 3 ORDER BY c.b", {}, (rows) => assert.deepEqual(rows, ids(sortedBy(docs.filter((d) => d.a === 3), [["b", "asc"]])))],
    ["SELECT DISTINCT VALUE LOWER(c.team) FROM c", {}, (rows) => assert.deepEqual([...rows].sort(), sortedTeams())],
    ["SELECT VALUE c.id FROM c ORDER BY c.n", { partitionKey: "p3" }, (rows) => assert.deepEqual(rows, ids(sortedBy(docs.filter((d) => d.pk === "p3"), [["n", "asc"]])))],
  ];
  for (const [q, opts, check] of cases) {
    test(`complete and correct: ${q} ${JSON.stringify(opts)}`, { timeout: TIMEOUT }, async () => {
      // (-1 asks for the server's default page of 100; 100000 for everything at once.)
      for (const maxItemCount of [100, 100000]) {
        const { rows, pages } = await pageThrough(container, q, { maxItemCount, ...opts }, { fresh: maxItemCount === 100 });
        check(rows);
        if (maxItemCount === 100 && rows.length > 100) assert.ok(pages.length >= Math.ceil(rows.length / 100), `${pages.length} pages`);
      }
    });
  }

  test("complete and correct: ORDER BY over items without the sort value", { timeout: TIMEOUT }, async () => {
    const { container: uc } = await container.database.containers.create({ id: "undef", partitionKey: { paths: ["/pk"], version: 2 } });
    await bulkCreate(uc, U_DOCS);
    const undef = U_DOCS.filter((d) => d.n === undefined).map((d) => d.id).sort();
    const defined = U_DOCS.filter((d) => d.n !== undefined);
    for (const dir of ["ASC", "DESC"]) {
      const { rows } = await pageThrough(uc, `SELECT c.id, c.n FROM c ORDER BY c.n ${dir}`, { maxItemCount: 100000 });
      assert.equal(rows.length, UN);
      const head = dir === "ASC" ? rows.slice(0, undef.length) : rows.slice(UN - undef.length);
      const tail = dir === "ASC" ? rows.slice(undef.length) : rows.slice(0, UN - undef.length);
      assert.deepEqual(head.map((r) => r.id).sort(), undef, dir);
      assert.deepEqual(tail.map((r) => r.id), ids(sortedBy(defined, [["n", dir === "ASC" ? "asc" : "desc"]])), dir);
    }
  });

  // Sent without a partition key range, as an SDK's first try does (the Python SDK keeps
  // to it when it succeeds): the server merges its 3 partitions' streams itself. A filter
  // that costs a few dozen microseconds an item and keeps one in eight makes most pages
  // end by time, many of them empty, while the partitions are read to different places.
  test("a slow filter across partitions: pages cut by time lose no row", { timeout: TIMEOUT }, async () => {
    const slow = 'RegexMatch(REPLICATE(c.team, 300), "t0[0-4][0-9]$")';
    const keep = docs.filter((d) => /t0[0-4][0-9]$/.test(d.team));
    const cases = [
      [`SELECT VALUE c.id FROM c WHERE ${slow} ORDER BY c.n DESC`, (rows) => assert.deepEqual(rows, ids(sortedBy(keep, [["n", "desc"]])))],
      [`SELECT VALUE c.id FROM c WHERE ${slow} ORDER BY c.n`, (rows) => assert.deepEqual(rows, ids(sortedBy(keep, [["n", "asc"]])))],
      [`SELECT TOP 50 VALUE c.id FROM c WHERE ${slow} ORDER BY c.n`, (rows) => assert.deepEqual(rows, ids(sortedBy(keep, [["n", "asc"]])).slice(0, 50))],
      [
        `SELECT VALUE c.id FROM c WHERE ${slow} ORDER BY c.n OFFSET 30 LIMIT 70`,
        (rows) => assert.deepEqual(rows, ids(sortedBy(keep, [["n", "asc"]])).slice(30, 100)),
      ],
      [
        `SELECT VALUE c.id FROM c WHERE ${slow} ORDER BY c.a ASC, c.b DESC`,
        (rows) => assert.deepEqual(rows, ids(sortedBy(keep, [["a", "asc"], ["b", "desc"]]))),
      ],
      [`SELECT VALUE c.id FROM c WHERE ${slow}`, (rows) => assert.deepEqual([...rows].sort(), ids(keep).sort())],
      [`SELECT DISTINCT VALUE c.team FROM c WHERE ${slow}`, (rows) => assert.deepEqual([...rows].sort(), [...new Set(keep.map((d) => d.team))].sort())],
      [
        `SELECT c.team AS team, COUNT(1) AS cnt, SUM(c.v) AS s FROM c WHERE ${slow} GROUP BY c.team`,
        (rows) => assert.deepEqual([...rows].sort((x, y) => cmp(x.team, y.team)), groupExpectation(keep)),
      ],
    ];
    for (const [q, check] of cases) {
      const rows = [];
      let token;
      let cut = 0;
      for (let pages = 0; pages === 0 || token; pages++) {
        assert.ok(pages < 5000, `${q}: still more pages after 5000`);
        const headers = { "x-ms-documentdb-query-enablecrosspartition": "true", "x-ms-max-item-count": "100" };
        if (token) headers["x-ms-continuation"] = token;
        const res = await rest.query(`dbs/${dbId}/colls/c/docs`, q, [], { headers });
        assert.equal(res.status, 200, `${q}: ${res.text.slice(0, 300)}`);
        rows.push(...res.body.Documents);
        token = res.headers["x-ms-continuation"];
        if (token && res.body.Documents.length < 100) cut++;
      }
      check(rows);
      if (q.includes("ORDER BY c.n")) assert.ok(cut > 0, `${q}: no page ended by time`);
    }
  });

  test("pages end early: an ORDER BY of 2,000 items asked in one page comes in several", { timeout: TIMEOUT }, async () => {
    const { rows, pages } = await pageThrough(container, "SELECT * FROM c ORDER BY c.n", { maxItemCount: 100000 });
    assert.equal(rows.length, M);
    assert.ok(pages.length > 1, `${pages.length} pages`);
  });
});
