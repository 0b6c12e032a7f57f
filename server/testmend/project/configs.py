"""Reading the resolution settings of a project: tsconfig/jsconfig and the jest config.

Tolerant by design: a config that cannot be read or parsed contributes nothing (the reason is
kept in ``problems`` so callers can show it). Nothing is executed; ``jest.config.js`` is read
with tree-sitter and only literal values are used.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from testmend.js_syntax import Node, call_args, parse, string_value, text_of
from testmend.layout import DEPENDENCY_DIRS
from testmend.project._walk import read_text_file
from testmend.project.errors import ProjectToolError
from testmend.workspace.paths import PathEscapeError

TSCONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
JEST_CONFIG_NAMES = (
    "jest.config.js",
    "jest.config.ts",
    "jest.config.mjs",
    "jest.config.cjs",
    "jest.config.mts",
    "jest.config.cts",
    "jest.config.json",
)
_MAX_EXTENDS = 10
CONFIG_DIR = "<configDir>"


# -- JSON with comments -----------------------------------------------------------------------


def parse_jsonc(text: str) -> Any:
    """Parse JSON that may have ``//`` and ``/* */`` comments and trailing commas (tsconfig)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j == -1 else j + 2
        else:
            out.append(ch)
            i += 1
    cleaned = re.sub(r",(\s*[}\]])", r"\1", "".join(out))
    return json.loads(cleaned)


def join_rel(base: tuple[str, ...], relative: str) -> tuple[str, ...] | None:
    """``base`` folder + a relative (or ``<rootDir>``-free) path; None when it leaves the root."""
    if relative.startswith("/"):
        return None
    joined = posixpath.normpath(posixpath.join("/".join(base) or ".", relative))
    if joined == ".." or joined.startswith("../"):
        return None
    return tuple(p for p in joined.split("/") if p not in ("", "."))


# -- tsconfig ---------------------------------------------------------------------------------


@dataclass
class TsConfig:
    """The module-resolution part of a tsconfig/jsconfig (with ``extends`` applied), and
    whether it checks JavaScript."""

    path: str
    base_url: tuple[str, ...] | None = None
    paths: list[tuple[str, list[str]]] = field(default_factory=list)
    paths_base: tuple[str, ...] = ()
    check_js: bool = False
    """``checkJs``: tsc reports type errors in JavaScript files."""
    problems: list[str] = field(default_factory=list)
    files: tuple[tuple[str, ...], list[str]] | None = None
    include: tuple[tuple[str, ...], list[str]] | None = None
    exclude: tuple[tuple[str, ...], list[str]] | None = None
    """``files``/``include``/``exclude`` as (the folder of the config that set them, the
    patterns): the nearest config in the ``extends`` chain that sets one wins, as in tsc."""
    out_dir: tuple[str, ...] | None = None
    allow_js: bool = False
    composite: bool = False
    references: bool = False
    """The config names ``references`` (project references; not inherited, as in tsc)."""
    config_dir_template: bool = False
    """A config read uses ``${configDir}`` (TS 5.5: the folder of the config tsc was given)."""
    unread_bases: int = 0
    """``extends`` that name a package (each also a problem): their settings are not known."""
    own_inputs: bool = False
    """The config itself sets ``files`` or ``include`` (what a base sets is then overridden)."""

    def covers(self, file: str) -> bool:
        """Whether ``file`` (project-relative) is one of the program's root files: listed in
        ``files``, or matched by ``include`` (default: everything) and not by ``exclude``
        (default: node_modules and the outDir). Files only imported by those are not
        counted: tests are rarely imported."""
        if self.files is not None:
            folder, names = self.files
            listed = {posixpath.normpath("/".join((*folder, n))) for n in names}
            if posixpath.normpath(file) in listed:
                return True
            if self.include is None:
                return False
        include = self.include or ((), ["**/*"])
        if not any(_glob_match(include[0], p, file) for p in include[1]):
            return False
        if self.exclude is not None:
            return not any(_glob_match(self.exclude[0], p, file) for p in self.exclude[1])
        excluded = sorted(DEPENDENCY_DIRS)  # tsc's default exclude
        if self.out_dir is not None:
            excluded.append("/".join(self.out_dir))
        return not any(_glob_match((), p, file) for p in excluded)


