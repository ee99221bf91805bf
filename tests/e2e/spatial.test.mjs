// Spatial data through the SDK (query-language.md §5.10, §9): the published samples of
// Microsoft's "Querying geospatial data" article, a spatial index that makes radius and
// region queries load only candidate items (compared with the same container without
// one), the index kept through deletes and a policy change, and the 400s for bad
// spatial policies.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { withServerAndDatabase } from "./lib/fixture.mjs";
import { restClient, expectCosmosError } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const PROGRESS = "x-ms-documentdb-collection-index-transformation-progress";
const pk = { paths: ["/pk"], version: 2 };

const policy = (extra = {}) => ({
  indexingMode: "consistent",
  includedPaths: [{ path: "/*" }],
  excludedPaths: [{ path: '/"_etag"/?' }],
  ...extra,
});
const spatialPolicy = policy({ spatialIndexes: [{ path: "/location/*", types: ["Point", "Polygon"] }] });

// A 20 × 20 grid of points 0.01° apart around Seattle.
const CENTER = [-122.4, 47.5];
const GRID = [];
for (let i = 0; i < 20; i++) {
  for (let j = 0; j < 20; j++) {
    GRID.push({ id: `g${i}-${j}`, pk: `p${(i + j) % 7}`, location: { type: "Point", coordinates: [-122.5 + i * 0.01, 47.4 + j * 0.01] } });
  }
}

