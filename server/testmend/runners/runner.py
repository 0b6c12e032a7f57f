"""Run the project's test, lint, lint-fix and typecheck commands on one file."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from .. import __version__
from ..assets import asset_path
from ..config import Config
from ..layout import TEMP_DIR_PREFIX, TOOL_CACHE_DIR
from ..project.packages import (
    detect_package_manager,
    install_command,
    needs_node_modules,
    node_modules_dir,
)
from ..sandbox import Sandbox, sandbox_for, tool_env
from ..workspace.paths import resolve_in_root, to_relative
from .detect import ResolvedCommands, resolve_commands, tsc_checks_file, tsc_incremental_args
from .errors import (
    BrokenTsconfigError,
    HangingTestError,
    MissingBinaryError,
    MissingNodeModulesError,
    RunnerError,
    RunnerTimeoutError,
    ToolCrashedError,
)
from .hangs import hanging_tests
from .jest_args import without_reporters
from .memo import ContentMemo
from .models import (
    LintFixResult,
    LintMessage,
    LintResult,
    SuiteError,
    TestRunResult,
    TypecheckResult,
    TypeDiagnostic,
)
from .parsing import (
    eslint_failure_summary,
    parse_eslint_report,
    parse_jest_report,
    parse_tsc_output,
    raise_for_broken_config,
    read_jest_output_file,
    tail,
    test_result,
)
from .process import Completed, run_command
from .tsc_scope import scope_typecheck
from .warm import LINE_LIMIT, WarmJest

if TYPE_CHECKING:
    from .kept import KeptResults

logger = logging.getLogger(__name__)
_Result = TypeVar("_Result", bound=BaseModel)

"""In the sandbox's temp dir: tool state worth keeping (``workspace/pool.py`` keeps it)."""
_RESULTS_PROCESSOR = asset_path("testmend.runners", "jest_results.cjs")
"""Drops the raw error objects jest cannot always serialise into its --json report."""


