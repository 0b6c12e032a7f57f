"""Find the project's testing conventions: its render helper, Enzyme helpers, jest-dom setup,
user-event and Testing Library versions (the "research" the codemod needs)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from ..config import EventsSetting
from ..enzyme_import import ENZYME_IMPORT
from ..layout import NEVER_WALKED
from ..project.configs import parse_jsonc
from ..project.enzyme_helpers import RENDERING_NAME, enzyme_render_imports, enzyme_renders
from ..project.packages import installed_version, read_package_json
from .helper_twins import helper_twin, mounted_root, twin_name
from .models import CodemodOptions, EventStyle, HelperMapping, RenderHelper
from .translate.action_helpers import action_helpers_in
from .translate.helper_modules import selection_helpers_in

_SOURCE_EXT = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs")
_TEST_RE = re.compile(r"(\.(test|spec)\.[cm]?[jt]sx?$)|(/__tests__/)")
_RTL_IMPORT = re.compile(
    r"""from\s+['"]@testing-library/react['"]|require\(\s*['"]@testing-library/react['"]"""
)
_IMPORT_SPEC = re.compile(r"""(?:from\s+|require\(\s*)['"]([^'"]+)['"]""")
_EXPORT_FUNCTION = re.compile(
    r"export\s+(?:async\s+)?function\s+([A-Za-z_$][\w$]*)|export\s+const\s+([A-Za-z_$][\w$]*)\s*="
)
_EXPORT_LIST = re.compile(r"export\s*\{([^}]*)\}(?!\s*from)")
_MAX_FILES = 5000


def _walk_project(root: Path) -> tuple[list[Path], list[Path]]:
    """One walk of the project: its source files (the first :data:`_MAX_FILES`) and the folders
    below it that hold a ``package.json`` (workspace packages)."""
    sources: list[Path] = []
    packages: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in NEVER_WALKED and not d.startswith(".")]
        folder = Path(dirpath)
        if folder != root and "package.json" in filenames:
            packages.append(folder)
        for name in filenames:
            if (
                len(sources) < _MAX_FILES
                and name.endswith(_SOURCE_EXT)
                and not name.endswith(".d.ts")
            ):
                sources.append(folder / name)
    return sources, packages


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _package_version(root: Path, name: str) -> int | None:
    version = installed_version(root, name)
    if version is not None:
        match = re.match(r"(\d+)", version)
        return int(match.group(1)) if match else None
    package = read_package_json(root)
    for section in ("dependencies", "devDependencies", "peerDependencies"):
        spec = (package.get(section) or {}).get(name)
        if isinstance(spec, str):
            match = re.search(r"(\d+)", spec)
            return int(match.group(1)) if match else None
    return None


def _exports(text: str) -> list[str]:
    names: list[str] = []
    for match in _EXPORT_FUNCTION.finditer(text):
        names.append(match.group(1) or match.group(2))
    for match in _EXPORT_LIST.finditer(text):
        for part in match.group(1).split(","):
            part = part.strip()
            if not part:
                continue
            names.append(part.split(" as ")[-1].strip())
    return list(dict.fromkeys(names))


def _module_path_key(path: Path) -> str:
    """Path without extension (and without a trailing /index), for matching specifiers."""
    stem = path.with_suffix("")
    if stem.name == "index":
        stem = stem.parent
    return stem.as_posix()


def _resolve_specifier(
    spec: str, importer: Path, root: Path, aliases: list[tuple[str, str]]
) -> str:
    if spec.startswith("."):
        return (importer.parent / spec).resolve().as_posix()
    for prefix, target in aliases:
        if prefix == "":
            # `baseUrl`: a bare specifier names a module under it when one is there
            base = root / target / spec
            if any(base.with_name(base.name + ext).is_file() for ext in _SOURCE_EXT) or any(
                (base / f"index{ext}").is_file() for ext in _SOURCE_EXT
            ):
                return base.resolve().as_posix()
        elif spec.startswith(prefix):
            return (root / target / spec[len(prefix) :]).resolve().as_posix()
    return spec


