"""Faults and bad input, tried as a new user would: one sentence and a non-zero status, never a
traceback; nothing written outside the project; a stopped command leaves runs that ``resume
--all`` continues and no slot held."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from tests.engine.test_cli import CLEAN_ENV, PAGINATION, TESTMEND, run_testmend
from tests.support.engine import SIMPLE_TEST
from tests.support.git import commit_all
from tests.support.leftovers import left_behind


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr + done.stdout, done.stderr


def test_a_link_out_of_the_project_is_refused_and_the_other_side_untouched(
    project: Path, workspaces: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "package.json").write_text("{}")
    target = other / "Other.test.tsx"
    target.write_text((project / SIMPLE_TEST).read_text())
    commit_all(other, "another checkout")
    before = target.read_text()
    (project / "src" / "Link2.test.tsx").symlink_to(target)
    done = run_testmend(
        project, workspaces, "migrate", "src/Link2.test.tsx", "--offline", "--write",
        "--accept-review",
    )  # fmt: skip
    no_traceback(done)
    assert done.returncode == 1
    assert f"leads to {target}, outside the project {project}" in done.stderr
    assert target.read_text() == before and not (other / ".testmend").exists()


def test_nothing_under_node_modules_is_a_project(project: Path, workspaces: Path) -> None:
    package = project / "node_modules" / "left-pad"
    package.mkdir(parents=True)  # node_modules is a link to the example's: this one is new
    (package / "package.json").write_text("{}")
    (package / "index.test.js").write_text("import { mount } from 'enzyme';\n")
    try:
        done = run_testmend(project, workspaces, "migrate", str(package / "index.test.js"))
    finally:
        (package / "index.test.js").unlink()
        (package / "package.json").unlink()
        package.rmdir()
    no_traceback(done)
    assert done.returncode == 2 and "is inside node_modules: a package's file" in done.stderr
    assert not (project / "node_modules" / "left-pad" / ".testmend").exists()


def test_refusals_cost_no_engine_and_name_the_line_of_a_syntax_error(
    project: Path, workspaces: Path
) -> None:
    broken = project / "src" / "Broken.test.tsx"
    broken.write_text("import { mount } from 'enzyme';\n\nit('x', () => {\n  mount(<div>;\n});\n")
    done = run_testmend(
        project, workspaces, "migrate", "src/Broken.test.tsx", "src/App.tsx", "--jsonl"
    )
    no_traceback(done)
    assert done.returncode == 1
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["file"], r["status"]) for r in rows] == [
        ("src/Broken.test.tsx", "refused"),
        ("src/App.tsx", "refused"),
    ]
    assert rows[0]["reason"].startswith("src/Broken.test.tsx:4:")
    assert "a syntax error" in rows[0]["reason"]
    # Checked before any engine: no run was recorded, no workspace made.
    assert not (project / ".testmend" / "runs").exists()
    assert not workspaces.exists() or list(workspaces.iterdir()) == []


def test_the_rough_edges_of_the_command_line(project: Path, workspaces: Path) -> None:
    alone = run_testmend(project, workspaces, "migrate", SIMPLE_TEST, "--accept-review")
    assert alone.returncode == 2 and "--accept-review only matters with --write" in alone.stderr
    nowhere = run_testmend(project, workspaces, "runs", "/nonexistent")
    assert nowhere.returncode == 2 and "/nonexistent: no such file or folder" in nowhere.stderr
    # A glob the shell did not expand is expanded by testmend.
    globbed = run_testmend(project, workspaces, "migrate", "src/**/Nope*.test.tsx")
    assert globbed.returncode == 2 and "no file matches src/**/Nope*.test.tsx" in globbed.stderr
    expanded = run_testmend(
        project, workspaces, "migrate", "src/**/Pagination.test.tsx", "--offline", "--jsonl"
    )
    assert expanded.returncode == 0, expanded.stderr
    assert [json.loads(line)["file"] for line in expanded.stdout.splitlines()] == [PAGINATION]
    for command in ("runs", "resume", "migrate", "fix", "doctor"):
        helped = run_testmend(project, workspaces, command, "--help")
        assert helped.returncode == 0 and len(helped.stdout.splitlines()) > 4
    # A reader that goes away: no traceback.
    piped = subprocess.run(
        f"{TESTMEND} runs --json | head -c 1",
        shell=True,
        cwd=project,
        capture_output=True,
        text=True,
        env=CLEAN_ENV,
        check=False,
    )
    no_traceback(piped)


def test_resume_from_elsewhere_writes_nothing_there(project: Path, workspaces: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    elsewhere.mkdir()
    done = run_testmend(elsewhere, workspaces, "resume", "20990101-000000-abcdef")
    no_traceback(done)
    assert done.returncode == 2
    assert "runs are kept in the project they ran in" in done.stderr
    assert '"' not in done.stderr.splitlines()[0]
    assert list(elsewhere.iterdir()) == []


def test_an_unwritable_state_folder_is_one_sentence(project: Path, workspaces: Path) -> None:
    (project / ".testmend").write_text("not a folder")  # as root, permissions do not stop writes
    done = run_testmend(project, workspaces, "migrate", SIMPLE_TEST, "--offline")
    no_traceback(done)
    assert done.returncode == 2
    assert f"cannot write {project / '.testmend'}" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_sigterm_cancels_like_ctrl_c_and_resume_all_continues(
    project: Path, workspaces: Path
) -> None:
    command = subprocess.Popen(
        [TESTMEND, "migrate", "--offline", SIMPLE_TEST, PAGINATION],
        cwd=project,
        env={**CLEAN_ENV, "TESTMEND_WORKSPACES_DIR": str(workspaces), "COLORS": "false"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert command.stderr is not None
    for line in command.stderr:  # until a run is at work
        if "research" in line:
            break
    time.sleep(1)
    command.send_signal(signal.SIGTERM)
    _out, err = command.communicate(timeout=120)
    assert command.returncode == 128 + signal.SIGTERM
    assert "stopped (SIGTERM)" in err and "resume --all" in err and "Traceback" not in err
    assert left_behind(workspaces) == []
    listed = run_testmend(project, workspaces, "runs", "--json")
    stopped = [r for r in json.loads(listed.stdout) if r["status"] == "cancelled"]
    assert stopped and all(r["failure_reason"].startswith("interrupted") for r in stopped)
    resumed = run_testmend(project, workspaces, "resume", "--all", "--offline", "--json")
    no_traceback(resumed)
    payload = json.loads(resumed.stdout)
    assert {r["file"] for r in payload["results"]} == {r["file"] for r in stopped}
    # Each ran to its end (Seats' migration fails on its own: invoke() is left for a person).
    assert {r["file"]: r["status"] for r in payload["results"]}.get(PAGINATION) in (
        None,
        "succeeded",
    )
    again = run_testmend(project, workspaces, "resume", "--all", "--offline")
    assert again.returncode == 0 and "no interrupted run" in again.stderr
    assert left_behind(workspaces) == []
