#!/usr/bin/env bash
# The checks, in two tiers.
#
#   scripts/test.sh [PYTEST ARGS…]         the full suite (what CI runs): sets everything up
#       (scripts/setup.sh), then ruff, mypy, the VS Code extension's type check, lint, tests and
#       .vsix, its end-to-end test in a real VS Code, and the test suite against real
#       jest/eslint/tsc, with a coverage gate on server/ and its 25 slowest tests listed (the
#       whole must fit CI's 90 minutes).
#   scripts/test.sh --fast [PYTEST ARGS…]  the fast tier, while you work (under 3 minutes):
#       ruff, mypy, the extension's unit tests and the tests that run no node and start no
#       service (pytest -m "not node and not services": every test given the example app,
#       installed packages or node is marked node, every test given a Postgres services).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --fast ]; then
  shift
  ./scripts/setup.sh --fast
  echo "test (fast): ruff"
  .venv/bin/ruff check server tests benchmarks
  .venv/bin/ruff format --check server tests benchmarks
  echo "test (fast): mypy"
  .venv/bin/mypy
  echo "test (fast): vscode-client unit tests"
  (cd vscode-client && npm test --silent)
  echo "test (fast): pytest -m 'not node and not services'"
  exec .venv/bin/pytest -m "not node and not services" "$@"
fi

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
.venv/bin/pytest --cov --cov-report=term --cov-fail-under=90 --durations=25 "$@"
