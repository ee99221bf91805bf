"""Start and stop a fresh `orrery serve` process for the Python SDK suite.

ORRERY_BIN names the server binary; ORRERY_SDK_STORAGE is "memory" (--in-memory)
or "disk" (--data-dir in a fresh temporary directory, removed at the end).
"""

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

KEY = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="
LISTENING = re.compile(r"listening on (https?)://([^\s/]+):(\d+)/")
START_TIMEOUT_S = 30


def storage_mode():
    mode = os.environ.get("ORRERY_SDK_STORAGE", "memory")
    if mode not in ("memory", "disk"):
        raise RuntimeError(f"ORRERY_SDK_STORAGE must be memory or disk, not {mode!r}")
    return mode


class OrreryServer:
    def __init__(self, *extra_args):
        self.binary = os.environ.get("ORRERY_BIN")
        if not self.binary or not os.access(self.binary, os.X_OK):
            raise RuntimeError(f"ORRERY_BIN must name the orrery binary (got {self.binary!r})")
        self.extra_args = list(extra_args)
        self.storage = storage_mode()
        self.data_dir = None
        self.proc = None
        self.endpoint = None
        self.output = []  # the server's stdout and stderr lines, kept for failure reports

    def start(self):
        args = [self.binary, "serve", "--port", "0", "--no-tls", "--log-level", "warn"]
        if self.storage == "memory":
            args.append("--in-memory")
        else:
            self.data_dir = tempfile.mkdtemp(prefix="orrery-py-sdk-")
            args += ["--data-dir", self.data_dir]
        args += self.extra_args
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        found = threading.Event()

        def drain(stream):
            for line in stream:
                self.output.append(line.rstrip("\n"))
                m = LISTENING.search(line)
                if m and not found.is_set():
                    self.endpoint = f"{m.group(1)}://{m.group(2)}:{m.group(3)}/"
                    found.set()

        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=drain, args=(stream,), daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"orrery did not start ({' '.join(args)}): " + "\n".join(self.output[-20:]))
        return self

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        if self.data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            self.data_dir = None
