"""Reading the project: files, searches, listings and the dependency tree of a module. Every
path is relative to the project root and never leaves it; library sources under node_modules are
readable, never writable."""

from __future__ import annotations

from langchain.tools import tool
from langchain_core.tools import BaseTool

from ....project import dependencies as deps_mod
from ....project import files as files_mod
from .common import Runtime, emit_call, guarded


@tool
def glob(pattern: str, runtime: Runtime) -> str:
    """List project files matching a glob pattern, e.g. 'src/**/*.test.tsx'. node_modules is
    searched only when the pattern starts there, e.g. 'node_modules/@types/react/*.d.ts'."""
    emit_call(runtime, "glob", pattern)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return guarded(lambda: str(files_mod.glob_files(root, pattern, read_roots=reads)))


@tool
def grep(pattern: str, runtime: Runtime, glob: str | None = None, ignore_case: bool = False) -> str:
    """Search project files for a Python regular expression; optional glob filter."""
    emit_call(runtime, "grep", pattern)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return guarded(
        lambda: str(
            files_mod.grep(root, pattern, glob=glob, ignore_case=ignore_case, read_roots=reads)
        )
    )


@tool
def read_file(path: str, runtime: Runtime, offset: int = 1, limit: int = 400) -> str:
    """Read a project file (path relative to the project root), with line numbers. Library
    sources and type definitions are readable under node_modules/ (read-only)."""
    emit_call(runtime, "read_file", path)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return guarded(
        lambda: files_mod.read_file(root, path, offset=offset, limit=limit, read_roots=reads)
    )


@tool
def read_files(paths: list[str], runtime: Runtime) -> str:
    """Read several project files at once (paths relative to the project root)."""
    emit_call(runtime, "read_files", ", ".join(paths[:5]))
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return guarded(lambda: files_mod.read_files(root, paths, read_roots=reads))


@tool
def ls(runtime: Runtime, path: str = ".") -> str:
    """List a project directory (relative to the project root)."""
    emit_call(runtime, "ls", path)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return guarded(lambda: files_mod.list_dir(root, path, read_roots=reads))


FILE_TOOLS: list[BaseTool] = [glob, grep, read_file, read_files, ls]


# --- research ---------------------------------------------------------------------------------


@tool
def get_dependency_tree(path: str, runtime: Runtime, max_depth: int = 2) -> str:
    """Imports and exports of a project file and of what it imports (relative imports, index
    files, tsconfig paths and jest moduleNameMapper aliases resolved)."""
    emit_call(runtime, "get_dependency_tree", path)
    root = runtime.context.workspace_root

    return guarded(lambda: str(deps_mod.dependency_tree(root, path, max_depth=max_depth)))
