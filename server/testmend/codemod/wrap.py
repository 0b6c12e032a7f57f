"""Lines the conversion made longer than the project's lint allows (``max-len``), broken where a
person (or prettier) breaks them: at the brackets of one call's arguments, an object or an
array, one item per line (``fireEvent.change(screen.getByRole('combobox'), {`` / ``target: {
value: 'search' },`` / ``});``), at a JSX tag's attributes, around an element's one text.
eslint's ``max-len`` has no fixer; the lint step calls this with the limit eslint reported,
then ``eslint --fix`` settles the commas and the indentation the project wants.

Only whitespace changes: the result has the same tokens, which is checked, so what the code
does cannot change. A line the original has too (its own long test title) stays as it is, and
so does a group with a comment inside.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..js_syntax import Node, parse, walk

_GROUPS = ("arguments", "object", "array", "named_imports", "object_pattern", "array_pattern")
_JSX_TAGS = ("jsx_opening_element", "jsx_self_closing_element")
_MAX_DEPTH = 4
"""How many times the lines one long line became may be broken again."""


@dataclass(frozen=True)
class Wrapped:
    content: str
    added: tuple[tuple[int, int], ...]
    """(a line that was broken, how many lines it gained), for :meth:`line_of`."""

    def line_of(self, line: int) -> int:
        """Where a line of the content before (1-based) is now."""
        return line + sum(gained for broken, gained in self.added if broken < line)


def max_len_limit(message: str) -> int | None:
    """The limit in eslint's ``max-len`` message (``… Maximum allowed is 80.``)."""
    found = re.search(r"Maximum allowed is (\d+)", message)
    return int(found.group(1)) if found else None


def wrap_long_lines(
    content: str, path: str, limit: int, lines: Iterable[int], original: str
) -> Wrapped | None:
    """``content`` with its ``lines`` (1-based, those eslint found too long) broken to fit
    ``limit``; None when none could be, or the result would not be the same code."""
    kept = {line.strip() for line in original.splitlines()}
    source = content
    added: list[tuple[int, int]] = []
    for number in sorted(set(lines), reverse=True):  # bottom up: the numbers above hold
        current = source.splitlines()
        if number > len(current):
            continue
        text = current[number - 1]
        if len(text) <= limit or text.strip() in kept:
            continue
        if text.lstrip().startswith("//"):
            broken = (
                _wrap_comment(source, number, limit) if _comment_at(source, path, number) else None
            )
        else:
            broken = _wrap(source, path, number, limit, _indent_unit(source), _MAX_DEPTH)
        if broken is not None and broken != source:
            added.append((number, broken.count("\n") - source.count("\n")))
            source = broken
    if not added or parse(source, path).root_node.has_error:
        return None
    if _tokens(source, path) != _tokens(content, path):
        return None
    return Wrapped(source, tuple(added))


def _wrap(source: str, path: str, number: int, limit: int, unit: str, depth: int) -> str | None:
    """``source`` with line ``number`` broken at its best group, and the lines that gives
    that are still too long broken in turn (``depth`` times at most); None where no group
    of the line can be broken."""
    data = source.encode("utf-8")
    row = number - 1
    starts = _line_starts(data)
    line_start = starts[row]
    line_end = starts[row + 1] - 1 if row + 1 < len(starts) else len(data)
    line = data[line_start:line_end].decode("utf-8")
    indent = line[: len(line) - len(line.lstrip())]
    best: tuple[tuple[float, int, int], list[str]] | None = None
    # The groups of the line are inside the smallest node spanning it.
    around = parse(data, path).root_node.descendant_for_point_range(
        (row, 0), (row, line_end - line_start)
    )
    for group in walk(around) if around is not None else []:
        if group.start_point[0] != row or group.end_point[0] != row:
            continue
        if group.type in _GROUPS:
            pieces = _pieces(data, group, line_start, line_end)
        elif group.type in _JSX_TAGS:
            pieces = _jsx_attributes(data, group, line_start, line_end)
        elif group.type == "jsx_element":
            pieces = _jsx_text(data, group, line_start, line_end)
        else:
            continue
        if pieces is None or len(pieces[0]) > limit:
            continue
        head, items, tail = pieces
        lines = [head, *(indent + unit + item for item in items), indent + tail]
        # The outermost group first, as prettier breaks them; what is still too long is
        # broken in turn below.
        score = (_rank(group), sum(len(ln) > limit for ln in lines), len(lines))
        if best is None or score < best[0]:
            best = (score, lines)
    if best is None or _overflow(best[1], limit) >= _overflow([line], limit):
        return None
    lines = best[1]
    broken = data[:line_start].decode("utf-8") + "\n".join(lines) + data[line_end:].decode("utf-8")
    if depth > 1:
        for offset in range(len(lines) - 1, -1, -1):  # bottom up: the numbers above hold
            if len(lines[offset]) > limit:
                again = _wrap(broken, path, number + offset, limit, unit, depth - 1)
                broken = again if again is not None else broken
    return broken


def _comment_at(source: str, path: str, number: int) -> bool:
    """Whether line ``number`` is a line comment of its own (not a line of a template string
    that starts with ``//``)."""
    line = source.split("\n")[number - 1]
    column = len(line.encode("utf-8")) - len(line.lstrip().encode("utf-8"))
    point = (number - 1, column)
    node = parse(source, path).root_node.descendant_for_point_range(point, point)
    return node is not None and node.type == "comment" and node.start_point == point


