"""The package's imports flow down its layers (docs/architecture.md), and no module imports
itself back through others: read from the code's own imports, every one of them (a lazy import
inside a function counts as much as one at the top)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "testmend"

LAYERS: tuple[tuple[str, ...], ...] = (
    # lowest first; a unit is a sub-package or a top-level module of testmend
    ("testmend", "layout", "assets", "config", "config_sources", "enzyme_import", "js_syntax"),
    ("workspace", "patching"),
    ("sandbox", "llm", "project"),
    ("runners",),
    ("fidelity", "codemod"),
    ("workflow",),
    ("engine", "doctor"),
    ("team",),
    ("cli", "lsp", "mcp"),
    ("main",),
    ("__main__",),
)
"""A unit may import the units of lower layers, never those of its own layer or higher ones
(the bottom layer's modules may import each other: ``config`` is read by all)."""

LAYER_OF = {unit: index for index, layer in enumerate(LAYERS) for unit in layer}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """The testmend modules ``path`` imports (a name imported from a package counts as its
    submodule when there is one), with the line."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "testmend":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "testmend":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                yield (submodule if _exists(submodule) else target), node.lineno


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative).is_dir()


def all_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(module_name(path)) for path in all_modules()}
    assert units <= set(LAYER_OF), f"give these a layer: {sorted(units - set(LAYER_OF))}"


def test_imports_only_flow_down() -> None:
    wrong = []
    for path in all_modules():
        source = module_name(path)
        low = LAYER_OF[unit_of(source)]
        for target, line in imports(path):
            if unit_of(target) == unit_of(source):
                continue
            high = LAYER_OF[unit_of(target)]
            if high > low or (high == low and low > 0):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert wrong == [], "\n".join(wrong)


def test_no_module_reaches_into_another_packages_private_module() -> None:
    wrong = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
        for path in all_modules()
        for target, line in imports(path)
        if any(part.startswith("_") and not part.startswith("__") for part in target.split("."))
        and unit_of(target) != unit_of(module_name(path))
    ]
    assert wrong == [], "\n".join(wrong)


def test_no_circle_of_imports() -> None:
    graph: dict[str, set[str]] = {}
    for path in all_modules():
        source = module_name(path)
        graph[source] = {t for t, _ in imports(path) if t != source}
    # a package's __init__ that re-exports its own modules is not a circle with them
    graph = {
        module: {t for t in targets if not module.startswith(f"{t}.")}
        for module, targets in graph.items()
    }
    circles = _circles(graph)
    assert circles == [], "\n".join(" -> ".join(c) for c in circles)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_is_longer_than_600_lines_without_a_reason() -> None:
    """A long module (Python, or JavaScript shipped in the package) says at its top why it is
    one module (``Longer than 600 lines: …``)."""
    scripts = [p for p in PACKAGE.rglob("*") if p.suffix in (".js", ".cjs", ".ts", ".mjs")]
    long = [
        f"{path.relative_to(PACKAGE.parent)}: {lines} lines"
        for path in [*all_modules(), *scripts]
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600
        and "Longer than 600 lines:" not in path.read_text(encoding="utf-8")[:3000]
    ]
    assert long == [], "\n".join(long)
