"""A setup file of testmend's added to one jest run of the project (the DOM capture's recorder,
the probe that names a hanging test), the project's own setup kept.

Two temporary files go into the directory the run is in (a shadow workspace root) and are
removed after it: the setup file, and a wrapper jest config that loads the project's own
configuration and appends the setup file to its ``setupFilesAfterEnv`` (the jest CLI option
would replace the project's list). Create React App's test script passes a ``--config`` of its
own, which would win: there the setup file requires the app's ``src/setupTests`` first and goes
in by the CLI option (``--setupTestFrameworkScriptFile`` before jest 24).
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from ..assets import read_asset
from ..layout import TEMP_MARK
from ..project.configs import JEST_CONFIG_NAMES
from ..project.packages import installed_version
from ..project.testing_library import major
from .detect import ResolvedCommands, runs_through_app


class JestRuns(Protocol):
    """What a setup file needs of the project's runners: its test command."""

    @property
    def commands(self) -> ResolvedCommands: ...


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


def write_wrapper_config(
    root: Path, setup_file: Path, token: str, purpose: str = "capture"
) -> Path:
    """Write a jest config next to the project's that adds ``setup_file``
    (``setup_config.js``, in the project's module system); return its path."""
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
        read_asset("testmend.runners", "setup_config.js")
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
    target = root / f"{TEMP_MARK}{purpose}-{token}.config{kind}"
    target.write_text(("// @ts-nocheck\n" if kind == ".ts" else "") + text, encoding="utf-8")
    return target


def _app_setup_files(root: Path) -> list[Path]:
    """Create React App's own setup file (``src/setupTests.*``), which its config loads."""
    for ext in (".js", ".ts", ".tsx", ".jsx", ".mjs"):
        path = root / "src" / f"setupTests{ext}"
        if path.is_file():
            return [path]
    return []


@contextlib.contextmanager
def added_setup_file(
    runners: JestRuns, root: Path, script: str, purpose: str
) -> Iterator[list[str]]:
    """``script`` as a setup file of the project's jest runs in ``root`` while the block runs:
    yields the jest arguments that add it; the files go afterwards."""
    token = uuid.uuid4().hex[:10]
    setup = root / f"{TEMP_MARK}{purpose}-{token}.setup.js"
    wrapper: Path | None = None
    try:
        if runs_through_app(runners.commands.test):
            own = "".join(f"require({_js(str(p))});\n" for p in _app_setup_files(root))
            setup.write_text(own + script, encoding="utf-8")
            jest = installed_version(root, "jest") or installed_version(root, "jest-cli")
            option = (
                "--setupTestFrameworkScriptFile"
                if (major(jest) or 24) < 24
                else "--setupFilesAfterEnv"
            )
            yield [option, str(setup)]
        else:
            setup.write_text(script, encoding="utf-8")
            wrapper = write_wrapper_config(root, setup, token, purpose)
            yield ["--config", str(wrapper)]
    finally:
        for path in (setup, wrapper):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
