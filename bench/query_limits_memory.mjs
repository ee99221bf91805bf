#!/usr/bin/env node
// What the largest query texts cost the server (README, "Budgets"): starts `orrery serve
// --in-memory --no-tls` for each of the longest queries of three shapes the text limit
// (524,288 characters) admits, sends it, and prints its answer's status, its time and
// how much the server's peak resident memory (VmHWM) grew with it:
//   - a chain of 51,000 ANDs (evaluated: a balanced tree);
//   - a chain of 260,000 additions (refused at the expression-depth limit);
//   - an IN list of 260,000 numbers (refused past 16,000 items, the service's limit).
//
//   node bench/query_limits_memory.mjs
//   ORRERY_BIN=build-asan/orrery node bench/query_limits_memory.mjs
//
// Prints one JSON object. Loopback only.

import fs from 'node:fs';
import { startServer } from '../tests/e2e/lib/server.mjs';
import { restClient } from '../tests/e2e/lib/util.mjs';

const queries = {
  and_chain: 'SELECT VALUE 1 FROM c WHERE c.a=1' + ' AND c.a=1'.repeat(51000),
  addition_chain: 'SELECT VALUE 1' + '+1'.repeat(260000),
  in_list: 'SELECT VALUE 1 FROM c WHERE c.a IN (' + '1,'.repeat(260000) + '1)',
};
const results = [];
for (const [name, text] of Object.entries(queries)) {
  // A server of its own: the peak is a high-water mark.
  const server = await startServer({ inMemory: true });
  try {
    const rest = restClient(server);
    await rest.post('dbs', { body: { id: 'd' } });
    await rest.post('dbs/d/colls', {
      body: { id: 'c', partitionKey: { paths: ['/pk'], kind: 'Hash', version: 2 } },
    });
    await rest.post('dbs/d/colls/c/docs', { pk: ['a'], body: { id: 'x', pk: 'a', a: 1 } });
    const peakKb = () =>
      Number(fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)[1]);
    const before = peakKb();
    const start = Date.now();
    const res = await rest.query('dbs/d/colls/c/docs', text);
    results.push({
      name,
      characters: text.length,
      status: res.status,
      ms: Date.now() - start,
      peak_growth_mb: Math.round((peakKb() - before) / 1024),
    });
  } finally {
    await server.stop();
  }
}
console.log(JSON.stringify({ queries: results }, null, 2));
