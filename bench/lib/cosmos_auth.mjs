// Master-key signing for the benchmark clients (plain node:crypto, no SDK).

import crypto from 'node:crypto';

export const KEY = process.env.ORRERY_BENCH_KEY ||
  'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';
const KEY_BYTES = Buffer.from(KEY, 'base64');

export function sign(verb, resourceType, resourceLink, date) {
  const text = `${verb.toLowerCase()}\n${resourceType.toLowerCase()}\n${resourceLink}\n` +
    `${date.toLowerCase()}\n\n`;
  const sig = crypto.createHmac('sha256', KEY_BYTES).update(text, 'utf8').digest('base64');
  return encodeURIComponent(`type=master&ver=1.0&sig=${sig}`);
}
