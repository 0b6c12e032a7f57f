"""Elements the test reaches through the structure, or that are out of the accessibility tree,
selected by their role, under the example app's real jest and eslint.

Three shapes from kubeapps: ``Tabs`` counts its panels (``find('section')``), one of which is
hidden (``aria-hidden``), so a role query finds it only with ``hidden: true``; ``TableRow``
reads a shallow-rendered row's cells by position (``find('tr').childAt(i)``), whose ``<tr>``
root the capture must parse inside a table part; ``Table`` walks a body's rows
(``find('tbody').children()``, under a header row). A row's cells and a body's rows are each
exactly the children of one element that one role selects inside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Tabs.tsx": """
        import { useState } from 'react';

        export function Tabs({ titles, panels }: { titles: string[]; panels: string[] }) {
          const [selected, setSelected] = useState(0);
          return (
            <div className="tabs">
              <div role="tablist">
                {titles.map((title, index) => (
                  <button
                    key={title}
                    type="button"
                    role="tab"
                    aria-selected={index === selected}
                    onClick={() => setSelected(index)}
                  >
                    {title}
                  </button>
                ))}
              </div>
              {panels.map((panel, index) => (
                <section key={panel} role="tabpanel" aria-hidden={index !== selected}>
                  {panel}
                </section>
              ))}
            </div>
          );
        }
    """,
    "Row.tsx": """
        export function Row({ cells }: { cells: string[] }) {
          return (
            <tr className="row">
              {cells.map((cell) => (
                <td key={cell}>{cell}</td>
              ))}
            </tr>
          );
        }
    """,
    "Grid.tsx": """
        import { Row } from './Row';

        export function Grid({ rows }: { rows: string[][] }) {
          return (
            <table className="grid">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Surname</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((cells) => (
                  <Row key={cells.join()} cells={cells} />
                ))}
              </tbody>
            </table>
          );
        }
    """,
}

SUITE = """
import { mount, shallow } from 'enzyme';
import { Grid } from './Grid';
import { Row } from './Row';
import { Tabs } from './Tabs';

const cells = ['ada', 'lovelace'];

describe('structure', () => {
  it('renders a panel per tab', () => {
    const wrapper = mount(<Tabs titles={['One', 'Two']} panels={['first', 'second']} />);
    expect(wrapper.find('section')).toHaveLength(2);
  });

  it('renders a cell per column', () => {
    const wrapper = shallow(<Row cells={cells} />);
    cells.forEach((cell, i) => {
      expect(wrapper.find('tr').childAt(i).text()).toBe(cell);
    });
  });

  it('renders a row per entry', () => {
    const wrapper = mount(<Grid rows={[cells, ['grace', 'hopper']]} />);
    expect(wrapper.find('tbody').children()).toHaveLength(2);
  });
});
"""


@pytest.fixture(scope="module")
def structure(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Structure", SOURCES)


async def test_hidden_panels_cells_and_rows_are_selected_by_their_role(
    app_copy: Path, structure: Path
) -> None:
    file = "src/components/Structure/Structure.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "expect(screen.getAllByRole('tabpanel', { hidden: true })).toHaveLength(2);" in content
    assert "within(screen.getByRole('row')).getAllByRole('cell')[i]" in content, content
    rows = "expect(within(screen.getAllByRole('rowgroup')[1]).getAllByRole('row')).toHaveLength(2);"
    assert rows in content, content
    assert "children" not in content and "querySelector" not in content, content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    failing = await broken_tests(
        app_copy, file, structure / "Tabs.tsx", "{panels.map(", "{panels.slice(1).map("
    )
    assert failing == ["structure renders a panel per tab"], failing
    failing = await broken_tests(
        app_copy, file, structure / "Row.tsx", "{cell}</td>", "{cell.toUpperCase()}</td>"
    )
    assert failing == ["structure renders a cell per column"], failing
    failing = await broken_tests(
        app_copy, file, structure / "Grid.tsx", "{rows.map(", "{rows.slice(1).map("
    )
    assert failing == ["structure renders a row per entry"], failing
