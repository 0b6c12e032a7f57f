"""A custom element that gives itself a role and a name when it is connected to the document,
found by them, under the example app's real jest and eslint.

The shape, from kubeapps' ``LoadingWrapper`` (Clarity's ``<cds-progress-circle>`` sets
``role="img"`` and ``aria-label="Loading"`` in its ``connectedCallback``): Testing Library's
render connects it, Enzyme's never does (``mount`` renders into a detached element; a shallow
render's markup the capture parses apart), so the capture reads it connected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Loading.tsx": """
        import { DetailedHTMLProps, HTMLAttributes, ReactNode } from 'react';

        declare global {
          namespace JSX {
            interface IntrinsicElements {
              'x-progress-circle': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>;
            }
          }
        }

        // Names itself once connected, as Clarity's web components do.
        class ProgressCircle extends HTMLElement {
          connectedCallback() {
            this.setAttribute('role', 'img');
            this.setAttribute('aria-label', 'Loading');
          }
        }
        if (!customElements.get('x-progress-circle')) {
          customElements.define('x-progress-circle', ProgressCircle);
        }

        export function Loading({ loaded, children }: { loaded: boolean; children: ReactNode }) {
          if (loaded) return <>{children}</>;
          return (
            <div className="loading">
              <x-progress-circle />
            </div>
          );
        }
    """,
}

SUITE = """
import { mount, shallow } from 'enzyme';
import { Loading } from './Loading';

describe('loading', () => {
  it('shows a progress circle while loading', () => {
    const wrapper = shallow(<Loading loaded={false}>Ready</Loading>);
    expect(wrapper.find('x-progress-circle').exists()).toBe(true);
  });

  it('shows one progress circle when mounted', () => {
    const wrapper = mount(<Loading loaded={false}>Ready</Loading>);
    expect(wrapper.find('x-progress-circle')).toHaveLength(1);
  });
});
"""


@pytest.fixture(scope="module")
def loading(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Loading", SOURCES)


async def test_a_custom_element_is_found_by_the_role_it_gives_itself(
    app_copy: Path, loading: Path
) -> None:
    file = "src/components/Loading/Loading.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    query = "screen.getByRole('img', { name: 'Loading' })"
    assert f"expect({query}).toBeInTheDocument();" in content, content
    assert "expect(screen.getAllByRole('img', { name: 'Loading' })).toHaveLength(1);" in content
    assert "querySelector" not in content, content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    failing = await broken_tests(
        app_copy, file, loading / "Loading.tsx", "if (loaded) return", "if (!loaded) return"
    )
    assert failing == [
        "loading shows a progress circle while loading",
        "loading shows one progress circle when mounted",
    ], failing
