"""Project inspection for agents: file tools and the dependency tree of a test file.

Plain typed functions; the engine wraps them as agent tools. Every path is project-relative and
goes through :func:`testmend.workspace.paths.resolve_in_root`.
"""

from testmend.project.dependencies import (
    ENZYME_IMPORT,
    DependencyNode,
    DependencyTree,
    ImportInfo,
    MockCall,
    component_under_test,
    dependency_tree,
    enzyme_test_files,
    find_example_tests,
    find_mocks,
    is_test_file,
    mock_patterns,
    render_dependency_tree,
    tests_of_dependencies,
)
from testmend.project.errors import (
    TOOL_ERRORS,
    BinaryFileError,
    FileMissingError,
    FileTooLargeError,
    InvalidPatternError,
    NotAFileError,
    ProjectToolError,
    RefusedPathError,
)
from testmend.project.files import (
    GrepMatch,
    GrepResult,
    PathList,
    glob_files,
    grep,
    list_dir,
    read_file,
    read_files,
)
from testmend.project.resolver import ModuleResolver, Resolution

__all__ = [
    "ENZYME_IMPORT",
    "TOOL_ERRORS",
    "BinaryFileError",
    "DependencyNode",
    "DependencyTree",
    "FileMissingError",
    "FileTooLargeError",
    "GrepMatch",
    "GrepResult",
    "ImportInfo",
    "InvalidPatternError",
    "MockCall",
    "ModuleResolver",
    "NotAFileError",
    "PathList",
    "ProjectToolError",
    "RefusedPathError",
    "Resolution",
    "component_under_test",
    "dependency_tree",
    "enzyme_test_files",
    "find_example_tests",
    "find_mocks",
    "glob_files",
    "grep",
    "is_test_file",
    "list_dir",
    "mock_patterns",
    "read_file",
    "read_files",
    "render_dependency_tree",
    "tests_of_dependencies",
]
