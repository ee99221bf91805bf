#!/usr/bin/env node
// Starts the peer, @vercel/cosmosdb-server, over plain HTTP on 127.0.0.1:PORT, with
// keep-alive on. Its own CLI (`cosmosdb-server --no-ssl`) answers every request with
// `connection: close`, which would make each benchmark request pay a new TCP connection;
// this gives the peer its best configuration instead.
//
//   node bench/compare/peer_server.mjs PORT

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createHttpServer } = require('@vercel/cosmosdb-server');

const port = Number(process.argv[2] || 0);
const server = createHttpServer({ keepAlive: true });
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on 127.0.0.1:${server.address().port}`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