// Haversine on the mean-radius sphere: within 0.5% of the ellipsoidal distance, which
// the radius chosen below clears for every grid point (checked in the test).
function sphereMetres(a, b) {
  const rad = (d) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b[1] - a[1]) / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(rad(b[0] - a[0]) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

function parseMetrics(text) {
  const out = {};
  for (const part of String(text).split(";")) {
    const [k, v] = part.split("=");
    out[k] = Number(v);
  }
  return out;
}

async function fill(container, items) {
  for (let i = 0; i < items.length; i += 50) {
    await Promise.all(items.slice(i, i + 50).map((d) => container.items.create(d)));
  }
}

describe("spatial", { timeout: TIMEOUT * 2 }, () => {
  let server;
  let rest;
  let database;
  let dbId;
  withServerAndDatabase("spatial", {
    serverOptions: { args: ["--initial-partitions", "3"] },
    ready: (env) => {
      ({ server, dbId, database } = env);
      rest = restClient(server);
    },
  });

  const runWithMetrics = async (containerId, q) => {
    const res = await rest.query(`dbs/${dbId}/colls/${containerId}/docs`, q, [], {
      headers: { "x-ms-documentdb-populatequerymetrics": "true", "x-ms-documentdb-query-enablecrosspartition": "true", "x-ms-max-item-count": "1000" },
    });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return {
      rows: res.body.Documents,
      metrics: parseMetrics(res.headers["x-ms-documentdb-query-metrics"]),
      charge: Number(res.headers["x-ms-request-charge"]),
    };
  };

  test("the published samples of the geospatial query article", async () => {
    const { container } = await database.containers.create({ id: "families", partitionKey: pk, indexingPolicy: spatialPolicy });
    await container.items.create({ id: "WakefieldFamily", pk: "w", location: { type: "Point", coordinates: [31.9, -4.8] } });
    await container.items.create({ id: "AndersenFamily", pk: "a", location: { type: "Point", coordinates: [-122.12, 47.66] } });
    const { container: areas } = await database.containers.create({ id: "areas", partitionKey: pk, indexingPolicy: spatialPolicy });
    await areas.items.create({ id: "WesternCape", pk: "c", location: { type: "Polygon", coordinates: [[[31.8, -5], [32, -5], [32, -4.7], [31.8, -4.7], [31.8, -5]]] } });
    await areas.items.create({ id: "Elsewhere", pk: "c", location: { type: "Polygon", coordinates: [[[10, 10], [11, 10], [11, 11], [10, 11], [10, 10]]] } });
    const q = async (text) => (await container.items.query(text).fetchAll()).resources;
    const qAreas = async (text) => (await areas.items.query(text).fetchAll()).resources;

    assert.deepEqual(
      await q(`SELECT f.id FROM Families f WHERE ST_DISTANCE(f.location, {"type": "Point", "coordinates":[31.9, -4.8]}) < 30000`),
      [{ id: "WakefieldFamily" }],
    );
    assert.deepEqual(
      await q(`SELECT f.id FROM Families f WHERE ST_WITHIN(f.location, {"type": "Polygon", "coordinates": [[[31.8, -5], [32, -5], [32, -4.7], [31.8, -4.7], [31.8, -5]]]})`),
      [{ id: "WakefieldFamily" }],
    );
    assert.deepEqual(await qAreas(`SELECT a.id FROM Areas a WHERE ST_WITHIN({"type": "Point", "coordinates":[31.9, -4.8]}, a.location)`), [{ id: "WesternCape" }]);
    assert.deepEqual(await q(`SELECT ST_ISVALID({ "type": "Point", "coordinates": [31.9, -132.8] }) AS b`), [{ b: false }]);
    assert.deepEqual(await q(`SELECT ST_ISVALIDDETAILED({ "type": "Polygon", "coordinates": [[ [ 31.8, -5 ], [ 31.8, -4.7 ], [ 32, -4.7 ], [ 32, -5 ] ]]}) AS b`), [
      {
        b: {
          valid: false,
          reason:
            "The Polygon input is not valid because the start and end points of the ring number 1 are not the same. Each ring of a polygon must have the same start and end points.",
        },
      },
    ]);
    assert.deepEqual(
      await q(`SELECT VALUE ST_ISVALIDDETAILED({"type": "Point", "coordinates": [133.75682784306348, -184.38876194345323]})`),
      [{ valid: false, reason: "Latitude values must be between -90 and 90 degrees." }],
    );
    assert.deepEqual(
      await qAreas(`SELECT a.id FROM Areas a WHERE ST_INTERSECTS(a.location, {"type": "Point", "coordinates": [31.9, -4.8]})`),
      [{ id: "WesternCape" }],
    );
    // ST_AREA's documented example: 735,970,283.0522614 m² (the service's own digits, to
    // about 1e-11: src/spatial/README.md says what is left).
    const [area] = await q(`SELECT VALUE ST_AREA({"type": "Polygon", "coordinates": [[[31.8, -5], [32, -5], [32, -4.7], [31.8, -4.7], [31.8, -5]]]})`);
    assert.ok(Math.abs(area - 735970283.0522614) < 0.01, `ST_AREA of the documented polygon: ${area}`);
    // ST_DISTANCE's documented example (learn.microsoft.com st-distance; Azure-Samples/
    // cosmos-db-nosql-query-samples scripts/st-distance): two offices' distances to a point,
    // 3.345269817267368 km and 1907.438421299902 km, which a geodesic misses by 2e-8.
    const offices = [
      { id: "7489042854", name: "Headquarters", coordinates: [-122.12826822304672, 47.63980239335718], km: 3.345269817267368 },
      { id: "6878613356", name: "Research and development", coordinates: [-96.84368664765994, 46.81297794314663], km: 1907.438421299902 },
    ];
    for (const office of offices) {
      const [km] = await q(
        `SELECT VALUE ST_DISTANCE({"type": "Point", "coordinates": [${office.coordinates}]}, {"type": "Point", "coordinates": [-122.11758113953535, 47.66901087006131]}) / 1000`,
      );
      assert.ok(Math.abs(km - office.km) <= 1e-12 * office.km, `${office.name}: ${km} km, published ${office.km}`);
    }
  });

  test("a radius query reads only candidates with a spatial index, and answers as a full scan", async () => {
    const { container: indexed } = await database.containers.create({ id: "grid-indexed", partitionKey: pk, indexingPolicy: spatialPolicy });
    const { container: plain } = await database.containers.create({ id: "grid-plain", partitionKey: pk, indexingPolicy: policy() });
    await fill(indexed, GRID);
    await fill(plain, GRID);
    const radius = 3500;
    for (const d of GRID) {
      const m = sphereMetres(CENTER, d.location.coordinates);
      assert.ok(Math.abs(m - radius) > radius * 0.006, `${d.id} is too close to the radius to decide on a sphere`);
    }
    const expected = GRID.filter((d) => sphereMetres(CENTER, d.location.coordinates) < radius).map((d) => d.id).sort();
    const query = `SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, {"type": "Point", "coordinates": [${CENTER}]}) < ${radius}`;
    const withIndex = await runWithMetrics("grid-indexed", query);
    const withoutIndex = await runWithMetrics("grid-plain", query);
    assert.deepEqual([...withIndex.rows].sort(), expected);
    assert.deepEqual([...withoutIndex.rows].sort(), expected);
    assert.equal(withoutIndex.metrics.retrievedDocumentCount, GRID.length);
    assert.ok(withIndex.metrics.retrievedDocumentCount < GRID.length / 3, `retrieved ${withIndex.metrics.retrievedDocumentCount}`);
    assert.ok(withIndex.metrics.retrievedDocumentCount >= expected.length);
    assert.ok(withIndex.charge < withoutIndex.charge, `RU ${withIndex.charge} < ${withoutIndex.charge}`);

    // ST_WITHIN a region: the north-east quarter of the grid.
    const region = `{"type": "Polygon", "coordinates": [[[-122.405, 47.495], [-122.305, 47.495], [-122.305, 47.595], [-122.405, 47.595], [-122.405, 47.495]]]}`;
    const inside = GRID.filter(({ location: { coordinates: [x, y] } }) => x > -122.405 && x < -122.305 && y > 47.495 && y < 47.595).map((d) => d.id).sort();
    const within = await runWithMetrics("grid-indexed", `SELECT VALUE c.id FROM c WHERE ST_WITHIN(c.location, ${region})`);
    assert.deepEqual([...within.rows].sort(), inside);
    assert.ok(within.metrics.retrievedDocumentCount < GRID.length / 2, `retrieved ${within.metrics.retrievedDocumentCount}`);
    const intersects = await runWithMetrics("grid-indexed", `SELECT VALUE c.id FROM c WHERE ST_INTERSECTS(c.location, ${region})`);
    assert.deepEqual([...intersects.rows].sort(), inside);

    // A deleted item leaves the index; a moved one is found at its new place.
    await indexed.item(expected[0], GRID.find((d) => d.id === expected[0]).pk).delete();
    const moved = GRID.find((d) => d.id === "g0-0");
    await indexed.items.upsert({ ...moved, location: { type: "Point", coordinates: CENTER } });
    const after = await runWithMetrics("grid-indexed", query);
    assert.deepEqual([...after.rows].sort(), [...expected.slice(1), "g0-0"].sort());
  });

  test("invalid GeoJSON is stored, never matched, and reported by ST_ISVALIDDETAILED", async () => {
    const { container } = await database.containers.create({ id: "bad-geojson", partitionKey: pk, indexingPolicy: spatialPolicy });
    await container.items.create({ id: "lat", pk: "a", location: { type: "Point", coordinates: [10, 95] } });
    await container.items.create({ id: "open", pk: "a", location: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] } });
    await container.items.create({ id: "text", pk: "a", location: "10,10" });
    // A bow tie: its ring crosses itself at (10, 10).
    await container.items.create({ id: "bowtie", pk: "a", location: { type: "Polygon", coordinates: [[[9, 9], [11, 11], [11, 9], [9, 11], [9, 9]]] } });
    const near = `{"type": "Point", "coordinates": [10, 10]}`;
    const { resources: matched } = await container.items.query(`SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, ${near}) < 100000000`).fetchAll();
    assert.deepEqual(matched, []);
    const { resources: touching } = await container.items.query(`SELECT VALUE c.id FROM c WHERE ST_INTERSECTS(c.location, ${near}) OR ST_WITHIN(${near}, c.location)`).fetchAll();
    assert.deepEqual(touching, []);
    const { resources: distances } = await container.items.query(`SELECT VALUE {d: ST_DISTANCE(c.location, ${near})} FROM c`).fetchAll();
    assert.deepEqual(distances, [{}, {}, {}, {}]);
    const { resources: reasons } = await container.items.query("SELECT c.id, ST_ISVALIDDETAILED(c.location) AS v FROM c WHERE c.id != 'text'").fetchAll();
    const byId = Object.fromEntries(reasons.map((r) => [r.id, r.v]));
    assert.deepEqual(byId.lat, { valid: false, reason: "Latitude values must be between -90 and 90 degrees." });
    assert.equal(byId.open.valid, false);
    assert.match(byId.open.reason, /ring number 1 are not the same/);
    assert.equal(byId.bowtie.valid, false);
    assert.match(byId.bowtie.reason, /^The Polygon input is not valid because the ring number 1 intersects itself/);
  });

  test("a policy change adds the spatial index online; queries stay complete meanwhile", async () => {
    const { container } = await database.containers.create({ id: "later", partitionKey: pk, indexingPolicy: policy() });
    await fill(container, GRID);
    const query = `SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.location, {"type": "Point", "coordinates": [${CENTER}]}) < 3500`;
    const before = await runWithMetrics("later", query);
    assert.equal(before.metrics.retrievedDocumentCount, GRID.length);
    const { resource: current } = await container.read();
    const { resource: replaced } = await container.replace({ ...current, indexingPolicy: spatialPolicy });
    assert.deepEqual(replaced.indexingPolicy.spatialIndexes, spatialPolicy.spatialIndexes);
    let progress = -1;
    for (let i = 0; i < 400 && progress !== 100; i++) {
      const res = await container.read({ populateQuotaInfo: true });
      progress = Number(res.headers[PROGRESS]);
      if (progress !== 100) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(progress, 100, "the re-index finished");
    const after = await runWithMetrics("later", query);
    assert.deepEqual([...after.rows].sort(), [...before.rows].sort());
    assert.ok(after.metrics.retrievedDocumentCount < GRID.length / 3, `retrieved ${after.metrics.retrievedDocumentCount}`);
  });

  test("the account's query engine configuration advertises spatial indexing", async () => {
    const qec = JSON.parse((await rest.get([])).body.queryEngineConfiguration);
    assert.equal(qec.enableSpatialIndexing, true);
  });

  test("bad spatial policies and geospatial configs are refused with 400; good ones are echoed", async () => {
    const cases = [
      ["unknown type", { indexingPolicy: policy({ spatialIndexes: [{ path: "/location/*", types: ["Circle"] }] }) }],
      ["no types", { indexingPolicy: policy({ spatialIndexes: [{ path: "/location/*" }] }) }],
      ["bad path", { indexingPolicy: policy({ spatialIndexes: [{ path: "location", types: ["Point"] }] }) }],
      ["geography with a bounding box", { indexingPolicy: policy({ spatialIndexes: [{ path: "/location/*", types: ["Point"], boundingBox: { xmin: 0, ymin: 0, xmax: 10, ymax: 10 } }] }) }],
      ["geometry without a bounding box", { geospatialConfig: { type: "Geometry" }, indexingPolicy: policy({ spatialIndexes: [{ path: "/location/*", types: ["Point"] }] }) }],
      ["geometry with an empty bounding box", { geospatialConfig: { type: "Geometry" }, indexingPolicy: policy({ spatialIndexes: [{ path: "/location/*", types: ["Point"], boundingBox: { xmin: 10, ymin: 0, xmax: 0, ymax: 10 } }] }) }],
      ["unknown geospatial type", { geospatialConfig: { type: "Flat" } }],
    ];
    for (const [what, extra] of cases) {
      const id = `bad-${what.replace(/ /g, "-")}`;
      await expectCosmosError(database.containers.create({ id, partitionKey: pk, ...extra }), { code: 400, what });
      await expectCosmosError(database.container(id).read(), { code: 404, what: `${what}: not created` });
    }
    const geometry = { path: "/region/?", types: ["Polygon"], boundingBox: { xmin: 0, ymin: 0, xmax: 10, ymax: 10 } };
    const { resource } = await database.containers.create({
      id: "geometry",
      partitionKey: pk,
      geospatialConfig: { type: "Geometry" },
      indexingPolicy: policy({ spatialIndexes: [geometry] }),
    });
    assert.equal(resource.geospatialConfig.type, "Geometry");
    assert.deepEqual(resource.indexingPolicy.spatialIndexes, [geometry]);
  });

  // The geometry type is a flat (Euclidean) plane: distances and areas in coordinate
  // units, coordinates beyond any longitude or latitude. Expected values: Pythagoras.
  test("a geometry container measures in the plane", async () => {
    const box = { xmin: 0, ymin: 0, xmax: 1000, ymax: 1000 };
    const { container } = await database.containers.create({
      id: "plane",
      partitionKey: pk,
      geospatialConfig: { type: "Geometry" },
      indexingPolicy: policy({ spatialIndexes: [{ path: "/loc/*", types: ["Point", "Polygon"], boundingBox: box }] }),
    });
    const points = [["a", 100, 100], ["b", 103, 104], ["c", 500, 500], ["d", 900, 120]];
    for (const [id, x, y] of points) await container.items.create({ id, pk: `p${id}`, loc: { type: "Point", coordinates: [x, y] } });
    const origin = `{"type": "Point", "coordinates": [100, 100]}`;
    const run = async (q) => (await container.items.query(q).fetchAll()).resources;
    const distances = await run(`SELECT c.id, ST_DISTANCE(c.loc, ${origin}) AS d FROM c`);
    for (const [id, x, y] of points) {
      const row = distances.find((r) => r.id === id);
      assert.ok(Math.abs(row.d - Math.hypot(x - 100, y - 100)) < 1e-9, `${id}: ${row.d}`);
    }
    assert.deepEqual((await run(`SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.loc, ${origin}) < 10`)).sort(), ["a", "b"]);
    const square = `{"type": "Polygon", "coordinates": [[[400, 400], [950, 400], [950, 950], [400, 950], [400, 400]]]}`;
    assert.deepEqual(await run(`SELECT VALUE c.id FROM c WHERE ST_WITHIN(c.loc, ${square})`), ["c"]);
    assert.deepEqual(await run(`SELECT VALUE ST_AREA(${square})`), [550 * 550]);
    assert.deepEqual(await run(`SELECT VALUE ST_ISVALID({"type": "Point", "coordinates": [500, -300]})`), [true]);
  });

  // A Geometry container's spatial index is a grid over its boundingBox: radius and
  // region queries read the cells they reach (and the shapes outside the box), and
  // answer as a container without the index does. Expected ids: Pythagoras here.
  test("a geometry container's spatial index serves radius and region queries", async () => {
    const box = { xmin: 0, ymin: 0, xmax: 1000, ymax: 1000 };
    const geometryPolicy = policy({ spatialIndexes: [{ path: "/loc/*", types: ["Point", "Polygon"], boundingBox: box }] });
    const { container: indexed } = await database.containers.create({ id: "plane-indexed", partitionKey: pk, geospatialConfig: { type: "Geometry" }, indexingPolicy: geometryPolicy });
    const { container: plain } = await database.containers.create({ id: "plane-plain", partitionKey: pk, geospatialConfig: { type: "Geometry" }, indexingPolicy: policy() });
    const points = [];
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) points.push({ id: `q${i}-${j}`, pk: `p${(i + j) % 7}`, loc: { type: "Point", coordinates: [i * 50 + 3, j * 50 + 7] } });
    }
    points.push({ id: "outside", pk: "p1", loc: { type: "Point", coordinates: [-20, 480] } });
    await fill(indexed, points);
    await fill(plain, points);
    const center = [480, 500];
    const radius = 120;
    const expected = points.filter((d) => Math.hypot(d.loc.coordinates[0] - center[0], d.loc.coordinates[1] - center[1]) < radius).map((d) => d.id).sort();
    const query = `SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.loc, {"type": "Point", "coordinates": [${center}]}) < ${radius}`;
    const withIndex = await runWithMetrics("plane-indexed", query);
    const withoutIndex = await runWithMetrics("plane-plain", query);
    assert.ok(expected.length > 10);
    assert.deepEqual([...withIndex.rows].sort(), expected);
    assert.deepEqual([...withoutIndex.rows].sort(), expected);
    assert.equal(withoutIndex.metrics.retrievedDocumentCount, points.length);
    assert.ok(withIndex.metrics.retrievedDocumentCount < points.length / 5, `retrieved ${withIndex.metrics.retrievedDocumentCount}`);
    assert.ok(withIndex.charge < withoutIndex.charge, `RU ${withIndex.charge} < ${withoutIndex.charge}`);

    // Beyond the box's edge: still found, through the cell every lookup reads.
    const nearOutside = await runWithMetrics("plane-indexed", `SELECT VALUE c.id FROM c WHERE ST_DISTANCE(c.loc, {"type": "Point", "coordinates": [-25, 480]}) < 10`);
    assert.deepEqual(nearOutside.rows, ["outside"]);

    const region = `{"type": "Polygon", "coordinates": [[[600, 600], [760, 600], [760, 760], [600, 760], [600, 600]]]}`;
    const inside = points.filter(({ loc: { coordinates: [x, y] } }) => x > 600 && x < 760 && y > 600 && y < 760).map((d) => d.id).sort();
    const within = await runWithMetrics("plane-indexed", `SELECT VALUE c.id FROM c WHERE ST_WITHIN(c.loc, ${region})`);
    assert.deepEqual([...within.rows].sort(), inside);
    assert.ok(within.metrics.retrievedDocumentCount < points.length / 5, `retrieved ${within.metrics.retrievedDocumentCount}`);
    const intersects = await runWithMetrics("plane-indexed", `SELECT VALUE c.id FROM c WHERE ST_INTERSECTS(c.loc, ${region})`);
    assert.deepEqual([...intersects.rows].sort(), inside);

    // A moved item is found at its new place and no longer at its old one.
    await indexed.items.upsert({ ...points[0], loc: { type: "Point", coordinates: center } });
    const after = await runWithMetrics("plane-indexed", query);
    assert.deepEqual([...after.rows].sort(), [...expected, points[0].id].sort());
  });
});
