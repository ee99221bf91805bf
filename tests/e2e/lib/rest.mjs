// Raw REST client for the Cosmos DB NoSQL gateway protocol, used by the e2e tests
// that need control over headers the SDK does not expose (bad signatures, skewed
// dates, read-only keys, partition-key-range-targeted read feeds, conditional
// headers, malformed bodies, ...).
//
// Signing follows shared/docs/wire-protocol.md §3.1 exactly:
//   sig = Base64(HMAC-SHA256(Base64Decode(key),
//           lower(verb) \n lower(resourceType) \n resourceLink \n lower(x-ms-date) \n \n))
// where the resource link is built from the *decoded* path segments, case preserved.

import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";

/** The well-known emulator master key; Orrery's default primary key. */
export const EMULATOR_KEY =
  "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

/** Header value for x-ms-version, as sent by @azure/cosmos 4.10.1. */
export const API_VERSION = "2020-07-15";

/**
 * Splits a path given as a string ("dbs/db1/colls/c1") or as an array of raw
 * (unencoded) segments into the array of raw segments.
 */
export function toSegments(pathOrSegments) {
  if (Array.isArray(pathOrSegments)) return pathOrSegments.map(String);
  return String(pathOrSegments ?? "")
    .split("/")
    .filter((s) => s.length > 0);
}

/**
 * resourceType and resourceLink for a request path (wire-protocol §3.1 table).
 * @param {string[]} segments raw (decoded) path segments
 */
export function resourceFor(segments) {
  const n = segments.length;
  if (n === 0) return { resourceType: "", resourceLink: "" };
  if (segments[0] === "_orrery") {
    // Orrery's admin calls (README "Admin calls"): type "_orrery", the whole path.
    return { resourceType: "_orrery", resourceLink: segments.join("/") };
  }
  if (segments[0] === "offers") {
    return { resourceType: "offers", resourceLink: n >= 2 ? segments[1].toLowerCase() : "" };
  }
  if (n % 2 === 0) {
    return { resourceType: segments[n - 2], resourceLink: segments.join("/") };
  }
  return { resourceType: segments[n - 1], resourceLink: segments.slice(0, n - 1).join("/") };
}

/** The string that is HMAC-signed. */
export function stringToSign({ verb, resourceType, resourceLink, date }) {
  return (
    verb.toLowerCase() +
    "\n" +
    resourceType.toLowerCase() +
    "\n" +
    resourceLink +
    "\n" +
    date.toLowerCase() +
    "\n" +
    "" +
    "\n"
  );
}

/** Base64 HMAC-SHA256 signature of the request with a master key. */
export function signature({ key, verb, resourceType, resourceLink, date }) {
  return createHmac("sha256", Buffer.from(key, "base64"))
    .update(stringToSign({ verb, resourceType, resourceLink, date }), "utf8")
    .digest("base64");
}

/**
 * The authorization header value. By default URL-encoded like the SDK
 * (encodeURIComponent of "type=master&ver=1.0&sig=...").
 */
export function masterAuthorization({ key, verb, resourceType, resourceLink, date, encode = true }) {
  const token = `type=master&ver=1.0&sig=${signature({ key, verb, resourceType, resourceLink, date })}`;
  return encode ? encodeURIComponent(token) : token;
}

/**
 * x-ms-documentdb-partitionkey header value exactly as the SDK produces it:
 * JSON.stringify of the array, then every char U+007F..U+FFFF escaped as \uXXXX.
 * Use {} for the "none" component.
 */
export function pkHeader(values) {
  return JSON.stringify(values).replace(/[\u007F-\uFFFF]/g, (m) => "\\u" + ("0000" + m.charCodeAt(0).toString(16)).slice(-4));
}

/** Random base64 key of `bytes` bytes (master keys are 64 bytes). */
export function randomKey(bytes = 64) {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) b[i] = Math.floor(Math.random() * 256);
  return b.toString("base64");
}

export class RestClient {
  /**
   * @param {{endpoint: string, key?: string, rejectUnauthorized?: boolean, timeoutMs?: number}} opts
   */
  constructor({ endpoint, key = EMULATOR_KEY, rejectUnauthorized = false, timeoutMs = 30000 }) {
    this.endpoint = endpoint.endsWith("/") ? endpoint : endpoint + "/";
    this.url = new URL(this.endpoint);
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.isTls = this.url.protocol === "https:";
    // No keep-alive: every request gets its own connection so that a server that
    // closes a connection after an error cannot make the next request fail.
    this.agent = this.isTls
      ? new https.Agent({ keepAlive: false, rejectUnauthorized })
      : new http.Agent({ keepAlive: false });
  }

