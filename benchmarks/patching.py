"""Patching latency: each matcher strategy, a failure with its nearest region, and LSP edits.

    .venv/bin/python benchmarks/patching.py [--runs N] [--copies K]

The file is the example app's test files concatenated (~1000 lines); ``--copies`` repeats them
with slightly renamed identifiers, a large and repetitive file where the approximate cases are
rightly rejected as ambiguous (the similarity search's worst case).
Target: every case well under a second, so a tool call never stalls the agent.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from testmend.patching import (  # noqa: E402
    EditApplyError,
    SearchReplace,
    apply_search_replace,
    unified_diff,
)
from testmend.patching.editor import apply_text_edits, text_edits  # noqa: E402

SOURCES = sorted((REPO / "examples" / "react-app" / "src").rglob("*.test.tsx"))


def build_file(copies: int) -> str:
    parts = []
    for copy in range(copies):
        for path in SOURCES:
            text = path.read_text().replace("wrapper", f"wrapper{copy}")
            parts.append(text.replace("it('", f"it('[{copy}] "))
    return "".join(parts)


def region(content: str, start: int, size: int) -> str:
    return "".join(f"{line}\n" for line in content.split("\n")[start : start + size])


def cases(content: str) -> list[tuple[str, Callable[[], object]]]:
    lines = content.split("\n")
    middle = next(k for k in range(len(lines) // 2, len(lines)) if "  it('" in lines[k])
    exact = region(content, middle, 8)
    reindented = "".join(line[2:] + "\n" for line in exact.split("\n")[:-1])
    stale = "// a stale context line\n" + exact
    mistaken = exact.replace(";", "", 3).replace("(", "( ", 2).replace("'", '"', 4)
    missing = "".join(f"  expect(nothing{k}).toBe({k});\n" for k in range(8))
    updated = content.replace("wrapper0", "view0")

    def search(text: str, replace: str = "replaced();\n") -> Callable[[], object]:
        def run() -> object:
            try:
                return apply_search_replace(content, [SearchReplace(text, replace)])
            except EditApplyError as error:
                return error

        return run

    return [
        ("exact", search(exact)),
        ("reindent", search(reindented)),
        ("shrink_context", search(stale, stale.replace("  it('", "  test('"))),
        ("similarity", search(mistaken)),
        ("not found + nearest", search(missing)),
        ("unified_diff", lambda: unified_diff(content, updated, "x.test.tsx")),
        ("text_edits + apply", lambda: apply_text_edits(content, text_edits(content, updated))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    content = build_file(args.copies)
    print(f"{len(content.splitlines())} lines, {args.runs} runs each (median seconds)\n")
    for name, call in cases(content):
        outcome = call()
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            call()
            times.append(time.perf_counter() - started)
        detail = ""
        if isinstance(outcome, EditApplyError):
            detail = f"rejected: {outcome.failures[0].kind}"
        elif hasattr(outcome, "applied"):
            detail = ", ".join(edit.strategy for edit in outcome.applied)
        print(f"{name:<22}{statistics.median(times):>9.4f}   {detail}")


if __name__ == "__main__":
    main()
