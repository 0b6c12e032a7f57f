"""A text asserted of what no query selects, under the example app's real jest and eslint.

kubeapps' tests assert a text of a component whose elements no query selects (a page's plain
``div``, Clarity's ``<cds-modal-content>``): ``expect(wrapper.find(NotFound).text()).toContain(
"The page you are looking for can't be found")``, ``expect(wrapper.find(CdsModalContent))
.toIncludeText("Sure?")``. The conversion fell back to ``document.querySelector(…)``, which the
project's Testing Library lint rejects. The capture now records, for such a find, every element
of the page with text of its own and whether it is inside what the find selected; where the
text the test names is in one element of the page, inside it, the assertion becomes the text
query Testing Library would use: ``expect(screen.getByText(…)).toBeInTheDocument()``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Missing.tsx": """
        export function Missing({ hint }: { hint?: string }) {
          return (
            <div className="missing">
              <div>
                <h3>The page you are looking for can't be found.</h3>
              </div>
              {hint && <span className="missing__hint">{hint}</span>}
            </div>
          );
        }
    """,
    "Confirm.tsx": """
        export function Confirm({ question, echo }: { question: string; echo?: boolean }) {
          return (
            <div className="confirm">
              <div className="confirm__content">
                <p>{question}</p>
              </div>
              {echo && <small>{question}</small>}
              <button type="button">Delete</button>
            </div>
          );
        }
    """,
    "Update.tsx": """
        export function Update({ version }: { version: string }) {
          return (
            <div className="update">
              <p>
                A new version is available: <strong>{version}</strong>.
              </p>
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Confirm } from './Confirm';
import { Missing } from './Missing';
import { Update } from './Update';

describe('pages', () => {
  it('says the page is missing', () => {
    const wrapper = mount(<Missing />);
    expect(wrapper.find(Missing).text()).toContain("The page you are looking for can't be found");
  });

  it('asks the question', () => {
    const wrapper = mount(<Confirm question="Sure?" />);
    expect(wrapper.find('.confirm__content').text()).toBe('Sure?');
    expect(wrapper.find('.confirm__content').text()).not.toContain('Really?');
  });

  it('offers the update', () => {
    const wrapper = mount(<Update version="2.0" />);
    expect(wrapper.find(Update).text()).toContain('A new version is available: 2.0');
  });

  it('asks the question once more', () => {
    const wrapper = mount(<Confirm question="Sure?" echo />);
    expect(wrapper.find('.confirm__content').text()).toBe('Sure?');
  });

  it('offers to delete', () => {
    const wrapper = mount(<Confirm question="Sure?" />);
    expect(wrapper.find('button').text()).toContain('');
  });
});
"""


@pytest.fixture(scope="module")
def pages(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Pages", SOURCES)


async def test_a_text_of_what_no_query_selects_is_found_by_the_text_query(
    app_copy: Path, pages: Path
) -> None:
    file = "src/components/Pages/Pages.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    # A part of an element's text: a regular expression; all of it: the text.
    assert (
        "expect(screen.getByText(/The page you are looking for can't be found/))"
        ".toBeInTheDocument();" in content
    ), content
    assert "expect(screen.getByText('Sure?')).toBeInTheDocument();" in content, content
    # Shown with a child's text: the element, by its own part of it, has the text.
    assert (
        "expect(screen.getByText(/A new version is available:/))"
        ".toHaveTextContent('A new version is available: 2.0');" in content
    ), content
    # Every text contains '' (kubeapps' RpcErrorMessage): the element is there, empty or not.
    deletes = "expect(screen.getByRole('button')).toBeInTheDocument();"
    assert deletes in content, content
    # Not there: no element of the page shows it.
    assert "expect(screen.queryByText(/Really\\?/)).not.toBeInTheDocument();" in content, content
    # Shown twice on the page, the text query would find both: the container's CSS stays.
    assert (
        "expect(document.querySelector('.confirm__content')).toHaveTextContent(/^Sure\\?$/);"
        in content
    ), content
    assert [m.rule for m in result.lint_messages] == ["testing-library/no-node-access"], (
        result.lint_messages
    )
    # The text must be there: changed, the tests that name it fail.
    failing = await broken_tests(
        app_copy, file, pages / "Missing.tsx", "can't be found.", "is gone."
    )
    assert failing == ["pages says the page is missing"], failing
    failing = await broken_tests(app_copy, file, pages / "Confirm.tsx", "<p>{question}</p>", "")
    assert failing == ["pages asks the question", "pages asks the question once more"], failing
    failing = await broken_tests(
        app_copy, file, pages / "Update.tsx", "<strong>{version}</strong>", "<strong>?</strong>"
    )
    assert failing == ["pages offers the update"], failing
