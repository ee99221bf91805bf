// The set-up most e2e files share, for one describe block: before its tests a freshly
// started server, an SDK client and a database of its own; after them the database is
// deleted and the server stopped. withServerAndContainer is the variant for tests that
// restart the server themselves.

import { before, after } from "node:test";
import { startServer } from "./server.mjs";
import { sdkClient, uniqueId, dropDatabase } from "./util.mjs";

/**
 * Registers the before/after hooks on the enclosing describe and returns
 * {server, client, dbId, database}, filled in by the before hook. `ready(env)` (may be
 * async) runs right after, for the file's own set-up. A test that replaces the client
 * (after a restart, say) stores the new one in env.client, which the clean-up then uses.
 * @param {string} prefix of the database id
 * @param {{serverOptions?: object, clientOptions?: object, ready?: (env: object) => any}} [o]
 */
export function withServerAndDatabase(prefix, { serverOptions, clientOptions, ready } = {}) {
  const env = { server: null, client: null, dbId: uniqueId(prefix), database: null };
  before(async () => {
    env.server = await startServer(serverOptions);
    env.client = sdkClient(env.server, clientOptions);
    ({ database: env.database } = await env.client.databases.create({ id: env.dbId }));
    await ready?.(env);
  });
  after(async () => {
    if (env.client) await dropDatabase(env.client, env.dbId);
    env.client?.dispose();
    await env.server?.stop();
  });
  return env;
}

/**
 * For tests that kill and restart the server themselves (crash tests): before them a
 * freshly started server with a database of its own holding container "c" (partition
 * key /pk, version 2); after them the server is stopped. Those tests make their own
 * clients, so none is kept here. Returns {server, dbId}, filled in by the before hook.
 * @param {string} prefix of the database id
 * @param {string[]} serverArgs extra arguments for `orrery serve`
 */
export function withServerAndContainer(prefix, serverArgs) {
  const env = { server: null, dbId: uniqueId(prefix) };
  before(async () => {
    env.server = await startServer({ args: serverArgs });
    const client = sdkClient(env.server);
    const { database } = await client.databases.create({ id: env.dbId });
    await database.containers.create({ id: "c", partitionKey: { paths: ["/pk"], version: 2 } });
    client.dispose();
  });
  after(async () => {
    await env.server?.stop();
  });
  return env;
}
