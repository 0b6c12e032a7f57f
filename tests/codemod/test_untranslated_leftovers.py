"""A file that still needs a person carries the code left untranslated, and nothing the
project's lint calls unused because of it: typeahead's and addons-code-manager's style, a
helper handed the wrapper, a ``let`` assigned from it, and values only its assertions read.
Migrated offline into a copy of the example app; its real jest and eslint judge the result."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import migrate_offline

SEATS = """\
import { mount, ReactWrapper } from 'enzyme';
import { Counter } from './Counter';

function press(wrapper: ReactWrapper, name: string) {
  wrapper.find(`.counter__${name}`).simulate('click');
}

function valueAfter(wrapper: ReactWrapper, name: string) {
  press(wrapper, name);
  return wrapper.find('output').getElements();
}

describe('Seats', () => {
  it('shows the label', () => {
    const wrapper = mount(<Counter initialCount={1} label="Seats" />);
    expect(wrapper.find('.counter__label').text()).toBe('Seats');
  });

  it('counts up through a helper', () => {
    let shown;
    const expected = { count: 1, text: '2' };
    const { count, text } = expected;
    const wrapper = mount(<Counter initialCount={1} label="Seats" />);
    shown = valueAfter(wrapper, 'increment');
    expect(shown).toHaveLength(count);
    expect(shown[0].props.children).toBe(text);
  });
});
"""
NOTE = "// testmend: read only by code left untranslated"


async def test_declarations_only_untranslated_code_reads_leave_no_unused_binding(
    example_copy: Path,
) -> None:
    file = "src/components/Counter/Seats.test.tsx"
    (example_copy / file).write_text(SEATS, encoding="utf-8")
    result = await migrate_offline(example_copy, file)
    content = result.content
    assert content is not None, result.failure_reason
    # The test that reads the element tree fails, saying so; the other passes.
    assert result.summary.tests_total == 2 and result.summary.tests_passing == 1
    assert result.status == "failed", result.reasons
    assert [m.rule for m in result.lint_messages if "no-unused-vars" in m.rule] == [], content
    # What only that code read is commented out beside it, to be restored with it.
    for declaration in ("let shown;", "const expected = {", "const { count, text } = expected;"):
        assert f"    {NOTE}\n    // {declaration}" in content, content
    # The helpers too (async now: the click is user-event's), and the user-event import only
    # they read.
    assert f"{NOTE}\n// async function valueAfter(" in content
    assert f"{NOTE}\n// async function press(" in content
    assert "import userEvent" not in content
