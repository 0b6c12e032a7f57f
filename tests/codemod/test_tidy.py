"""The tidy pass on what the conversion wrote (act, renders in hooks, render results, imports,
lookups nothing reads): each case a file in tests/fixtures/codemod/tidy and the file it must
become."""

from __future__ import annotations

import pytest

from testmend.codemod.tidy import tidy
from tests.support.apps import FIXTURES, fixture_text

CASES = sorted(
    p.name.removesuffix(".input.tsx") for p in (FIXTURES / "codemod/tidy").glob("*.input.tsx")
)


@pytest.mark.parametrize("case", CASES)
def test_tidy(case: str) -> None:
    source = fixture_text(f"codemod/tidy/{case}.input.tsx")
    expected = fixture_text(f"codemod/tidy/{case}.expected.tsx")
    assert tidy(source, f"src/{case}.test.tsx") == expected


def test_tidy_is_idempotent_and_leaves_what_does_not_parse() -> None:
    for case in CASES:
        once = fixture_text(f"codemod/tidy/{case}.expected.tsx")
        assert tidy(once, "src/x.test.tsx") == once
    broken = "it('x', () => {\n  act(() => { fireEvent.click(a); }\n"
    assert tidy(broken, "src/x.test.tsx") == broken


def test_values_only_enzyme_read_go_and_the_projects_own_stay() -> None:
    """The original read ``context`` (and through it ``location``) only in the ``mount`` the
    conversion replaced: both go, in turn. A spy installed for its effect stays, and so does a
    name the original did not read either (the project's own, for its own lint to judge). A
    value only the untranslated (commented-out) code still reads is commented out with it,
    under a note (see the next test)."""
    gone = (
        "  const location = createFakeLocation();\n  const context = createContext({ location });\n"
    )
    declared = (
        gone + "  const spy = jest.spyOn(console, 'error');\n"
        "  const unusedBefore = 1;\n"
        "  const version = 2;\n"
    )
    original = (
        "it('x', () => {\n" + declared + "  const root = mount(<A />, context);\n"
        "  expect(root.find('p').text()).toBe('a');\n"
        "  expect(root.find(B).prop('version')).toBe(version);\n"
        "  expect(spy).not.toHaveBeenCalled();\n"
        "});\n"
    )
    converted = (
        "it('x', () => {\n" + declared + "  render(<A />);\n"
        "  expect(screen.getByText('a')).toBeInTheDocument();\n"
        "  // testmend: reads prop of the Enzyme wrapper\n"
        "  // expect(root.find(B).prop('version')).toBe(version);\n"
        "});\n"
    )
    assert tidy(converted, "src/x.test.tsx", original) == converted.replace(gone, "").replace(
        "  const version = 2;\n",
        "  // testmend: read only by code left untranslated\n  // const version = 2;\n",
    )
    assert tidy(converted, "src/x.test.tsx") == converted


# The test's own declarations, in the original and in its conversion alike.
DECLARED = """\
  let active;
  const selected = 'foo';
  const onChange = jest.fn();
  const limit = 3;
  const seen = 0;
  const settings = { title: 'Menu', size: 2 };
  const { title, size } = settings;
"""


