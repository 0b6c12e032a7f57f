#!/usr/bin/env bash
# Installs what testmend needs on a fresh machine, in three sizes:
#   scripts/setup.sh          everything the tests need: uv (pinned), the Python environment from
#                             uv.lock, the node_modules of the example app, of the VS Code
#                             extension and of the TypeScript 4 fixture, the Debian packages of
#                             the editor tests (neovim, chromium, …), a current Neovim (under
#                             .cache/) and code-server
#   scripts/setup.sh --run    what a migration of the bundled example needs: uv, the Python
#                             environment, the example app's node_modules (no apt, no editors)
#   scripts/setup.sh --fast   what the fast test tier needs: uv, the Python environment, the
#                             extension's node_modules
# Idempotent: steps that are already up to date are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

LEVEL=all
case "${1:-}" in
  "") ;;
  --run) LEVEL=run ;;
  --fast) LEVEL=fast ;;
  *) echo "usage: scripts/setup.sh [--run|--fast]" >&2; exit 2 ;;
esac

UV_VERSION=0.13.9
EXAMPLE_APP=examples/react-app
VSCODE_CLIENT=vscode-client

need() { command -v "$1" >/dev/null 2>&1 || { echo "setup: $1 is required ($2)" >&2; exit 1; }; }
need python3 "Python 3.11 or newer"
need node "Node.js 20"
need npm "npm (comes with Node.js)"
need git "git"

# A uv of the pinned version on PATH, else the one pip installs (run as a module, so a shim
# manager such as pyenv need not know about it yet).
if command -v uv >/dev/null 2>&1 && [ "$(uv --version | cut -d' ' -f2)" = "$UV_VERSION" ]; then
  uv=(uv)
else
  if [ "$(python3 -m uv --version 2>/dev/null | cut -d' ' -f2)" != "$UV_VERSION" ]; then
    echo "setup: installing uv $UV_VERSION"
    python3 -m pip install --quiet "uv==$UV_VERSION"
  fi
  uv=(python3 -m uv)
fi

# The tests also need the team extra (psycopg, langgraph-checkpoint-postgres: the shared store);
# a migration does not.
extras=(--extra team)
[ "$LEVEL" = run ] && extras=()
echo "setup: Python environment (.venv) from uv.lock"
"${uv[@]}" sync --frozen --quiet "${extras[@]}"

# npm ci wipes node_modules; skip it when the installed tree matches the lockfile.
npm_ci() {
  local project=$1 lock_hash stamp
  lock_hash=$(sha256sum "$project/package-lock.json" | cut -d' ' -f1)
  stamp="$project/node_modules/.testmend-lock-sha256"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
    echo "setup: npm ci in $project"
    (cd "$project" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$lock_hash" > "$stamp"
  fi
}
if [ "$LEVEL" = run ]; then
  npm_ci "$EXAMPLE_APP"
  exit 0
fi
if [ "$LEVEL" = fast ]; then
  npm_ci "$VSCODE_CLIENT"
  exit 0
fi
npm_ci "$EXAMPLE_APP"
npm_ci "$VSCODE_CLIENT"
npm_ci tests/fixtures/typescript4  # TypeScript 4 for the TS5053 test

# Debian packages the tests need: neovim (its built-in LSP client drives
# tests/lsp/test_neovim.py); chromium, ripgrep and the native-module build tools for code-server
# (the VS Code end-to-end test, vscode-client/e2e/); procps (ps, pgrep) and util-linux (flock),
# with which tests check that no process or held workspace slot outlives a run; postgresql, the
# team store's tests start a cluster of their own (tests/support/postgres.py).
APT_PACKAGES=(neovim chromium ripgrep build-essential libkrb5-dev libsecret-1-dev procps util-linux postgresql redis-server)
if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]} (apt)"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  echo "setup: not Debian: install ${APT_PACKAGES[*]} (or your system's equivalents) for the editor tests" >&2
fi

# A current Neovim beside Debian 12's 0.7 (tests/lsp/test_neovim.py runs both).
./scripts/install-neovim-current.sh

# code-server (VS Code in the browser) for the end-to-end test, from npm.
"$VSCODE_CLIENT/e2e/install-code-server.sh"
