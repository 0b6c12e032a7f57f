"""The dependency tree of a test file, its mocks, and the project's tests around it.

All paths are project-relative and checked with
:func:`testmend.workspace.paths.resolve_in_root`: ``..``, absolute paths and symlinks leading out
of the root raise :class:`~testmend.workspace.paths.PathEscapeError`; resolution never picks a
file outside the root. Parsing uses tree-sitter (tsx grammar for ``.tsx``, typescript for
``.ts``, javascript for ``.js``/``.jsx``/``.mjs``/``.cjs``); nothing is executed.
"""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from testmend.enzyme_import import ENZYME_IMPORT as ENZYME_IMPORT
from testmend.js_syntax import JS_TS_EXTENSIONS, grammar_for
from testmend.layout import NEVER_WALKED
from testmend.project._walk import (
    MAX_WALK_FILES,
    WalkStats,
    read_text_file,
    resolve,
    walk_files,
)
from testmend.project.enzyme_helpers import EnzymeHelpers
from testmend.project.errors import NotAFileError, ProjectToolError
from testmend.project.files import PathList
from testmend.project.module_syntax import mock_calls, module_info
from testmend.project.resolver import ModuleResolver, Resolution
from testmend.workspace.paths import PathEscapeError

__all__ = [
    "DependencyNode",
    "DependencyTree",
    "ImportInfo",
    "MockCall",
    "ModuleResolver",
    "component_under_test",
    "dependency_tree",
    "find_example_tests",
    "find_mocks",
    "is_test_file",
    "mock_patterns",
    "render_dependency_tree",
    "tests_of_dependencies",
]

RTL_PACKAGES = frozenset({"@testing-library/react", "@testing-library/react/pure"})
_TEST_NAME = re.compile(r"\.(test|spec)\.[cm]?[jt]sx?$")
_JS_TS_NAME = re.compile(r"\.[cm]?[jt]sx?$")
_RTL_IMPORT = re.compile(r"""['"]@testing-library/react(?:/pure)?['"]""")
_ENZYME_IMPORT = re.compile(r"""['"]enzyme(?:-[\w-]+)?['"]""")
_SPECIFIER = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bjest\.mock\s*\(\s*)['"]([^'"\n]+)['"]"""
)
MAX_MOCK_SIBLINGS = 50
MAX_EXAMPLE_CANDIDATES = 2000
"""find_example_tests ranks at most this many Testing Library tests."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ImportInfo(_Model):
    specifier: str
    """As written in the source (``'@/api/users'``, ``'./Counter'``)."""
    resolved: str | None = None
    """Project-relative file it resolves to; None for packages and unresolvable imports."""
    names: list[str] = []
    kind: Literal["relative", "alias", "package", "unresolved"] = "package"


class DependencyNode(_Model):
    path: str
    imports: list[ImportInfo] = []
    exports: list[str] = []


class MockCall(_Model):
    """A mock set up in a test: ``jest.mock`` module, ``jest.spyOn`` target, timers, a global."""

    module: str
    """``'@/api/users'``; ``'window.alert'`` for spies; ``'timers'``; ``'global.fetch'``."""
    factory: bool
    """``jest.mock`` with a factory; spies with a ``mockImplementation``/``mock*Value``
    chained; always True for assigned globals."""
    line: int
    kind: Literal["module", "spy", "timers", "global"] = "module"
    code: str = ""
    """The statement as written (cut after 15 lines)."""


