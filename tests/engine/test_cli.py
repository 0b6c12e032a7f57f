"""`testmend migrate | fix | runs | resume` as a user runs them (subprocess, offline tier)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from testmend.cli.batch import summary_table
from tests.support.engine import SIMPLE_ENZYME, SIMPLE_TEST
from tests.support.git import git
from tests.support.leftovers import left_behind

TESTMEND = str(Path(sys.executable).with_name("testmend"))
# The user's environment without any model settings: these runs are offline by construction.
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TESTMEND_"))}
PAGINATION = "src/components/Pagination/Pagination.test.tsx"
PAGINATION_SNAPSHOT = "src/components/Pagination/__snapshots__/Pagination.test.tsx.snap"


def run_testmend(project: Path, workspaces: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TESTMEND, *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={**CLEAN_ENV, "TESTMEND_WORKSPACES_DIR": str(workspaces)},
        timeout=600,
        check=False,
    )


def test_migrate_a_folder_offline_and_write(project: Path, workspaces: Path) -> None:
    """The codemod alone migrates Pagination; its Enzyme snapshot is recorded again."""
    old_snapshot = (project / PAGINATION_SNAPSHOT).read_text(encoding="utf-8")
    done = run_testmend(
        project,
        workspaces,
        "migrate",
        "src/components/Pagination",
        "--offline",
        "--json",
        "--write",
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    [result] = payload["results"]
    assert result["file"] == PAGINATION
    assert result["status"] == "succeeded" and result["tests_pass"] is True
    assert result["written"] == f"written (and {PAGINATION_SNAPSHOT})"
    assert f"+++ b/{PAGINATION_SNAPSHOT}" in result["diff"]
    written = (project / PAGINATION).read_text(encoding="utf-8")
    assert "from 'enzyme'" not in written and "asFragment()" in written
    # The snapshot travels with the test: no note telling the user to re-record it.
    assert "re-record it (jest -u)" not in written
    snapshot = (project / PAGINATION_SNAPSHOT).read_text(encoding="utf-8")
    assert snapshot != old_snapshot and "<DocumentFragment>" in snapshot
    assert "[Pagination.test.tsx] migrate: tests 7/7 passing" in done.stderr
    assert left_behind(workspaces) == []
    # The written files pass the project's own jest, outside testmend.
    jest = subprocess.run(
        ["node_modules/.bin/jest", "--ci", PAGINATION],
        cwd=project,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "COLORS": "false"},
        check=False,
    )
    assert jest.returncode == 0, jest.stderr[-2000:]


def test_migrate_prints_the_diff_and_writes_nothing_by_default(
    project: Path, workspaces: Path
) -> None:
    done = run_testmend(project, workspaces, "migrate", SIMPLE_TEST, "--offline", "--write")
    assert done.returncode == 1  # a test still fails
    assert done.stdout.startswith(f"diff --git a/{SIMPLE_TEST} b/{SIMPLE_TEST}\n")
    assert "-import { mount } from 'enzyme';" in done.stdout
    assert "not written: failed" in done.stderr
    assert "failed (1/2 tests pass" in done.stderr
    # The last line says what happened and what is next.
    assert done.stderr.rstrip().endswith("testmend: wrote 0 files of 1")
    assert (project / SIMPLE_TEST).read_text(encoding="utf-8") == SIMPLE_ENZYME
    assert git(project, "status", "--porcelain") == ""

    runs = run_testmend(project, workspaces, "runs", "--json")
    [record] = json.loads(runs.stdout)
    assert record["status"] == "failed" and record["file"] == SIMPLE_TEST
    listing = run_testmend(project, workspaces, "runs")
    assert record["run_id"] in listing.stdout and "failed" in listing.stdout

    resumed = run_testmend(project, workspaces, "resume", record["run_id"])
    assert resumed.returncode == 2
    assert "nothing to resume" in resumed.stderr


def test_bad_inputs_get_clear_messages(project: Path, workspaces: Path) -> None:
    done = run_testmend(project, workspaces, "migrate", "src/test-utils.tsx", "--offline")
    assert done.returncode == 1
    assert "does not use Enzyme (nor a module of the project that imports it)" in done.stderr
    missing = run_testmend(project, workspaces, "migrate", "src/nope.test.tsx", "--offline")
    assert "no such file" in missing.stderr
    outside = run_testmend(project, workspaces, "migrate", "/etc/hostname", "--offline")
    assert outside.returncode == 2 and "no package.json at or above" in outside.stderr
    other = project.parent / "other"
    other.mkdir()
    (other / "package.json").write_text("{}")
    (other / "x.test.js").write_text("import { mount } from 'enzyme';\n")
    mixed = run_testmend(project, workspaces, "migrate", SIMPLE_TEST, str(other / "x.test.js"))
    assert mixed.returncode == 2 and "is not in the project" in mixed.stderr
    empty = run_testmend(project, workspaces, "migrate", "src/api", "--offline")
    assert empty.returncode == 2 and "no Enzyme test file" in empty.stderr
    unknown = run_testmend(project, workspaces, "resume", "20990101-000000-abcdef")
    assert unknown.returncode == 2 and "no run" in unknown.stderr
    (project / "testmend.config.json").write_text('{"retry": {"maxAttemptsPerError": "x"}}')
    bad = run_testmend(project, workspaces, "migrate", SIMPLE_TEST, "--offline")
    assert bad.returncode == 2 and "retry.maxAttemptsPerError" in bad.stderr
    # Listing runs needs no configuration; resuming says what is wrong with it.
    listed = run_testmend(project, workspaces, "runs")
    assert listed.returncode == 0 and "no runs in" in listed.stdout
    badly = run_testmend(project, workspaces, "resume", "20990101-000000-abcdef")
    assert badly.returncode == 2 and "retry.maxAttemptsPerError" in badly.stderr


FIXABLE_TEST = "src/components/Counter/Label.test.tsx"
FIXABLE_BEFORE = """\
import { render, screen } from '@testing-library/react';
import { Counter } from './Counter';

