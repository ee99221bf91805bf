// The port a spawned `orrery serve --port 0` listens on, read from its ready line.

/** Resolves with the port (a string) once `server` prints its ready line; rejects after `timeoutMs`. */
export function listeningPort(server, bin, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} did not start`)), timeoutMs);
    server.stdout.on("data", (chunk) => {
      const m = /listening on https?:\/\/[^\s/]+:(\d+)\//.exec(String(chunk));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
}