def _wrap_comment(source: str, number: int, limit: int) -> str | None:
    """A line comment (a finding: ``// testmend: …``) as several, its words kept whole."""
    lines = source.split("\n")
    line = lines[number - 1]
    indent = line[: len(line) - len(line.lstrip())]
    words = line.strip()[2:].split()
    out: list[str] = []
    for word in words:
        if out and len(out[-1]) + 1 + len(word) <= limit:
            out[-1] += " " + word
        else:
            out.append(f"{indent}// {word}")
    if len(out) < 2:
        return None
    lines[number - 1 : number] = out
    return "\n".join(lines)


def _jsx_attributes(
    data: bytes, tag: Node, line_start: int, line_end: int
) -> tuple[str, list[str], str] | None:
    """A JSX tag cut at its attributes, one per line: ``<Provider`` / ``multiple`` / … /
    ``>`` (or ``/>``)."""
    name = tag.child_by_field_name("name")
    attributes = [c for c in tag.named_children if c.type in ("jsx_attribute", "jsx_expression")]
    others = [c for c in tag.named_children if c != name and c not in attributes]
    if name is None or not attributes or others:
        return None
    gaps = [data[name.end_byte : attributes[0].start_byte]] + [
        data[a.end_byte : b.start_byte] for a, b in itertools.pairwise(attributes)
    ]
    if any(gap.strip() for gap in gaps):
        return None
    close = attributes[-1].end_byte
    if data[close : tag.end_byte].strip() not in (b">", b"/>"):
        return None
    head = data[line_start : name.end_byte].decode("utf-8")
    items = [data[a.start_byte : a.end_byte].decode("utf-8") for a in attributes]
    tail = data[close:line_end].decode("utf-8").lstrip()
    return head, items, tail


def _jsx_text(
    data: bytes, element: Node, line_start: int, line_end: int
) -> tuple[str, list[str], str] | None:
    """An element whose one child is text, the text on a line of its own: ``<Item active>`` /
    ``A long label`` / ``</Item>`` (JSX drops the line breaks around it)."""
    opening = element.child_by_field_name("open_tag")
    closing = element.child_by_field_name("close_tag")
    children = [c for c in element.named_children if c not in (opening, closing)]
    if opening is None or closing is None or len(children) != 1:
        return None
    child = children[0]
    content = data[child.start_byte : child.end_byte].decode("utf-8")
    if child.type != "jsx_text" or content != content.strip() or not content:
        return None
    head = data[line_start : opening.end_byte].decode("utf-8")
    tail = data[closing.start_byte : line_end].decode("utf-8")
    return head, [content], tail


def _pieces(
    data: bytes, group: Node, line_start: int, line_end: int
) -> tuple[str, list[str], str] | None:
    """The line cut at ``group``: what comes up to its opening bracket, its items (each with
    the comma after it), and its closing bracket with the rest of the line. None for an empty
    group, or one with a comment inside."""
    items = list(group.named_children)
    if not items or any(c.type == "comment" for c in items):
        return None
    if data[group.start_byte + 1 : items[0].start_byte].strip():
        return None
    pieces: list[str] = []
    for index, item in enumerate(items):
        end = items[index + 1].start_byte if index + 1 < len(items) else group.end_byte - 1
        piece = data[item.start_byte : end].decode("utf-8").rstrip()
        if index + 1 < len(items) and not piece.endswith(","):
            return None
        pieces.append(piece)
    head = data[line_start : group.start_byte + 1].decode("utf-8")
    tail = data[group.end_byte - 1 : line_end].decode("utf-8")
    return head, pieces, tail


def _tokens(source: str, path: str) -> tuple[list[str], list[str]]:
    """The file's tokens (the leaves of its tree) without the commas a break may move, and the
    words of its comments (a comment broken in two is the same words)."""
    tree = parse(source, path)
    code: list[str] = []
    words: list[str] = []
    for leaf in walk(tree.root_node):
        if leaf.child_count:
            continue
        token = (leaf.text or b"").decode("utf-8")
        if leaf.type == "comment":
            words += token.removeprefix("//").split()
        elif leaf.type == "jsx_text":
            code.append(token.strip())  # JSX drops the line breaks around a text
        elif leaf.type != ",":
            code.append(token)
    return code, words


_SIMPLE = frozenset({"string", "number", "identifier", "true", "false", "null", "regex"})


def _overflow(lines: list[str], limit: int) -> int:
    return sum(max(0, len(line) - limit) for line in lines)


def _rank(group: Node) -> float:
    """Which group a person breaks first (lower first): the outermost, except that a call's
    last argument that is an object or an array is broken before the call (``f(a, {`` …
    ``})``, as prettier hugs it), and a group of one or two plain values (``getByRole(
    'combobox')``) only when nothing else will do."""
    items = group.named_children
    if len(items) <= 2 and all(item.type in _SIMPLE for item in items):
        return 1000.0 + _depth(group)
    parent = group.parent
    last = parent is not None and parent.type == "arguments" and parent.named_children[-1] == group
    if last and group.type in ("object", "array") and parent is not None:
        return _depth(parent) - 0.5
    return float(_depth(group))


def _depth(node: Node) -> int:
    depth = 0
    parent = node.parent
    while parent is not None:
        depth += 1
        parent = parent.parent
    return depth


def _line_starts(data: bytes) -> list[int]:
    return [0, *(found.end() for found in re.finditer(b"\n", data))]


def _indent_unit(source: str) -> str:
    """The file's indentation step: the smallest indentation of an indented line (two spaces
    when there is none)."""
    widths = [
        len(line) - len(line.lstrip(" "))
        for line in source.splitlines()
        if line.startswith(" ") and line.strip()
    ]
    if any(line.startswith("\t") for line in source.splitlines()):
        return "\t"
    return " " * min(widths) if widths else "  "
