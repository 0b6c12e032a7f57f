"""The whole deterministic tier on one file: capture → convert → write → eslint --fix →
jest, eslint, tsc. Used by the benchmark; the engine may reuse it for ``--offline`` runs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..config import Config
from ..project.children import children_of_the_tested_component
from ..runners import (
    LintResult,
    ProjectRunners,
    RunnerError,
    TestRunResult,
    TypecheckResult,
    snapshot_file,
)
from .capture import capture_dom
from .convert import convert_enzyme_test
from .models import CodemodOptions, CodemodResult, DomCapture


class OfflineResult(BaseModel):
    """The outcome of migrating one file with the deterministic tier only."""

    model_config = ConfigDict(frozen=True)

    file: str
    codemod: CodemodResult
    capture: DomCapture | None = None
    final_content: str
    """The file after eslint --fix (what was tested)."""
    tests: TestRunResult | None = None
    lint: LintResult | None = None
    """None when the project has no eslint (or it could not run: see ``errors``)."""
    typecheck: TypecheckResult | None = None
    """None when tsc does not check the file (or could not run: see ``errors``)."""
    snapshots_rewritten: list[str] = []
    """Project-relative snapshot files deleted so the DOM snapshots are recorded afresh."""
    errors: list[str] = []
    wall_time_s: float = 0.0

    @property
    def passed(self) -> int:
        return self.tests.passed_count if self.tests else 0

    @property
    def total(self) -> int:
        return len(self.tests.tests) if self.tests else 0

    @property
    def fully_passing(self) -> bool:
        """The migration is done: the file no longer uses Enzyme and every test passes (an
        original left unchanged, a file the codemod could not parse, is not)."""
        return bool(
            self.codemod.enzyme_free
            and self.tests
            and self.tests.success
            and self.tests.failed_count == 0
        )


async def migrate_offline(
    config: Config,
    test_file: str,
    *,
    workspace_root: Path,
    options: CodemodOptions,
    capture: bool = True,
    check: bool = True,
) -> OfflineResult:
    """Migrate ``test_file`` (project-relative) inside ``workspace_root`` (a shadow workspace:
    this writes the converted file there, and nothing in the user's project).

    Snapshots of the file are deleted and recorded again from the DOM (Enzyme snapshots
    cannot match a DOM render); the result lists them so the final diff includes them.
    """
    started = time.perf_counter()
    root = Path(workspace_root)
    runners = ProjectRunners(config, cwd=root)
    errors: list[str] = []
    dom: DomCapture | None = None
    if capture:
        dom = await capture_dom(
            runners, test_file, workspace_root=root, test_id_attribute=options.test_id_attribute
        )
        if dom.error:
            errors.append(f"capture: {dom.error}")
    target = root / test_file
    source = target.read_text(encoding="utf-8")
    children = await asyncio.to_thread(children_of_the_tested_component, root, test_file)
    options = options.model_copy(update={"component_children": children})
    result = convert_enzyme_test(source, path=test_file, options=options, dom=dom)
    if result.error:
        errors.append(f"codemod: {result.error}")
    target.write_text(result.content, encoding="utf-8")
    rewritten: list[str] = []
    snap = root / snapshot_file(test_file)
    if snap.is_file() and "toMatchSnapshot" in result.content:
        snap.unlink()
        rewritten.append(snapshot_file(test_file))
    tests = lint = typecheck = None
    if check:
        try:
            await runners.lint_fix(test_file)
        except RunnerError as exc:
            errors.append(f"eslint --fix: {exc}")
        extra = ["--ci=false"] if rewritten else []
        try:
            tests = await runners.run_tests(test_file, extra_args=extra)
        except RunnerError as exc:
            errors.append(f"jest: {exc}")
        if runners.commands.lint is not None:
            try:
                lint = await runners.lint(test_file)
            except RunnerError as exc:
                errors.append(f"eslint: {exc}")
        if runners.type_checked(test_file):
            try:
                typecheck = await runners.typecheck(test_file)
            except RunnerError as exc:
                errors.append(f"tsc: {exc}")
    return OfflineResult(
        file=test_file,
        codemod=result,
        capture=dom,
        final_content=target.read_text(encoding="utf-8"),
        tests=tests,
        lint=lint,
        typecheck=typecheck,
        snapshots_rewritten=rewritten,
        errors=errors,
        wall_time_s=round(time.perf_counter() - started, 2),
    )
