"""The tree-sitter helpers."""

from __future__ import annotations

import json
import subprocess

from testmend.codemod.syntax import (
    Edit,
    apply_edits,
    js_string,
    js_value,
    parse,
    regex_escape,
    regex_literal,
    string_value,
    unwrap,
)
from testmend.js_syntax import first_syntax_error, grammar_for


def first_expression(source: str, path: str = "a.ts"):  # type: ignore[no-untyped-def]
    tree = parse(source.encode(), path)
    return tree.root_node.named_children[0].named_children[0]


def test_string_values() -> None:
    assert string_value(first_expression("'a\\'b';")) == "a'b"
    assert string_value(first_expression('"a\\"b\\n";')) == 'a"b\n'
    assert string_value(first_expression("`plain`;")) == "plain"
    assert string_value(first_expression("'\\x41\\u{1F600}';")) == "A\U0001f600"
    assert string_value(first_expression("`x${y}`;")) is None
    assert string_value(first_expression("(('x'));")) == "x"
    assert string_value(first_expression("('x' as string);")) == "x"
    assert string_value(first_expression("42;")) is None
    assert string_value(None) is None


def test_unwrap() -> None:
    node = unwrap(first_expression("(a!);"))
    assert node is not None and node.type == "identifier"
    assert unwrap(first_expression("<T>x;")).type == "identifier"  # type: ignore[union-attr]


def test_js_values() -> None:
    assert js_string("it's\n\\") == "'it\\'s\\n\\\\'"
    assert js_value({"name": "A", "data-x": 1, "on": True, "no": None, "l": [1.5]}) == (
        "{ name: 'A', 'data-x': 1, on: true, no: null, l: [1.5] }"
    )
    assert js_value({"$regex": "^a/b", "flags": "i"}) == "/^a\\/b/i"
    assert js_value(False) == "false"
    assert regex_escape("a.b(c)") == "a\\.b\\(c\\)"


def test_grammars() -> None:
    assert [grammar_for(p) for p in ("a.tsx", "a.ts", "a.mts", "a.js", "a.jsx", "a.cjs")] == [
        "tsx",
        "typescript",
        "typescript",
        "javascript",
        "javascript",
        "javascript",
    ]


def test_apply_edits_and_mapping() -> None:
    source = b"one\ntwo\nthree\n"
    edits = [
        Edit(4, 7, "2\n2", [(0, "review", "n")]),
        Edit(4, 5, "inner"),  # inside the first edit: dropped
        Edit(0, 0, "// head\n"),
        Edit(8, 8, "pre-"),
    ]
    content, notes, mapper = apply_edits(source, edits)
    assert content == "// head\none\n2\n2\npre-three\n"
    assert notes == [(3, "review", "n")]
    assert mapper(0) == 0
    assert mapper(8) == content.index("pre-three")
    assert mapper(5) == content.index("2\n2")


def test_first_syntax_error_line() -> None:
    assert first_syntax_error(parse("const a = 1;\n", "a.js")) is None
    broken = "const a = 1;\n// note {\n  context: { direction: 'end' },\n};\n"
    assert first_syntax_error(parse(broken, "a.js")) == 3
    # JSX attributes named like reserved words parse (as TSX when the JavaScript grammar fails).
    assert first_syntax_error(parse("const a = <Fade in={open} />;\n", "a.js")) is None


def test_regex_literals_read_as_the_regex_the_capture_built() -> None:
    """A capture's ``$regex`` source, already escaped for ``new RegExp`` (a link-name prefix
    such as ``^https:\\/\\/bit\\.ly\\/``), becomes a literal node reads as the same regex:
    escaping its slashes again ended the literal early (a parse error, the whole file lost)."""
    sources = ["^https:\\/\\/bit\\.ly\\/", "^a/b$", "a\\\\/b", "[/]x", "one\ntwo", "", "\\\n"]
    literals = [regex_literal(source) for source in sources]
    assert literals[0] == "/^https:\\/\\/bit\\.ly\\//"
    script = (
        f"const sources = {json.dumps(sources)};\n"
        f"const literals = [{', '.join(literals)}];\n"
        "const probes = ['https://bit.ly/x', 'a/b', 'a\\\\/b', '/x', 'one\\ntwo', '\\n', ''];\n"
        "const rows = sources.map((s, i) =>\n"
        "  probes.map((p) => [new RegExp(s).test(p), literals[i].test(p)]));\n"
        "console.log(JSON.stringify(rows));"
    )
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    rows = json.loads(out)
    assert all(expected == got for row in rows for expected, got in row)
    assert any(expected for row in rows for expected, _ in row)