def _glob_match(folder: tuple[str, ...], pattern: str, file: str) -> bool:
    """tsc's wildcards: ``*`` and ``?`` within a path segment, ``**/`` any folders; a last
    segment without a wildcard or an extension is a folder (everything under it)."""
    full = posixpath.normpath("/".join((*folder, pattern)) if folder else pattern)
    if full.startswith("./"):
        full = full[2:]
    last = full.rsplit("/", 1)[-1]
    if "*" not in last and "?" not in last and "." not in last:
        full += "/**/*"
    regex = ""
    i = 0
    while i < len(full):
        if full.startswith("**/", i):
            regex += "(?:[^/]+/)*"
            i += 3
        elif full[i] == "*":
            regex += "[^/]*"
            i += 1
        elif full[i] == "?":
            regex += "[^/]"
            i += 1
        else:
            regex += re.escape(full[i])
            i += 1
    return re.fullmatch(regex, posixpath.normpath(file)) is not None


def _read_json_config(root: Path, rel: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        _, text = read_text_file(root, rel)
        data = parse_jsonc(text)
    except (ProjectToolError, PathEscapeError) as error:
        problems.append(str(error))
        return None
    except ValueError as error:
        problems.append(f"{rel}: not valid JSON ({error})")
        return None
    if not isinstance(data, dict):
        problems.append(f"{rel}: expected a JSON object")
        return None
    return data


def load_tsconfig(root: Path, rel: str) -> TsConfig:
    """Read ``rel`` and the local configs it ``extends`` (package ``extends`` are skipped)."""
    config = TsConfig(rel)
    chain: list[tuple[str, dict[str, Any]]] = []  # child first
    seen: set[str] = set()
    queue: list[str] = [rel]
    while queue and len(seen) < _MAX_EXTENDS:
        current = queue.pop(0)
        if current in seen:
            continue
        seen.add(current)
        data = _read_json_config(root, current, config.problems)
        if data is None:
            continue
        chain.append((current, data))
        extends = data.get("extends")
        parents = [extends] if isinstance(extends, str) else extends
        if not isinstance(parents, list):
            continue
        folder = tuple(posixpath.dirname(current).split("/")) if "/" in current else ()
        # TS applies a list left to right (later wins); the child wins over all of them.
        for parent in reversed([p for p in parents if isinstance(p, str)]):
            if not parent.startswith((".", "/")):
                config.problems.append(f"{current}: extends {parent!r} (a package) is not read")
                config.unread_bases += 1
                continue
            target = join_rel(folder, parent)
            if target is None:
                config.problems.append(f"{current}: extends {parent!r} leaves the project")
                continue
            name = "/".join(target)
            if not name.endswith(".json") and not (root / name).is_file():
                name += ".json"
            queue.append(name)
    if chain:
        top, data = chain[0]
        config.references = top == rel and bool(data.get("references"))
        config.own_inputs = top == rel and ("files" in data or "include" in data)
    # Apply from the furthest ancestor to the child.
    for source, data in reversed(chain):
        config.config_dir_template |= "${configDir}" in json.dumps(data)
        folder = tuple(posixpath.dirname(source).split("/")) if "/" in source else ()
        for key in ("files", "include", "exclude"):
            patterns = data.get(key)
            if isinstance(patterns, list):
                setattr(config, key, (folder, [p for p in patterns if isinstance(p, str)]))
        options = data.get("compilerOptions")
        if not isinstance(options, dict):
            continue
        if isinstance(options.get("checkJs"), bool):
            config.check_js = options["checkJs"]
        for key, attribute in (("allowJs", "allow_js"), ("composite", "composite")):
            if isinstance(options.get(key), bool):
                setattr(config, attribute, options[key])
        if isinstance(options.get("outDir"), str):
            config.out_dir = join_rel(folder, options["outDir"])
        base_url = options.get("baseUrl")
        if isinstance(base_url, str):
            config.base_url = join_rel(folder, base_url)
        paths = options.get("paths")
        if isinstance(paths, dict):
            config.paths = [
                (key, [t for t in value if isinstance(t, str)])
                for key, value in paths.items()
                if isinstance(key, str) and isinstance(value, list)
            ]
            config.paths_base = folder
    if config.base_url is not None:
        config.paths_base = config.base_url
    return config


# -- jest config ------------------------------------------------------------------------------


@dataclass
class MapperEntry:
    key: str
    regex: re.Pattern[str]
    targets: list[str]


@dataclass
class JestConfig:
    """The module-resolution part of a jest config."""

    path: str
    root_dir: tuple[str, ...] = ()
    config_dir: tuple[str, ...] = ()
    mapper: list[MapperEntry] = field(default_factory=list)
    module_directories: list[str] = field(default_factory=list)
    module_paths: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def js_regex_to_python(source: str) -> str:
    """The few JS regex forms Python spells differently (named groups)."""
    return re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", source)


def _literal(node: Node | None, variables: dict[str, Node]) -> Any:
    """A JSON-like value from a JS literal; ``None`` for what cannot be read statically."""
    if node is None:
        return None
    if node.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        return _literal(node.named_children[0] if node.named_children else None, variables)
    value = string_value(node)
    if value is not None:
        return value
    if node.type == "identifier":
        bound = variables.get(text_of(node))
        return _literal(bound, {}) if bound is not None else None
    if node.type == "array":
        items = [_literal(c, variables) for c in node.named_children if c.type != "comment"]
        return [i for i in items if i is not None]
    if node.type == "object":
        result: dict[str, Any] = {}
        for pair in node.named_children:
            if pair.type != "pair":
                continue  # spreads, methods: not statically known
            key_node = pair.child_by_field_name("key")
            key = string_value(key_node) if key_node is not None else None
            if key is None and key_node is not None and key_node.type == "property_identifier":
                key = text_of(key_node)
            val = _literal(pair.child_by_field_name("value"), variables)
            if key is not None and val is not None:
                result[key] = val
        return result
    if node.type == "call_expression":
        function = text_of(node.child_by_field_name("function"))
        args = call_args(node)
        if function == "require.resolve" and args:
            return string_value(args[0])
        if (
            function in ("path.join", "path.resolve", "join", "resolve")
            and args
            and text_of(args[0]) == "__dirname"
        ):
            rest = [string_value(a) for a in args[1:]]
            if all(r is not None for r in rest):
                return posixpath.join(CONFIG_DIR, *[r for r in rest if r is not None])
    return None


def _config_object_from_js(text: str, rel: str) -> dict[str, Any]:
    """The first object literal with jest options in a JS/TS config (merged top-level pairs)."""
    tree = parse(text, rel)
    variables: dict[str, Node] = {}
    stack = [tree.root_node]
    wanted = ("moduleNameMapper", "rootDir", "moduleDirectories", "modulePaths")
    found: dict[str, Any] = {}
    pairs: list[Node] = []
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if name is not None and value is not None and name.type == "identifier":
                variables[text_of(name)] = value
        if node.type == "pair":
            pairs.append(node)
        stack.extend(reversed(node.children))
    for pair in pairs:
        key_node = pair.child_by_field_name("key")
        key = string_value(key_node) or text_of(key_node)
        if key in wanted and key not in found:
            value = _literal(pair.child_by_field_name("value"), variables)
            if value is not None:
                found[key] = value
    return found


def load_jest_config(root: Path, rel: str) -> JestConfig | None:
    """Read a jest config file (or ``package.json``'s ``jest`` key); None when it has none."""
    folder = tuple(posixpath.dirname(rel).split("/")) if "/" in rel else ()
    config = JestConfig(rel, root_dir=folder, config_dir=folder)
    options: dict[str, Any]
    if rel.endswith(".json"):
        data = _read_json_config(root, rel, config.problems)
        if data is None:
            return config if not rel.endswith("package.json") else None
        if rel.endswith("package.json"):
            jest = data.get("jest")
            if not isinstance(jest, dict):
                return None
            options = jest
        else:
            options = data
    else:
        try:
            _, text = read_text_file(root, rel)
        except (ProjectToolError, PathEscapeError) as error:
            config.problems.append(str(error))
            return config
        options = _config_object_from_js(text, rel)
    root_dir = options.get("rootDir")
    if isinstance(root_dir, str):
        resolved = join_rel(folder, root_dir.replace(CONFIG_DIR, "."))
        if resolved is None:
            config.problems.append(f"{rel}: rootDir {root_dir!r} leaves the project")
        else:
            config.root_dir = resolved
    mapper = options.get("moduleNameMapper")
    if isinstance(mapper, dict):
        for key, value in mapper.items():
            targets = [value] if isinstance(value, str) else value
            if not isinstance(targets, list) or not targets:
                continue
            try:
                regex = re.compile(js_regex_to_python(key))
            except re.error as error:
                config.problems.append(
                    f"{rel}: moduleNameMapper key {key!r} is not usable: {error}"
                )
                continue
            config.mapper.append(
                MapperEntry(key, regex, [t for t in targets if isinstance(t, str)])
            )
    for name, target_list in (
        ("moduleDirectories", config.module_directories),
        ("modulePaths", config.module_paths),
    ):
        value = options.get(name)
        if isinstance(value, list):
            target_list.extend(v for v in value if isinstance(v, str))
    return config
