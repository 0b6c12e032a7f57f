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
    conversion replaced: both go, in turn. A spy installed for its effect stays, so does a value
    the untranslated (commented-out) code still reads, and so does a name the original did not
    read either (the project's own, for its own lint to judge)."""
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
    assert tidy(converted, "src/x.test.tsx", original) == converted.replace(gone, "")
    assert tidy(converted, "src/x.test.tsx") == converted


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
