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
from tests.support.codemod import broken_tests, migrate_offline, migrated, write_components
from tests.support.runners import runners_for

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


BRANCH_SUITE = """
import { mount } from 'enzyme';
import { IParam, Param } from './Param';

const cases: IParam[] = [
  { key: 'name', type: 'string' },
  { key: 'enabled', type: 'boolean' },
  { key: 'replicas', type: 'number' },
];

cases.forEach((param) => {
  it(`checks the ${param.type} param`, () => {
    const wrapper = mount(<Param param={param} onChange={jest.fn()} />);
    switch (param.type) {
      case 'boolean':
        expect(wrapper.find(Param).type()).toBe(Param);
        break;
      default:
        expect(wrapper.find('input')).toHaveLength(1);
    }
  });
});
"""


async def test_untranslated_code_in_one_cases_branch_fails_that_case_alone(
    app_copy: Path,
) -> None:
    """What is left untranslated in a branch only some cases take (kubeapps' ``case "array":``
    of 4 cases out of 15) fails where it is: the cases that never take it still run, and pass,
    instead of every case failing at the end of the test."""
    folder = app_copy / "src/components/Params"
    if not folder.exists():
        write_components(folder, SOURCES)
    file = "src/components/Params/Branch.test.tsx"
    (app_copy / file).write_text(BRANCH_SUITE.lstrip())
    result = await migrate_offline(app_copy, file, write=True)
    lines = result.content.splitlines()
    commented = next(i for i, line in enumerate(lines) if "// expect(wrapper.find(Param)" in line)
    assert lines[commented + 1].strip().startswith("throw new Error("), result.content
    assert result.content.count("throw new Error(") == 1, result.content

    run = await runners_for(app_copy).run_tests(file)
    assert run.suite_error is None, run.suite_error
    assert [t.full_name for t in run.failing()] == ["checks the boolean param"]
    assert run.passed_count == 2, run
