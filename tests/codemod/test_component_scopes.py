"""A find inside a component's find where nothing stands for the component: no query or CSS
selects what it renders (kubeapps' ``find(UpgradeForm).find(AlertGroup)``, a ``<section>``
with no name; ``find(DeploymentForm).find('#releaseName')``, ``find(BasicDeploymentForm)
.find('input')``), under the example app's real jest and eslint. The inner find needs no
scope where a query selects exactly its elements in the whole page, which the capture checks."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Upgrade.tsx": """
        import { ReactNode } from 'react';

        export function Alert(props: { children: ReactNode }) {
          return <div role="alert">{props.children}</div>;
        }

        export function UpgradeForm(props: { error?: string }) {
          return (
            <section>
              {props.error && <Alert>Upgrade failed: {props.error}</Alert>}
              <button type="button">Upgrade</button>
            </section>
          );
        }

        export function AppUpgrade(props: { error?: string }) {
          return (
            <div>
              <section>
                <Alert>Connected to cluster default</Alert>
              </section>
              <UpgradeForm error={props.error} />
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Alert, AppUpgrade, UpgradeForm } from './Upgrade';

const error = 'timeout';

it('shows the upgrade error in the form', () => {
  const wrapper = mount(<AppUpgrade error={error} />);
  expect(wrapper.find(UpgradeForm).exists()).toBe(true);
  expect(wrapper.find(UpgradeForm).find(Alert).text()).toContain(error);
});

it('shows no error in the form without one', () => {
  const wrapper = mount(<AppUpgrade />);
  expect(wrapper.find(UpgradeForm).find(Alert).exists()).toBe(false);
});
"""


async def test_a_find_inside_a_component_no_query_selects_does_without_it(
    app_copy: Path,
) -> None:
    write_components(app_copy / "src/components/Upgrade", SOURCES)
    file = "src/components/Upgrade/Upgrade.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "querySelector" not in content and "recordedProps" not in content, content
    assert "screen.getByText('Upgrade failed: timeout')" in content, content
    assert "expect(screen.queryByText('Upgrade failed: timeout')).not" in content, content
    assert result.summary.lint_errors == 0, result.reasons

    # The query stands for the form's alert: a form that shows no error fails the first test.
    failing = await broken_tests(
        app_copy,
        file,
        app_copy / "src/components/Upgrade/Upgrade.tsx",
        "<Alert>Upgrade failed: {props.error}</Alert>",
        "<Alert>Upgrade failed</Alert>",
    )
    assert failing == ["shows the upgrade error in the form"], failing