def tool_environment(config: Config, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for the project's tools: only what they need (see ``sandbox.tool_env``),
    never the model's API key."""
    return tool_env(
        os.environ if base is None else base,
        passed=config.sandbox.env,
        never=[config.model.api_key_env],
    )


def snapshot_file(test_file: str) -> str:
    """Where jest keeps ``test_file``'s snapshots by default (project-relative)."""
    path = Path(test_file)
    return (path.parent / "__snapshots__" / f"{path.name}.snap").as_posix()


class ProjectRunners:
    """The project's own tools, run in ``cwd`` (the project root or a shadow workspace of it).

    Files are given relative to ``cwd`` and go through the one path-resolution function, so
    nothing outside the project can be named. Results are filtered to that file. Every command
    runs in ``sandbox`` (by default: writable ``cwd`` and a private temp dir); its temp files
    (reports) live in the sandbox's temp dir.
    """

    def __init__(
        self,
        config: Config,
        *,
        cwd: Path | None = None,
        commands: ResolvedCommands | None = None,
        env: Mapping[str, str] | None = None,
        sandbox: Sandbox | None = None,
        warm: bool = False,
    ):
        self.config = config
        self.cwd = Path(cwd or config.project_root).resolve()
        self.commands = commands or resolve_commands(config, config.project_root)
        self.env = tool_environment(config, env)
        self.sandbox = sandbox or sandbox_for(config, self.cwd, environ=env)
        self.warm = WarmJest(self._spawn_node) if warm and self._warm_eligible() else None
        """The long-lived jest of this workspace (None: jest runs as the plain command). Its
        owner (``warm=True``) stops it with :meth:`aclose`."""
        self._memo = ContentMemo()
        self._kept_checks: KeptResults | None = None
        self._narrow_tsc = config.workspace.narrow_type_check
        self._known: frozenset[TypeDiagnostic] = frozenset()
        """The errors elsewhere the project's tsc last reported (see :meth:`_typecheck_run`)."""

    @property
    def jest_runs_warm(self) -> bool:
        """Whether jest runs go to the warm jest, where a second run costs its tests and not a
        start-up (False: the plain command, a new jest each time)."""
        return self.warm is not None and self.warm.usable

    def _warm_eligible(self) -> bool:
        """A warm jest drives jest itself, not a wrapper (react-scripts, craco, yarn …)."""
        test = self.commands.test
        return bool(self.config.workspace.warm_jest and test and Path(test[0]).name == "jest")

    async def _spawn_node(self, args: Sequence[str]) -> asyncio.subprocess.Process:
        """node with ``args`` in the sandbox, for the warm jest (stdin and stdout piped)."""
        self._check_node_modules()
        await self.sandbox.start()
        launch = self.sandbox.launch()
        env = self.sandbox.environment({**self.env, **launch.env})
        node = shutil.which("node", path=env.get("PATH")) or "node"
        return await asyncio.create_subprocess_exec(
            *launch.prefix,
            node,
            *args,
            cwd=self.cwd,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
            limit=LINE_LIMIT,
        )

    def warm_key(self) -> tuple[object, ...] | None:
        """What a warm jest kept from an earlier run must match to serve this one: the same
        workspace, sandbox policy, environment and test command (None: not to be kept; the
        sandbox's network proxy lives with one run)."""
        if self.warm is None or self.sandbox.policy.network:
            return None
        return (
            self.cwd,
            self.sandbox.kind,
            self.sandbox.policy,
            tuple(self.commands.test or ()),
            tuple(sorted(self.env.items())),
        )

    def identity(self) -> str:
        """What a test result depends on besides the project's files (the kept results' key,
        see ``kept.py``): the test command, the environment, the sandbox's kind and network
        rule, the node binary, testmend's version and the results processor it gives jest.
        Not the workspace's path: a result is the same in every slot."""
        env = self.env  # not the sandbox's: its temp dir is the slot's
        node = shutil.which("node", path=env.get("PATH")) or "node"
        try:
            found = os.stat(node)
            node_id = f"{os.path.realpath(node)}:{found.st_size}:{found.st_mtime_ns}"
        except OSError:
            node_id = node
        parts = [
            __version__,
            json.dumps(self.commands.test or []),
            json.dumps(sorted(env.items())),
            self.sandbox.kind,
            str(bool(self.sandbox.policy.network)),
            node_id,
            _RESULTS_PROCESSOR.read_text(encoding="utf-8"),
        ]
        return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()

    def keep_checks_in(self, kept: KeptResults | None) -> None:
        """Keep eslint's and tsc's results across runs in ``kept`` (None: run them every
        time); see :meth:`_kept_check`."""
        self._kept_checks = kept

    async def _kept_check(
        self,
        tool: str,
        command: Sequence[str] | None,
        abs_file: Path,
        rel: str,
        model: type[_Result],
        run: Callable[[], Awaitable[_Result]],
    ) -> _Result:
        """``run``'s result, or the one an earlier run of the same check kept for the same
        content of the file in the same workspace state, tools and command. eslint and tsc
        run no code of the file, so their result on a content is the same whoever wrote it
        (the migration's included), unlike a test run's. The file's snapshot, which the
        file's jest runs rewrite meanwhile, is left out of the state: neither tool reads it. A
        result is kept only when the file and the workspace were the same when the check
        ended as when it began."""
        kept = self._kept_checks
        try:
            content = abs_file.read_bytes() if kept is not None else b""
        except OSError:
            kept = None
        if kept is None:
            return await run()
        parts = (rel, hashlib.sha256(content).hexdigest(), json.dumps(list(command or ())))
        exclude = [rel, snapshot_file(rel)]
        key = await kept.key(f"check {tool}", *parts, exclude=exclude)
        found = await kept.get(key, model)
        if found is not None:
            return found.model_copy(update={"reused": True})
        result = await run()
        try:
            unchanged = abs_file.read_bytes() == content
        except OSError:
            unchanged = False
        if unchanged and await kept.key(f"check {tool}", *parts, exclude=exclude) == key:
            await kept.put(key, result)
        return result

    def adopt_warm(self, warm: WarmJest) -> None:
        """Use ``warm`` (kept from an earlier run with the same :meth:`warm_key`) as this
        workspace's warm jest; a process it starts from now on starts in this sandbox."""
        if self.warm is None:
            raise ValueError("this project's jest is not run warm")
        warm.rebind(self._spawn_node)
        self.warm = warm

    def release_warm(self) -> WarmJest | None:
        """Hand the warm jest over (to keep it for a later run): :meth:`aclose` leaves it."""
        warm, self.warm = self.warm, None
        return warm

    async def aclose(self) -> None:
        """Stop what outlives one command (the warm jest, checks started early)."""
        await self._memo.aclose()
        if self.warm is not None:
            await self.warm.aclose()

    def prefetch_checks(self, file: str) -> None:
        """Start eslint and tsc on ``file`` as it is now, beside whatever runs next (jest): the
        lint and type check steps find their results if the file has not changed by then.
        Never raises: whatever stops a check here, its step meets and reports."""
        try:
            abs_file, rel = self._target(file)
            if self.commands.lint is not None:
                self._memo.start("lint", rel, abs_file, lambda: self._lint_now(abs_file, rel))
            if self.type_checked(file):
                self._memo.start("tsc", rel, abs_file, lambda: self._typecheck_now(abs_file, rel))
        except (RunnerError, OSError, ValueError) as exc:
            logger.debug("no early checks of %s: %s", file, exc)

    def elsewhere(self, cwd: Path) -> ProjectRunners:
        """The same tools and sandbox settings, run in ``cwd``."""
        if Path(cwd).resolve() == self.cwd:
            return self
        return ProjectRunners(self.config, cwd=cwd, commands=self.commands)

    def _cache_dir(self) -> Path:
        """Tool state kept with the sandbox's temp dir (a warm slot keeps it between runs)."""
        path = self.sandbox.policy.temp_dir / TOOL_CACHE_DIR
        path.mkdir(parents=True, exist_ok=True)
        return path

    def temp_dir(self, prefix: str) -> tempfile.TemporaryDirectory[str]:
        """A temp dir in the sandbox's own (under the run's workspace): gone with it."""
        self.sandbox.policy.temp_dir.mkdir(parents=True, exist_ok=True)
        return tempfile.TemporaryDirectory(prefix=prefix, dir=self.sandbox.policy.temp_dir)

    # -- helpers ---------------------------------------------------------------------------

    def _argv(self, prefix: list[str] | None, tool: str, setting: str) -> list[str]:
        if not prefix:
            self._check_node_modules()
            raise MissingBinaryError(
                tool, tool, self.cwd, reason=self.commands.origin.get(setting, "is not configured")
            )
        first = prefix[0]
        if "/" in first and not os.path.isabs(first):
            first = str(self.cwd / first)
            if not os.path.exists(first):
                self._check_node_modules()
                raise MissingBinaryError(tool, prefix[0], self.cwd)
        return [first, *prefix[1:]]

    def _check_node_modules(self) -> None:
        if needs_node_modules(self.config.project_root) and node_modules_dir(self.cwd) is None:
            manager, _ = detect_package_manager(self.config.project_root)
            raise MissingNodeModulesError(self.config.project_root, install_command(manager))

    def _target(self, file: str) -> tuple[Path, str]:
        path = resolve_in_root(self.cwd, file)
        if not path.is_file():
            raise FileNotFoundError(f"{file}: no such file in {self.cwd}")
        return path, to_relative(self.cwd, path)

    async def _run(
        self,
        argv: list[str],
        tool: str,
        timeout: float,
        extra_env: Mapping[str, str] | None = None,
    ) -> Completed:
        self._check_node_modules()
        await self.sandbox.start()
        launch = self.sandbox.launch()
        env = self.sandbox.environment({**self.env, **(extra_env or {}), **launch.env})
        return await run_command(
            argv, cwd=self.cwd, env=env, timeout=timeout, tool=tool, prefix=launch.prefix
        )

    # -- tools -----------------------------------------------------------------------------

    async def run_tests(
        self,
        file: str,
        *,
        extra_args: Sequence[str] = (),
        extra_env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        probe: bool = True,
    ) -> TestRunResult:
        """jest on one file: per-test status, failure messages and positions.

        ``extra_args`` go before the file (e.g. ``--config`` of a wrapper config that adds a
        setup file); ``extra_env`` is added to the tools' environment for this run only;
        ``timeout`` replaces ``timeouts.test``. A run that times out raises
        :class:`HangingTestError` naming the tests that never finish (``probe``: found by one
        short run more, see ``hangs.py``).
        """
        abs_file, rel = self._target(file)
        try:
            report, output, done = await self._jest([abs_file], extra_args, extra_env, timeout)
        except RunnerTimeoutError:
            if not probe:
                raise
            limit = timeout or self.config.timeouts.test
            tests = await hanging_tests(self, self.cwd, rel, limit)
            raise HangingTestError(rel, tests, limit) from None
        return test_result(
            self.sandbox, rel, done, *parse_jest_report(report, abs_file, rel, output)
        )

    async def run_test_files(
        self,
        files: Sequence[str],
        *,
        extra_args: Sequence[str] = (),
        extra_env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        all_cores: bool = False,
    ) -> dict[str, TestRunResult]:
        """jest on several files in one process: a result per file (a file jest did not run
        gets a suite error saying so).

        ``all_cores``: this is the only jest of the moment. The plain command spreads the files
        over every core; the warm jest runs them in band, in its own process, whose loaded
        modules are what makes it fast (the workers jest would start are cold processes:
        measured on the intent check's 14 files, 2.7–3.0 s in band against 3.6–4.1 s with two
        workers)."""
        targets = [self._target(file) for file in files]
        report, output, done = await self._jest(
            [path for path, _ in targets], extra_args, extra_env, timeout, all_cores=all_cores
        )
        results: dict[str, TestRunResult] = {}
        for (abs_file, rel), file in zip(targets, files, strict=True):
            try:
                tests, suite_error = parse_jest_report(report, abs_file, rel, output)
            except RunnerError as exc:
                tests, suite_error = [], SuiteError(message=exc.message)
            results[file] = test_result(self.sandbox, rel, done, tests, suite_error)
        return results

    async def _jest(
        self,
        files: Sequence[Path],
        extra_args: Sequence[str],
        extra_env: Mapping[str, str] | None,
        timeout: float | None,
        *,
        all_cores: bool = False,
    ) -> tuple[dict[str, Any], str, Completed]:
        base = without_reporters(self._argv(self.commands.test, "jest", "test"))
        with self.temp_dir(f"{TEMP_DIR_PREFIX}jest-") as tmp:
            report_path = Path(tmp) / "report.json"
            argv = [
                *base,
                # Only the reporter jest prints with: a project's own (a reporter that runs
                # eslint or git, say) can fail the run or reach outside the sandbox.
                "--reporters=default",
                "--json",
                f"--outputFile={report_path}",
                "--testLocationInResults",
                "--ci",
                "--coverage=false",
                f"--testResultsProcessor={_RESULTS_PROCESSOR}",
                *extra_args,
            ]
            paths = ["--runTestsByPath", *(str(f) for f in files)]
            limit = timeout or self.config.timeouts.test
            done = None
            if self.warm is not None:
                self._check_node_modules()
                self.sandbox.forget_blocked()
                in_band = ["--runInBand"] if all_cores else []
                done = await self.warm.run([*argv[1:], *in_band, *paths], extra_env or {}, limit)
            if done is None:
                spread = [f"--maxWorkers={max(1, os.cpu_count() or 1)}"] if all_cores else []
                done = await self._run([*argv, *spread, *paths], "jest", limit, extra_env)
            output = done.stdout + done.stderr
            report = read_jest_output_file(report_path, output, done.returncode)
        return report, output, done

    async def _eslint(
        self, prefix: list[str] | None, setting: str, abs_file: Path
    ) -> tuple[list[LintMessage], bool, float]:
        base = self._argv(prefix, "eslint", setting)
        with self.temp_dir(f"{TEMP_DIR_PREFIX}eslint-") as tmp:
            report_path = Path(tmp) / "report.json"
            argv = [*base, "--format", "json", "--output-file", str(report_path), str(abs_file)]
            done = await self._run(argv, "eslint", self.config.timeouts.lint)
            if done.returncode not in (0, 1):
                raise ToolCrashedError(
                    "eslint",
                    "eslint failed: "
                    + self.sandbox.explain(eslint_failure_summary(done.stderr, done.stdout)),
                    "check the project's eslint configuration (run eslint on the file by hand)",
                    output=tail(done.stderr + done.stdout),
                )
            try:
                report = json.loads(report_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise ToolCrashedError(
                    "eslint", "eslint wrote no readable report", output=tail(done.stderr)
                ) from None
        messages, ignored = parse_eslint_report(report, abs_file)
        return messages, ignored, done.duration_s

    async def lint(self, file: str) -> LintResult:
        """eslint on the file (once per content of it: see ``memo.py``)."""
        abs_file, rel = self._target(file)
        return await self._memo.get("lint", rel, abs_file, lambda: self._lint_now(abs_file, rel))

    async def _lint_now(self, abs_file: Path, rel: str) -> LintResult:
        return await self._kept_check(
            "eslint",
            self.commands.lint,
            abs_file,
            rel,
            LintResult,
            lambda: self._lint_run(abs_file, rel),
        )

    async def _lint_run(self, abs_file: Path, rel: str) -> LintResult:
        messages, ignored, duration = await self._eslint(self.commands.lint, "lint", abs_file)
        return LintResult(file=rel, messages=messages, ignored=ignored, duration_s=duration)

    async def lint_fix(self, file: str) -> LintFixResult:
        """eslint --fix in place (in ``cwd``); the messages are those that remain."""
        abs_file, rel = self._target(file)
        before = abs_file.read_bytes()
        messages, ignored, duration = await self._eslint(
            self.commands.lint_fix, "lintFix", abs_file
        )
        return LintFixResult(
            file=rel,
            messages=messages,
            ignored=ignored,
            duration_s=duration,
            changed=abs_file.read_bytes() != before,
        )

    def type_checked(self, file: str) -> bool:
        """Whether the type check says anything about ``file`` (a type check command exists,
        and the file is TypeScript or JavaScript that tsc checks)."""
        if self.commands.typecheck is None:
            return False
        abs_file, rel = self._target(file)
        source = abs_file.read_text(encoding="utf-8", errors="replace")
        return tsc_checks_file(self.cwd, self.commands.typecheck, rel, source)

    async def typecheck(self, file: str) -> TypecheckResult:
        """tsc over the project (it cannot check one file with the project's settings),
        reporting the diagnostics of ``file`` and a count of the rest (once per content of
        the file: see ``memo.py``)."""
        abs_file, rel = self._target(file)
        return await self._memo.get(
            "tsc", rel, abs_file, lambda: self._typecheck_now(abs_file, rel)
        )

    async def _typecheck_now(self, abs_file: Path, rel: str) -> TypecheckResult:
        return await self._kept_check(
            "tsc",
            self.commands.typecheck,
            abs_file,
            rel,
            TypecheckResult,
            lambda: self._typecheck_run(abs_file, rel),
        )

    async def _typecheck_run(self, abs_file: Path, rel: str) -> TypecheckResult:
        """tsc on the program narrowed to the file (``tsc_scope.py``) when the project allows
        it and that program has no error but ones the project's tsc reported too, elsewhere
        (pre-existing: a library's types, another module); otherwise the project's tsc. When
        both ran and disagree about the file, the narrowing does not fit this project: the
        project's tsc checks every later content too."""
        base = self._argv(self.commands.typecheck, "tsc", "typecheck")
        narrowed: TypecheckResult | None = None
        if self._narrow_tsc:
            try:
                scope = await asyncio.to_thread(scope_typecheck, self.cwd, base, rel)
                if scope is not None:
                    narrowed, elsewhere = await self._tsc(
                        scope.argv, base, abs_file, rel, "tsc-scoped"
                    )
            except (BrokenTsconfigError, ToolCrashedError, OSError) as exc:
                logger.info("tsc on the files %s needs failed (%s): the project's tsc", rel, exc)
                self._narrow_tsc = False
            if narrowed is not None and not narrowed.diagnostics and elsewhere <= self._known:
                return narrowed.model_copy(update={"scoped": True})
        result, self._known = await self._tsc(base, base, abs_file, rel, "tsc")
        if narrowed is not None and narrowed.diagnostics != result.diagnostics:
            logger.info("tsc on the files %s needs differs from the project's: not narrowed", rel)
            self._narrow_tsc = False
        return result

    async def _tsc(
        self, argv: list[str], base: list[str], abs_file: Path, rel: str, state: str
    ) -> tuple[TypecheckResult, frozenset[TypeDiagnostic]]:
        """``argv`` (the type check command ``base``, or its narrowed form), incremental with
        its state in the cache's ``state``.tsbuildinfo: the result, and the errors elsewhere."""
        pretty = [] if "--pretty" in argv else ["--pretty", "false"]
        build_info = self._cache_dir() / f"{state}.tsbuildinfo"
        argv = [*argv, *pretty, *tsc_incremental_args(self.cwd, base, build_info)]
        done = await self._run(argv, "tsc", self.config.timeouts.typecheck)
        output = done.stdout + done.stderr
        diagnostics = parse_tsc_output(output, self.cwd)
        raise_for_broken_config(diagnostics, output)
        if done.returncode != 0 and not diagnostics:
            raise ToolCrashedError(
                "tsc",
                f"tsc exited with status {done.returncode}",
                output=self.sandbox.explain(tail(output)),
            )
        target = os.path.realpath(abs_file)
        mine = [
            d.model_copy(update={"file": rel})
            for d in diagnostics
            if os.path.realpath(d.file) == target
        ]
        others = frozenset(
            d for d in diagnostics if d.category == "error" and os.path.realpath(d.file) != target
        )
        result = TypecheckResult(
            file=rel,
            exit_code=done.returncode,
            diagnostics=mine,
            other_files_error_count=len(others),
            duration_s=done.duration_s,
        )
        return result, others