def _aliases(root: Path) -> list[tuple[str, str]]:
    """Import aliases from tsconfig/jsconfig ``paths`` (``@/*`` → ``src/*``), then its
    ``baseUrl`` under the prefix ``""`` (``shared/specs/x`` → ``src/shared/specs/x``)."""
    aliases: list[tuple[str, str]] = []
    for name in ("tsconfig.json", "jsconfig.json"):
        text = _read(root / name)
        if not text:
            continue
        try:
            data = parse_jsonc(text)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        options = data.get("compilerOptions") or {}
        base = options.get("baseUrl", ".")
        for key, targets in (options.get("paths") or {}).items():
            if key.endswith("/*") and targets and str(targets[0]).endswith("/*"):
                aliases.append((key[:-1], os.path.normpath(os.path.join(base, targets[0][:-1]))))
        if "baseUrl" in options:
            aliases.append(("", os.path.normpath(base)))  # after `paths`, as TypeScript does
    return aliases


def _mapped_by(name: str, render_helper: RenderHelper | None) -> str | None:
    """The render function of the project's Testing Library module that stands for its Enzyme
    helper ``name``: ``renderWithStore`` for ``mountWithStore``, else its one ``render
    With…`` for a ``mount/shallowWith…`` (both render inside providers); None."""
    if render_helper is None:
        return None
    rest = RENDERING_NAME.sub("", name)
    if f"render{rest}" in render_helper.custom_render_names:
        return f"render{rest}"
    if len(render_helper.custom_render_names) == 1 and rest.startswith("With"):
        return render_helper.custom_render_names[0]
    return None


def _helper_render_kind(name: str, text: str) -> Literal["mount", "shallow"]:
    """How a project helper named ``name`` renders: by its name (``shallowUntilTarget``,
    ``mountWithStore``), else by what its module takes from Enzyme (``renderWithStore`` in a
    module that imports only ``shallow``)."""
    if name.startswith("shallow"):
        return "shallow"
    if name.startswith("mount"):
        return "mount"
    names = enzyme_render_imports(text)
    return "shallow" if "shallow" in names and "mount" not in names else "mount"


def _root_of(text: str, path: Path, name: str) -> dict[str, Any]:
    """``HelperMapping``'s ``root`` and ``root_props`` for the Enzyme helper ``name``."""
    found = mounted_root(text, path.as_posix(), name)
    return {"root": found[0], "root_props": found[1]} if found is not None else {}


def _preferred_specifier(module: Path, root: Path, importers: Counter[str]) -> str:
    """The non-relative specifier tests already use for ``module`` (else a root-relative hint)."""
    for spec, _count in importers.most_common():
        if not spec.startswith("."):
            return spec
    return "./" + module.relative_to(root).with_suffix("").as_posix()


def _jest_setup_files(root: Path) -> list[Path]:
    files: list[Path] = []
    texts = [
        _read(root / n)
        for n in (
            "jest.config.js",
            "jest.config.ts",
            "jest.config.cjs",
            "jest.config.mjs",
            "jest.config.json",
        )
    ]
    package = read_package_json(root)
    if isinstance(package.get("jest"), dict):
        texts.append(json.dumps(package["jest"]))
    for text in texts:
        for block in re.findall(r"setupFilesAfterEnv['\"]?\s*:\s*\[([^\]]*)\]", text):
            for spec in re.findall(r"['\"]([^'\"]+)['\"]", block):
                spec = spec.replace("<rootDir>", str(root))
                path = Path(spec) if os.path.isabs(spec) else root / spec
                if path.is_file():
                    files.append(path)
                elif not spec.startswith("."):
                    files.append(Path(spec))  # a package, e.g. @testing-library/jest-dom
    return files


def _jest_dom_global(root: Path) -> bool:
    for path in _jest_setup_files(root):
        if "jest-dom" in str(path) or "jest-dom" in _read(path):
            return True
    return False


def _support_dir(root: Path, render_helper: RenderHelper | None) -> str:
    """Where the migrated tests' shared modules go: beside the project's render helper, else
    beside its jest setup file, else in ``src/`` (or the root). A folder whose
    ``recordProps`` module is someone else's gets a ``testmend/`` folder of its own."""
    folder: Path | None = None
    if render_helper is not None and render_helper.path is not None:
        folder = (root / render_helper.path).parent
    if folder is None:
        local = [
            f
            for f in _jest_setup_files(root)
            if f.is_absolute() and f.is_relative_to(root) and "node_modules" not in f.parts
        ]
        folder = local[0].parent if local else None
    if folder is None:
        folder = root / "src" if (root / "src").is_dir() else root
    return _own_folder(folder, root)


