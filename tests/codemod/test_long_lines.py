"""Lines the conversion makes longer than the project's ``max-len`` (typeahead's 80: its 12
originals have 3 such lines, the results had 271): broken where prettier breaks them, then
``eslint --fix`` puts the commas the project wants. Only whitespace moves, the original's own
long lines stay, and the conversion's findings still point at their lines."""

from __future__ import annotations

from pathlib import Path

from testmend.codemod.wrap import max_len_limit, wrap_long_lines
from tests.support.codemod import migrate_offline
from tests.support.engine import PACKAGE_IMPORT_RULE

BEFORE = """\
describe('search', () => {
  it('picks', () => {
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'search' } });
    expect(screen.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveTextContent(/^x$/);
    fireEvent.keyDown(screen.getByRole('combobox'), { keyCode: RETURN, which: RETURN });
    it('is a long test title the original had already, which stays as it is', () => {});
    expect(screen.getByRole('option', { /* a comment */ name: 'California' })).toBeVisible();
  });
});
"""

AFTER = """\
describe('search', () => {
  it('picks', () => {
    fireEvent.change(screen.getByRole('combobox'), {
      target: { value: 'search' }
    });
    expect(
      screen.getByRole('button', { name: 'Remove Ada Lovelace' })
    ).toHaveTextContent(/^x$/);
    fireEvent.keyDown(screen.getByRole('combobox'), {
      keyCode: RETURN,
      which: RETURN
    });
    it('is a long test title the original had already, which stays as it is', () => {});
    expect(
      screen.getByRole('option', { /* a comment */ name: 'California' })
    ).toBeVisible();
  });
});
"""


def test_long_lines_break_at_the_group_prettier_breaks() -> None:
    """A call's last object argument hugs the call; an ``expect`` whose matcher does not fit
    breaks inside ``expect(…)``; a group with a comment in it is never the one broken; the
    original's own long line stays."""
    original = (
        "it('is a long test title the original had already, which stays as it is', () => {});"
    )
    lines = [n for n, line in enumerate(BEFORE.splitlines(), start=1) if len(line) > 80]
    wrapped = wrap_long_lines(BEFORE, "src/a.test.js", 80, lines, original)
    assert wrapped is not None
    assert wrapped.content == AFTER, wrapped.content
    # Where each line of the file before is now (line 6, the long title, moved down 6).
    assert [wrapped.line_of(n) for n in (3, 4, 6, 8)] == [3, 6, 13, 17]
    assert max_len_limit("This line has a length of 92. Maximum allowed is 80.") == 80


SUITE = """\
import { mount } from 'enzyme';
import { Counter } from './Counter';

const props = { initialCount: 3, label: 'Available seats' };

describe('Available seats', () => {
  it('counts up', () => {
    const wrapper = mount(<Counter {...props} />);
    wrapper.find('.counter__increment').simulate('click');
    expect(wrapper.find('.counter__decrement').prop('aria-label')).toBe('Decrease available seats');
    expect(wrapper.find('.counter').hasClass('counter')).toBe(true);
  });
});
"""

LONG_LINES_RULES = """
module.exports.push({
  files: ['src/**/*.test.tsx'],
  rules: { 'max-len': ['warn', { code: 80 }], 'comma-dangle': ['error', 'always-multiline'] },
});
"""


