"""``testmend mcp`` through the SDK's own client over real stdio, on copies of the example app:
the tools an agent sees, a migration offline with its progress, its result applied only over the
content it was migrated from, a host's model judged by the same checks (cheats never accepted, an
honest migration accepted and written, across a server restart), a cancel that leaves nothing, and
one sentence for every bad request."""

from __future__ import annotations

import hashlib
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.support.apps import REPO_ROOT, copy_example_app
from tests.support.engine import CHEATS, SIMPLE_ENZYME, SIMPLE_RTL, SIMPLE_TEST
from tests.support.leftovers import left_behind
from tests.support.lsp import server_env
from tests.support.mcp import call, mcp_session, refusal, until_ended

PAGINATION = "src/components/Pagination/Pagination.test.tsx"
CONTRACT = {
    "find_enzyme_tests": {"path"},
    "migrate": {"path", "offline", "wait_seconds"},
    "run_status": {"run_id", "wait_seconds"},
    "get_result": {"run_id"},
    "apply_result": {"run_id", "expected_sha256", "hunks", "accept_review"},
    "discard_result": {"run_id"},
    "cancel_run": {"run_id"},
    "begin_migration": {"path", "wait_seconds"},
    "submit_migration": {"task_id", "content", "wait_seconds"},
}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_an_agent_sees_every_tool_with_its_schemas_hints_report_and_prompt(
    example_copy: Path, workspaces: Path
) -> None:
    async with mcp_session(example_copy, workspaces) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == set(CONTRACT)
        for name, arguments in CONTRACT.items():
            tool = tools[name]
            assert set(tool.input_schema["properties"]) == arguments, name
            assert tool.output_schema is not None, name
            assert tool.description, name
            assert tool.annotations is not None and tool.annotations.open_world_hint is False
        assert tools["find_enzyme_tests"].annotations.read_only_hint is True
        assert tools["get_result"].annotations.read_only_hint is True
        assert tools["apply_result"].annotations.destructive_hint is True
        assert set(tools["get_result"].output_schema["properties"]) >= {
            "outcome", "reasons", "diff", "hunks", "original_sha256", "inventory", "fidelity",
            "lint", "types", "report_path",
        }  # fmt: skip
        assert set(tools["submit_migration"].output_schema["properties"]) >= {
            "outcome", "findings", "tests", "lint", "types", "fidelity", "next",
        }  # fmt: skip
        templates = (await session.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["testmend://runs/{run_id}/report"]
        prompt = await session.get_prompt("migrate-to-rtl", {"path": PAGINATION})
        text = prompt.messages[0].content.text  # type: ignore[union-attr]
        assert PAGINATION in text and "submit_migration" in text and "apply_result" in text

        found = await call(session, "find_enzyme_tests", path="src/components")
        rows = {row["path"]: row for row in found["files"]}
        assert len(rows) == 10 and all(row["state"] == "no run" for row in rows.values())
        assert {"shallow", "simulate"} <= set(rows[PAGINATION]["apis"])
        by_glob = await call(session, "find_enzyme_tests", path="src/**/Pagination*.test.tsx")
        assert [row["path"] for row in by_glob["files"]] == [PAGINATION]


def test_the_server_loads_no_engine_before_a_tool_needs_it() -> None:
    """``initialize`` waits only for the SDK: langgraph and the engine load on a tool call."""
    code = (
        "import sys, testmend.main, testmend.mcp.server;"
        "print(sorted(m for m in ('testmend.engine', 'langgraph', 'langchain_core', "
        "'testmend.workflow.graph', 'tree_sitter') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO_ROOT
    )
    assert done.stdout.strip() == "[]", done.stdout


async def test_an_offline_migration_with_progress_is_applied_only_over_its_original(
    example_copy: Path, workspaces: Path
) -> None:
    original = (example_copy / PAGINATION).read_text()
    progress: list[str] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async with mcp_session(example_copy, workspaces) as session:
        answer = await session.call_tool(
            "migrate",
            {"path": PAGINATION, "offline": True, "wait_seconds": 45},
            progress_callback=on_progress,
        )
        status = answer.structured_content
        assert status is not None and not answer.is_error, answer.content
        run_id = status["run_id"]
        if status["status"] == "running":
            status = await until_ended(session, run_id)
        assert status["status"] == "succeeded", status
        assert any(line.startswith("research") for line in progress), progress
        assert any("tests 7/7 passing" in line for line in progress), progress

        result = await call(session, "get_result", run_id=run_id)
        assert result["accepted"] and result["outcome"] == "succeeded"
        assert result["original_sha256"] == _sha256(original)
        assert result["tests"]["passing"] == result["tests"]["total"] == 7
        assert result["fidelity"]["lost"] == 0
        assert result["hunks"] and result["diff"].startswith("diff --git")
        assert [h["index"] for h in result["hunks"]] == list(range(len(result["hunks"])))
        report = await session.read_resource(f"testmend://runs/{run_id}/report")
        assert "**succeeded**" in report.contents[0].text  # type: ignore[union-attr]
        found = await call(session, "find_enzyme_tests", path=PAGINATION)
        assert found["files"][0]["state"] == "kept result"

        # Nothing is written over a file that is not the one the run migrated.
        stale = await call(
            session, "apply_result", run_id=run_id, expected_sha256=_sha256(original + "// x")
        )
        assert not stale["ok"] and "expected_sha256" in stale["message"]
        (example_copy / PAGINATION).write_text(original + "// edited meanwhile\n")
        changed = await call(
            session, "apply_result", run_id=run_id, expected_sha256=result["original_sha256"]
        )
        assert not changed["ok"] and "changed since it was migrated" in changed["message"]
        assert (example_copy / PAGINATION).read_text() == original + "// edited meanwhile\n"
        (example_copy / PAGINATION).write_text(original)

        unknown = await refusal(
            session, "apply_result", run_id=run_id, expected_sha256=result["original_sha256"],
            hunks=[len(result["hunks"])],
        )  # fmt: skip
        assert "no hunk" in unknown and (example_copy / PAGINATION).read_text() == original
        written = await call(
            session, "apply_result", run_id=run_id, expected_sha256=result["original_sha256"]
        )
        assert written["ok"], written
        assert PAGINATION in written["files"]
        migrated = (example_copy / PAGINATION).read_text()
        assert "from 'enzyme'" not in migrated and "screen." in migrated
        found = await call(session, "find_enzyme_tests", path="src/components/Pagination")
        assert [(r["path"], r["state"]) for r in found["files"]] == [(PAGINATION, "migrated")]


async def test_hunks_taken_alone_leave_the_rest_of_the_original(
    example_copy: Path, workspaces: Path
) -> None:
    test = "src/components/Modal/Modal.test.tsx"
    original = (example_copy / test).read_text()
    async with mcp_session(example_copy, workspaces) as session:
        status = await call(session, "migrate", path=test, offline=True, wait_seconds=45)
        if status["status"] == "running":
            status = await until_ended(session, status["run_id"])
        result = await call(session, "get_result", run_id=status["run_id"])
        assert len(result["hunks"]) > 1, result["diff"]
        first = result["hunks"][0]
        written = await call(
            session, "apply_result", run_id=status["run_id"], hunks=[0],
            expected_sha256=result["original_sha256"], accept_review=True,
        )  # fmt: skip
        assert written["ok"] and written["files"] == [test], written
        found = await call(session, "find_enzyme_tests", path=test)
        assert found["files"][0]["state"] == "partly migrated"
    runs = subprocess.run(
        [sys.executable, "-m", "testmend", "runs", str(example_copy), "--json"],
        capture_output=True, text=True, cwd=REPO_ROOT, env=server_env(workspaces),
    )  # fmt: skip
    (record,) = json.loads(runs.stdout)
    assert record["status"] == "partial" and record["taken"] == [0], record
    assert record["outcome_before_taken"] in ("succeeded", "needs_review")
    report = Path(result["report_path"]).read_text()
    assert f"hunks 0 of {len(result['hunks'])}" in report
    now = (example_copy / test).read_text()
    added = [line[1:] for line in first["text"].splitlines() if line.startswith("+")]
    removed = [line[1:] for line in first["text"].splitlines() if line.startswith("-")]
    assert all(line in now.splitlines() for line in added)
    later = result["hunks"][-1]["text"].splitlines()
    assert all(line[1:] in now.splitlines() for line in later if line.startswith("-"))
    assert now != original and any(line not in now.splitlines() for line in removed)


@pytest.mark.intent
async def test_a_host_that_cheats_is_never_accepted_and_an_honest_one_is_across_a_restart(
    project: Path, workspaces: Path
) -> None:
    """The host's model migrates (no key for testmend): every cheat gets findings naming the
    test it is about and never ``succeeded``; the task survives the server's restart; an honest
    migration is accepted and written."""
    env = {"TESTMEND_FIDELITY__MAX_MUTANTS": "6"}
    async with mcp_session(project, workspaces, **env) as session:
        task = await call(session, "begin_migration", path=SIMPLE_TEST, wait_seconds=45)
        while task["status"] == "preparing":
            task = await call(session, "begin_migration", path=SIMPLE_TEST, wait_seconds=45)
        assert task["status"] == "ready", task
        brief = task["brief"]
        assert SIMPLE_ENZYME.strip() in brief  # the original test
        assert "Counter.tsx" in brief and "user-event" in brief and "mutant" in brief
        assert f"submit_migration(task_id='{task['task_id']}'" in brief
        found = await call(session, "find_enzyme_tests", path=SIMPLE_TEST)
        assert found["files"][0]["state"] == "waiting for submission"
        for attempt, (cheat, (content, kind)) in enumerate(sorted(CHEATS.items()), start=1):
            verdict = await call(
                session, "submit_migration", task_id=task["task_id"], content=content
            )
            while verdict["outcome"] == "checking":  # the same content: the same check
                verdict = await call(
                    session, "submit_migration", task_id=task["task_id"], content=content
                )
            assert verdict["outcome"] != "succeeded" and not verdict["accepted"], cheat
            named = [f for f in verdict["findings"] if f["kind"] == kind]
            assert named and all(f["test"] == "Seats counter increments" for f in named), (
                cheat,
                verdict["findings"],
            )
            assert verdict["attempt"] == attempt
            assert "submit" in verdict["next"], verdict["next"]
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME

    async with mcp_session(project, workspaces, **env) as session:  # a new server process
        verdict = await call(
            session, "submit_migration", task_id=task["task_id"], content=SIMPLE_RTL
        )
        while verdict["outcome"] == "checking":
            verdict = await call(
                session, "submit_migration", task_id=task["task_id"], content=SIMPLE_RTL
            )
        assert verdict["outcome"] == "succeeded" and verdict["accepted"], verdict
        assert verdict["findings"] == [] and verdict["attempt"] == len(CHEATS) + 1
        again = await call(session, "submit_migration", task_id=task["task_id"], content=SIMPLE_RTL)
        assert again == verdict  # the same file is not checked (nor counted) twice
        assert "apply_result" in verdict["next"]
        written = await call(
            session, "apply_result", run_id=task["task_id"],
            expected_sha256=verdict["original_sha256"],
        )  # fmt: skip
        assert written["ok"], written
    migrated = (project / SIMPLE_TEST).read_text()
    assert "from 'enzyme'" not in migrated and "Seats counter" in migrated
    runs = subprocess.run(
        [sys.executable, "-m", "testmend", "runs", str(project), "--json"],
        capture_output=True, text=True, cwd=REPO_ROOT, env=server_env(workspaces),
    )  # fmt: skip
    listed = [r for r in json.loads(runs.stdout) if r["run_id"] == task["task_id"]]
    assert listed and listed[0]["status"] == "succeeded" and listed[0]["host"], runs.stdout[-2000:]


async def test_a_cancelled_run_leaves_nothing(example_copy: Path, workspaces: Path) -> None:
    original = (example_copy / PAGINATION).read_text()
    async with mcp_session(example_copy, workspaces) as session:
        status = await call(session, "migrate", path=PAGINATION, offline=True, wait_seconds=2)
        assert status["status"] == "running", status
        again = await call(session, "migrate", path=PAGINATION, offline=True, wait_seconds=0)
        assert again["run_id"] == status["run_id"]  # re-attached, not a second run
        cancelled = await call(session, "cancel_run", run_id=status["run_id"])
        assert cancelled["ok"], cancelled
        ended = await call(session, "run_status", run_id=status["run_id"], wait_seconds=0)
        assert ended["status"] == "cancelled", ended
        assert left_behind(workspaces) == []
        missing = await refusal(session, "get_result", run_id=status["run_id"])
        assert "no result" in missing
    assert (example_copy / PAGINATION).read_text() == original
    assert [p.name for p in example_copy.glob("**/.testmend-*")] == []


async def test_bad_requests_get_one_sentence_and_touch_nothing(
    example_copy: Path, workspaces: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.test.tsx"
    outside.write_text(SIMPLE_ENZYME)
    async with mcp_session(example_copy, workspaces) as session:
        said = [
            await refusal(session, "migrate", path="../elsewhere.test.tsx", offline=True),
            await refusal(session, "migrate", path=str(outside), offline=True),
            await refusal(session, "find_enzyme_tests", path="/etc"),
            await refusal(session, "find_enzyme_tests", path="src/nothing-here"),
            await refusal(session, "migrate", path="src/missing.test.tsx", offline=True),
            await refusal(session, "get_result", run_id="20260101-000000-abcdef"),
            await refusal(session, "get_result", run_id="../../etc"),
            await refusal(
                session, "submit_migration", task_id="20260101-000000-abcdef", content="x"
            ),
            await refusal(session, "migrate", path=PAGINATION, wait_seconds=500),
            await refusal(session, "find_enzyme_tests", path="../**/*.test.tsx"),
            await refusal(session, "find_enzyme_tests", path="/**/*.test.tsx"),
        ]
        for sentence in said:
            assert "Traceback" not in sentence and sentence.count("\n") <= 3, sentence
        assert "outside the project" in said[0] and "outside the project" in said[1]
        assert "no such file" in said[3]
        assert "no run" in said[5]
        assert all("outside the project" in sentence for sentence in said[-2:])
        # The server still answers after all that.
        found = await call(session, "find_enzyme_tests", path=PAGINATION)
        assert found["files"][0]["path"] == PAGINATION
    assert outside.read_text() == SIMPLE_ENZYME
    assert not (example_copy / ".testmend" / "runs").exists() or not any(
        (example_copy / ".testmend" / "runs").iterdir()
    )


async def test_streamable_http_serves_the_same_tools(example_copy: Path, workspaces: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "testmend", "mcp", "--http", f"127.0.0.1:{port}"],
        cwd=example_copy,
        env=server_env(workspaces),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            names = {tool.name for tool in (await session.list_tools()).tools}
            assert names == set(CONTRACT)
            found = await call(session, "find_enzyme_tests", path=PAGINATION)
            assert found["files"][0]["state"] == "no run"
    finally:
        server.terminate()
        server.wait(timeout=10)


async def test_a_task_stops_taking_submissions_at_its_limit(
    project: Path, workspaces: Path
) -> None:
    """At ``retry.maxTotalAttempts`` the answer says to stop and hand over; another submission
    is refused in one sentence. A submission still being checked is waited for, not doubled."""
    content, _kind = CHEATS["deletes-the-failing-test"]
    async with mcp_session(project, workspaces, TESTMEND_RETRY__MAX_TOTAL_ATTEMPTS="2") as session:
        task = await call(session, "begin_migration", path=SIMPLE_TEST, wait_seconds=45)
        while task["status"] == "preparing":
            task = await call(session, "begin_migration", path=SIMPLE_TEST, wait_seconds=45)
        first = await call(
            session, "submit_migration", task_id=task["task_id"], content=content, wait_seconds=0
        )
        assert first["outcome"] == "checking" and "same content" in first["next"]
        busy = await refusal(
            session, "submit_migration", task_id=task["task_id"], content=SIMPLE_RTL
        )
        assert "still being checked" in busy
        nexts = []
        for submitted in (content, CHEATS["skips-the-failing-test"][0]):
            verdict = await call(
                session, "submit_migration", task_id=task["task_id"], content=submitted
            )
            while verdict["outcome"] == "checking":
                verdict = await call(
                    session, "submit_migration", task_id=task["task_id"], content=submitted
                )
            nexts.append(verdict["next"])
        assert nexts[0].startswith("Fix every finding") and "attempt 1 of 2" in nexts[0]
        assert nexts[1].startswith("Stop") and f"testmend://runs/{task['task_id']}" in nexts[1]
        refused = await refusal(
            session, "submit_migration", task_id=task["task_id"], content=SIMPLE_RTL
        )
        assert "2 submissions" in refused and "retry.maxTotalAttempts" in refused
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME


@pytest.mark.node  # copies the example app to a package folder of its own
async def test_a_monorepo_folder_runs_each_file_in_its_own_package(
    tmp_path: Path, workspaces: Path
) -> None:
    """Started at a repository's root (no package.json there), the server runs a package's test
    in that package (its jest, its .testmend/), names files from the root, and finds the run
    again after a restart."""
    repo = tmp_path / "repo"
    package = copy_example_app(repo / "packages" / "app")
    test = f"packages/app/{PAGINATION}"
    original = (package / PAGINATION).read_text()
    async with mcp_session(repo, workspaces) as session:
        found = await call(session, "find_enzyme_tests", path="packages")
        assert test in {row["path"] for row in found["files"]} and len(found["files"]) == 10
        status = await call(session, "migrate", path=test, offline=True, wait_seconds=45)
        if status["status"] == "running":
            status = await until_ended(session, status["run_id"])
        assert status["status"] == "succeeded" and status["file"] == test, status
    assert (package / ".testmend" / "runs" / status["run_id"] / "run.json").is_file()
    assert not (repo / ".testmend").exists()
    async with mcp_session(repo, workspaces) as session:  # found again from its record
        result = await call(session, "get_result", run_id=status["run_id"])
        assert result["file"] == test and result["original_sha256"] == _sha256(original)
        written = await call(
            session, "apply_result", run_id=status["run_id"],
            expected_sha256=result["original_sha256"],
        )  # fmt: skip
        assert written["ok"] and test in written["files"], written
        found = await call(session, "find_enzyme_tests", path="packages/app/src/components")
        states = {row["path"]: row["state"] for row in found["files"]}
        assert states[test] == "migrated"
    assert "from 'enzyme'" not in (package / PAGINATION).read_text()


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--project", "/nonexistent/app"], "/nonexistent/app: no such folder"),
        (["--http", "localhost:web"], "--http wants HOST:PORT, not localhost:web"),
    ],
)
def test_a_bad_start_is_one_line_and_status_2(arguments: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "testmend", "mcp", *arguments],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"testmend: {said}" + (
        " (--project names the project)" if "folder" in said else ""
    )
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
