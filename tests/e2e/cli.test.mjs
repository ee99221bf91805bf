// The `orrery` command line: argument errors, port conflicts, help, signals.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { startServer, runOrrery } from "./lib/server.mjs";
import { restClient, assertStatus } from "./lib/util.mjs";

const TIMEOUT = 120_000;

/** Error lines on stderr, ignoring a trailing "Run with --help for more information." hint. */
function errorLines(stderr) {
  return stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^run with --help/i.test(l));
}

function assertFailsCleanly(r, what) {
  assert.equal(r.becameReady, false, `${what}: the server started:\n${r.stdout}\n${r.stderr}`);
  assert.equal(r.timedOut, false, `${what}: did not exit within 10 s`);
  assert.equal(r.signal, null, `${what}: died from signal ${r.signal}`);
  assert.notEqual(r.code, 0, `${what}: exit code must be non-zero`);
  const lines = errorLines(r.stderr);
  assert.equal(lines.length, 1, `${what}: expected a one-line error on stderr, got:\n${r.stderr}`);
  return lines[0];
}

/** Binds a TCP port on all interfaces; resolves {port, close()}. */
function occupyPort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer((s) => s.destroy());
    srv.on("error", reject);
    srv.listen({ port: 0, host: "0.0.0.0", exclusive: true }, () => {
      resolve({ port: srv.address().port, close: () => new Promise((r) => srv.close(r)) });
    });
  });
}

describe("cli", { timeout: TIMEOUT }, () => {
  test("unknown flag -> non-zero exit and a one-line error naming the flag", async () => {
    const r = await runOrrery(["serve", "--in-memory", "--no-tls", "--port", "0", "--no-such-flag"]);
    const line = assertFailsCleanly(r, "unknown flag");
    assert.match(line, /no-such-flag/, `error should name the flag: ${line}`);
  });

  test("bad flag value -> non-zero exit and a one-line error", async () => {
    const r = await runOrrery(["serve", "--in-memory", "--no-tls", "--port", "not-a-port"]);
    const line = assertFailsCleanly(r, "--port not-a-port");
    assert.match(line, /port|not-a-port/i, `error should mention the port: ${line}`);
    const r2 = await runOrrery(["serve", "--in-memory", "--no-tls", "--port", "70000"]);
    assertFailsCleanly(r2, "--port 70000");
  });

  test("unknown subcommand -> non-zero exit", async () => {
    const r = await runOrrery(["frobnicate"]);
    assert.equal(r.timedOut, false);
    assert.notEqual(r.code, 0);
    assert.ok(r.stderr.trim().length > 0, "an error message on stderr");
  });

  test("--help exits 0 and mentions serve", async () => {
    const r = await runOrrery(["--help"]);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 0, `--help exit code ${r.code}\n${r.stderr}`);
    assert.match(r.stdout + r.stderr, /serve/);
  });

  test("port already in use (by another program) -> clear error, non-zero exit", async () => {
    const occ = await occupyPort();
    try {
      const r = await runOrrery(["serve", "--in-memory", "--no-tls", "--port", String(occ.port)]);
      const line = assertFailsCleanly(r, "port in use");
      assert.ok(
        line.includes(String(occ.port)) || /in use|EADDRINUSE/i.test(line),
        `error should say the port is in use or name it: ${line}`,
      );
    } finally {
      await occ.close();
    }
  });

  test("port already in use (by another orrery) -> clear error; the first keeps serving", async () => {
    const first = await startServer({ inMemory: true });
    try {
      const r = await runOrrery(["serve", "--in-memory", "--no-tls", "--port", String(first.port)]);
      const line = assertFailsCleanly(r, "port in use by orrery");
      assert.ok(line.includes(String(first.port)) || /in use|EADDRINUSE/i.test(line), `error should say the port is in use: ${line}`);
      assertStatus(await restClient(first).get(""), 200, "first server still serves");
    } finally {
      await first.stop();
    }
  });

  test("SIGTERM shuts the server down promptly with exit code 0", async () => {
    const s = await startServer({ inMemory: true });
    assertStatus(await restClient(s).get(""), 200, "server up");
    const t0 = Date.now();
    const exit = await s.stop({ graceMs: 5000 });
    assert.ok(Date.now() - t0 < 5000, "server took more than 5 s to exit on SIGTERM");
    assert.deepEqual(exit, { code: 0, signal: null }, `exit after SIGTERM: ${JSON.stringify(exit)}`);
  });

  test("the ready line names the bound port and the server answers on it", async () => {
    const s = await startServer();
    try {
      assert.ok(s.port > 0 && s.port < 65536);
      assert.match(s.endpoint, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assertStatus(await restClient(s).get(""), 200, "GET / on the printed port");
    } finally {
      await s.stop();
    }
  });
});