_PACKAGE_TEST_FOLDERS = ("test", "tests", "spec", "testing")
"""A workspace package's own test folder, by the names packages give it (never ``__tests__``,
whose every module jest runs as a test, nor ``src``, which ships)."""


def _package_support_dirs(root: Path, packages: list[Path], support_dir: str) -> dict[str, str]:
    """The workspace ``packages`` below ``root`` that do not hold ``support_dir`` → their own
    test folder, where their tests' shared modules go."""
    found: dict[str, str] = {}
    shared = root / support_dir
    for folder in packages:
        if shared.is_relative_to(folder):
            continue
        for name in _PACKAGE_TEST_FOLDERS:
            if (folder / name).is_dir():
                found[folder.relative_to(root).as_posix()] = _own_folder(folder / name, root)
                break
    return found


def _own_folder(folder: Path, root: Path) -> str:
    """``folder`` (project-relative), or a ``testmend/`` folder in it when the ``recordProps``
    module there is someone else's."""
    for ext in ("ts", "js"):
        taken = folder / f"recordProps.{ext}"
        if taken.is_file() and "Written by testmend" not in _read(taken)[:200]:
            folder = folder / "testmend"
            break
    relative = folder.relative_to(root).as_posix()
    return "." if relative in ("", ".") else relative


