"""``testmend mcp``: the MCP server (the official Python SDK's ``MCPServer``), over stdio or, with
``--http HOST:PORT``, Streamable HTTP. One folder per server: the project it is started in (or
``--project``), or the packages of a monorepo under it (each file runs in its own project). The
engine loads on the first tool call that needs it, so ``initialize`` is answered as soon as the
SDK is imported.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from .. import __version__
from ..layout import state_dir
from .payloads import Done, FoundTests, ResultAnswer, RunStatusAnswer, Task, Verdict
from .runs import MAX_WAIT_SECONDS, Runs, ToolProblem
from .tools import Tools

INSTRUCTIONS = """testmend migrates React tests from Enzyme to React Testing Library and checks
every candidate in a sandboxed copy of the project: the project's own jest, eslint and tsc, a test
inventory (no test dropped, skipped or weakened) and a mutation intent check (the result catches
the bugs the original caught). Find tests with find_enzyme_tests. Either let testmend migrate
(migrate, then run_status, get_result, apply_result), or migrate with your own model:
begin_migration gives a brief, submit_migration checks your file and says what to fix next; only
its verdict says the work is done. Nothing is written to the project until apply_result."""

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)
RUNS = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
WRITES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)

log = logging.getLogger(__name__)
T = TypeVar("T")

Wait = Annotated[
    float,
    Field(
        ge=0,
        le=MAX_WAIT_SECONDS,
        description="Seconds to wait for the run before answering (at most 45); it goes on after",
    ),
]


async def _answer(call: Awaitable[T]) -> T:
    """One sentence for anything the user or the agent got wrong; a bug keeps its traceback in
    the server's log and still gets an answer."""
    try:
        return await call
    except ToolProblem as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:
        log.exception("tool call failed")
        raise ToolError(f"testmend failed: {type(exc).__name__}: {exc}") from None


def _progress(ctx: Context) -> Callable[[float, str], Awaitable[None]]:
    async def report(done: float, message: str) -> None:
        with contextlib.suppress(Exception):  # a client that asked for no progress
            await ctx.report_progress(done, None, message)

    return report


