"""An assertion on what an inline render selected: the render becomes a statement of its own,
and the assertion reads the screen, under the example app's real jest and eslint.

The shape, from kubeapps (``expect(mountWrapper(store, <SelectRepoForm />).find(
"LoadingWrapper")).toExist()``, four times in ``UpgradeForm``), addons-code-manager
(``FileTree``, ``CommentSummary``) and visx (``Label``): Testing Library's render returns no
wrapper, and searching the call's own ``container`` is the node access its lint forbids."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Loading.tsx": """
        export function Loading() {
          return (
            <div className="loading">
              <p role="status">Fetching repositories…</p>
            </div>
          );
        }
    """,
    "RepoList.tsx": """
        import { Loading } from './Loading';

        type Props = { repos: string[]; fetching?: boolean };

        export function RepoList({ repos, fetching = false }: Props) {
          if (fetching) {
            return <Loading />;
          }
          return (
            <ul aria-label="Repositories">
              {repos.map((repo) => (
                <li key={repo}>{repo}</li>
              ))}
            </ul>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Loading } from './Loading';
import { RepoList } from './RepoList';

describe('repo list', () => {
  it('shows that it is loading while fetching', () => {
    expect(mount(<RepoList repos={[]} fetching />).find(Loading).exists()).toBe(true);
  });

  it('lists the repositories', () => {
    expect(mount(<RepoList repos={['core', 'extras']} />).find('li')).toHaveLength(2);
  });

  it('renders twice', () => {
    const wrapper = mount(<RepoList repos={['core']} />);
    expect(wrapper.find('li')).toHaveLength(1);
    expect(mount(<RepoList repos={['core', 'extras']} />).find('li')).toHaveLength(2);
  });
});
"""


HOOKED_SUITE = """
import { mount, ReactWrapper } from 'enzyme';
import { RepoList } from './RepoList';

describe('repo list beside a render of each test', () => {
  let wrapper: ReactWrapper;
  beforeEach(() => {
    wrapper = mount(<RepoList repos={['core']} />);
  });

  it('lists the repositories', () => {
    expect(wrapper.find('li')).toHaveLength(1);
    expect(mount(<RepoList repos={['core', 'extras']} />).find('li')).toHaveLength(2);
  });
});
"""


@pytest.fixture(scope="module")
def repos(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/RepoList", SOURCES)


async def test_an_inline_render_in_an_assertion_is_made_first_and_the_screen_queried(
    app_copy: Path, repos: Path
) -> None:
    file = "src/components/RepoList/RepoList.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    loading = [
        "render(<RepoList repos={[]} fetching />);",
        "expect(screen.getByText('Fetching repositories…')).toBeInTheDocument();",
    ]
    assert "\n    ".join(loading) in content, content
    listed = [
        "render(<RepoList repos={['core', 'extras']} />);",
        "expect(screen.getAllByRole('listitem')).toHaveLength(2);",
    ]
    assert "\n    ".join(listed) in content, content
    # Beside another render of the same test, a screen query would count both renders' items.
    assert ".container.querySelectorAll('li')).toHaveLength(2);" in content, content
    failing = await broken_tests(
        app_copy, file, repos / "RepoList.tsx", "if (fetching) {", "if (!fetching) {"
    )
    assert "repo list shows that it is loading while fetching" in failing, failing
    failing = await broken_tests(
        app_copy, file, repos / "RepoList.tsx", "{repos.map(", "{repos.slice(1).map("
    )
    assert "repo list lists the repositories" in failing, failing


async def test_an_inline_render_stays_where_it_is_read_when_a_hook_renders_too(
    app_copy: Path, repos: Path
) -> None:
    """The hook's render is in the document too: a screen query would count its items."""
    file = "src/components/RepoList/RepoListHooked.test.tsx"
    result = await migrated(app_copy, file, HOOKED_SUITE)
    content = result.content
    assert "render(<RepoList repos={['core', 'extras']} />).container" in content, content
    assert "expect(screen.getAllByRole('listitem')).toHaveLength(2);" not in content, content