async def test_a_result_keeps_within_the_projects_line_length(example_copy: Path) -> None:
    root = example_copy
    config = root / "eslint.config.js"
    config.write_text(config.read_text(encoding="utf-8") + LONG_LINES_RULES, encoding="utf-8")
    file = "src/components/Counter/Seats.test.tsx"
    (root / file).write_text(SUITE, encoding="utf-8")
    result = await migrate_offline(root, file)
    assert result.content is not None
    content = result.content
    assert "max-len" not in [m.rule for m in result.lint_messages], result.lint_messages
    long = [line for line in content.splitlines() if len(line) > 80]
    assert long == [], content
    # The break, and the comma eslint --fix added where the project wants one.
    assert (
        "    expect(\n"
        "      screen.getByRole('button', { name: 'Decrease available seats' }),\n"
        "    ).toHaveAttribute('aria-label', 'Decrease available seats');"
    ) in content, content
    assert result.tests_pass, result.reasons
    # The root's finding, below the broken line, still names its own line.
    lines = content.splitlines()
    fallbacks = [f for f in result.codemod_findings if f.kind == "fallback"]
    assert fallbacks, result.codemod_findings
    for finding in fallbacks:
        assert lines[finding.line - 1].strip().startswith("// testmend:"), (finding, content)


def test_a_template_strings_line_is_never_taken_for_a_comment() -> None:
    source = (
        "const t = `\n"
        "// a line of a template string, however long it is, is what the string holds: kept\n"
        "`;\n"
        "// a comment of the result's own that is longer than the limit is broken at a word\n"
    )
    wrapped = wrap_long_lines(source, "src/a.test.js", 80, [2, 4], "")
    assert wrapped is not None
    assert wrapped.content.splitlines()[1:] == [
        "// a line of a template string, however long it is, is what the string holds: kept",
        "`;",
        "// a comment of the result's own that is longer than the limit is broken at a",
        "// word",
    ]


async def test_broken_lines_stay_when_eslint_fix_is_undone(example_copy: Path) -> None:
    """``eslint --fix`` after the break would import a package jest cannot find, so the fix is
    undone; the broken lines stay (only whitespace moved), and the lint result is theirs."""
    root = example_copy
    config = root / "eslint.config.js"
    rules = LONG_LINES_RULES + PACKAGE_IMPORT_RULE
    config.write_text(config.read_text(encoding="utf-8") + rules, encoding="utf-8")
    file = "src/components/Counter/Seats.test.tsx"
    (root / file).write_text(SUITE, encoding="utf-8")
    result = await migrate_offline(root, file)
    assert result.content is not None
    content = result.content
    assert "from './Counter'" in content, content
    assert [line for line in content.splitlines() if len(line) > 80] == [], content
    rules_left = [m.rule for m in result.lint_messages]
    assert "local/package-import" in rules_left and "max-len" not in rules_left, rules_left
    assert result.tests_pass, result.reasons


JSX_BEFORE = """\
it('renders', () => {
  render(
    <TestProvider multiple onKeyDown={noop} selected={selected} isFocused isMenuShown text="Al">
      {(props) => <TypeaheadInputMulti {...props} />}
    </TestProvider>
  );
  render(<BaseMenuItem onClick={onClick} active>This is a base menu item.</BaseMenuItem>);
  render(<Counter initialCount={3} label="Available seats" onChange={onChange} other={x} />);
});
"""

JSX_AFTER = """\
it('renders', () => {
  render(
    <TestProvider
      multiple
      onKeyDown={noop}
      selected={selected}
      isFocused
      isMenuShown
      text="Al"
    >
      {(props) => <TypeaheadInputMulti {...props} />}
    </TestProvider>
  );
  render(
    <BaseMenuItem onClick={onClick} active>
      This is a base menu item.
    </BaseMenuItem>
  );
  render(
    <Counter
      initialCount={3}
      label="Available seats"
      onChange={onChange}
      other={x}
    />
  );
});
"""


def test_long_jsx_breaks_at_its_attributes_or_around_its_text() -> None:
    """A render's element goes on a line of its own, and where it is still too long its
    attributes go one per line; an element whose one child is text puts the text on its own
    line (JSX drops the line breaks around it)."""
    lines = [n for n, line in enumerate(JSX_BEFORE.splitlines(), start=1) if len(line) > 80]
    wrapped = wrap_long_lines(JSX_BEFORE, "src/a.test.jsx", 80, lines, "")
    assert wrapped is not None
    assert wrapped.content == JSX_AFTER, wrapped.content