it('shows the label', () => {
  let label = 'Seats';
  render(<Counter label={label} />);
  expect(screen.getByText(label)).toBeInTheDocument();
});
"""


def test_fix_writes_a_lint_fixed_test_after_its_tests_ran_before_and_after(
    project: Path, workspaces: Path
) -> None:
    (project / FIXABLE_TEST).write_text(FIXABLE_BEFORE, encoding="utf-8")
    done = run_testmend(project, workspaces, "fix", FIXABLE_TEST, "--offline", "--json", "--write")
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert result["status"] == "succeeded", result["reasons"]
    assert result["written"] == "written"
    assert "const label = 'Seats';" in (project / FIXABLE_TEST).read_text(encoding="utf-8")
    assert result["summary"]["tests_passing"] == result["summary"]["tests_total"] == 1
    # The test ran before the fix (lint step) and after it (finish).
    assert "[Label.test.tsx] lint: tests 1/1 passing" in done.stderr
    assert "[Label.test.tsx] finish: tests 1/1 passing" in done.stderr


def test_fix_of_a_component_runs_the_tests_that_cover_it(project: Path, workspaces: Path) -> None:
    component = project / "src/components/Counter/Counter.tsx"
    source = component.read_text(encoding="utf-8")
    broken = source.replace(
        "    const { label = 'Count' } = this.props;",
        "    let { label = 'Count' } = this.props;",
    )
    assert broken != source
    component.write_text(broken, encoding="utf-8")
    done = run_testmend(
        project, workspaces, "fix", "src/components/Counter/Counter.tsx", "--offline", "--json"
    )
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert result["status"] == "succeeded", result["reasons"]
    assert "const { label = 'Count' }" in result["diff"].split("+++", 1)[1]
    # The tests that cover it ran before and after the fix: Counter.test.tsx (named after it)
    # and Seats.test.tsx (beside it, importing it).
    for step in ("lint", "finish"):
        assert f"[Counter.tsx] {step}: tests 7/7 passing" in done.stderr
        assert f"[Counter.tsx] {step}: tests 2/2 passing" in done.stderr
    assert result["summary"]["tests_total"] == 9
    assert component.read_text(encoding="utf-8") == broken  # no --write


def test_fix_refuses_a_source_file_no_test_covers(project: Path, workspaces: Path) -> None:
    done = run_testmend(project, workspaces, "fix", "src/hooks/useCountdown.ts", "--offline")
    assert done.returncode == 1
    assert "src/hooks/useCountdown.ts: no test covers it" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_batch_streams_a_json_line_per_file_with_progress(
    project: Path, workspaces: Path
) -> None:
    done = run_testmend(
        project,
        workspaces,
        "migrate",
        PAGINATION,
        SIMPLE_TEST,
        "--offline",
        "--jobs",
        "2",
        "--jsonl",
    )
    assert done.returncode == 1, done.stderr  # the simple test still fails offline
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert {r["file"]: r["status"] for r in rows} == {
        PAGINATION: "succeeded",
        SIMPLE_TEST: "failed",
    }
    assert all(r["seconds"] > 0 and r["run_id"] for r in rows)
    assert "[batch] 1/2 files done, " in done.stderr
    assert "[batch] 2/2 files done, 0 running" in done.stderr
    assert left_behind(workspaces) == []


def test_the_batch_table_counts_outcomes_and_throughput() -> None:
    rows = [
        {
            "file": "a.test.tsx",
            "status": "succeeded",
            "tests_passing": 3,
            "tests_total": 3,
            "seconds": 12.0,
        },
        {
            "file": "b.test.tsx",
            "status": "failed",
            "tests_passing": 0,
            "tests_total": 0,
            "seconds": None,
        },
    ]
    rows[0]["seconds"], rows[1]["seconds"] = 12.0, None
    table = summary_table(rows, wall=60.0, jobs=2).splitlines()
    assert table[1].split() == ["a.test.tsx", "succeeded", "3/3", "12.0"]
    assert table[2].split() == ["b.test.tsx", "failed", "-", "-"]
    assert table[-1] == "2 files: 1 succeeded, 1 failed; 1m00s at --jobs 2 (2.0 files/minute)"


def test_the_command_line_loads_no_language_server_code_and_no_agent_tools() -> None:
    """Every `testmend migrate` pays its imports: the LSP's types (lsprotocol, about half a
    second) and pygls belong to the language server, and the agents' tools (their schemas,
    about 0.4 s) to a run with a model, not to the command line's start-up; langchain and
    langgraph (0.4 s more) to a run, not to a refusal or the line saying which tier runs."""
    probe = (
        "import sys, testmend.cli.runs, testmend.engine, testmend.patching, testmend.llm.probe; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('lsprotocol', 'pygls', 'langchain_core', 'langgraph', 'langchain_openai') "
        "or m.startswith('testmend.workflow.agent.tools')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
