// The REST calls the page makes, to the server that serves it (same origin). Every
// answer carries its status, headers and request charge, which the page shows.

import { makeSigner } from "./auth.js";

const enc = encodeURIComponent;

export class CosmosError extends Error {
  constructor(status, body, charge) {
    const message = (body && (body.message || body.Message)) || `HTTP ${status}`;
    super(message);
    this.status = status;
    this.code = body && body.code;
    this.charge = charge;
  }
}

export class Api {
  static async connect(key) {
    const api = new Api(await makeSigner(key));
    await api.listDatabases(); // a wrong key fails here, with the server's 401 message
    return api;
  }

  constructor(sign) {
    this.sign = sign;
  }

  /** One call: `path` is the URL path, `type` and `link` what the signature covers. */
  async call(method, path, type, link, { body, headers = {}, raw = false } = {}) {
    const date = new Date().toUTCString();
    const all = {
      "x-ms-date": date,
      "x-ms-version": "2020-07-15",
      authorization: await this.sign(method, type, link, date),
      accept: "application/json",
      ...headers,
    };
    if (body !== undefined && !all["content-type"]) all["content-type"] = "application/json";
    const response = await fetch(path, {
      method,
      headers: all,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const charge = Number(response.headers.get("x-ms-request-charge") || 0);
    let parsed = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { message: text };
      }
    }
    if (!response.ok) throw new CosmosError(response.status, parsed, charge);
    return { status: response.status, headers: response.headers, body: parsed, charge, raw: raw ? text : undefined };
  }

  listDatabases() {
    return this.call("GET", "/dbs", "dbs", "");
  }
  /** `throughput`: {mode: "manual"|"autoscale"|"none", value}, shared by its containers. */
  createDatabase(id, throughput = { mode: "none" }) {
    return this.call("POST", "/dbs", "dbs", "", { body: { id }, headers: throughputHeaders(throughput) });
  }
  deleteDatabase(db) {
    return this.call("DELETE", `/dbs/${enc(db)}`, "dbs", `dbs/${db}`);
  }
  listContainers(db) {
    return this.call("GET", `/dbs/${enc(db)}/colls`, "colls", `dbs/${db}`);
  }
  readContainer(db, coll) {
    return this.call("GET", `/dbs/${enc(db)}/colls/${enc(coll)}`, "colls", `dbs/${db}/colls/${coll}`);
  }
  /** `throughput`: {mode: "manual"|"autoscale"|"none", value}. */
  createContainer(db, definition, throughput) {
    return this.call("POST", `/dbs/${enc(db)}/colls`, "colls", `dbs/${db}`, {
      body: definition,
      headers: throughputHeaders(throughput),
    });
  }
  deleteContainer(db, coll) {
    return this.call("DELETE", `/dbs/${enc(db)}/colls/${enc(coll)}`, "colls", `dbs/${db}/colls/${coll}`);
  }

  itemPath(db, coll, id) {
    return [`/dbs/${enc(db)}/colls/${enc(coll)}/docs/${enc(id)}`, `dbs/${db}/colls/${coll}/docs/${id}`];
  }
  createItem(db, coll, item, partitionKey) {
    return this.call("POST", `/dbs/${enc(db)}/colls/${enc(coll)}/docs`, "docs", `dbs/${db}/colls/${coll}`, {
      body: item,
      headers: { "x-ms-documentdb-partitionkey": JSON.stringify(partitionKey) },
    });
  }
  replaceItem(db, coll, id, item, partitionKey, etag) {
    const [path, link] = this.itemPath(db, coll, id);
    const headers = { "x-ms-documentdb-partitionkey": JSON.stringify(partitionKey) };
    if (etag) headers["if-match"] = etag;
    return this.call("PUT", path, "docs", link, { body: item, headers });
  }
  deleteItem(db, coll, id, partitionKey) {
    const [path, link] = this.itemPath(db, coll, id);
    return this.call("DELETE", path, "docs", link, {
      headers: { "x-ms-documentdb-partitionkey": JSON.stringify(partitionKey) },
    });
  }

  /** One page of a query, run whole by the server (all partitions, or one key's). */
  query(db, coll, text, { continuation, partitionKey, pageSize = 100 } = {}) {
    const headers = {
      "content-type": "application/query+json",
      "x-ms-documentdb-isquery": "True",
      "x-ms-documentdb-query-enablecrosspartition": "True",
      "x-ms-max-item-count": String(pageSize),
      "x-ms-documentdb-populatequerymetrics": "True",
      "x-ms-cosmos-populateindexmetrics-V2": "True",
      "x-ms-orrery-populate-partitions": "True",
    };
    if (continuation) headers["x-ms-continuation"] = continuation;
    if (partitionKey !== undefined) headers["x-ms-documentdb-partitionkey"] = JSON.stringify(partitionKey);
    return this.call("POST", `/dbs/${enc(db)}/colls/${enc(coll)}/docs`, "docs", `dbs/${db}/colls/${coll}`, {
      body: { query: text, parameters: [] },
      headers,
    });
  }

  partitionKeyRanges(db, coll) {
    return this.call("GET", `/dbs/${enc(db)}/colls/${enc(coll)}/pkranges`, "pkranges", `dbs/${db}/colls/${coll}`);
  }
  /** Orrery's partition statistics (README, Admin calls). */
  statistics(db, coll) {
    const link = `_orrery/dbs/${db}/colls/${coll}/stats`;
    return this.call("GET", `/_orrery/dbs/${enc(db)}/colls/${enc(coll)}/stats`, "_orrery", link);
  }
}

/** The request headers that provision `throughput` with a database or a container. */
function throughputHeaders(throughput) {
  if (throughput.mode === "manual") return { "x-ms-offer-throughput": String(throughput.value) };
  if (throughput.mode === "autoscale") {
    return { "x-ms-cosmos-offer-autopilot-settings": JSON.stringify({ maxThroughput: throughput.value }) };
  }
  return {};
}

/** The partition key value of `item` under `paths` (["/a", "/b"] gives [a, b]). */
export function partitionKeyOf(item, paths) {
  return paths.map((path) => {
    let value = item;
    for (const part of path.split("/").slice(1)) {
      if (value === null || typeof value !== "object") return {};
      value = value[part.replace(/^"|"$/g, "")];
    }
    // An item without its key is in the partition of the "none" value, written {}.
    return value === undefined ? {} : value;
  });
}
