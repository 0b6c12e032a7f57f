"""What stands for a container or the items of a list no query selects: an element inside each
that one does, under the example app's real jest and eslint.

Two shapes from kubeapps: ``ApplicationStatus``, a plain ``div`` around an icon and a status
line ("No Workload Found"), asserted only to be there (``toExist()``), whose inside has no
role and name but a text; and ``SecretItemDatum``, rows of grid columns each carrying an empty
``role=""``, counted (``toHaveLength(2)``): the empty roles used up the few elements the
capture tries before it reached each row's button. And a third: ``TabularSchemaEditorTable``'s
two control bars and two pagination bars, asserted there and counted, where the same text
inside each (its first-page button, ``<<``, a custom element with no role) stands for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Status.tsx": """
        export function Status({ pods }: { pods: number }) {
          if (pods === 0) {
            return (
              <div className="center">
                <div className="status">
                  <i className="icon" /> No workload found
                </div>
              </div>
            );
          }
          return <section aria-label="Status">{pods} pods</section>;
        }
    """,
    "Secret.tsx": """
        export function Secret({ name }: { name: string }) {
          return (
            <div className="row">
              <div role="" className="col">
                <label htmlFor={`secret-${name}`}>{name}</label>
              </div>
              <div role="" className="col">
                <input id={`secret-${name}`} type="password" readOnly value={`${name}-value`} />
              </div>
              <div role="" className="col">
                <button type="button" aria-label="Show secret">
                  👁
                </button>
              </div>
            </div>
          );
        }
    """,
    "Pager.tsx": """
        import React from 'react';

        function Pager() {
          return (
            <div className="pagination-buttons">
              {React.createElement('x-page', { title: 'First page' }, '<<')}
              {React.createElement('x-page', { title: 'Previous page' }, '<')}
              <span>Page 1 of 3</span>
            </div>
          );
        }

        export function SchemaTable({ bottomPager }: { bottomPager: boolean }) {
          return (
            <div>
              <div className="table-control">
                <Pager />
                <input aria-label="Search" />
              </div>
              <table>
                <tbody>
                  <tr>
                    <td>replicas</td>
                  </tr>
                </tbody>
              </table>
              <div className="table-control">{bottomPager && <Pager />}</div>
            </div>
          );
        }
    """,
    "Secrets.tsx": """
        import { Secret } from './Secret';

        export function Secrets({ names }: { names: string[] }) {
          return (
            <div className="secrets">
              {names.map((name) => (
                <Secret key={name} name={name} />
              ))}
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { SchemaTable } from './Pager';
import { Secret } from './Secret';
import { Secrets } from './Secrets';
import { Status } from './Status';

describe('status', () => {
  it('shows the status without workloads', () => {
    const wrapper = mount(<Status pods={0} />);
    expect(wrapper.find(Status).find('div.center').exists()).toBe(true);
  });

  it('shows a row per secret', () => {
    const wrapper = mount(<Secrets names={['token', 'password']} />);
    expect(wrapper.find(Secret)).toHaveLength(2);
  });

  it('shows the table controls and a pager above and below', () => {
    const wrapper = mount(<SchemaTable bottomPager />);
    expect(wrapper.find('.table-control').exists()).toBe(true);
    expect(wrapper.find('.pagination-buttons')).toHaveLength(2);
  });
});
"""


@pytest.fixture(scope="module")
def status(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Status", SOURCES)


async def test_a_container_and_rows_no_query_selects_are_shown_by_what_is_inside(
    app_copy: Path, status: Path
) -> None:
    file = "src/components/Status/Status.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    # No role and name inside: the text of its own that selects one element.
    assert "expect(screen.getByText('No workload found')).toBeInTheDocument();" in content, content
    # Past the empty roles, each row's button.
    rows = "expect(screen.getAllByRole('button', { name: /^Show secret/ })).toHaveLength(2);"
    assert rows in content, content
    assert "querySelector" not in content, content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    failing = await broken_tests(
        app_copy, file, status / "Status.tsx", "if (pods === 0) {", "if (pods === 1) {"
    )
    assert failing == ["status shows the status without workloads"], failing
    failing = await broken_tests(
        app_copy, file, status / "Secrets.tsx", "names.map(", "names.slice(1).map("
    )
    assert failing == ["status shows a row per secret"], failing
    # Two control bars, two pagers: the text in the same place inside each.
    assert "expect(screen.queryAllByText('<<')).not.toHaveLength(0);" in content, content
    assert "expect(screen.getAllByText('<<')).toHaveLength(2);" in content, content
    failing = await broken_tests(
        app_copy, file, status / "Pager.tsx", "{bottomPager && <Pager />}", "{bottomPager && <p />}"
    )
    assert failing == ["status shows the table controls and a pager above and below"], failing
