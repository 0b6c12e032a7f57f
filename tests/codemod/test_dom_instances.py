"""``instance()`` of an element a full render's find selected: Enzyme gives its DOM node, as
``getDOMNode()`` does. Public suites read a field's value so (``expect(wrapper.find('input')
.instance().value).toEqual('testValue')``, ``const node = …instance(); node.value``), and
typeahead's helpers set the caret through it (``input.instance().selectionStart = pos``).
The value and the checked state are asserted as jest-dom states them; other reads go to the
node. Under the example app's real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "NameForm.tsx": """
        import { useState } from 'react';

        export function NameForm() {
          const [name, setName] = useState('Grace');
          const [agreed, setAgreed] = useState(false);
          return (
            <form>
              <label htmlFor="name">Name</label>
              <input id="name" type="text" value={name} onChange={(e) => setName(e.target.value)} />
              <label>
                <input
                  type="checkbox"
                  checked={agreed}
                  onChange={(e) => setAgreed(e.target.checked)}
                />
                I agree
              </label>
            </form>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { NameForm } from './NameForm';

it('starts with a name', () => {
  const wrapper = mount(<NameForm />);
  const name = wrapper.find('input[type="text"]').instance().value;
  expect(name).toBe('Grace');
});

it('takes a new name', () => {
  const wrapper = mount(<NameForm />);
  wrapper.find('input[type="text"]').simulate('change', { target: { value: 'Ada' } });
  expect(wrapper.find('input[type="text"]').instance().value).toBe('Ada');
});

it('takes the agreement', () => {
  const wrapper = mount(<NameForm />);
  wrapper.find('input[type="checkbox"]').simulate('change', { target: { checked: true } });
  expect(wrapper.find('input[type="checkbox"]').instance().checked).toBe(true);
});
"""


async def test_a_found_elements_instance_is_its_dom_node(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/NameForm", SOURCES)
    file = "src/components/NameForm/NameForm.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    name = "screen.getByRole('textbox', { name: 'Name' })"
    assert f"const name = ({name} as HTMLInputElement).value;" in content, content
    assert f"expect({name}).toHaveValue('Ada');" in content, content
    assert "expect(screen.getByRole('checkbox', { name: 'I agree' })).toBeChecked();" in content
    assert "instance()" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    module = folder / "NameForm.tsx"
    failing = await broken_tests(app_copy, file, module, "useState('Grace')", "useState('Ada')")
    assert failing == ["starts with a name"], failing
    failing = await broken_tests(
        app_copy, file, module, "setName(e.target.value)", "setName(e.target.value.trim() + '.')"
    )
    assert failing == ["takes a new name"], failing
    failing = await broken_tests(
        app_copy, file, module, "setAgreed(e.target.checked)", "setAgreed(false)"
    )
    assert failing == ["takes the agreement"], failing