  /**
   * Sends one request.
   * @param {string} method GET/POST/PUT/DELETE/PATCH
   * @param {string|string[]} path raw segments ("dbs/db1/colls/c" or ["dbs","db1","colls","c","docs","a b"])
   * @param {object} [o]
   * @param {any} [o.body] JSON-serialised body
   * @param {string|Buffer} [o.rawBody] body sent verbatim
   * @param {object} [o.headers] extra headers (lowercase names; value undefined deletes a default)
   * @param {any[]} [o.pk] partition key components -> x-ms-documentdb-partitionkey
   * @param {string} [o.key] key to sign with (default: the client's key)
   * @param {boolean} [o.auth] false -> no authorization header
   * @param {string} [o.authorization] explicit authorization header value
   * @param {boolean} [o.encodeAuth] false -> send "type=master&..." un-encoded
   * @param {Date|string} [o.date] x-ms-date value (Date -> toUTCString())
   * @param {string} [o.signVerb] sign with another verb than the one sent
   * @param {string} [o.signResourceType] / [o.signResourceLink] override what is signed
   * @param {string} [o.urlPath] send exactly this (already encoded) URL path instead
   * @returns {Promise<{status:number, headers:object, body:any, text:string}>}
   */
  async request(method, path, o = {}) {
    const segments = toSegments(path);
    const { resourceType, resourceLink } = resourceFor(segments);
    const date = o.date instanceof Date ? o.date.toUTCString() : (o.date ?? new Date().toUTCString());

    const headers = {
      accept: "application/json",
      "x-ms-version": API_VERSION,
      "x-ms-date": date,
      "cache-control": "no-cache",
      "user-agent": "orrery-e2e-rest/1.0",
    };
    let payload;
    if (o.rawBody !== undefined) {
      payload = Buffer.isBuffer(o.rawBody) ? o.rawBody : Buffer.from(String(o.rawBody), "utf8");
    } else if (o.body !== undefined) {
      payload = Buffer.from(JSON.stringify(o.body), "utf8");
    }
    if (payload !== undefined) headers["content-type"] = "application/json";
    if (o.pk !== undefined) headers["x-ms-documentdb-partitionkey"] = pkHeader(o.pk);

    if (o.authorization !== undefined) {
      headers["authorization"] = o.authorization;
    } else if (o.auth !== false) {
      headers["authorization"] = masterAuthorization({
        key: o.key ?? this.key,
        verb: o.signVerb ?? method,
        resourceType: o.signResourceType ?? resourceType,
        resourceLink: o.signResourceLink ?? resourceLink,
        date,
        encode: o.encodeAuth !== false,
      });
    }
    for (const [k, v] of Object.entries(o.headers ?? {})) {
      if (v === undefined || v === null) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = String(v);
    }
    if (payload !== undefined) headers["content-length"] = String(payload.length);
    else if (method !== "GET" && method !== "HEAD") headers["content-length"] = "0";

    const urlPath = o.urlPath ?? "/" + segments.map((s) => encodeURIComponent(s)).join("/");
    const lib = this.isTls ? https : http;

    return await new Promise((resolve, reject) => {
      const req = lib.request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path: urlPath,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let body = null;
            if (text.length > 0) {
              try {
                body = JSON.parse(text);
              } catch {
                body = null;
              }
            }
            resolve({ status: res.statusCode, headers: res.headers, body, text });
          });
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`REST ${method} ${urlPath} timed out after ${this.timeoutMs} ms`)));
      req.on("error", reject);
      if (payload !== undefined) req.end(payload);
      else req.end();
    });
  }

  get(path, o) {
    return this.request("GET", path, o);
  }
  post(path, o) {
    return this.request("POST", path, o);
  }
  put(path, o) {
    return this.request("PUT", path, o);
  }
  delete(path, o) {
    return this.request("DELETE", path, o);
  }

  /** POST query (application/query+json) against a feed path, e.g. "dbs" or "dbs/d/colls/c/docs". */
  query(path, query, parameters = [], o = {}) {
    const body = parameters && parameters.length ? { query, parameters } : { query };
    return this.request("POST", path, {
      ...o,
      body,
      headers: {
        "content-type": "application/query+json",
        "x-ms-documentdb-isquery": "true",
        "x-ms-documentdb-query-enablecrosspartition": "true",
        ...(o.headers ?? {}),
      },
    });
  }

  /**
   * Follows x-ms-continuation on a GET feed until exhausted. Returns all pages.
   * @param {string|string[]} path e.g. "dbs/d/colls/c/docs"
   * @param {string} listName e.g. "Documents"
   * @param {{headers?: object, maxPages?: number}} [o]
   */
  async readFeedAll(path, listName, o = {}) {
    const pages = [];
    let continuation;
    const maxPages = o.maxPages ?? 10000;
    for (let i = 0; i < maxPages; i++) {
      const headers = { ...(o.headers ?? {}) };
      if (continuation !== undefined) headers["x-ms-continuation"] = continuation;
      const res = await this.get(path, { ...o, headers });
      if (res.status !== 200) {
        const err = new Error(`read feed ${toSegments(path).join("/")} page ${i} -> ${res.status}: ${res.text.slice(0, 500)}`);
        err.response = res;
        throw err;
      }
      pages.push(res);
      continuation = res.headers["x-ms-continuation"];
      if (!continuation) break;
      if (i === maxPages - 1) throw new Error(`read feed did not finish within ${maxPages} pages`);
    }
    const items = pages.flatMap((p) => (p.body && Array.isArray(p.body[listName]) ? p.body[listName] : []));
    return { pages, items };
  }
}
