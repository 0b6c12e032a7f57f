"""Dependency tree latency: ``get_dependency_tree`` of a test file of the example app.

    .venv/bin/python benchmarks/dependency_tree.py [--runs N]

Prints the cold call (resolver and parse caches empty) and the median of warm calls.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from testmend.project import dependency_tree  # noqa: E402

EXAMPLE_APP = REPO / "examples" / "react-app"
TEST_FILE = "src/components/UserList/__tests__/UserList.test.tsx"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    start = time.perf_counter()
    tree = dependency_tree(EXAMPLE_APP, TEST_FILE)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(args.runs):
        start = time.perf_counter()
        dependency_tree(EXAMPLE_APP, TEST_FILE)
        warm.append(time.perf_counter() - start)
    print(f"{TEST_FILE}: {len(tree)} modules")
    print(f"cold {cold * 1000:.1f} ms, warm median {statistics.median(warm) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
