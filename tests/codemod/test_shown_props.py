"""A child component's prop that what it rendered shows as an attribute of another name,
asserted on that attribute, under the example app's real jest and eslint.

The shapes, from kubeapps (``find(Link).prop("to")`` in ``InfoCard``, ``PkgRepoList`` and
``Header``, which reads it as a value: ``expect(item.to).toBe(items.at(i).prop("to"))``) and
addons-code-manager (``toHaveProp('to', '/')`` on a ``Link`` in ``NotFound``,
``toHaveProp('icon', …)`` on ``FontAwesomeIcon`` in ``ToggleButton``, ``VersionSelect`` and
``FileTreeNode``): a router ``Link``'s ``to`` is its anchor's ``href``; an icon component's
``icon`` is its svg's ``data-icon``. The capture sees each value there, so the result asserts
what the user's page shows instead of recording the child's props."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Icon.tsx": """
        export function Icon({ icon, title }: { icon: string; title: string }) {
          return (
            <svg role="img" aria-label={title} data-icon={icon} className={`icon icon-${icon}`}>
              <path d="M0 0h8v8H0z" />
            </svg>
          );
        }
    """,
    "ProfileCard.tsx": """
        import { Link } from 'react-router-dom';
        import { Icon } from './Icon';

        export function ProfileCard({ user, admin = false }: { user: string; admin?: boolean }) {
          return (
            <div className="profile-card">
              <Icon icon={admin ? 'shield' : 'user'} title="Role" />
              <Link to={`/users/${user}`}>Profile</Link>
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { MemoryRouter, Link } from 'react-router-dom';
import { Icon } from './Icon';
import { ProfileCard } from './ProfileCard';

describe('profile card', () => {
  it('links to the user', () => {
    const wrapper = mount(
      <MemoryRouter>
        <ProfileCard user="ada" />
      </MemoryRouter>,
    );
    expect(wrapper.find(Link).prop('to')).toBe('/users/ada');
    expect(wrapper.find(Link).props().to).toEqual('/users/ada');
    const expected = { to: '/users/ada' };
    expect(expected.to).toBe(wrapper.find(Link).prop('to'));
  });

  it('shows the role icon', () => {
    const wrapper = mount(
      <MemoryRouter>
        <ProfileCard user="ada" admin />
      </MemoryRouter>,
    );
    expect(wrapper.find(Icon).prop('icon')).toEqual('shield');
  });
});
"""


@pytest.fixture(scope="module")
def profile(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/ProfileCard", SOURCES)


async def test_a_child_prop_shown_as_another_attribute_is_asserted_on_that_attribute(
    app_copy: Path, profile: Path
) -> None:
    file = "src/components/ProfileCard/ProfileCard.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    link = "screen.getByRole('link', { name: 'Profile' })"
    assert content.count(f"expect({link}).toHaveAttribute('href', '/users/ada');") == 2, content
    assert f"expect(expected.to).toBe({link}.getAttribute('href'));" in content, content
    icon = "screen.getByRole('img', { name: 'Role' })"
    assert f"expect({icon}).toHaveAttribute('data-icon', 'shield');" in content, content
    assert "recordedProps" not in content and "mockRecordingProps" not in content, content
    assert result.lint_messages == [], result.lint_messages
    assert result.status == "succeeded", result.reasons
    failing = await broken_tests(
        app_copy, file, profile / "ProfileCard.tsx", "`/users/${user}`", "`/people/${user}`"
    )
    assert failing == ["profile card links to the user"], failing
    failing = await broken_tests(
        app_copy, file, profile / "ProfileCard.tsx", "admin ? 'shield' : 'user'", "'user'"
    )
    assert failing == ["profile card shows the role icon"], failing


NOTES = {
    "NoteLink.tsx": """
        import { ReactNode } from 'react';
        import { Link } from 'react-router-dom';

        export function NoteLink({ href, children }: { href: string; children: ReactNode }) {
          if (href.startsWith('#')) {
            return <Link to={href}>{children}</Link>;
          }
          return (
            <a href={href} target="_blank" rel="noreferrer">
              {children}
            </a>
          );
        }
    """,
}

NOTES_SUITE = """
import { mount } from 'enzyme';
import { MemoryRouter, Link } from 'react-router-dom';
import { NoteLink } from './NoteLink';

it('renders a hash link as a router link', () => {
  const wrapper = mount(
    <MemoryRouter>
      <NoteLink href="#section-1">section 1</NoteLink>
    </MemoryRouter>,
  );
  expect(wrapper.find(Link)).toExist();
});
"""


async def test_a_router_links_presence_asserts_where_it_goes(app_copy: Path) -> None:
    """kubeapps' ``AppNotes`` and ``PackageReadme`` (``expect(wrapper.find(Link)).toExist()``
    for a markdown hash link), addons-code-manager's ``Index``: the link's role and name
    alone hold for the plain anchor the other branch renders; its destination does not."""
    notes = write_components(app_copy / "src/components/NoteLink", NOTES)
    file = "src/components/NoteLink/NoteLink.test.tsx"
    result = await migrated(app_copy, file, NOTES_SUITE)
    content = result.content
    link = "screen.getByRole('link', { name: 'section 1' })"
    assert f"expect({link}).toHaveAttribute('href', '/#section-1');" in content, content
    assert result.status == "succeeded", result.reasons
    failing = await broken_tests(
        app_copy, file, notes / "NoteLink.tsx", "href.startsWith('#')", "!href.startsWith('#')"
    )
    assert failing == ["renders a hash link as a router link"], failing


TAGS = {
    "Tag.tsx": """
        export function Tag({ label, tone }: { label: string; tone: string }) {
          return <span className={`tag tag--${tone}`}>{label}</span>;
        }

        export function Hint({ children }: { children: string }) {
          return (
            <p role="note" className="hint">
              {children}
            </p>
          );
        }

        export function Post({ tags, hint }: { tags: string[]; hint: string }) {
          return (
            <article>
              <h2>Post</h2>
              <ul>
                {tags.map((tag) => (
                  <li key={tag}>
                    <Tag label={tag} tone="info" />
                  </li>
                ))}
              </ul>
              <Hint>{hint}</Hint>
            </article>
          );
        }
    """,
}

TAGS_SUITE = """
import { mount } from 'enzyme';
import { Hint, Post, Tag } from './Tag';

it('labels each tag', () => {
  const wrapper = mount(<Post tags={['news', 'sports']} hint="Edited" />);
  expect(wrapper.find(Tag).first().prop('label')).toBe('news');
  const second = wrapper.find(Tag).get(1).props.label;
  expect(second).toEqual('sports');
});

it('shows the hint', () => {
  const wrapper = mount(<Post tags={[]} hint="Draft" />);
  expect(wrapper.find(Hint).prop('children')).toBe('Draft');
});
"""


async def test_a_child_prop_shown_as_its_text_is_asserted_on_that_text(app_copy: Path) -> None:
    """A child's prop that what it rendered shows as its whole text (a tag's ``label``, a
    hint's text ``children``): the text is asserted, and the child's props need no
    recording. ``get(i).props.k`` (public suites: ``find(Comment).get(0).props.comment``,
    kubeapps' ``links.get(0).props.to``) reads as ``at(i).prop('k')``."""
    tags = write_components(app_copy / "src/components/Tag", TAGS)
    file = "src/components/Tag/Tag.test.tsx"
    result = await migrated(app_copy, file, TAGS_SUITE)
    content = result.content
    assert "recordedProps" not in content and "mockRecordingProps" not in content, content
    # Found by its very text, a tag needs asserting only that it is there; the hint is found by
    # its role, and its text asserted.
    assert "expect(screen.getByText('news')).toBeInTheDocument();" in content, content
    assert "const second = screen.getByText('sports').textContent;" in content, content
    assert "expect(screen.getByRole('note')).toHaveTextContent(/^Draft$/);" in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons
    failing = await broken_tests(
        app_copy, file, tags / "Tag.tsx", "{label}</span>", "{label.toUpperCase()}</span>"
    )
    assert failing == ["labels each tag"], failing
    failing = await broken_tests(
        app_copy,
        file,
        tags / "Tag.tsx",
        "{children}\n",
        "{children.toLowerCase()}\n",
    )
    assert failing == ["shows the hint"], failing
