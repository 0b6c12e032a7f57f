"""``forEach`` over an Enzyme selection (kubeapps' ``list.forEach((li, i) => …)``,
``find(CdsButton).forEach((button) => expect(button).toBeDisabled())``, ``find('th')…
.forEach((th, i) => …)``: four of its files), under the example app's real jest: the DOM's list
of the same elements, the callback's parameter bound to each element, its statements
translated where they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.codemod import convert_enzyme_test
from testmend.codemod.models import CodemodOptions
from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Maintainers.tsx": """
        export function Maintainers(props: { names: string[]; locked?: boolean }) {
          return (
            <div>
              <ul>
                {props.names.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
              <button type="button" disabled={props.locked}>Add</button>
              <button type="button" disabled={props.locked}>Remove</button>
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Maintainers } from './Maintainers';

const names = ['Ada', 'Grace'];

describe('Maintainers', () => {
  it('lists each maintainer', () => {
    const wrapper = mount(<Maintainers names={names} />);
    const list = wrapper.find('li');
    expect(list).toHaveLength(2);
    list.forEach((li, i) => {
      expect(li.text()).toBe(names[i]);
    });
  });

  it('locks every button', () => {
    const wrapper = mount(<Maintainers names={names} locked />);
    wrapper.find('button').forEach((button) => expect(button.prop('disabled')).toBe(true));
  });
});
"""


@pytest.fixture(scope="module")
def maintainers(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Maintainers", SOURCES)


async def test_each_element_of_a_selection_is_the_doms(app_copy: Path, maintainers: Path) -> None:
    file = "src/components/Maintainers/Maintainers.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "const list = screen.getAllByRole('listitem');" in content, content
    assert "list.forEach((li, i) => {\n      expect(li.textContent).toBe(names[i]);" in content
    each = "screen.getAllByRole('button').forEach((button) => { expect(button).toBeDisabled(); });"
    assert each in content, content

    # Each element is checked: a wrong name, or one button left enabled, fails its test.
    failing = await broken_tests(
        app_copy, file, maintainers / "Maintainers.tsx", "{name}</li>", "{name.toUpperCase()}</li>"
    )
    assert failing == ["Maintainers lists each maintainer"], failing
    failing = await broken_tests(
        app_copy,
        file,
        maintainers / "Maintainers.tsx",
        "disabled={props.locked}>Remove",
        ">Remove",
    )
    assert failing == ["Maintainers locks every button"], failing


def test_a_find_under_each_element_is_never_searched_in_the_whole_document() -> None:
    """``list.forEach((li) => expect(li.find('a').prop('href'))…)``: the element has no
    selector of its own, and ``document.querySelector('a')`` would read the first link of the
    page for every item. Left untranslated, with a note."""
    source = (
        "import { mount } from 'enzyme';\n"
        "import Links from './Links';\n\n"
        "it('links each item', () => {\n"
        "  const wrapper = mount(<Links />);\n"
        "  wrapper.find('.item').forEach((li) => {\n"
        "    expect(li.find('a').prop('href')).toBe('/x');\n"
        "  });\n"
        "});\n"
    )
    result = convert_enzyme_test(source, path="src/Links.test.tsx", options=CodemodOptions())
    assert "document.querySelectorAll('.item').forEach((li) => {" in result.content, result.content
    assert "querySelector('a')" not in result.content
    assert "// testmend: find() inside a list of elements" in result.content
