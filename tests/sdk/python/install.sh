#!/bin/sh
# Installs the Python SDK suite's dependencies into tests/sdk/python/.venv from the pinned,
# hashed requirements.lock; does nothing when the venv already holds exactly that lock
# (a stamp with the lock's sha256). pip's cache (~/.cache/pip) makes a reinstall fast.
set -eu
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
want=$(sha256sum requirements.lock | cut -d' ' -f1)
stamp=.venv/.installed-lock
if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
rm -rf .venv
if ! "$PYTHON" -m venv .venv 2>/dev/null; then
  # Debian's python3 needs python3-venv for ensurepip.
  rm -rf .venv
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
echo "$want" > "$stamp"
echo "python sdk: installed $(.venv/bin/python -c 'import azure.cosmos; print("azure-cosmos", azure.cosmos.__version__)')"
