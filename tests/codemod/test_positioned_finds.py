"""A find of one element no query selects alone, under the example app's real jest and eslint.

kubeapps wraps Clarity's alert in an ``AlertGroup`` that 10 of its test files find
(``expect(wrapper.find(AlertGroup).text()).toContain('Boom!')``): ``<cds-alert-group>`` is a
region with no name, and so is the ``<cds-alert>`` inside it, so no query selects the group alone
and the conversion fell back to ``document.querySelector('cds-alert-group')``, which the
project's Testing Library lint rejects. The capture now records, for such an element, the
queries that select it among a few others with its position (a role without a name too, when at
most three elements of the page have it), and the find becomes ``getAllByRole('region')[0]``.
Also here: a container asserted only to be there (kubeapps' ``LoadingWrapper``), shown by the
element inside it a query selects; and no position counted among a render the converted test
unmounts (typeahead's ``Token``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Notice.tsx": """
        import { ReactNode } from 'react';

        export function Notice({ children }: { children: ReactNode }) {
          return (
            <div role="region" className="notice">
              <div role="region" className="notice__body">
                {children}
              </div>
              <span className="notice__hint">Try again later</span>
              <i className="notice__icon" />
            </div>
          );
        }
    """,
    "Loading.tsx": """
        import { ReactNode } from 'react';

        export function Loading({ loaded, children }: { loaded: boolean; children: ReactNode }) {
          if (loaded) return <>{children}</>;
          return (
            <div className="loading">
              <span role="img" aria-label="Loading" className="spinner" />
            </div>
          );
        }
    """,
    "Chip.tsx": """
        export function Chip({ label, active }: { label: string; active?: boolean }) {
          return <div className={active ? 'chip chip-active' : 'chip'}>{label}</div>;
        }
    """,
    "Saver.tsx": """
        import { Notice } from './Notice';

        export function Saver({ error }: { error?: string }) {
          return (
            <form aria-label="Save">
              {error && <Notice>{error}</Notice>}
              <button type="submit">Save</button>
            </form>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Notice } from './Notice';
import { Saver } from './Saver';

describe('Saver', () => {
  it('shows the error in a notice', () => {
    const wrapper = mount(<Saver error="Boom!" />);
    expect(wrapper.find(Notice).text()).toContain('Boom!');
  });

  it('tells what to do in the notice', () => {
    const wrapper = mount(<Saver error="Boom!" />);
    const notice = wrapper.find(Notice);
    expect(notice.find('span').text()).toBe('Try again later');
  });


  it('shows no notice without an error', () => {
    const wrapper = mount(<Saver />);
    expect(wrapper.find(Notice).exists()).toBe(false);
  });
});
"""


@pytest.fixture(scope="module")
def saver(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Saver", SOURCES)


async def test_an_element_only_a_role_without_a_name_selects_is_found_by_its_position(
    app_copy: Path, saver: Path
) -> None:
    file = "src/components/Saver/Saver.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "expect(screen.getAllByRole('region')[0]).toHaveTextContent('Boom!');" in content, (
        content
    )
    # Where it is gone, no region is left: the query that found it among them finds nothing.
    assert "expect(screen.queryByRole('region')).not.toBeInTheDocument();" in content, content
    assert "querySelector" not in content and "recordedProps" not in content, content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    assert result.status == "succeeded", result.reasons
    # The text must be the notice's: shown elsewhere in the form, the test fails.
    failing = await broken_tests(
        app_copy,
        file,
        saver / "Saver.tsx",
        "{error && <Notice>{error}</Notice>}",
        "{error && <Notice>!</Notice>}{error}",
    )
    assert failing == ["Saver shows the error in a notice"], failing
    # …and shown without an error, the absence test fails.
    failing = await broken_tests(
        app_copy,
        file,
        saver / "Saver.tsx",
        "{error && <Notice>{error}</Notice>}",
        "<Notice>{error}</Notice>",
    )
    assert failing == ["Saver shows no notice without an error"], failing


CHAINED_SUITE = """
import { mount } from 'enzyme';
import { Notice } from './Notice';
import { Saver } from './Saver';

it('marks the notice with an icon', () => {
  const wrapper = mount(<Saver error="Boom!" />);
  const notice = wrapper.find(Notice);
  expect(notice.find('i')).toHaveLength(1);
  expect(notice.text()).toContain('Boom!');
});
"""


async def test_a_find_under_an_element_found_by_its_position_searches_under_its_selector(
    app_copy: Path, saver: Path
) -> None:
    """What no query selects under it (an icon) is searched under the CSS selector the capture
    verified for the element, as before it had a query: never left untranslated."""
    file = "src/components/Saver/Icon.test.tsx"
    content = (await migrated(app_copy, file, CHAINED_SUITE)).content
    assert "const notice = screen.getAllByRole('region')[0];" in content, content
    assert "expect(document.querySelectorAll('div.notice i')).toHaveLength(1);" in content, content
    assert "expect(notice).toHaveTextContent('Boom!');" in content, content


LOADING_SUITE = """
import { mount } from 'enzyme';
import { Loading } from './Loading';

it('shows that it is loading', () => {
  const wrapper = mount(<Loading loaded={false}>Done</Loading>);
  expect(wrapper.find(Loading).find('div').exists()).toBe(true);
});

it('shows what loaded', () => {
  const wrapper = mount(<Loading loaded>Done</Loading>);
  expect(wrapper.find('div').exists()).toBe(false);
  expect(wrapper.text()).toBe('Done');
});
"""


async def test_a_container_asserted_only_to_be_there_is_shown_by_what_a_query_selects_in_it(
    app_copy: Path, saver: Path
) -> None:
    """A loading wrapper (kubeapps' ``LoadingWrapper``: a plain ``div`` around Clarity's
    spinner) no query selects: that it is there is the spinner inside it being there; that it
    is gone, the spinner being gone."""
    file = "src/components/Saver/Loading.test.tsx"
    result = await migrated(app_copy, file, LOADING_SUITE)
    content = result.content
    assert "expect(screen.getByRole('img', { name: 'Loading' })).toBeInTheDocument();" in content, (
        content
    )
    assert (
        "expect(screen.queryByRole('img', { name: 'Loading' })).not.toBeInTheDocument();" in content
    ), content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    failing = await broken_tests(
        app_copy,
        file,
        saver / "Loading.tsx",
        '<span role="img" aria-label="Loading" className="spinner" />',
        "",
    )
    assert failing == ["shows that it is loading"], failing


CHIP_SUITE = """
import { mount, ReactWrapper } from 'enzyme';
import { Chip } from './Chip';

describe('Chip', () => {
  let chip: ReactWrapper;

  beforeEach(() => {
    chip = mount(<Chip label="Tag" />);
  });

  it('is not active', () => {
    expect(chip.find('.chip').hasClass('chip-active')).toBe(false);
  });

  describe('active', () => {
    beforeEach(() => {
      chip = mount(<Chip label="Tag" active />);
    });

    it('is active', () => {
      expect(chip.find('.chip').hasClass('chip-active')).toBe(true);
    });
  });
});
"""


async def test_no_position_counts_an_element_of_a_render_the_converted_test_unmounts(
    app_copy: Path, saver: Path
) -> None:
    """typeahead's Token: the outer ``beforeEach`` mounts a token and the inner one mounts
    another into the same variable; Enzyme leaves the first in the capture's document, the
    converted test unmounts it. The text selects both there, one here: a position counted
    there (``getAllByText('Tag')[1]``) points past the end here, so none is used."""
    file = "src/components/Saver/Chip.test.tsx"
    content = (await migrated(app_copy, file, CHIP_SUITE)).content
    assert "getAllByText('Tag')[1]" not in content, content
