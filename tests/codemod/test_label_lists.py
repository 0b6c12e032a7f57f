"""A list of labelled items read by its labels' texts (``expect(wrapper.find('label').map((node)
=> node.text())).toEqual([...])``, a shape public Enzyme suites use for checkbox lists and form
fields) becomes the controls those labels name, by role, each asserted to have that accessible
name: no node access, and the same check of count, order and texts. Labels that name no control
keep the CSS lookup, with a finding. Under the example app's real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Toppings.tsx": """
        import { useState } from 'react';

        export function Toppings({ initial }: { initial: string[] }) {
          const [toppings, setToppings] = useState(initial);
          return (
            <fieldset>
              <legend>Toppings</legend>
              {toppings.map((topping) => (
                <div key={topping} className="topping">
                  <input id={`topping-${topping}`} type="checkbox" defaultChecked />
                  <label htmlFor={`topping-${topping}`} className="topping__name">
                    {topping}
                  </label>
                  <button
                    type="button"
                    aria-label={`Remove ${topping}`}
                    onClick={() => setToppings(toppings.filter((t) => t !== topping))}
                  >
                    x
                  </button>
                </div>
              ))}
            </fieldset>
          );
        }

        export function Legend({ entries }: { entries: string[] }) {
          return (
            <div>
              {entries.map((entry) => (
                <label key={entry} className="legend__entry">
                  {entry}
                </label>
              ))}
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Legend, Toppings } from './Toppings';

it('removes a topping', () => {
  const wrapper = mount(<Toppings initial={['Cheese', 'Olives', 'Basil']} />);
  wrapper.find('button').at(1).simulate('click');
  expect(wrapper.find('label.topping__name').map((node) => node.text())).toEqual([
    'Cheese',
    'Basil',
  ]);
});

it('lists the legend', () => {
  const wrapper = mount(<Legend entries={['Rain', 'Snow']} />);
  expect(wrapper.find('label').map((node) => node.text())).toEqual(['Rain', 'Snow']);
});
"""


async def test_labels_read_as_a_list_are_the_names_of_their_controls(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Toppings", SOURCES)
    file = "src/components/Toppings/Toppings.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    names = (
        "const checkboxes = screen.getAllByRole('checkbox');\n"
        "  expect(checkboxes).toHaveLength(2);\n"
        "  expect(checkboxes[0]).toHaveAccessibleName('Cheese');\n"
        "  expect(checkboxes[1]).toHaveAccessibleName('Basil');\n"
    )
    assert names in content, content
    assert "querySelectorAll('label.topping__name')" not in content, content
    # Labels of no control have no name to assert: their CSS lookup stays, with its finding.
    assert "document.querySelectorAll('label')" in content, content
    assert any(f.kind == "fallback" and "'label'" in f.message for f in result.codemod_findings)
    assert [m.rule for m in result.lint_messages] == ["testing-library/no-node-access"], (
        result.lint_messages
    )
    assert result.type_messages == [], result.type_messages

    # The names are what the test checks now: a removal that drops the wrong topping, and
    # labels that stop naming their checkboxes, each fail it.
    module = folder / "Toppings.tsx"
    failing = await broken_tests(
        app_copy, file, module, "toppings.filter((t) => t !== topping)", "toppings.slice(1)"
    )
    assert failing == ["removes a topping"], failing
    failing = await broken_tests(
        app_copy, file, module, "htmlFor={`topping-${topping}`}", 'htmlFor="nothing"'
    )
    assert failing == ["removes a topping"], failing