def build_server(runs: Runs) -> MCPServer:
    tools = Tools(runs)

    @contextlib.asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await runs.aclose()

    app: MCPServer = MCPServer(
        "testmend",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
    )

    @app.tool(annotations=READ_ONLY)
    async def find_enzyme_tests(
        path: Annotated[str, Field(description="A file, folder or glob of the project")] = ".",
    ) -> FoundTests:
        """The Enzyme test files under a file, folder or glob of the project, with the Enzyme
        APIs each uses and its state: no run, running, waiting for submission, kept result
        (a result not applied yet), migrated."""
        return await _answer(tools.find_enzyme_tests(path))

    @app.tool(annotations=RUNS)
    async def migrate(
        path: Annotated[str, Field(description="The Enzyme test file, in the project")],
        ctx: Context,
        offline: Annotated[
            bool, Field(description="Use the deterministic codemod only, no model")
        ] = False,
        wait_seconds: Wait = 20,
    ) -> RunStatusAnswer:
        """Start a migration of one test file (testmend's model, or the codemod offline), or
        follow the one already running for it. Waits up to wait_seconds with progress, then
        answers its status; run_status continues from there. Writes nothing to the project."""
        return await _answer(tools.migrate(path, offline, wait_seconds, _progress(ctx)))

    @app.tool(annotations=READ_ONLY)
    async def run_status(run_id: str, ctx: Context, wait_seconds: Wait = 20) -> RunStatusAnswer:
        """A run's status: waits up to wait_seconds for a run under way, with progress."""
        return await _answer(tools.run_status(run_id, wait_seconds, _progress(ctx)))

    @app.tool(annotations=READ_ONLY)
    async def get_result(run_id: str) -> ResultAnswer:
        """A finished run's result: outcome and reasons, the unified diff and its numbered
        hunks, the tests, the test inventory, the intent check with its lost mutants, lint and
        type messages, the report. original_sha256 is apply_result's expected_sha256."""
        return await _answer(tools.get_result(run_id))

    @app.tool(annotations=WRITES)
    async def apply_result(
        run_id: str,
        expected_sha256: Annotated[
            str, Field(description="The file's content it was migrated from (original_sha256)")
        ],
        hunks: Annotated[
            list[int] | None, Field(description="Only these hunks (get_result's indexes)")
        ] = None,
        accept_review: Annotated[
            bool, Field(description="Also write a result that needs review")
        ] = False,
    ) -> Done:
        """Write a result (or the named hunks) into the project, only if the file still has
        the content it was migrated from. A result that needs review only with accept_review."""
        return await _answer(tools.apply_result(run_id, expected_sha256, hunks, accept_review))

    @app.tool(annotations=RUNS)
    async def discard_result(run_id: str) -> Done:
        """Drop a run's result: it is never applied (its report stays)."""
        return await _answer(tools.discard_result(run_id))

    @app.tool(annotations=RUNS)
    async def cancel_run(run_id: str) -> Done:
        """Stop a run under way: its processes end and its workspace is removed."""
        return await _answer(tools.cancel_run(run_id))

    @app.tool(annotations=RUNS)
    async def begin_migration(
        path: Annotated[str, Field(description="The Enzyme test file, in the project")],
        ctx: Context,
        wait_seconds: Wait = 40,
    ) -> Task:
        """Migrate with your own model: testmend reads the test, runs it once recording the DOM
        and converts it with its codemod, then returns a brief (the original test, the
        component, the DOM per test, the codemod's candidate, the project's conventions, the
        rules of acceptance). Call it again while it is preparing."""
        return await _answer(tools.begin_migration(path, wait_seconds, _progress(ctx)))

    @app.tool(annotations=RUNS)
    async def submit_migration(
        task_id: str,
        content: Annotated[str, Field(description="The whole migrated test file")],
        ctx: Context,
        wait_seconds: Wait = 45,
    ) -> Verdict:
        """The verification gateway: your migrated file runs in a sandboxed copy of the project
        through every check (jest, eslint, tsc, the test inventory, the intent check) and the
        acceptance policy. Returns the outcome, every finding, and `next`: what to do now."""
        return await _answer(tools.submit_migration(task_id, content, wait_seconds, _progress(ctx)))

    @app.resource(
        "testmend://runs/{run_id}/report",
        name="report",
        description="A run's report: outcome and why, the inventory, the intent check, the diff",
        mime_type="text/markdown",
    )
    async def report(run_id: str) -> str:
        record = await _answer(runs.record(run_id))
        path = state_dir(runs.root_of(record.run_id)) / "runs" / record.run_id / "report.md"
        if not path.is_file():
            raise ToolError(f"run {run_id} has no report yet ({record.status})")
        return path.read_text(encoding="utf-8")

    @app.prompt("migrate-to-rtl")
    def migrate_to_rtl(path: str = "") -> str:
        """How to migrate an Enzyme test to React Testing Library with testmend as the judge."""
        target = f"`{path}`" if path else "the Enzyme test the user names"
        return (
            f"Migrate {target} from Enzyme to React Testing Library with testmend.\n"
            "1. If no file is named, call find_enzyme_tests to list them and ask which.\n"
            "2. Call begin_migration(path). While its status is `preparing`, call it again. "
            "Read the brief: the original test, the component, the DOM each test rendered, "
            "testmend's own conversion and what it left, the rules of acceptance.\n"
            "3. Write the whole migrated file and call submit_migration(task_id, content).\n"
            "4. Until its outcome is `succeeded`, do what `next` says and submit again: fix every "
            "finding; never delete, skip or weaken a test to make it pass. If `next` says stop, "
            "tell the user what is left and where the report is.\n"
            "5. When it is accepted, show the user the result (get_result's diff) and, if they "
            "agree, call apply_result(task_id, expected_sha256=original_sha256).\n"
            "Do not write the test file yourself: only apply_result writes it."
        )

    return app


def main(project: Path, http: str | None = None, overrides: dict[str, Any] | None = None) -> int:
    from ..layout import find_project_root

    if not project.expanduser().is_dir():
        print(f"testmend: {project}: no such folder (--project names the project)", file=sys.stderr)
        return 2
    root = find_project_root(project.expanduser().resolve())
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="testmend mcp: %(message)s"
    )
    app = build_server(Runs(root, overrides))
    if http is None:
        app.run("stdio")
        return 0
    host, _, port = http.rpartition(":")
    if not port.isdigit():
        print(f"testmend: --http wants HOST:PORT, not {http}", file=sys.stderr)
        return 2
    app.run("streamable-http", host=host or "127.0.0.1", port=int(port))
    return 0