def test_a_declaration_only_untranslated_code_reads_is_commented_out_with_it() -> None:
    """typeahead's ``let activeItem;`` whose assignments all read a wrapper, and its helper
    ``cycleThroughMenuAndGetActiveItem`` that only those assignments called: left live, each is
    a ``no-unused-vars`` the conversion made. They are commented out under a note, beside the
    code that reads them, and in turn what only such a helper read (``press``); a helper goes
    whole, with what it declares; a destructuring none of whose names is read live goes (and
    then what it destructured). One whose going would leave a parameter unread stays
    (addons-code-manager's ``renderGutter`` helper). A value made by a call (a mock) stays,
    so do a name the original never read, an export, and a value live code reads."""
    original = (
        """import { mount } from 'enzyme';

function press(wrapper, key) {
  wrapper.find('input').simulate('keyDown', { key });
}

function cycle(wrapper, dir) {
  let found;
  press(wrapper, dir);

  found = wrapper.find('a.active');
  return found;
}

export function shared(wrapper) {
  return wrapper;
}

function gutter(wrapper, { side = 'new' } = {}) {
  const params = { side };
  return wrapper.find(Diff).prop('renderGutter')(params);
}

it('cycles', () => {
"""
        + DECLARED
        + """  const root = mount(<Menu selected={selected} onChange={onChange} />);
  expect(root.find('li').first().text()).toBe(selected);
  expect(root.find(Title).prop('text')).toBe(title);
  expect(root.find('li')).toHaveLength(size);
  active = cycle(root, 1);
  expect(active.length).toBe(limit);
  expect(onChange).toHaveBeenCalled();
});
"""
    )
    converted = (
        """import { render, screen, fireEvent } from '@testing-library/react';

function press(key) {
  fireEvent.keyDown(screen.getByRole('combobox'), { key });
}

function cycle(dir) {
  let found;
  press(dir);

  // testmend: uses the Enzyme wrapper in a way testmend cannot translate
  // found = wrapper.find('a.active');
  // testmend: depends on code that was left untranslated above
  // return found;
  throw new Error('testmend: untranslated Enzyme code');
}

export function shared(wrapper) {
  return wrapper;
}

function gutter({ side = 'new' } = {}) {
  const params = { side };
  // testmend: uses the Enzyme wrapper in a way testmend cannot translate
  // return wrapper.find(Diff).prop('renderGutter')(params);
  throw new Error('testmend: untranslated Enzyme code');
}

it('cycles', () => {
"""
        + DECLARED
        + """  render(<Menu selected={selected} onChange={onChange} />);
  expect(screen.getAllByRole('option')[0]).toHaveTextContent(selected);
  // testmend: selects the component Title by its constructor or name
  // expect(root.find(Title).prop('text')).toBe(title);
  // expect(root.find('li')).toHaveLength(size);
  // testmend: uses the Enzyme wrapper in a way testmend cannot translate
  // active = cycle(root, 1);
  // testmend: depends on code that was left untranslated above
  // expect(active.length).toBe(limit);
  // expect(onChange).toHaveBeenCalled();
  throw new Error('testmend: untranslated Enzyme code');
});
"""
    )
    note = "// testmend: read only by code left untranslated"
    tidied = tidy(converted, "src/x.test.js", original)
    assert f"{note}\n// function press(key) {{\n//   fireEvent.keyDown(" in tidied, tidied
    # The helper goes whole (its own `let found;` with it, once), its blank line a bare `//`.
    assert f"{note}\n// function cycle(dir) {{\n//   let found;\n//   press(dir);\n//\n" in tidied
    assert tidied.count(note) == 6 and " \n" not in tidied
    # A destructuring goes when none of its names is read live; then what it destructured.
    assert f"  {note}\n  // const {{ title, size }} = settings;\n" in tidied
    assert f"  {note}\n  // const settings = {{ title: 'Menu', size: 2 }};\n" in tidied
    assert f"  {note}\n  // let active;\n" in tidied
    assert f"  {note}\n  // const limit = 3;\n" in tidied
    for kept in (
        "\nexport function shared(wrapper) {",
        # Commented out, it would leave the parameter `side` unread: a lint message for one.
        "\n  const params = { side };",
        "\n  const selected = 'foo';",
        "\n  const onChange = jest.fn();",
        "\n  const seen = 0;",
    ):
        assert kept in tidied
    # Only the helpers read fireEvent: its import goes with them.
    assert tidied.startswith("import { render, screen } from '@testing-library/react';\n")
    assert tidy(tidied, "src/x.test.js", original) == tidied


def test_a_note_naming_the_value_does_not_keep_it() -> None:
    """reactstrap's ``const alert = mount(<Alert …/>).find('div')``, whose one reader became a
    screen query: the lookup goes and the render stays, though the lookup's note names the
    element's class ``alert``. Code left commented out that reads the name still keeps it."""
    original = (
        "it('x', () => {\n"
        "  const alert = mount(<Alert toggle={noop} />).find('div');\n"
        "  const close = alert.find('button').first();\n"
        "  expect(close.prop('aria-label')).toBe('Close');\n"
        "});\n"
    )
    note = (
        "  // testmend: CSS selector 'div': no role, label, text or test id query matched the"
        ' same elements; the <div class="alert alert-success"> it selects would be queryable'
        " with a data-testid\n"
    )
    lookup = "  const alert = render(<Alert toggle={noop} />).container.querySelector('div');\n"
    rest = (
        "  const close = screen.getByRole('button', { name: 'Close' });\n"
        "  expect(close).toHaveAttribute('aria-label', 'Close');\n"
        "});\n"
    )
    converted = "it('x', () => {\n" + note + lookup + rest
    assert tidy(converted, "src/x.test.tsx", original) == (
        "it('x', () => {\n  render(<Alert toggle={noop} />);\n" + rest
    )
    commented = "  // testmend: reads the wrapper\n  // expect(alert.find('p')).toHaveLength(1);\n"
    untranslated = converted.replace(rest, commented + rest)
    assert tidy(untranslated, "src/x.test.tsx", original) == untranslated


def test_a_testing_library_default_import_nothing_reads_goes() -> None:
    """``userEvent``, imported by the conversion for a helper that was then commented out with
    code left untranslated, is read by nothing (the project's lint: ``no-unused-vars``). Such
    an import goes; one still read stays, and so does another module's default import, whose
    loading may be the point."""
    content = (
        "import { render } from '@testing-library/react';\n"
        "import userEvent from '@testing-library/user-event';\n"
        "import Thing from './Thing';\n\n"
        "it('x', () => {\n"
        "  render(<div />);\n"
        "  // testmend: uses the Enzyme wrapper in a way testmend cannot translate\n"
        "  // await userEvent.click(a);\n"
        "});\n"
    )
    tidied = tidy(content, "src/x.test.tsx")
    assert tidied == content.replace("import userEvent from '@testing-library/user-event';\n", "")
    used = content.replace("  render(<div />);\n", "  render(<div />);\n  userEvent.setup();\n")
    assert tidy(used, "src/x.test.tsx") == used