class DependencyTree(list[DependencyNode]):
    """The nodes of :func:`dependency_tree` in breadth-first order (the test file first)."""

    truncated: bool
    notes: list[str]

    def __init__(
        self,
        nodes: Iterable[DependencyNode] = (),
        *,
        truncated: bool = False,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__(nodes)
        self.truncated = truncated
        self.notes = list(notes)

    def __str__(self) -> str:
        return render_dependency_tree(self)


def enzyme_test_files(root: Path, *, max_files: int = MAX_WALK_FILES) -> list[Path]:
    """Test files (see :func:`is_test_file`) under ``root`` that import Enzyme, directly or
    through one of the project's modules (``test-helpers``): a text scan of the files a project
    walk sees (ignored folders and secrets skipped), not a parse."""
    found: list[Path] = []
    helpers = EnzymeHelpers(root)
    for rel in walk_files(root, stats=WalkStats(max_files=max_files)):
        if not is_test_file(rel):
            continue
        try:
            _, text = read_text_file(root, rel)
        except (ProjectToolError, PathEscapeError):
            continue
        if helpers.uses_enzyme(rel, text):
            found.append(root / rel)
    return sorted(found)


def is_test_file(path: str) -> bool:
    """``*.test.*``/``*.spec.*`` JS/TS files and JS/TS files inside ``__tests__``."""
    name = path.rsplit("/", 1)[-1]
    if _TEST_NAME.search(name):
        return True
    return "__tests__" in path.split("/")[:-1] and bool(_JS_TS_NAME.search(name))


def _source_file(root: Path, path: str) -> tuple[str, str]:
    rel, text = read_text_file(root, path)
    if grammar_for(rel) is None:
        raise NotAFileError(f"{rel!r} is not a JavaScript/TypeScript file")
    return rel, text


def _node_of(
    rel: str, text: str, resolver: ModuleResolver
) -> tuple[DependencyNode, list[Resolution]]:
    info = module_info(text, rel)
    merged: dict[str, ImportInfo] = {}
    resolutions: dict[str, Resolution] = {}
    for raw in info.imports:
        existing = merged.get(raw.specifier)
        if existing is None:
            resolution = resolver.resolve(rel, raw.specifier)
            resolutions[raw.specifier] = resolution
            merged[raw.specifier] = ImportInfo(
                specifier=raw.specifier,
                resolved=resolution.resolved,
                names=list(dict.fromkeys(raw.names)),
                kind=resolution.kind,
            )
        else:
            existing.names = list(dict.fromkeys([*existing.names, *raw.names]))
    node = DependencyNode(path=rel, imports=list(merged.values()), exports=info.exports)
    return node, [resolutions[s] for s in merged]


def dependency_tree(
    root: Path,
    test_file: str,
    *,
    max_depth: int = 3,
    max_files: int = 60,
    resolver: ModuleResolver | None = None,
) -> DependencyTree:
    """The project files ``test_file`` depends on, breadth first, the test file first.

    Follows static imports, re-exports (``export … from``, ``export * from``), ``require()``,
    dynamic ``import()`` and ``jest.mock('x')``-style specifiers through relative paths,
    tsconfig/jsconfig ``paths``/``baseUrl`` and jest ``moduleNameMapper``. Packages are listed
    but not followed; nor are JSON/CSS files, stubs that a mapper points at, ``node_modules``
    or files outside the root. Files at ``max_depth`` are listed with their imports but not
    followed further; at most ``max_files`` nodes (``truncated`` says when more were left).
    """
    resolver = resolver or ModuleResolver(root)
    start, text = _source_file(root, test_file)
    nodes: list[DependencyNode] = []
    notes: list[str] = []
    seen = {start}
    queue: deque[tuple[str, int, str | None]] = deque([(start, 0, text)])
    truncated = False
    while queue:
        rel, depth, content = queue.popleft()
        if content is None:
            try:
                _, content = read_text_file(root, rel)
            except (ProjectToolError, PathEscapeError) as error:
                notes.append(f"not parsed: {error}")
                continue
        node, resolutions = _node_of(rel, content, resolver)
        nodes.append(node)
        if depth >= max_depth:
            continue
        for resolution in resolutions:
            target = resolution.resolved
            if target is None or not resolution.follow or target in seen:
                continue
            if len(seen) >= max_files:
                truncated = True
                continue
            seen.add(target)
            queue.append((target, depth + 1, None))
    if truncated:
        notes.append(
            f"stopped at {max_files} files; imports of the last files are listed but not followed"
        )
    notes.extend(resolver.problems())
    return DependencyTree(nodes, truncated=truncated, notes=notes)


def render_dependency_tree(tree: Sequence[DependencyNode]) -> str:
    """Compact text for an agent: each file, what it imports (and from where), what it exports."""
    blocks: list[str] = []
    for node in tree:
        lines = [node.path]
        for imp in node.imports:
            target = f" -> {imp.resolved}" if imp.resolved else ""
            names = f": {', '.join(imp.names)}" if imp.names else ""
            lines.append(f"  import {imp.specifier!r}{target} ({imp.kind}){names}")
        if node.exports:
            lines.append(f"  exports: {', '.join(node.exports)}")
        blocks.append("\n".join(lines))
    text = "\n".join(blocks) if blocks else "(no files)"
    if isinstance(tree, DependencyTree):
        text += "".join(f"\n[{note}]" for note in tree.notes)
    return text


# -- mocks ------------------------------------------------------------------------------------


def find_mocks(source: str, path: str) -> list[MockCall]:
    """The mocks a test sets up, in source order.

    ``jest.mock``/``jest.doMock`` (and ``vi.*``) with their module and whether a factory is
    given; ``jest.spyOn(obj, 'm')`` targets; ``jest.useFakeTimers()``; assignments to
    ``global.*``/``globalThis.*``/``window.*`` and ``Object.defineProperty(window, 'x', …)``.
    ``path`` only selects the grammar; nothing is read from disk.
    """
    return [
        MockCall(module=m.module, factory=m.factory, line=m.line, kind=m.kind, code=m.code)
        for m in mock_calls(source, path)
    ]


def _sibling_tests(root: Path, rel: str) -> list[str]:
    folder = posixpath.dirname(rel)
    base = tuple(p for p in folder.split("/") if p)
    siblings = [
        p
        for p in walk_files(root, base, ignored_dirs=NEVER_WALKED)
        if posixpath.dirname(p) == folder and p != rel and is_test_file(p)
    ]
    return siblings[:MAX_MOCK_SIBLINGS]


def mock_patterns(root: Path, test_file: str, *, limit: int = 30) -> list[str]:
    """Distinct mock statements of ``test_file`` and then of the other tests in its folder.

    Examples of how this project mocks (``jest.mock('@/api/users');``, spies, fake timers,
    global stubs), for the agent to imitate. At most ``limit`` entries.
    """
    rel, text = _source_file(root, test_file)
    found: list[str] = [m.code for m in mock_calls(text, rel)]
    for sibling in _sibling_tests(root, rel):
        try:
            _, sibling_text = read_text_file(root, sibling)
        except (ProjectToolError, PathEscapeError):
            continue
        found.extend(m.code for m in mock_calls(sibling_text, sibling))
    return list(dict.fromkeys(found))[: max(0, limit)]


# -- example tests ----------------------------------------------------------------------------


def _specifiers(text: str) -> list[str]:
    return list(dict.fromkeys(_SPECIFIER.findall(text)))


def find_example_tests(
    root: Path,
    *,
    limit: int = 5,
    near: str | None = None,
    resolver: ModuleResolver | None = None,
) -> PathList:
    """Tests that already use React Testing Library: the style a migration should imitate.

    A test counts when it imports ``@testing-library/react`` directly or through a project
    module that imports/re-exports it (a ``test-utils``). Tests that still import Enzyme come
    last. With ``near=`` (a project file) tests in the same folder tree and importing the same
    modules come first. At most ``limit`` paths.
    """
    resolver = resolver or ModuleResolver(root)
    near_rel: str | None = None
    near_imports: set[str] = set()
    if near is not None:
        _, near_rel, _ = resolve(root, near)
        try:
            _, near_text = read_text_file(root, near_rel)
        except ProjectToolError:
            near_text = ""
        near_imports = _resolved_targets(resolver, near_rel, near_text)
    helper_cache: dict[str, bool] = {}
    scored: list[tuple[tuple[int, int, int, str], str]] = []
    for rel in walk_files(root):
        if len(scored) >= MAX_EXAMPLE_CANDIDATES:  # pragma: no cover - very large projects
            break
        if not is_test_file(rel) or rel == near_rel:
            continue
        try:
            _, text = read_text_file(root, rel)
        except ProjectToolError:
            continue
        if not _uses_rtl(resolver, rel, text, helper_cache):
            continue
        enzyme = 1 if _ENZYME_IMPORT.search(text) else 0
        shared_dirs = shared_imports = 0
        if near_rel is not None:
            shared_dirs = _common_dirs(rel, near_rel)
            shared_imports = len(near_imports & _resolved_targets(resolver, rel, text))
        scored.append(((enzyme, -shared_dirs, -shared_imports, rel), rel))
    scored.sort()
    limit = max(1, limit)
    chosen = [rel for _, rel in scored[:limit]]
    note = None
    if len(scored) > limit:
        note = f"showing {limit} of {len(scored)} tests that use Testing Library"
    elif not scored:
        note = "no test in the project uses @testing-library/react yet"
    return PathList(chosen, truncated=len(scored) > limit, total=len(scored), note=note)


def _resolved_targets(resolver: ModuleResolver, rel: str, text: str) -> set[str]:
    targets: set[str] = set()
    for spec in _specifiers(text):
        res = resolver.resolve(rel, spec)
        targets.add(res.resolved or spec)
    return targets


def _uses_rtl(resolver: ModuleResolver, rel: str, text: str, helpers: dict[str, bool]) -> bool:
    if _RTL_IMPORT.search(text):
        return True
    for spec in _specifiers(text):
        res = resolver.resolve(rel, spec)
        helper = res.resolved
        if helper is None or not res.follow or is_test_file(helper):
            continue
        if helper not in helpers:
            try:
                _, helper_text = read_text_file(resolver.root, helper)
            except (ProjectToolError, PathEscapeError):
                helper_text = ""
            helpers[helper] = any(s in RTL_PACKAGES for s in _specifiers(helper_text))
        if helpers[helper]:
            return True
    return False


def _common_dirs(a: str, b: str) -> int:
    count = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        count += 1
    return count


# -- tests of dependencies, component under test ----------------------------------------------


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    name = _JS_TS_NAME.sub("", name)
    name = re.sub(r"\.(test|spec|d)$", "", name)
    return name


def tests_of_dependencies(
    root: Path, tree: Sequence[DependencyNode], *, resolver: ModuleResolver | None = None
) -> list[tuple[str, str]]:
    """``(test file, dependency)`` pairs: existing tests of the files in ``tree``.

    A dependency ``dir/X.ts`` is tested by ``dir/X.test.*``, ``dir/X.spec.*`` or
    ``dir/__tests__/X[.test|.spec].*``. Index files, test files and the tree's first node (the
    test being migrated) are not looked up; the migrated test is never reported.
    """
    resolver = resolver or ModuleResolver(root)
    migrating = {resolve(root, tree[0].path)[1]} if tree else set()
    listings: dict[str, list[str]] = {}
    pairs: list[tuple[str, str]] = []
    for node in tree[1:]:
        _, dep, _ = resolve(root, node.path)
        stem = _stem(dep)
        if is_test_file(dep) or stem == "index" or not dep.endswith(JS_TS_EXTENSIONS):
            continue
        folder = posixpath.dirname(dep)
        tests_dir = f"{folder}/__tests__" if folder else "__tests__"
        for directory, pattern in (
            (folder, re.compile(rf"^{re.escape(stem)}\.(test|spec)\.[cm]?[jt]sx?$")),
            (tests_dir, re.compile(rf"^{re.escape(stem)}(\.(test|spec))?\.[cm]?[jt]sx?$")),
        ):
            if directory not in listings:
                listings[directory] = _list_names(resolver, directory)
            for name in listings[directory]:
                if pattern.match(name):
                    candidate = f"{directory}/{name}" if directory else name
                    if candidate not in migrating and (candidate, dep) not in pairs:
                        pairs.append((candidate, dep))
    return pairs


tests_of_dependencies.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def _list_names(resolver: ModuleResolver, directory: str) -> list[str]:
    try:
        folder, _, _ = resolve(resolver.root, directory or ".")
        names = sorted(p.name for p in folder.iterdir())
    except (OSError, ProjectToolError, PathEscapeError):
        return []
    prefix = f"{directory}/" if directory else ""
    return [n for n in names if resolver.is_file(prefix + n)]


def component_under_test(root: Path, test_file: str, tree: Sequence[DependencyNode]) -> str | None:
    """The module the test is most likely about (project-relative), or None.

    First a module with the test's base name (``Counter.test.tsx`` → ``Counter.tsx`` in the
    same folder, or next to a ``__tests__`` folder, or anywhere in ``tree``); otherwise the
    project import of the test that exports a capitalised (component-like) name and whose
    names the test uses most.
    """
    rel, text = _source_file(root, test_file)
    for node in tree:
        resolve(root, node.path)
    stem = _stem(rel)
    folder = posixpath.dirname(rel)
    folders = [folder]
    if folder.rsplit("/", 1)[-1] == "__tests__":
        folders.insert(0, posixpath.dirname(folder))
    resolver = ModuleResolver(root)
    for directory in folders:
        prefix = f"{directory}/" if directory else ""
        for ext in (".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs"):
            if resolver.is_file(f"{prefix}{stem}{ext}"):
                return f"{prefix}{stem}{ext}"
    by_path = {node.path: node for node in tree}
    same_name = [p for p in by_path if p != rel and not is_test_file(p) and _stem(p) == stem]
    if same_name:
        return same_name[0]
    test_node = by_path.get(rel) or _node_of(rel, text, resolver)[0]
    best: tuple[int, str] | None = None
    for imp in test_node.imports:
        if imp.resolved is None or imp.kind not in ("relative", "alias"):
            continue
        dep = by_path.get(imp.resolved)
        exports = dep.exports if dep is not None else []
        local = [_local_name(n) for n in imp.names]
        capitalised = any(e[:1].isupper() for e in exports) or any(
            n[:1].isupper() for n in local if n
        )
        if not capitalised or not imp.resolved.endswith(JS_TS_EXTENSIONS):
            continue
        uses = sum(len(re.findall(rf"\b{re.escape(n)}\b", text)) - 1 for n in local if n)
        if best is None or uses > best[0]:
            best = (uses, imp.resolved)
    return best[1] if best else None


def _local_name(name: str) -> str:
    """``'default as Foo'`` → ``Foo``; ``'type X'`` → ``''`` (types are not components)."""
    if name.startswith("type ") or name == "*":
        return ""
    return name.rsplit(" as ", 1)[-1]


MAX_MUTATION_TARGETS = 4


def mutation_targets(
    tree: Sequence[DependencyNode],
    component: str | None,
    *,
    mocked: Iterable[str] = (),
    limit: int = MAX_MUTATION_TARGETS,
) -> list[str]:
    """What the intent check mutates: the component under test, then the project's own modules
    it imports (hooks, reducers, validation); index files, tests, ``__mocks__``, test utilities
    and the modules the test mocks (``mocked``, project-relative) left out."""
    skipped = set(mocked)
    if component is None:
        return []
    by_path = {node.path: node for node in tree}
    targets = [component]
    node = by_path.get(component)
    for imp in node.imports if node is not None else []:
        dep = imp.resolved
        if dep is None or imp.kind not in ("relative", "alias") or dep in targets:
            continue
        if is_test_file(dep) or _stem(dep) == "index" or not dep.endswith(JS_TS_EXTENSIONS):
            continue
        if dep in skipped or "__mocks__" in dep.split("/") or "test-utils" in dep:
            continue
        targets.append(dep)
        if len(targets) >= limit:
            break
    return targets


def covering_tests(root: Path, source: str, *, resolver: ModuleResolver | None = None) -> list[str]:
    """Test files that cover a source file: named after it (``X.test.tsx``, ``__tests__/X.tsx``)
    or, in its folder and its ``__tests__`` folder, importing it."""
    resolver = resolver or ModuleResolver(root)
    _, rel, _ = resolve(root, source)
    if is_test_file(rel):
        return [rel]
    nodes = [DependencyNode(path=rel), DependencyNode(path=rel)]  # the first is "the test"
    found = [test for test, _ in tests_of_dependencies(root, nodes, resolver=resolver)]
    folder = posixpath.dirname(rel)
    for directory in (folder, f"{folder}/__tests__" if folder else "__tests__"):
        for name in _list_names(resolver, directory):
            candidate = f"{directory}/{name}" if directory else name
            if candidate in found or not is_test_file(candidate):
                continue
            try:
                node, _ = _node_of(candidate, _source_file(root, candidate)[1], resolver)
            except (OSError, ValueError):
                continue
            if any(imp.resolved == rel for imp in node.imports):
                found.append(candidate)
    return found
