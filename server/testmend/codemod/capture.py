"""Run the original Enzyme test once with a recording setup file (see ``capture_setup.js``),
added to the project's jest run by ``runners.setup_files`` (in a directory the caller owns, a
shadow workspace root; the temporary files go again after the run)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from ..assets import read_asset
from ..layout import TEMP_DIR_PREFIX
from ..runners import HangingTestError, ProjectRunners, RunnerError, RunnerTimeoutError
from ..runners.hangs import PROGRESS_ENV, probe_script, stuck_in
from ..runners.setup_files import added_setup_file
from ..workspace.paths import resolve_in_root
from .models import DomCapture, FindRecord, RenderRecord

_M = TypeVar("_M", bound=BaseModel)


def setup_script() -> str:
    return read_asset("testmend.codemod", "capture_setup.js")


def _valid(model: type[_M], raws: Any) -> list[_M]:
    """The entries of ``raws`` that are valid ``model``s (a partial capture keeps the rest)."""
    out: list[_M] = []
    for raw in raws or []:
        try:
            out.append(model.model_validate(raw))
        except ValueError:
            continue
    return out


def parse_capture(file: str, data: Any) -> DomCapture:
    """Turn the setup file's JSON into a :class:`DomCapture` (tolerant of partial data)."""
    if not isinstance(data, dict):
        return DomCapture(file=file, error="the capture wrote no readable data")
    records = _valid(FindRecord, data.get("records"))
    renders = _valid(RenderRecord, data.get("renders"))
    html = {str(k): str(v) for k, v in (data.get("html") or {}).items()}
    warnings = [str(w) for w in data.get("errors") or []]
    ready = data.get("user_event_ready")
    return DomCapture(
        file=file,
        records=records,
        html_by_test=html,
        renders=renders,
        warnings=warnings,
        user_event_ready=ready if isinstance(ready, bool) else None,
    )


async def capture_dom(
    runners: ProjectRunners,
    test_file: str,
    *,
    workspace_root: Path,
    test_id_attribute: str = "data-testid",
) -> DomCapture:
    """Run ``test_file`` (project-relative) once in ``workspace_root`` with the recording
    setup file and return what it saw.

    ``runners`` is re-targeted to ``workspace_root`` if it runs elsewhere. Never
    raises for a failing, crashing or hanging test: the error is in :attr:`DomCapture.error`
    and the records captured until then are kept.
    """
    root = Path(workspace_root).resolve()
    runners = runners.elsewhere(root)
    abs_test = resolve_in_root(root, test_file)
    started = time.perf_counter()
    with runners.temp_dir(f"{TEMP_DIR_PREFIX}capture-") as tmp:
        out = Path(tmp) / "capture.json"
        progress = Path(tmp) / "progress.tsv"  # the hang probe's marks: a hang is named at once
        error: str | None = None
        hangs = False
        passed = failed = 0
        try:
            script = setup_script() + probe_script()
            with added_setup_file(runners, root, script, "capture") as extra_args:
                result = await runners.run_tests(
                    test_file,
                    extra_args=extra_args,
                    extra_env={
                        "TESTMEND_CAPTURE_OUT": str(out),
                        "TESTMEND_CAPTURE_TEST_FILE": str(abs_test),
                        "TESTMEND_CAPTURE_TEST_ID": test_id_attribute,
                        PROGRESS_ENV: str(progress),
                    },
                    probe=False,
                )
            passed, failed = result.passed_count, result.failed_count
            if result.suite_error is not None:
                error = f"the test file did not run: {result.suite_error.message[:2000]}"
            elif failed:
                error = f"{failed} test(s) failed in the original run"
        except RunnerTimeoutError as exc:
            error = str(HangingTestError(test_file, stuck_in(progress), exc.timeout))
            hangs = True
        except (RunnerError, OSError, ValueError) as exc:
            error = str(exc) or type(exc).__name__
        try:
            data: Any = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
    capture = parse_capture(test_file, data)
    if data is None and error is None:
        error = "the capture setup file wrote nothing (is this an Enzyme test run by jest?)"
    return capture.model_copy(
        update={
            "error": error,
            "hangs": hangs,
            "tests_passed": passed,
            "tests_failed": failed,
            "duration_s": round(time.perf_counter() - started, 3),
        }
    )
