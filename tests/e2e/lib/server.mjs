// Starts and stops the real `orrery` binary for the e2e tests.
//
//   orrery serve --port 0 (--in-memory | --data-dir <tmp>) [--no-tls] [extra args]
//
// The server prints a line containing `listening on http://127.0.0.1:PORT/` (or
// https://...) on stdout once it accepts connections; startServer() waits for it
// (10 s timeout). Environment:
//   ORRERY_BIN            path of the binary (default <repo>/build/orrery)
//   ORRERY_E2E_STORAGE    memory | disk (default memory): storage used by default
//   ORRERY_E2E_LOG=1      echo the server's stdout/stderr to this process's stderr
//   ORRERY_E2E_KEEP=1     keep temporary data directories

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EMULATOR_KEY } from "./rest.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, "../../..");
export const ORRERY_BIN = process.env.ORRERY_BIN || path.join(REPO_ROOT, "build", "orrery");

export const STORAGE = (process.env.ORRERY_E2E_STORAGE || "memory").toLowerCase();
if (STORAGE !== "memory" && STORAGE !== "disk") {
  throw new Error(`ORRERY_E2E_STORAGE must be "memory" or "disk", got "${STORAGE}"`);
}
export const IS_DISK = STORAGE === "disk";

export const READY_TIMEOUT_MS = 10_000;
export const READY_RE = /listening on (https?):\/\/([^\s/]+):(\d+)\//;
const MAX_CAPTURE = 256 * 1024;
const LOG = process.env.ORRERY_E2E_LOG === "1";
const KEEP = process.env.ORRERY_E2E_KEEP === "1";

/** Every child we spawned that has not exited yet. */
const liveChildren = new Set();
/** Temporary directories created by makeTempDir(). */
const tempDirs = new Set();

function cleanupSync() {
  for (const child of liveChildren) {
    try {
      child.kill("SIGKILL");
    } catch {
      /* already gone */
    }
  }
  liveChildren.clear();
  if (!KEEP) {
    for (const d of tempDirs) {
      try {
        fs.rmSync(d, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    }
  }
  tempDirs.clear();
}
process.on("exit", cleanupSync);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    cleanupSync();
    process.exit(128 + (os.constants.signals[sig] ?? 0));
  });
}

/** Creates a temporary directory that is removed when the test process exits. */
export function makeTempDir(prefix = "orrery-e2e-") {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(d);
  return d;
}

function appendCapped(s, chunk) {
  s += chunk;
  return s.length > MAX_CAPTURE ? s.slice(s.length - MAX_CAPTURE) : s;
}

/**
 * Spawns `orrery <argv>` and keeps draining its stdout/stderr (a full pipe would
 * block the server). Resolves nothing; returns the child plus live captures.
 */