def _version(root: Path, name: str) -> tuple[int, int] | None:
    found = installed_version(root, name)
    match = re.match(r"(\d+)\.(\d+)", found or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _inline_type_imports(root: Path) -> bool:
    """Whether the project's TypeScript (4.5+) and Babel (7.16+, when it has one) read
    ``import { x, type X }``."""
    typescript = _version(root, "typescript")
    babel = _version(root, "@babel/core")
    return (typescript is None or typescript >= (4, 5)) and (babel is None or babel >= (7, 16))


def _event_style(events: EventsSetting, user_event: int | None) -> EventStyle:
    if user_event is None or events == "fireEvent":
        return "fireEvent"
    if events == "userEvent" or user_event >= 14:
        return "userEvent"
    return "fireEvent"


def detect_conventions(project_root: Path, *, events: EventsSetting = "auto") -> CodemodOptions:
    """Look at the project once: render helper, Enzyme helpers and their RTL counterparts,
    global jest-dom, user-event and Testing Library versions. ``events``: the
    ``codemod.events`` setting (``auto``: userEvent where user-event 14 or newer is
    installed)."""
    root = Path(project_root).resolve()
    aliases = _aliases(root)
    sources, packages = _walk_project(root)
    texts = {path: _read(path) for path in sources}

    # Which specifier each test file uses for each module it imports.
    importers: dict[str, Counter[str]] = {}
    for path, text in texts.items():
        if not _TEST_RE.search(path.as_posix()):
            continue
        for spec in _IMPORT_SPEC.findall(text):
            resolved = _resolve_specifier(spec, path, root, aliases)
            importers.setdefault(resolved, Counter())[spec] += 1

    render_helper: RenderHelper | None = None
    enzyme_helpers: list[tuple[Path, list[str], str]] = []
    enzyme_helper_specs: set[str] = set()
    enzyme_helper_paths: list[str] = []
    enzyme_helper_renders: dict[str, Literal["mount", "shallow"]] = {}
    best_score = -1
    for path, text in texts.items():
        posix = path.as_posix()
        if _TEST_RE.search(posix):
            continue
        exports = _exports(text)
        key = _module_path_key(path)
        if _RTL_IMPORT.search(text) or re.search(
            r"export\s*\*\s*from\s*['\"]@testing-library/react['\"]", text
        ):
            renders = [n for n in exports if n.lower().startswith("render") or n == "customRender"]
            reexports = bool(
                re.search(r"export\s*\*\s*from\s*['\"]@testing-library/react['\"]", text)
            )
            used = sum(importers.get(key, Counter()).values())
            score = used * 10 + reexports * 5 + len(renders) + ("test-utils" in posix.lower()) * 3
            if renders and score > best_score:
                best_score = score
                custom = [n for n in renders if n != "render"]
                render_name = "render" if "render" in renders or reexports else custom[0]
                render_helper = RenderHelper(
                    module=_preferred_specifier(path, root, importers.get(key, Counter())),
                    path=path.relative_to(root).as_posix(),
                    render_name=render_name,
                    custom_render_names=custom,
                    reexports_rtl=reexports,
                )
        if ENZYME_IMPORT.search(text) and exports:
            # (a module of both kinds: teams moving to Testing Library keep an RTL
            # `renderWithProviders` beside the Enzyme `mountWrapper` most tests still use)
            helpers = [n for n in exports if RENDERING_NAME.match(n) and enzyme_renders(text, n)]
            spec = _preferred_specifier(path, root, importers.get(key, Counter()))
            enzyme_helpers.append((path, helpers, spec))
            enzyme_helper_specs.update(
                s for s in importers.get(key, Counter()) if not s.startswith(".")
            )
            enzyme_helper_paths.append(Path(key).relative_to(root).as_posix())
            for name in helpers:
                enzyme_helper_renders[name] = _helper_render_kind(name, text)

    mappings: list[HelperMapping] = []
    for path, helpers, spec in enzyme_helpers:
        # Every twin of a module goes into one text of it, which each result carries whole.
        module, twinned = texts[path], []
        for name in helpers:
            if enzyme_helper_renders.get(name) != "mount" or _mapped_by(name, render_helper):
                continue
            twin = helper_twin(module, path.as_posix(), name)
            if twin is not None:
                module = twin
                twinned.append(name)
        relative = path.relative_to(root).as_posix()
        mappings += [
            HelperMapping(
                enzyme_name=name,
                enzyme_module=spec,
                render_name=twin_name(name),
                render_module=spec,
                render_path=relative,
                twin=module,
                **_root_of(texts[path], path, name),
            )
            for name in twinned
        ]
    if render_helper is not None:
        for path, helpers, spec in enzyme_helpers:
            for name in helpers:
                target = _mapped_by(name, render_helper)
                if target is None:
                    continue
                mappings.append(
                    HelperMapping(
                        enzyme_name=name,
                        enzyme_module=spec,
                        render_name=target,
                        render_module=render_helper.module,
                        **_root_of(texts[path], path, name),
                    )
                )
    # Selection helpers in the modules tests import (``__tests__/helpers.js`` included).
    selection: dict[str, dict[str, str]] = {}
    actions: dict[str, dict[str, str]] = {}
    for path, text in texts.items():
        key = _module_path_key(path)
        if key not in importers or re.search(r"\.(test|spec)\.", path.name):
            continue
        found = selection_helpers_in(text)
        module = Path(key).relative_to(root).as_posix()
        if found:
            selection[module] = found
        acting = action_helpers_in(text, path.name, found)
        if acting:
            actions[module] = acting
    user_event = _package_version(root, "@testing-library/user-event")
    support_dir = _support_dir(root, render_helper)
    return CodemodOptions(
        selection_helpers=selection,
        action_helpers=actions,
        render_helper=render_helper,
        helper_mappings=mappings,
        enzyme_helper_modules=sorted(
            {spec for _p, _h, spec in enzyme_helpers} | enzyme_helper_specs
        ),
        enzyme_helper_paths=sorted(enzyme_helper_paths),
        enzyme_helper_renders={
            name: kind
            for name, kind in enzyme_helper_renders.items()
            if name not in {m.enzyme_name for m in mappings}
        },
        jest_dom_global=_jest_dom_global(root),
        accessible_names=(_version(root, "@testing-library/jest-dom") or (0, 0)) >= (5, 14),
        redux_installed=installed_version(root, "react-redux") is not None,
        router_installed=installed_version(root, "react-router-dom") is not None,
        router_major=_package_version(root, "react-router-dom"),
        user_event_installed=user_event is not None,
        user_event_major=user_event,
        react_major=_package_version(root, "react"),
        rtl_major=_package_version(root, "@testing-library/react"),
        event_style=_event_style(events, user_event),
        support_dir=support_dir,
        package_support_dirs=_package_support_dirs(root, packages, support_dir),
        inline_type_imports=_inline_type_imports(root),
    )
