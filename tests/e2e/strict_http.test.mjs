// Strict HTTP/1.1 (issue 14): raw bytes over node:net to the real server, each request
// correctly signed, so that only the one thing wrong with it can be the reason it is
// refused. A request without Host (HTTP/1.1), with two Host lines or an invalid one,
// with a method not in upper case, with framing that could be read two ways, with a
// numeric header that overflows or is not a plain integer, or with a second line of
// a single-valued header (authorization, x-ms-date, partition key, ...) gets a 400 with
// the service's error body naming the header, and changes nothing: a checksum of
// everything stored is the same before and after, and a normal point read still works.
// Errors in the request head close the connection (its body was never read); errors
// found by the API leave it open for the next request.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { startServer } from "./lib/server.mjs";
import { EMULATOR_KEY, API_VERSION, masterAuthorization, resourceFor, toSegments } from "./lib/rest.mjs";
import { restClient, storeChecksum } from "./lib/util.mjs";

const TIMEOUT = 120_000;
const DB = "strict";
const COLL = `dbs/${DB}/colls/c`;
const DOCS = `${COLL}/docs`;
const PK = '["p0"]';

// One client connection that sends exactly the bytes it is given and reads responses
// framed by Content-Length (every response of this server that has a body).
class RawConnection {
  static async open(server) {
    const url = new URL(server.endpoint);
    assert.equal(url.protocol, "http:", "these tests speak plain HTTP (--no-tls)");
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    await new Promise((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawConnection(socket);
  }

  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.ended = false;
    this.waiters = [];
    socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    const end = () => {
      this.ended = true;
      this.wake();
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.on("error", end); // a reset after the answer is a close too
  }

  wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  async waitFor(predicate, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.ended) return false;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  send(bytes) {
    this.socket.write(bytes);
  }

  // The next response: {status, headers, body (parsed JSON or null), text}.
  async readResponse(timeoutMs = 10_000) {
    const headEnd = () => this.buffer.indexOf("\r\n\r\n");
    if (!(await this.waitFor(() => headEnd() >= 0, timeoutMs, "a response head"))) {
      throw new Error(`the server closed the connection without answering (got ${JSON.stringify(this.buffer.toString())})`);
    }
    const head = this.buffer.subarray(0, headEnd()).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head[0])?.[1]);
    assert.ok(status >= 100, `not an HTTP/1.1 status line: ${head[0]}`);
    const headers = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    const bodyStart = headEnd() + 4;
    await this.waitFor(() => this.buffer.length >= bodyStart + length, timeoutMs, "a response body");
    const text = this.buffer.subarray(bodyStart, bodyStart + length).toString("utf8");
    this.buffer = this.buffer.subarray(bodyStart + length);
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status, headers, body, text };
  }

  // Whether the server closes the connection within timeoutMs.
  async closesWithin(timeoutMs) {
    try {
      await this.waitFor(() => false, timeoutMs, "the close");
      return true; // waitFor returns false (ended) before the deadline
    } catch {
      return false;
    }
  }

  destroy() {
    this.socket.destroy();
  }
}

// The bytes of one request, signed with the emulator key for its verb and path. Headers
// go out in the order given, duplicates included; `hosts` are the Host lines (none for
// []); `framing` replaces the Content-Length line the body would get; `query` follows
// the path in the request target.
function rawRequest(server, {
  method,
  path,
  version = "HTTP/1.1",
  hosts,
  headers = [],
  body,
  framing,
  afterHead = "",
  query = "",
}) {
  const { resourceType, resourceLink } = resourceFor(toSegments(path));
  const date = new Date().toUTCString();
  const authorization = masterAuthorization({ key: EMULATOR_KEY, verb: method, resourceType, resourceLink, date });
  const url = new URL(server.endpoint);
  const lines = [`${method} /${toSegments(path).map(encodeURIComponent).join("/")}${query} ${version}`];
  for (const host of hosts ?? [url.host]) lines.push(`Host: ${host}`);
  lines.push(`x-ms-date: ${date}`, `authorization: ${authorization}`, `x-ms-version: ${API_VERSION}`, "accept: application/json");
  const payload = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  if (body !== undefined) lines.push("content-type: application/json");
  if (framing !== undefined) lines.push(...framing);
  else if (body !== undefined || method.toUpperCase() !== "GET") lines.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  for (const [name, value] of headers) lines.push(`${name}: ${typeof value === "function" ? value({ date, authorization }) : value}`);
  return lines.join("\r\n") + "\r\n\r\n" + (framing !== undefined ? afterHead : payload);
}