export function spawnOrrery(argv, { env } = {}) {
  if (!fs.existsSync(ORRERY_BIN)) {
    throw new Error(`orrery binary not found at ${ORRERY_BIN} (build it, or set ORRERY_BIN)`);
  }
  const child = spawn(ORRERY_BIN, argv, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...(env ?? {}) },
  });
  liveChildren.add(child);
  const io = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (c) => {
    io.stdout = appendCapped(io.stdout, c);
    if (LOG) process.stderr.write(`[orrery ${child.pid} out] ${c}`);
  });
  child.stderr.on("data", (c) => {
    io.stderr = appendCapped(io.stderr, c);
    if (LOG) process.stderr.write(`[orrery ${child.pid} err] ${c}`);
  });
  const exited = new Promise((resolve) => {
    child.on("error", (error) => {
      liveChildren.delete(child);
      resolve({ code: null, signal: null, error });
    });
    child.on("exit", (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, io, exited };
}

/**
 * Runs `orrery <argv>` to completion (for CLI tests).
 * If the process prints the ready line and killOnReady is set, it is killed at
 * once and `becameReady` is true. After timeoutMs it is killed and `timedOut` is true.
 */
export async function runOrrery(argv, { timeoutMs = 10_000, killOnReady = true, env } = {}) {
  const { child, io, exited } = spawnOrrery(argv, { env });
  let timedOut = false;
  let becameReady = false;
  const onData = () => {
    if (killOnReady && !becameReady && READY_RE.test(io.stdout)) {
      becameReady = true;
      child.kill("SIGKILL");
    }
  };
  child.stdout.on("data", onData);
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const { code, signal, error } = await exited;
  clearTimeout(timer);
  // let the pipes flush
  await new Promise((r) => setImmediate(r));
  return { code, signal, error, stdout: io.stdout, stderr: io.stderr, timedOut, becameReady };
}

function buildServeArgs({ inMemory, tls, dataDir, port, args }) {
  const a = ["serve", "--port", String(port ?? 0)];
  if (inMemory) a.push("--in-memory");
  else a.push("--data-dir", dataDir);
  if (!tls) a.push("--no-tls");
  a.push(...(args ?? []));
  return a;
}

async function launch(argv, { timeoutMs = READY_TIMEOUT_MS, env } = {}) {
  const started = Date.now();
  const { child, io, exited } = spawnOrrery(argv, { env });
  let exitInfo = null;
  exited.then((e) => (exitInfo = e));
  const m = await new Promise((resolve, reject) => {
    const check = () => {
      const mm = READY_RE.exec(io.stdout);
      if (mm) {
        cleanup();
        resolve(mm);
      }
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill("SIGKILL");
      reject(
        new Error(
          `orrery did not print "listening on ..." within ${timeoutMs} ms\n` +
            `command: ${ORRERY_BIN} ${argv.join(" ")}\nstdout:\n${io.stdout}\nstderr:\n${io.stderr}`,
        ),
      );
    }, timeoutMs);
    const onExit = (e) => {
      // give stdout a moment: the ready line may arrive together with the exit
      setImmediate(() => {
        if (READY_RE.test(io.stdout)) return check();
        cleanup();
        reject(
          new Error(
            `orrery exited before becoming ready (code ${e.code}, signal ${e.signal}${e.error ? ", " + e.error.message : ""})\n` +
              `command: ${ORRERY_BIN} ${argv.join(" ")}\nstdout:\n${io.stdout}\nstderr:\n${io.stderr}`,
          ),
        );
      });
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off("data", check);
    };
    child.stdout.on("data", check);
    exited.then(onExit);
    check();
  });
  const [, scheme, host, port] = m;
  return {
    child,
    io,
    exited,
    getExitInfo: () => exitInfo,
    scheme,
    host,
    port: Number(port),
    endpoint: `${scheme}://${host}:${port}/`,
    startupMs: Date.now() - started,
  };
}

/**
 * Starts a server and waits until it is ready.
 * @param {object} [o]
 * @param {boolean} [o.inMemory] default: ORRERY_E2E_STORAGE !== "disk"
 * @param {boolean} [o.tls] default false (passes --no-tls)
 * @param {string[]} [o.args] extra arguments after the standard ones
 * @param {string} [o.dataDir] on-disk mode: use this directory (default: a fresh temp dir)
 * @param {number} [o.timeoutMs] ready timeout (default 10 s)
 */
export async function startServer(o = {}) {
  const inMemory = o.inMemory ?? !IS_DISK;
  const tls = o.tls ?? false;
  const args = o.args ?? [];
  const dataDir = inMemory ? null : (o.dataDir ?? makeTempDir("orrery-e2e-data-"));
  const argv = buildServeArgs({ inMemory, tls, dataDir, args });

  const handle = {
    inMemory,
    tls,
    args,
    argv,
    dataDir,
    key: EMULATOR_KEY,
    endpoint: null,
    port: null,
    proc: null,
    io: null,
    lastExit: null,
    /** stdout+stderr captured so far (tail). */
    get output() {
      return this.io ? `stdout:\n${this.io.stdout}\nstderr:\n${this.io.stderr}` : "";
    },
    get running() {
      return this._launched !== null && this._launched.getExitInfo() === null;
    },
    _launched: null,

    async _start() {
      const l = await launch(argv, { timeoutMs: o.timeoutMs ?? READY_TIMEOUT_MS, env: o.env });
      this._launched = l;
      this.proc = l.child;
      this.io = l.io;
      this.endpoint = l.endpoint;
      this.port = l.port;
      this.startupMs = l.startupMs;
      return this;
    },

    /** SIGTERM, wait up to graceMs for exit, then SIGKILL. Returns {code, signal}. */
    async stop({ graceMs = 5000 } = {}) {
      const l = this._launched;
      if (!l) return null;
      if (l.getExitInfo() === null) {
        l.child.kill("SIGTERM");
        const timer = setTimeout(() => l.child.kill("SIGKILL"), graceMs);
        const e = await l.exited;
        clearTimeout(timer);
        this.lastExit = e;
      } else {
        this.lastExit = l.getExitInfo();
      }
      return this.lastExit;
    },

    /** SIGKILL (simulated crash). Returns {code, signal}. */
    async kill9() {
      const l = this._launched;
      if (!l) return null;
      if (l.getExitInfo() === null) l.child.kill("SIGKILL");
      this.lastExit = await l.exited;
      return this.lastExit;
    },

    /**
     * Starts the server again with the same arguments (same data directory in
     * on-disk mode). Stops it first (SIGTERM) if it is still running. The port,
     * and therefore the endpoint, usually change.
     */
    async restart() {
      if (this.running) await this.stop();
      return this._start();
    },
  };
  await handle._start();
  return handle;
}
