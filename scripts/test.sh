#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the checks: ruff, mypy, the VS Code extension's
# type check, lint, tests and .vsix, its end-to-end test in a real VS Code, and the test suite
# against real jest/eslint/tsc, with a coverage gate on server/.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

echo "test: ruff"
.venv/bin/ruff check server tests benchmarks
.venv/bin/ruff format --check server tests benchmarks
echo "test: mypy"
.venv/bin/mypy
echo "test: vscode-client (type check, lint, tests, package)"
(
  cd vscode-client
  npm run --silent typecheck
  npm run --silent lint
  npm test --silent
  npm run --silent package
  echo "test: the extension in a real VS Code (code-server + headless Chromium; screenshots in vscode-client/e2e/artifacts)"
  npm run --silent e2e
)
echo "test: pytest"
.venv/bin/pytest --cov --cov-report=term --cov-fail-under=90 "$@"
