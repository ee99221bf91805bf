// GET /_explorer/emulator.pem serves the server's TLS certificate, as the emulator's does,
// so that Java's keytool and .NET's certutil can import it (README.md). The expected
// certificate is the one the TLS handshake itself presents. Over plain HTTP there is none
// to give: a 404 that says so.

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import https from "node:https";
import { X509Certificate } from "node:crypto";
import { startServer } from "./lib/server.mjs";

function get(server, path) {
  return new Promise((resolve, reject) => {
    const req = https.get(new URL(path, server.endpoint), { rejectUnauthorized: false }, (res) => {
      const peer = res.socket.getPeerCertificate(true);
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body, peer }));
    });
    req.on("error", reject);
  });
}

describe("the emulator's certificate download", { timeout: 60_000 }, () => {
  const servers = [];
  after(async () => {
    for (const s of servers) await s.stop();
  });

  test("is the certificate the TLS handshake presents", async () => {
    const server = await startServer({ tls: true });
    servers.push(server);
    const res = await get(server, "/_explorer/emulator.pem");
    assert.equal(res.status, 200);
    assert.equal(res.type, "application/x-pem-file");
    assert.match(res.body, /^-----BEGIN CERTIFICATE-----\n/);
    const served = new X509Certificate(res.body);
    assert.ok(served.raw.equals(res.peer.raw), "the PEM is the handshake's certificate");
  });

  test("over plain HTTP there is none: a 404 that says so", async () => {
    const server = await startServer({ tls: false });
    servers.push(server);
    const res = await fetch(new URL("/_explorer/emulator.pem", server.endpoint));
    assert.equal(res.status, 404);
    assert.match(await res.text(), /no TLS certificate/);
  });
});
