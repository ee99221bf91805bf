// `make run` as a newcomer types it (README.md): a port given in ARGS or PORT is the one
// the server is started with, once (CLI11 refuses a second --port: "--port: At Most 1
// required"), and only the server is built. Read from `make -n` (the commands make
// would run), so nothing is built or started here.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function dryRun(...vars) {
  const r = spawnSync("make", ["-n", "--no-print-directory", "run", ...vars], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  const serve = lines.filter((l) => l.includes("orrery serve"));
  assert.equal(serve.length, 1, r.stdout);
  return { serve: serve[0], lines };
}

const ports = (line) => [...line.matchAll(/(?:--port[= ]|-p )(\d+)/g)].map((m) => m[1]);

test("a port in ARGS or PORT wins, and is passed once", () => {
  assert.deepEqual(ports(dryRun().serve), ["8081"], "the emulator's port by default");
  assert.deepEqual(ports(dryRun("ARGS=--port 9000").serve), ["9000"]);
  assert.deepEqual(ports(dryRun("ARGS=--in-memory --port=9002").serve), ["9002"]);
  assert.deepEqual(ports(dryRun("PORT=9001").serve), ["9001"]);
  assert.match(dryRun("ARGS=--in-memory --no-tls").serve, /--in-memory --no-tls/);
});

test("make run builds the server alone", () => {
  const builds = dryRun().lines.filter((l) => l.startsWith("cmake --build"));
  assert.equal(builds.length, 1, builds.join("\n"));
  assert.match(builds[0], /--target orrery$/);
});

test("make run rebuilds the Data Explorer when its sources change", () => {
  // -W: as if web/src/main.js had just been edited.
  const { lines } = dryRun("-W", "web/src/main.js");
  const bundle = lines.filter((l) => l.includes("node web/build.mjs"));
  assert.equal(bundle.length, 1, lines.join("\n"));
  assert.match(bundle[0], /build\/explorer$/);
  assert.ok(lines.indexOf(bundle[0]) < lines.findIndex((l) => l.includes("orrery serve")), "before the server starts");
});

test("make run installs only what building and serving needs; make build installs the test tools too", () => {
  const packages = (target) => {
    const r = spawnSync("make", ["-n", "--no-print-directory", target], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const loop = r.stdout.split("\n").find((l) => l.includes("for p in"));
    assert.ok(loop, r.stdout);
    return loop.replace(/.*for p in/, "").replace(/; do.*/, "").trim().split(/\s+/);
  };
  const serving = packages("run");
  for (const needed of ["cmake", "libboost-dev", "libssl-dev", "libsimdjson-dev", "libmimalloc-dev"]) {
    assert.ok(serving.includes(needed), `make run installs ${needed}: ${serving}`);
  }
  for (const testOnly of ["clang", "libclang-rt-14-dev", "clang-format", "libgtest-dev", "libbenchmark-dev", "librocksdb-dev"]) {
    assert.ok(!serving.includes(testOnly), `make run does not install ${testOnly}`);
  }
  const building = packages("build");
  for (const testOnly of ["clang", "libgtest-dev", "libbenchmark-dev"]) {
    assert.ok(building.includes(testOnly), `make build installs ${testOnly}`);
  }
});

test("make run configures a new build directory without the tests, make build with them", () => {
  const configure = (target) => {
    const r = spawnSync("make", ["-n", "--no-print-directory", target, "BUILD_DIR=build-does-not-exist"], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  assert.match(configure("run"), /tests=KEEP/);
  assert.match(configure("build"), /tests=ON/);
});
