"""Run the original Enzyme test once with a recording setup file (see ``capture_setup.js``).

The run happens in a directory the caller owns (a shadow workspace root); this module writes
two temporary files there (a wrapper jest config and the setup file) and removes them again.
The wrapper config loads the project's own configuration and appends the setup file to its
``setupFilesAfterEnv`` (the jest CLI option would replace the project's list). Create React
App's test script passes a ``--config`` of its own, which would win: there the setup file
requires the app's ``src/setupTests`` first and goes in by the CLI option
(``--setupTestFrameworkScriptFile`` before jest 24).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from ..assets import read_asset
from ..layout import TEMP_DIR_PREFIX, TEMP_MARK
from ..project.configs import JEST_CONFIG_NAMES
from ..project.packages import installed_version
from ..project.testing_library import major
from ..runners import ProjectRunners, RunnerError
from ..runners.detect import runs_through_app
from ..workspace.paths import resolve_in_root
from .models import DomCapture, FindRecord, RenderRecord

_M = TypeVar("_M", bound=BaseModel)


def _js(value: str) -> str:
    return json.dumps(value)


def find_jest_config(root: Path) -> tuple[Path | None, dict[str, Any] | None]:
    """The project's jest config file, or the ``jest`` key of package.json."""
    for name in JEST_CONFIG_NAMES:
        if (root / name).is_file():
            return root / name, None
    try:
        package = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        package = {}
    jest = package.get("jest") if isinstance(package, dict) else None
    return None, jest if isinstance(jest, dict) else {}


def _is_esm_package(root: Path) -> bool:
    try:
        package = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(package, dict) and package.get("type") == "module"


def write_wrapper_config(root: Path, setup_file: Path, token: str) -> Path:
    """Write a jest config next to the project's that adds ``setup_file``
    (``capture_config.js``, in the project's module system); return its path."""
    config, inline = find_jest_config(root)
    suffix = config.suffix if config else ".json"
    if config is None or suffix == ".json":
        data = inline if config is None else json.loads(config.read_text(encoding="utf-8"))
        kind, load = ".cjs", f"const base = {json.dumps(data)};"
    elif suffix in (".ts", ".mts", ".cts"):
        kind, load = ".ts", f"import base from {_js('./' + config.stem)};"
    elif suffix == ".mjs" or (suffix == ".js" and _is_esm_package(root)):
        kind, load = ".mjs", f"import base from {_js('./' + config.name)};"
    else:
        kind = ".cjs"
        load = (
            f"const loaded = require({_js('./' + config.name)});\n"
            "const base = loaded && loaded.__esModule ? loaded.default : loaded;"
        )
    module = kind != ".cjs"
    text = (
        read_asset("testmend.codemod", "capture_config.js")
        .replace(
            "IMPORT_PATH",
            "import * as path from 'path';" if module else "const path = require('path');",
        )
        .replace("LOAD_BASE", load)
        .replace("DIR_VALUE", _js(str(root)))
        .replace("SETUP_VALUE", _js(str(setup_file)))
        .replace(
            "EXPORT deferred", "export default deferred" if module else "module.exports = deferred"
        )
    )
    target = root / f"{TEMP_MARK}capture-{token}.config{kind}"
    target.write_text(("// @ts-nocheck\n" if kind == ".ts" else "") + text, encoding="utf-8")
    return target


def _app_setup_files(root: Path) -> list[Path]:
    """Create React App's own setup file (``src/setupTests.*``), which its config loads."""
    for ext in (".js", ".ts", ".tsx", ".jsx", ".mjs"):
        path = root / "src" / f"setupTests{ext}"
        if path.is_file():
            return [path]
    return []


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
    return DomCapture(
        file=file, records=records, html_by_test=html, renders=renders, warnings=warnings
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
    token = uuid.uuid4().hex[:10]
    setup = root / f"{TEMP_MARK}capture-{token}.setup.js"
    started = time.perf_counter()
    wrapper: Path | None = None
    with runners.temp_dir(f"{TEMP_DIR_PREFIX}capture-") as tmp:
        out = Path(tmp) / "capture.json"
        error: str | None = None
        passed = failed = 0
        try:
            if runs_through_app(runners.commands.test):
                # Create React App passes its own --config, which would win over ours: the
                # setup goes in by the CLI option instead, after the app's own setup file.
                own = "".join(f"require({_js(str(p))});\n" for p in _app_setup_files(root))
                setup.write_text(own + setup_script(), encoding="utf-8")
                jest = installed_version(root, "jest") or installed_version(root, "jest-cli")
                option = (
                    "--setupTestFrameworkScriptFile"
                    if (major(jest) or 24) < 24
                    else "--setupFilesAfterEnv"
                )
                extra_args = [option, str(setup)]
            else:
                setup.write_text(setup_script(), encoding="utf-8")
                wrapper = write_wrapper_config(root, setup, token)
                extra_args = ["--config", str(wrapper)]
            result = await runners.run_tests(
                test_file,
                extra_args=extra_args,
                extra_env={
                    "TESTMEND_CAPTURE_OUT": str(out),
                    "TESTMEND_CAPTURE_TEST_FILE": str(abs_test),
                    "TESTMEND_CAPTURE_TEST_ID": test_id_attribute,
                },
            )
            passed, failed = result.passed_count, result.failed_count
            if result.suite_error is not None:
                error = f"the test file did not run: {result.suite_error.message[:2000]}"
            elif failed:
                error = f"{failed} test(s) failed in the original run"
        except (RunnerError, OSError, ValueError) as exc:
            error = str(exc) or type(exc).__name__
        finally:
            for path in (setup, wrapper):
                if path is not None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
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
            "tests_passed": passed,
            "tests_failed": failed,
            "duration_s": round(time.perf_counter() - started, 3),
        }
    )
