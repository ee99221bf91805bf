// What the benchmark clients share for talking to a server on 127.0.0.1: a free port,
// one HTTP request, and a process's memory from /proc.

import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Resolves with {status, headers, body} (the body as text); rejects on a socket error.
export function request(agent, port, method, urlPath, headers, body) {
  return new Promise((resolve, reject) => {
    const h = body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers: h, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
                                    body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// VmRSS and VmHWM (the peak) of `pid` in kB; nulls when the process is gone.
export function memoryKb(pid) {
  let status;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: null, peak: null };
  }
  const field = (name) => {
    const m = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status);
    return m ? Number(m[1]) : null;
  };
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
