// The Data Explorer's files at /_explorer/ (issue 18): served without a key, as the
// emulator's page is, with the right content types; HEAD answers health probes; only
// the built files are served (no path outside them); and no account key is in them.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startServer, ORRERY_BIN, makeTempDir } from "./lib/server.mjs";
import { EMULATOR_KEY } from "./lib/rest.mjs";

const EXPLORER_DIR = path.join(path.dirname(ORRERY_BIN), "explorer");

async function fetchText(server, target, init) {
  const res = await fetch(new URL(target, server.endpoint), init);
  return { status: res.status, type: res.headers.get("content-type"), headers: res.headers, body: await res.text() };
}

// The target exactly as written ('..' included), which fetch() would normalise away.
function rawGet(server, target) {
  return new Promise((resolve, reject) => {
    const url = new URL(server.endpoint);
    const req = http.request({ host: url.hostname, port: url.port, path: target, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the Data Explorer's files", { timeout: 60_000 }, () => {
  let server;
  before(async () => {
    assert.ok(fs.existsSync(path.join(EXPLORER_DIR, "app.js")), `built explorer in ${EXPLORER_DIR} (make explorer)`);
    server = await startServer();
  });
  after(async () => server && (await server.stop()));

  test("the page, its script and its style, each with its content type", async () => {
    for (const target of ["/_explorer/", "/_explorer", "/_explorer/index.html"]) {
      const page = await fetchText(server, target);
      assert.equal(page.status, 200, target);
      assert.equal(page.type, "text/html; charset=utf-8", target);
      assert.equal(page.body, fs.readFileSync(path.join(EXPLORER_DIR, "index.html"), "utf8"), target);
      assert.equal(page.headers.get("x-frame-options"), "DENY");
    }
    const script = await fetchText(server, "/_explorer/app.js");
    assert.equal(script.status, 200);
    assert.equal(script.type, "text/javascript; charset=utf-8");
    assert.equal(script.body, fs.readFileSync(path.join(EXPLORER_DIR, "app.js"), "utf8"));
    const style = await fetchText(server, "/_explorer/style.css?v=1");
    assert.equal(style.status, 200);
    assert.equal(style.type, "text/css; charset=utf-8");
  });

  test("HEAD answers a health probe with the page's length and no body", async () => {
    const res = await fetch(new URL("/_explorer/", server.endpoint), { method: "HEAD" });
    assert.equal(res.status, 200);
    const length = fs.statSync(path.join(EXPLORER_DIR, "index.html")).size;
    assert.equal(Number(res.headers.get("content-length")), length);
    assert.equal(await res.text(), "");
  });

  test("no account key is in the served files", async () => {
    for (const name of fs.readdirSync(EXPLORER_DIR)) {
      const file = await fetchText(server, `/_explorer/${name}`);
      assert.equal(file.status, 200, name);
      assert.ok(!file.body.includes(EMULATOR_KEY), `${name} holds no key`);
      assert.ok(!file.body.includes(EMULATOR_KEY.slice(0, 24)), `${name} holds no part of the key`);
    }
  });

  test("nothing outside the built files: unknown names, subpaths and '..' are 404s", async () => {
    for (const target of ["/_explorer/nope.js", "/_explorer/../dbs", "/_explorer/%2e%2e/CMakeCache.txt", "/_explorer/a/b.js"]) {
      const res = await rawGet(server, target);
      assert.equal(res.status, 404, target);
      assert.equal(res.type, "text/plain; charset=utf-8", target);
    }
  });

  test("only GET and HEAD", async () => {
    const res = await fetchText(server, "/_explorer/", { method: "POST", body: "x" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
  });

  test("a server started without the built files says how to build them", async () => {
    const empty = makeTempDir("orrery-e2e-no-explorer-");
    const bare = await startServer({ args: ["--explorer-dir", empty] });
    try {
      const res = await fetchText(bare, "/_explorer/");
      assert.equal(res.status, 404);
      assert.match(res.body, /make explorer/);
      assert.ok(res.body.includes(empty), "names the directory it looked in");
    } finally {
      await bare.stop();
    }
  });
});