describe("strict HTTP/1.1", { timeout: TIMEOUT }, () => {
  let server;
  let rest;
  let cases = 0;

  before(async () => {
    server = await startServer({ tls: false });
    rest = restClient(server);
    assert.equal((await rest.post("dbs", { body: { id: DB } })).status, 201);
    const c = await rest.post(`dbs/${DB}/colls`, { body: { id: "c", partitionKey: { paths: ["/pk"], kind: "Hash", version: 2 } } });
    assert.equal(c.status, 201);
    for (let i = 0; i < 8; i++) {
      assert.equal((await rest.post(DOCS, { pk: [`p${i % 2}`], body: { id: `i${i}`, pk: `p${i % 2}`, n: i } })).status, 201);
    }
  });

  after(async () => {
    await server?.stop();
  });

  const checksum = () => storeChecksum(rest);

  // A create of a new item, which would be stored were it not for what `o` breaks.
  const create = (o = {}) => ({
    method: "POST",
    path: DOCS,
    body: { id: `new-${++cases}`, pk: "p0" },
    ...o,
    headers: [["x-ms-documentdb-partitionkey", PK], ...(o.headers ?? [])],
  });

  // Sends one request on a fresh connection and checks the refusal: `status`, the
  // service's body with `code` and a message matching `message`; with `closes`, that the
  // server closes the connection, otherwise that it serves a next request on it.
  async function expectRefused(what, request, { status = 400, code = "BadRequest", message, closes }) {
    const connection = await RawConnection.open(server);
    try {
      connection.send(rawRequest(server, request));
      const res = await connection.readResponse();
      assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
      assert.match(res.headers["content-type"] ?? "", /application\/json/, `${what}: content-type`);
      assert.equal(res.body?.code, code, `${what}: code in ${res.text.slice(0, 300)}`);
      assert.equal(typeof res.body?.message, "string", `${what}: a message`);
      assert.match(res.body.message, message, `${what}: message`);
      if (closes) {
        assert.equal(res.headers["connection"], "close", `${what}: Connection: close`);
        assert.ok(await connection.closesWithin(5_000), `${what}: the server closes the connection`);
      } else {
        connection.send(rawRequest(server, { method: "GET", path: `${DOCS}/i0`, headers: [["x-ms-documentdb-partitionkey", PK]] }));
        const next = await connection.readResponse();
        assert.equal(next.status, 200, `${what}: the next request on the connection: ${next.text.slice(0, 200)}`);
      }
    } finally {
      connection.destroy();
    }
  }

  test("a correctly signed raw request is served (the baseline every case departs from)", async () => {
    const connection = await RawConnection.open(server);
    try {
      connection.send(rawRequest(server, { method: "GET", path: `${DOCS}/i0`, headers: [["x-ms-documentdb-partitionkey", PK]] }));
      const res = await connection.readResponse();
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.id, "i0");
      // HTTP/1.0 may leave Host out (RFC 9112 §3.2 requires it of HTTP/1.1 only).
      connection.send(rawRequest(server, { method: "GET", path: `${DOCS}/i1`, version: "HTTP/1.0", hosts: [], headers: [["x-ms-documentdb-partitionkey", '["p1"]']] }));
      const old = await connection.readResponse();
      assert.equal(old.status, 200, old.text);
      assert.equal(old.body.id, "i1");
    } finally {
      connection.destroy();
    }
  });

  test("bad requests get 400 with the error body naming the header, and change nothing", async () => {
    const before = await checksum();

    // Host (RFC 9112 §3.2).
    await expectRefused("no Host", create({ hosts: [] }), { message: /no Host header/, closes: true });
    await expectRefused("two Host lines", create({ hosts: ["127.0.0.1", "127.0.0.1"] }), { message: /2 Host headers/, closes: true });
    for (const host of ["a b", "exa/mple", "user@host", "x:99999", "x:+80", "[::1", "x:80:80"]) {
      await expectRefused(`Host ${host}`, create({ hosts: [host] }), { message: /Host header '.*' is not a valid host\[:port\]/, closes: true });
    }

    // Methods are case-sensitive.
    await expectRefused("method post", create({ method: "post" }), { message: /request method 'post' is not valid.*use 'POST'/, closes: true });
    await expectRefused("method Post", create({ method: "Post" }), { message: /'Post' is not valid/, closes: true });
    await expectRefused("method get", { method: "get", path: `${DOCS}/i0`, headers: [["x-ms-documentdb-partitionkey", PK]] }, { message: /'get' is not valid/, closes: true });

    // Framing that two parties could read differently.
    const item = JSON.stringify({ id: "framed", pk: "p0" });
    const len = Buffer.byteLength(item);
    const chunked = `${len.toString(16)}\r\n${item}\r\n0\r\n\r\n`;
    await expectRefused("Transfer-Encoding gzip with Content-Length", create({ framing: ["Transfer-Encoding: gzip", `Content-Length: ${len}`], afterHead: item }), { message: /both Transfer-Encoding and Content-Length/, closes: true });
    await expectRefused("Content-Length then chunked", create({ framing: [`Content-Length: ${len}`, "Transfer-Encoding: chunked"], afterHead: chunked }), { message: /Transfer-Encoding/, closes: true });
    await expectRefused("chunked then Content-Length", create({ framing: ["Transfer-Encoding: chunked", `Content-Length: ${len}`], afterHead: chunked }), { message: /Content-Length/, closes: true });
    await expectRefused("two different Content-Lengths", create({ framing: [`Content-Length: ${len}`, `Content-Length: ${len + 1}`], afterHead: item + " " }), { message: /Content-Length header must be one decimal number/, closes: true });
    await expectRefused("Content-Length overflowing 64 bits", create({ framing: ["Content-Length: 99999999999999999999"], afterHead: item }), { message: /Content-Length/, closes: true });
    await expectRefused("Content-Length with a plus sign", create({ framing: [`Content-Length: +${len}`], afterHead: item }), { message: /Content-Length/, closes: true });
    await expectRefused("chunked in HTTP/1.0", create({ version: "HTTP/1.0", framing: ["Transfer-Encoding: chunked"], afterHead: chunked }), { message: /Transfer-Encoding is not allowed in an HTTP\/1\.0 request/, closes: true });
    await expectRefused("chunked not the final coding", create({ framing: ["Transfer-Encoding: chunked, gzip"], afterHead: chunked }), { message: /final transfer coding is 'gzip', not chunked/, closes: true });
    await expectRefused("a chunk size overflowing 64 bits", create({ framing: ["Transfer-Encoding: chunked"], afterHead: `10000000000000000\r\n${item}\r\n0\r\n\r\n` }), { message: /Malformed HTTP request/, closes: true });
    // A coding Orrery does not implement is 501 (RFC 9112 §6.1), and the body unread.
    await expectRefused("gzip then chunked", create({ framing: ["Transfer-Encoding: gzip, chunked"], afterHead: chunked }), { status: 501, code: "NotImplemented", message: /transfer coding 'gzip' is not supported/, closes: true });

    // The head is held to 64 KB as a whole: a request line and fields of 40 KB each.
    // (Over TCP it arrives in several reads, which Beast already counts as one head; the
    // single-read case is server_test.cc's HoldsTheWholeHeadToTheHeaderLimit.)
    await expectRefused("a head over the limit in two halves", create({ query: "?" + "q".repeat(40 * 1024), headers: [["x-pad", "p".repeat(40 * 1024)]] }), { status: 431, code: "RequestHeaderFieldsTooLarge", message: /larger than the limit of 65536 bytes/, closes: true });

    // Numeric headers, on a create that does not even read them.
    for (const value of ["99999999999999999999", "9223372036854775808", "2147483648", "+5", "5abc", "0x10", "1e3", "1.5", "-2", "0", ""]) {
      await expectRefused(`x-ms-max-item-count ${JSON.stringify(value)}`, create({ headers: [["x-ms-max-item-count", value]] }), { message: /Invalid value '.*' for header x-ms-max-item-count: expected -1 or an integer from 1 to 2147483647/ });
    }
    await expectRefused("x-ms-max-item-count overflow on a read feed", { method: "GET", path: DOCS, headers: [["x-ms-max-item-count", "99999999999999999999"]] }, { message: /x-ms-max-item-count/ });
    for (const value of ["99999999999999999999", "abc", "-1"]) {
      await expectRefused(`continuation limit ${value}`, create({ headers: [["x-ms-documentdb-responsecontinuationtokenlimitinkb", value]] }), { message: /for header x-ms-documentdb-responsecontinuationtokenlimitinkb/ });
    }
    const container = (headers) => ({ method: "POST", path: `dbs/${DB}/colls`, body: { id: `c-${++cases}`, partitionKey: { paths: ["/pk"], kind: "Hash", version: 2 } }, headers });
    for (const value of ["99999999999999999999", "400abc", "+400", "-400", "4e2"]) {
      await expectRefused(`x-ms-offer-throughput ${value}`, container([["x-ms-offer-throughput", value]]), { message: /Invalid value '.*' for header x-ms-offer-throughput/ });
    }
    for (const value of ['{"maxThroughput":1e300}', '{"maxThroughput":99999999999999999999}', '{"maxThroughput":4000.5}', '{"maxThroughput":"4000"}']) {
      await expectRefused(`autoscale ${value}`, container([["x-ms-cosmos-offer-autopilot-settings", value]]), { message: /for header x-ms-cosmos-offer-autopilot-settings/ });
    }
    await expectRefused("database throughput overflow", { method: "POST", path: "dbs", body: { id: `d-${++cases}` }, headers: [["x-ms-offer-throughput", "18446744073709551616"]] }, { message: /x-ms-offer-throughput/ });

    // A second line of a header that is read as one value.
    await expectRefused("two authorization lines", create({ headers: [["authorization", ({ authorization }) => authorization]] }), { message: /authorization appears more than once/ });
    await expectRefused("two x-ms-date lines", create({ headers: [["x-ms-date", ({ date }) => date]] }), { message: /x-ms-date appears more than once/ });
    await expectRefused("two partition key headers", create({ headers: [["x-ms-documentdb-partitionkey", '["p1"]']] }), { message: /x-ms-documentdb-partitionkey appears more than once/ });
    await expectRefused("two partition key headers on a delete", { method: "DELETE", path: `${DOCS}/i0`, headers: [["x-ms-documentdb-partitionkey", PK], ["x-ms-documentdb-partitionkey", PK]] }, { message: /x-ms-documentdb-partitionkey appears more than once/ });

    assert.ok(cases > 40, `${cases} requests`);
    assert.equal(await checksum(), before, "nothing stored changed");

    // A normal point read still works, over the SDK's signing and over raw bytes.
    const read = await rest.get(`${DOCS}/i2`, { pk: ["p0"] });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.n, 2);
    const connection = await RawConnection.open(server);
    try {
      connection.send(rawRequest(server, { method: "GET", path: `${DOCS}/i3`, headers: [["x-ms-documentdb-partitionkey", '["p1"]']] }));
      const res = await connection.readResponse();
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.n, 3);
    } finally {
      connection.destroy();
    }
  });
});
