"""Names resolved to the scope of the declaration they refer to, as JavaScript scopes them."""

from __future__ import annotations

import pytest

from testmend.codemod.scopes import declaring_scope, pattern_names
from testmend.codemod.syntax import Node, parse, walk
from testmend.js_syntax import text_of

SOURCE = """\
let wrapper;
function helper(wrapper, { a, b: c, d = fallback, ...rest }) {
  return wrapper;
}
it('one', () => {
  const props = read(wrapper);
  expect(props).toBe(1);
});
it('two', () => {
  const props = { open: false };
  for (const [item, index] of pairs) { use(item, index); }
  try { go(); } catch (error) { log(error); }
  switch (kind) {
    case 'a': const picked = 1; break;
    default: use(picked);
  }
  use(props, rest);
});
"""


def _uses(root: Node, name: str) -> list[Node]:
    return [n for n in walk(root) if n.type == "identifier" and text_of(n) == name]


@pytest.fixture(scope="module")
def root() -> Node:
    return parse(SOURCE.encode(), "js").root_node


def test_each_tests_own_declaration_is_its_own_scope(root: Node) -> None:
    first, one_use, second, second_use = _uses(root, "props")
    assert declaring_scope("props", first).id == declaring_scope("props", one_use).id
    assert declaring_scope("props", second).id == declaring_scope("props", second_use).id
    assert declaring_scope("props", first).id != declaring_scope("props", second).id


def test_a_parameter_shadows_the_files_variable(root: Node) -> None:
    top, param, returned, read = _uses(root, "wrapper")
    assert declaring_scope("wrapper", returned).id == declaring_scope("wrapper", param).id
    assert declaring_scope("wrapper", returned).type == "function_declaration"
    assert declaring_scope("wrapper", read).id == declaring_scope("wrapper", top).id == root.id


def test_loops_catch_clauses_and_switch_bodies_declare(root: Node) -> None:
    assert declaring_scope("item", _uses(root, "item")[1]).type == "for_in_statement"
    assert declaring_scope("error", _uses(root, "error")[1]).type == "catch_clause"
    declared, used = _uses(root, "picked")
    assert declaring_scope("picked", used).type == "switch_body"
    assert declaring_scope("picked", used).id == declaring_scope("picked", declared).id


def test_a_name_declared_nowhere_is_the_files(root: Node) -> None:
    assert declaring_scope("pairs", _uses(root, "pairs")[0]).id == root.id
    # A default value is read, not declared: `fallback` is not the helper's parameter.
    assert declaring_scope("fallback", _uses(root, "fallback")[0]).id == root.id


def test_a_patterns_names_leave_out_keys_and_defaults(root: Node) -> None:
    helper = next(n for n in walk(root) if n.type == "function_declaration")
    assert pattern_names(helper.child_by_field_name("parameters")) == {
        "wrapper",
        "a",
        "c",
        "d",
        "rest",
    }
