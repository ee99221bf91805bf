// The server-side JavaScript API of Cosmos DB (getContext, __, Collection, Request,
// Response, console, ErrorCodes), as Orrery's scripts see it. Written from Microsoft's
// documentation of the API (server-side-scripts.md §2); the host (src/script/runtime.cc)
// evaluates this file once per execution, in the execution's own fresh global, and calls
// the control object it evaluates to.
//
// Data operations go to the host synchronously (`host(operation, requestJson)` returns
// the reply's JSON) but their callbacks run later, one at a time, in the order the
// operations were queued, as the service runs them: after the script's current function
// has returned. Chains of callbacks therefore never nest on the stack.
(function (global, host) {
  "use strict";

  const NativeError = global.Error;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;

  const ErrorCodes = Object.freeze({
    BadRequest: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    PreconditionFailed: 412,
    RequestEntityTooLarge: 413,
    RetryWith: 449,
    InternalServerError: 500,
  });

  // The service's scripts build errors JScript-style, `new Error(number, message)`, which
  // sets `number` and `message`; a one-argument Error stays as ECMAScript has it.
  function ScriptError(first, second) {
    const numbered = arguments.length >= 2 && typeof first === "number";
    const args = numbered ? [second] : arguments.length > 0 ? [first] : [];
    const error = Reflect.construct(NativeError, args, new.target || ScriptError);
    if (numbered) error.number = first;
    return error;
  }
  ScriptError.prototype = NativeError.prototype;
  Object.defineProperty(NativeError.prototype, "constructor", {
    value: ScriptError,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(global, "Error", { value: ScriptError, writable: true, configurable: true });

  function fail(number, message) {
    throw new ScriptError(number, message);
  }

  // ---- what this execution is (set by start) --------------------------------------
  let invocation = null;
  const pending = []; // callbacks whose operation is done, in order
  let log = "";
  let abortedWith = undefined;
  let aborted = false;

  // ---- argument checks, with the service's words --------------------------------
  function requireArguments(name, args, count) {
    if (args.length < count) {
      fail(
        ErrorCodes.BadRequest,
        `The function "${name}" requires at least ${count} argument(s) but was called with ${args.length} argument(s).`
      );
    }
  }

  // (options, callback) as the service accepts them: a function in the options place
  // with no callback is the callback.
  function optionsAndCallback(options, callback) {
    if (typeof options === "function" && callback === undefined) {
      callback = options;
      options = undefined;
    }
    if (options === undefined || options === null) options = {};
    if (typeof options !== "object") {
      fail(
        ErrorCodes.BadRequest,
        `The "options" parameter must be of type "object". Actual type is: "${typeof options}".`
      );
    }
    if (callback !== undefined && callback !== null && typeof callback !== "function") {
      fail(
        ErrorCodes.BadRequest,
        `The "callback" parameter must be of type "function". Actual type is: "${typeof callback}".`
      );
    }
    return { options, callback: callback || undefined };
  }

  function segmentsOf(link) {
    const trimmed = link.endsWith("/") ? link.slice(0, -1) : link;
    return trimmed.startsWith("/") ? trimmed.slice(1).split("/") : trimmed.split("/");
  }

  function sameLink(a, b) {
    const strip = (s) => s.replace(/^\/+|\/+$/g, "");
    return strip(a) === strip(b);
  }

  function checkCollectionLink(link) {
    if (typeof link !== "string") {
      fail(ErrorCodes.BadRequest, `Invalid collection link: "${link}".`);
    }
    const s = segmentsOf(link);
    if (s.length !== 4 || s[0].toLowerCase() !== "dbs" || s[2].toLowerCase() !== "colls") {
      fail(ErrorCodes.BadRequest, `Invalid collection link: "${link}".`);
    }
    if (!sameLink(link, invocation.selfLink) && !sameLink(link, invocation.altLink)) {
      fail(
        ErrorCodes.BadRequest,
        `Function is not allowed to operate on resources outside current collection. Make sure that the link provided, "${link}", belongs to current collection.`
      );
    }
  }

  // A document link's last segment, and whether it is a rid (the link is the
  // collection's self link) or an id (its alt link).
  function documentOf(link) {
    if (typeof link !== "string") fail(ErrorCodes.BadRequest, `Invalid document link: "${link}".`);
    const s = segmentsOf(link);
    if (
      s.length !== 6 ||
      s[0].toLowerCase() !== "dbs" ||
      s[2].toLowerCase() !== "colls" ||
      s[4].toLowerCase() !== "docs" ||
      s[5] === ""
    ) {
      fail(ErrorCodes.BadRequest, `Invalid document link: "${link}".`);
    }
    const collection = s.slice(0, 4).join("/");
    const byRid = sameLink(collection, invocation.selfLink);
    if (!byRid && !sameLink(collection, invocation.altLink)) {
      fail(
        ErrorCodes.BadRequest,
        `Function is not allowed to operate on resources outside current collection. Make sure that the link provided, "${link}", belongs to current collection.`
      );
    }
    let id = s[5];
    if (!byRid) {
      try {
        id = decodeURIComponent(id);
      } catch (e) {
        // Not percent-encoded after all: the id as written.
      }
    }
    return { id, byRid };
  }

  function documentBodyOf(body) {
    if (typeof body === "string") {
      let parsed;
      try {
        parsed = jsonParse(body);
      } catch (e) {
        parsed = undefined;
      }
      body = parsed;
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      fail(
        ErrorCodes.BadRequest,
        "The document body must be an object or a string representing a JSON-serialized object."
      );
    }
    return Object.assign({}, body);
  }

  // 32 random hex digits grouped 8-4-4-4-12, as the service's scripts generate ids.
  function newId() {
    let hex = "";
    for (let i = 0; i < 32; i++) hex += Math.floor(Math.random() * 16).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // ---- the host ----------------------------------------------------------------
  // An operation's error as callbacks receive it: number is the status code, message
  // (and body) the service's error body.
  function operationError(reply) {
    const text = jsonStringify({ Errors: [reply.m] });
    const error = new ScriptError(reply.s, text);
    error.body = text;
    if (reply.ss) error.substatus = reply.ss;
    return error;
  }

  function responseOptionsOf(reply) {
    const options = {
      statusCode: reply.s,
      currentCollectionSizeInMB: reply.size !== undefined ? reply.size : 0,
      maxCollectionSizeInMB: reply.max !== undefined ? reply.max : 0,
      notModified: reply.s === 304,
    };
    options.maxCollectionSizeInMb = options.maxCollectionSizeInMB;
    options.currentCollectionSizeInMb = options.currentCollectionSizeInMB;
    if (reply.c !== undefined) options.continuation = reply.c;
    return options;
  }

  // Runs `operation` now and queues what its callback gets; false when the host no
  // longer accepts operations (the execution's time or request units are nearly spent).
  function operate(operation, request, callback, deliver) {
    const reply = jsonParse(host(operation, jsonStringify(request)));
    if (reply.na) return false;
    const failed = reply.s >= 400;
    const error = failed ? operationError(reply) : undefined;
    if (callback) {
      pending.push(() => deliver(callback, error, reply));
    } else if (failed) {
      // Without a callback an error ends the script, when its turn comes.
      pending.push(() => {
        throw error;
      });
    }
    return true;
  }

  function deliverResource(callback, error, reply) {
    if (error) return callback.call(collection, error, undefined, responseOptionsOf(reply));
    if (reply.s === 304) return callback.call(collection, undefined, undefined, responseOptionsOf(reply));
    return callback.call(collection, undefined, reply.b, responseOptionsOf(reply));
  }

  function deliverFeed(callback, error, reply) {
    if (error) return callback.call(collection, error, undefined, responseOptionsOf(reply));
    return callback.call(collection, undefined, reply.b, responseOptionsOf(reply));
  }

  function deliverDelete(callback, error, reply) {
    return callback.call(collection, error, responseOptionsOf(reply));
  }

  function queryRequestOf(query) {
    if (typeof query === "string") return { query, parameters: [] };
    if (query !== null && typeof query === "object" && typeof query.query === "string") {
      return { query: query.query, parameters: Array.isArray(query.parameters) ? query.parameters : [] };
    }
    fail(
      ErrorCodes.BadRequest,
      `The "filterQuery" parameter must be of type "string" or "object". Actual type is: "${typeof query}".`
    );
  }

  function pageOptions(options) {
    const out = {};
    if (options.pageSize !== undefined) out.pageSize = options.pageSize;
    if (options.continuation !== undefined && options.continuation !== null) {
      out.continuation = String(options.continuation);
    }
    return out;
  }

  function writeOptions(options) {
    const out = {};
    if (options.indexAction !== undefined) out.indexAction = String(options.indexAction);
    if (options.etag !== undefined) out.etag = String(options.etag);
    return out;
  }

  // ---- Collection --------------------------------------------------------------
  const collection = {
    getSelfLink() {
      return invocation.selfLink;
    },
    getAltLink() {
      return invocation.altLink;
    },

    readDocument(link, options, callback) {
      requireArguments("readDocument", arguments, 1);
      const doc = documentOf(link);
      ({ options, callback } = optionsAndCallback(options, callback));
      const request = { id: doc.id, byRid: doc.byRid };
      if (options.ifNoneMatch !== undefined) request.ifNoneMatch = String(options.ifNoneMatch);
      return operate("read", request, callback, deliverResource);
    },

    readDocuments(link, options, callback) {
      requireArguments("readDocuments", arguments, 1);
      checkCollectionLink(link);
      ({ options, callback } = optionsAndCallback(options, callback));
      return operate("readFeed", pageOptions(options), callback, deliverFeed);
    },

    queryDocuments(link, query, options, callback) {
      requireArguments("queryDocuments", arguments, 2);
      checkCollectionLink(link);
      const request = queryRequestOf(query);
      ({ options, callback } = optionsAndCallback(options, callback));
      Object.assign(request, pageOptions(options));
      return operate("query", request, callback, deliverFeed);
    },

    createDocument(link, body, options, callback) {
      requireArguments("createDocument", arguments, 2);
      return createOrUpsert("create", link, body, options, callback);
    },

    upsertDocument(link, body, options, callback) {
      requireArguments("upsertDocument", arguments, 2);
      return createOrUpsert("upsert", link, body, options, callback);
    },

    replaceDocument(link, body, options, callback) {
      requireArguments("replaceDocument", arguments, 2);
      const doc = documentOf(link);
      const item = documentBodyOf(body);
      ({ options, callback } = optionsAndCallback(options, callback));
      const request = Object.assign({ id: doc.id, byRid: doc.byRid, body: jsonStringify(item) }, writeOptions(options));
      return operate("replace", request, callback, deliverResource);
    },

    deleteDocument(link, options, callback) {
      requireArguments("deleteDocument", arguments, 1);
      const doc = documentOf(link);
      ({ options, callback } = optionsAndCallback(options, callback));
      const request = Object.assign({ id: doc.id, byRid: doc.byRid }, writeOptions(options));
      return operate("delete", request, callback, deliverDelete);
    },
  };

  function createOrUpsert(operation, link, body, options, callback) {
    checkCollectionLink(link);
    const item = documentBodyOf(body);
    ({ options, callback } = optionsAndCallback(options, callback));
    if (options.disableAutomaticIdGeneration !== true && !item.id) item.id = newId();
    const request = Object.assign({ body: jsonStringify(item) }, writeOptions(options));
    return operate(operation, request, callback, deliverResource);
  }

  // The partition key definition's paths, as the service's hidden method answers.
  Object.defineProperty(collection, "getPartitionKeyDefinition", {
    value: function () {
      return invocation.partitionKeyPaths.map((path) => path.split("/").filter((s) => s !== ""));
    },
    enumerable: false,
  });

  // ---- the JavaScript query API ---------------------------------------------------
  // Over the documents of the execution's logical partition, read through the host.
  function allDocuments() {
    const docs = [];
    let continuation;
    for (;;) {
      const request = { pageSize: 1000 };
      if (continuation !== undefined) request.continuation = continuation;
      const reply = jsonParse(host("readFeed", jsonStringify(request)));
      if (reply.na) return undefined;
      if (reply.s >= 400) throw operationError(reply);
      for (const doc of reply.b) docs.push(doc);
      if (reply.c === undefined || reply.c === null) return docs;
      continuation = reply.c;
    }
  }

  function requireFunction(fn) {
    if (typeof fn !== "function") fail(ErrorCodes.BadRequest, "The predicate/transform function must be provided.");
  }

  function keyOrder(a, b) {
    if (a === b) return 0;
    const rank = (v) => (v === undefined ? 0 : v === null ? 1 : typeof v === "boolean" ? 2 : typeof v === "number" ? 3 : typeof v === "string" ? 4 : 5);
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra - rb;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  const steps = {
    filter: (docs, predicate) => docs.filter((doc) => predicate.call(doc, doc)),
    map: (docs, transform) => docs.map((doc) => transform.call(doc, doc)),
    pluck: (docs, name) => docs.map((doc) => (doc === null || doc === undefined ? undefined : doc[name])),
    flatten: (docs, isShallow) => {
      const out = [];
      const walk = (value, depth) => {
        if (Array.isArray(value) && (depth === 0 || !isShallow)) {
          for (const v of value) walk(v, depth + 1);
        } else {
          out.push(value);
        }
      };
      for (const doc of docs) walk(doc, 0);
      return out;
    },
    sortBy: (docs, selector) =>
      docs
        .map((doc, i) => ({ doc, key: selector.call(doc, doc), i }))
        .sort((a, b) => keyOrder(a.key, b.key) || a.i - b.i)
        .map((e) => e.doc),
    sortByDescending: (docs, selector) =>
      docs
        .map((doc, i) => ({ doc, key: selector.call(doc, doc), i }))
        .sort((a, b) => keyOrder(b.key, a.key) || a.i - b.i)
        .map((e) => e.doc),
    unwind: (docs, collectionSelector, resultSelector) => {
      const out = [];
      for (const doc of docs) {
        const inner = collectionSelector.call(doc, doc);
        if (!Array.isArray(inner)) continue;
        for (const item of inner) out.push(resultSelector ? resultSelector(doc, item) : { doc, item });
      }
      return out;
    },
  };

  function checkStep(name, args) {
    if (name === "pluck") {
      if (typeof args[0] !== "string" || args[0] === "") {
        fail(ErrorCodes.BadRequest, "The property name must be a string and cannot be empty.");
      }
    } else if (name === "unwind") {
      if (typeof args[0] !== "function" || args[0].length !== 1) {
        fail(ErrorCodes.BadRequest, "The collection selector must be a function that takes exactly one argument.");
      }
      if (args[1] !== undefined && (typeof args[1] !== "function" || args[1].length < 2)) {
        fail(ErrorCodes.BadRequest, "The result selector must be a function that takes at least two arguments.");
      }
    } else if (name !== "flatten") {
      requireFunction(args[0]);
    }
  }

  // Runs the steps over the partition's documents and hands the result on: to the
  // callback, or appended to the response body.
  function runQuery(chain, options, callback) {
    ({ options, callback } = optionsAndCallback(options, callback));
    if (!callback && !invocation.hasResponse) {
      fail(
        ErrorCodes.BadRequest,
        "The callback function must be provided for scenarios, such as pre-trigger, when response object is not available."
      );
    }
    const docs = allDocuments();
    if (docs === undefined) return { isAccepted: false };
    let result = docs;
    for (const step of chain) result = steps[step.name](result, ...step.args);
    let continuation;
    const pageSize = typeof options.pageSize === "number" && options.pageSize > 0 ? options.pageSize : -1;
    const start = options.continuation ? parseInt(String(options.continuation), 10) || 0 : 0;
    if (start > 0 || (pageSize > 0 && result.length > pageSize)) {
      const end = pageSize > 0 ? start + pageSize : result.length;
      if (end < result.length) continuation = String(end);
      result = result.slice(start, end);
    }
    if (callback) {
      const reply = { s: 200, b: result, c: continuation };
      pending.push(() => deliverFeed(callback, undefined, reply));
    } else {
      response.appendBody(jsonStringify(result));
    }
    return { isAccepted: true };
  }

  function queryCall(name) {
    return function (...args) {
      const arity = name === "flatten" ? 0 : name === "unwind" ? 2 : 1;
      const stepArgs = args.slice(0, name === "unwind" ? 2 : name === "flatten" ? 1 : 1);
      const rest = args.slice(stepArgs.length);
      if (name === "unwind" && typeof args[1] !== "function") {
        stepArgs.length = 1;
        rest.unshift(...args.slice(1, 3));
        rest.length = Math.min(rest.length, 2);
      }
      if (name === "flatten" && typeof args[0] !== "boolean" && args[0] !== undefined) {
        stepArgs.length = 0;
        rest.unshift(args[0]);
      }
      if (stepArgs.length < arity && name !== "unwind") requireFunction(undefined);
      checkStep(name, stepArgs);
      return runQuery([{ name, args: stepArgs }], rest[0], rest[1]);
    };
  }

  function chainOf() {
    const chain = [];
    const object = {};
    for (const name of Object.keys(steps)) {
      object[name] = function (...args) {
        for (const a of args.slice(name === "unwind" ? 2 : name === "flatten" ? 1 : 1)) {
          if (typeof a === "function") {
            fail(ErrorCodes.BadRequest, 'When using "chain", the callback parameter can only be provided on the "value" function.');
          }
          if (a !== undefined) {
            fail(ErrorCodes.BadRequest, 'When using "chain", options can only be provided on the call to the "value" function');
          }
        }
        checkStep(name, args);
        chain.push({ name, args });
        return object;
      };
    }
    object.value = (options, callback) => runQuery(chain, options, callback);
    return object;
  }

  for (const name of Object.keys(steps)) collection[name] = queryCall(name);
  collection.chain = chainOf;

  // ---- Request and Response ------------------------------------------------------
  // Each holds named values, some writable; `get<Name>`/`set<Name>` as the service's.
  const maxMessageLength = 4 * 1024 * 1024;

  function valueLength(value) {
    if (value === undefined || value === null) return 0;
    return typeof value === "string" ? value.length : (jsonStringify(value) || "").length;
  }

  function messageOf(values, writable) {
    const object = {
      getValue(name) {
        return values[name];
      },
      setValue(name, value) {
        if (!(name in values)) fail(ErrorCodes.BadRequest, `Cannot set new values: ${name}`);
        if (!writable.has(name)) fail(ErrorCodes.Forbidden, `Not a writable property: ${name}`);
        if (valueLength(value) > maxMessageLength) {
          fail(
            ErrorCodes.RequestEntityTooLarge,
            `Resulting message would be too large because of "${name}". Return from script with current message and use continuation token to call the script again or modify your script.`
          );
        }
        values[name] = value;
      },
      appendValue(name, value) {
        const current = values[name];
        object.setValue(name, current === undefined || current === null ? value : current + value);
      },
    };
    for (const name of Object.keys(values)) {
      object["get" + name] = () => object.getValue(name);
      if (writable.has(name)) {
        object["set" + name] = (value) => object.setValue(name, value);
        object["append" + name] = (value) => object.appendValue(name, value);
      }
    }
    return object;
  }

  let request = null;
  let response = null;
  let requestValues = null;
  let responseValues = null;

  // ---- console -------------------------------------------------------------------
  const console = {
    log(...args) {
      if (args.length === 0) requireArguments("log", args, 1);
      if (!invocation.logging) return;
      let text;
      if (args.length === 1) {
        text = String(args[0]);
      } else {
        if (typeof args[0] !== "string") {
          fail(
            ErrorCodes.BadRequest,
            "First argument to console.log should be a string containing zero or more substitution strings."
          );
        }
        let next = 1;
        text = args[0].replace(/%[s%]/g, (m) => (m === "%%" ? "%" : next < args.length ? String(args[next++]) : m));
      }
      log += text;
    },
  };

  const context = {
    getCollection() {
      return collection;
    },
    getRequest() {
      return request;
    },
    abort(error) {
      aborted = true;
      abortedWith = error;
      throw abortSignal;
    },
  };
  const abortSignal = Object.freeze({ orreryAbort: true });

  // ---- the control object the host calls -----------------------------------------
  function describe(error) {
    if (error instanceof NativeError || (error !== null && typeof error === "object" && "message" in error && "stack" in error)) {
      const frames = String(error.stack || "")
        .split("\n")
        .filter((line) => line !== "" && !line.includes("orrery-server-api.js"))
        .map((line) => {
          const at = line.lastIndexOf("@");
          const name = at > 0 ? line.slice(0, at) : "Anonymous function";
          const where = at >= 0 ? line.slice(at + 1) : line;
          return `   at ${name} (${where})`;
        });
      const head = `${error.name || "Error"}: ${error.message}`;
      return {
        number: typeof error.number === "number" ? error.number : 0,
        message: `Encountered exception while executing function. Exception = ${head}\r\nStack trace: ${head}${frames.length ? "\n" + frames.join("\n") : ""}`,
      };
    }
    const text = typeof error === "string" ? error : jsonStringify(error);
    return { number: 0, message: text === undefined ? String(error) : text };
  }

  return {
    // The execution's facts (JSON): kind, selfLink, altLink, logging, partitionKeyPaths,
    // requestBody, operationType, responseBody.
    start(json) {
      invocation = jsonParse(json);
      invocation.hasResponse = invocation.kind !== "pre";
      requestValues = { Body: invocation.requestBody, OperationType: invocation.operationType };
      request = messageOf(requestValues, new Set(invocation.kind === "pre" ? ["Body"] : []));
      request.getOperationType = () => invocation.operationType;
      if (invocation.hasResponse) {
        responseValues = { Body: invocation.responseBody };
        response = messageOf(responseValues, new Set(["Body"]));
        response.getResourceQuotaCurrentUsage = () => String(invocation.quotaUsage || "");
        response.getMaxResourceQuota = () => String(invocation.quotaMax || "");
        context.getResponse = () => response;
      }
      const shorthand = Object.create(collection);
      shorthand.request = request;
      if (invocation.hasResponse) shorthand.response = response;
      Object.defineProperty(global, "getContext", { value: () => context, writable: true, configurable: true });
      Object.defineProperty(global, "__", { value: shorthand, writable: true, configurable: true });
      Object.defineProperty(global, "console", { value: console, writable: true, configurable: true });
      Object.defineProperty(global, "ErrorCodes", { value: ErrorCodes, writable: true, configurable: true });
      collection.ErrorCodes = ErrorCodes;
    },
    // Calls the script's function with the JSON array of arguments.
    invoke(fn, argumentsJson) {
      const args = jsonParse(argumentsJson);
      fn.apply(undefined, Array.isArray(args) ? args : [args]);
    },
    // Runs the next queued callback; false when none is left.
    step() {
      if (aborted || pending.length === 0) return false;
      pending.shift()();
      return true;
    },
    isAbort(error) {
      return error === abortSignal;
    },
    // The outcome (JSON): {aborted, number, message} or the response body, request
    // body (pre-triggers) and log.
    finish() {
      const out = { log };
      if (aborted) {
        const described = abortedWith === undefined ? { number: 0, message: "The script was aborted." } : describe(abortedWith);
        out.aborted = true;
        out.number = described.number;
        out.message = described.message;
        return jsonStringify(out);
      }
      if (responseValues && responseValues.Body !== undefined) out.responseBody = responseValues.Body;
      if (invocation.kind === "pre") out.requestBody = requestValues.Body;
      return jsonStringify(out);
    },
    describe(error) {
      return jsonStringify(describe(error));
    },
  };
});
