"""A table of cases, each its own test (kubeapps' ``BasicDeploymentForm`` and
``TabularSchemaEditorTableRenderer``, 15 cases each: ``[…].forEach((t) => it(t.description,
…))``), under the example app's real jest and eslint. A find of the case's parameter selects
something in some cases only (``find(`input#${param.key}_text`)``: the number cases), and one
selects a checkbox in one case and a text input in another: the query that stands for the
first is read with ``queryBy`` (``getBy`` would throw in the other cases), and a change of the
second stays a change (a click toggles a checkbox, and types nothing into a text input)."""

from __future__ import annotations

from pathlib import Path

from testmend.codemod import convert_enzyme_test
from testmend.codemod.models import CodemodOptions
from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Param.tsx": """
        import { ChangeEvent } from 'react';

        export interface IParam {
          key: string;
          type: 'string' | 'boolean' | 'number';
        }

        export function Param(props: { param: IParam; onChange: (value: string) => void }) {
          const { param } = props;
          const changed = (e: ChangeEvent<HTMLInputElement>) => props.onChange(e.target.value);
          if (param.type === 'number') {
            const id = `${param.key}_text`;
            return <input id={id} type="number" aria-label="Amount" onChange={changed} />;
          }
          const type = param.type === 'boolean' ? 'checkbox' : 'text';
          return (
            <div>
              <label htmlFor={param.key}>Value</label>
              <input id={param.key} type={type} onChange={changed} />
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { IParam, Param } from './Param';

const cases: IParam[] = [
  { key: 'name', type: 'string' },
  { key: 'enabled', type: 'boolean' },
  { key: 'replicas', type: 'number' },
];

cases.forEach((param) => {
  it(`renders the ${param.type} param`, () => {
    const onChange = jest.fn();
    const wrapper = mount(<Param param={param} onChange={onChange} />);
    const input = wrapper.find(`input#${param.key}`);
    const amount = wrapper.find(`input#${param.key}_text`);
    if (param.type === 'number') {
      expect(amount.prop('type')).toBe('number');
      amount.simulate('change', { target: { value: '3' } });
      expect(onChange).toHaveBeenCalledWith('3');
    } else if (param.type === 'string') {
      input.simulate('change', { target: { value: 'web' } });
      expect(onChange).toHaveBeenLastCalledWith('web');
    } else {
      expect(input.prop('type')).toBe('checkbox');
    }
  });
});
"""


async def test_a_cases_find_that_selects_nothing_in_some_cases_is_queried(
    app_copy: Path,
) -> None:
    folder = write_components(app_copy / "src/components/Params", SOURCES)
    file = "src/components/Params/Param.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "const input = screen.queryByLabelText('Value');" in content, content
    assert "const amount = screen.queryByRole('spinbutton', { name: 'Amount' });" in content
    # Where an element is required, TypeScript is told that it is there in that case.
    assert "(amount!, " in content and "(input!, " in content, content
    assert "querySelector" not in content, content
    # The cases' own conditional expects are the only lint left (the original has them).
    rules = {m.rule for m in result.lint_messages}
    assert rules == {"jest/no-conditional-expect"}, result.lint_messages
    assert result.summary.type_errors == 0, result.reasons

    # The number case types into the amount: an input that reports nothing fails it alone.
    failing = await broken_tests(
        app_copy,
        file,
        folder / "Param.tsx",
        'aria-label="Amount" onChange={changed}',
        'aria-label="Amount"',
    )
    assert failing == ["renders the number param"], failing


def test_a_component_named_in_a_selector_is_never_a_tag() -> None:
    """``find('ArrayParam input')``: Enzyme reads ``ArrayParam`` as a component's name; as CSS
    it is a tag no element has (the selector would select nothing). Without a query or CSS the
    capture verified, the line is left with a note that says so."""
    source = (
        "import { mount } from 'enzyme';\n"
        "import Form from './Form';\n\n"
        "it('renders the array input', () => {\n"
        "  const wrapper = mount(<Form />);\n"
        "  expect(wrapper.find('ArrayParam input').first()).toExist();\n"
        "});\n"
    )
    result = convert_enzyme_test(source, path="src/Form.test.tsx", options=CodemodOptions())
    assert "querySelector" not in result.content, result.content
    assert any("'ArrayParam input'" in n.message for n in result.notes), result.notes
