#!/usr/bin/env bash
# Installs code-server (VS Code 1.100.3 in the browser) for the extension's end-to-end test, from
# npm only: its release tarballs, Playwright's browsers and @vscode/ripgrep's binary come from
# GitHub or CDNs a CI machine may not reach. Needs (apt): build-essential, libkrb5-dev,
# libsecret-1-dev (native modules), ripgrep (VS Code's search) — scripts/setup.sh installs them.
# Idempotent: a stamp records the lockfile and this script of a complete install.
set -euo pipefail
cd "$(dirname "$0")/code-server"

lock_hash=$(cat package-lock.json ../install-code-server.sh | sha256sum | cut -d' ' -f1)
stamp=node_modules/.testmend-complete
if [ "$(cat "$stamp" 2>/dev/null)" = "$lock_hash" ]; then
  exit 0
fi
echo "setup: code-server for the VS Code end-to-end test (vscode-client/e2e/code-server)"

# node-gyp builds against the running Node's headers; with them installed next to node (Debian's
# nodejs, the official tarball) it needs no download.
node_prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -f "$node_prefix/include/node/node.h" ]; then
  export npm_config_nodedir="$node_prefix"
fi
export npm_config_yes=true  # node-pty's install step runs `npx node-gyp`
quiet=(--no-audit --no-fund --loglevel=error)

rm -f "$stamp"
# code-server's own install script would install lib/vscode with whatever npm resolves; it runs
# below, step by step, from the shrinkwraps.
npm ci --ignore-scripts "${quiet[@]}"
npm rebuild argon2 "${quiet[@]}" >/dev/null

vscode=node_modules/code-server/lib/vscode
(
  cd "$vscode"
  # `npm install`, not `npm ci`: 4.100.3's shrinkwrap misses tslib; npm keeps every other pin.
  npm install --omit=dev --ignore-scripts "${quiet[@]}"
  # The native modules VS Code's server loads on Linux (the @vscode/windows-* ones are not).
  npm rebuild kerberos @parcel/watcher @vscode/spdlog @vscode/deviceid native-watchdog node-pty \
    "${quiet[@]}" >/dev/null
  # What code-server's postinstall does besides installing.
  ln -sfn node_modules node_modules.asar
  ln -sfn code-linux.sh bin/remote-cli/code-server
  ln -sfn browser-linux.sh bin/helpers/browser.sh
  # @vscode/ripgrep's install downloads rg from GitHub; VS Code only needs a binary at this path.
  mkdir -p node_modules/@vscode/ripgrep/bin
  if command -v rg >/dev/null 2>&1; then
    ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  else
    echo "setup: no rg (ripgrep): VS Code's search will not work in code-server" >&2
  fi
  # The built-in extensions' shared dependency (TypeScript, for the JS/TS language features);
  # without it VS Code reports its tsserver missing.
  cd extensions
  npm install --omit=dev --ignore-scripts "${quiet[@]}"
)
echo "$lock_hash" > "$stamp"
