"""The test's own marker elements found by a test id added to them, and headings found by the
level their tag names, under the example app's real jest and eslint.

Both shapes from kubeapps (``PageHeader``, ``OperatorHeader``, ``InfoCard``; reactstrap's
``Dropdown`` hands in markers the same way): the test writes an empty element of its own and
hands it to the component (``filter={<div id="foo" />}``), then finds it (``find('#foo')``);
and ``find('h1')``/``find('h3')`` tell a large title from a smaller one, which a heading role
without its level would not."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.codemod.syntax import parse
from testmend.codemod.translate.marker_ids import Marker, marker_for, with_test_ids
from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Header.tsx": """
        import { ReactNode } from 'react';

        export interface HeaderProps {
          title: string;
          size?: 'lg' | 'md';
          filter?: ReactNode;
          buttons?: ReactNode[];
        }

        export function Header({ title, size = 'lg', filter, buttons }: HeaderProps) {
          return (
            <header className="header">
              {size === 'lg' ? <h1>{title}</h1> : <h3>{title}</h3>}
              <div className="header__filter">{filter}</div>
              <div className="header__buttons">{buttons}</div>
            </header>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Header } from './Header';

describe('header', () => {
  it('renders a large title', () => {
    const wrapper = mount(<Header title="Apps" />);
    expect(wrapper.find('h1').text()).toBe('Apps');
  });

  it('renders a smaller title', () => {
    const wrapper = mount(<Header title="Apps" size="md" />);
    expect(wrapper.find('h3').text()).toBe('Apps');
  });

  it('includes the filter', () => {
    const wrapper = mount(<Header title="Apps" filter={<div id="filter" />} />);
    expect(wrapper.find('#filter').exists()).toBe(true);
  });

  it('includes the buttons', () => {
    const wrapper = mount(
      <Header title="Apps" buttons={[<button key="a" id="a" />, <button key="b" id="b" />]} />,
    );
    expect(wrapper.find('#a').exists()).toBe(true);
    expect(wrapper.find('#b').exists()).toBe(true);
  });
});
"""


@pytest.fixture(scope="module")
def header(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Header", SOURCES)


async def test_markers_get_a_test_id_and_headings_their_level(app_copy: Path, header: Path) -> None:
    file = "src/components/Header/Header.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "screen.getByRole('heading', { level: 1 })" in content, content
    assert "screen.getByRole('heading', { level: 3 })" in content, content
    assert '<div id="filter" data-testid="filter" />' in content, content
    assert "expect(screen.getByTestId('filter')).toBeInTheDocument();" in content, content
    # Two unnamed buttons: each its own test id, not a position among the page's buttons.
    assert '<button key="a" id="a" data-testid="a" />' in content, content
    assert "expect(screen.getByTestId('b')).toBeInTheDocument();" in content, content
    assert "querySelector" not in content and "getAllByRole('button')" not in content, content
    assert [m.rule for m in result.lint_messages] == [], result.lint_messages
    failing = await broken_tests(
        app_copy, file, header / "Header.tsx", "size === 'lg'", "size !== 'lg'"
    )
    assert failing == ["header renders a large title", "header renders a smaller title"], failing
    failing = await broken_tests(app_copy, file, header / "Header.tsx", "{filter}</div>", "</div>")
    assert failing == ["header includes the filter"], failing


def test_a_marker_is_the_test_s_own_element_and_keeps_its_lines() -> None:
    source = (
        "const a = <Page filter={<div id='foo' />} />;\n"
        'const b = <Page version={<span id="foo">v</span>} />;\n'
    )
    root = parse(source, "x.test.tsx").root_node
    marker = marker_for("#foo", root, "data-testid")
    assert marker == Marker("id", "foo", frozenset({"div", "span"}))
    assert with_test_ids(source, "x.test.tsx", [marker], "data-testid") == (
        "const a = <Page filter={<div id='foo' data-testid='foo' />} />;\n"
        'const b = <Page version={<span id="foo" data-testid="foo">v</span>} />;\n'
    )
    # A tag the selector names that the elements do not have; a component; a test id already.
    assert marker_for("div#foo", root, "data-testid") is None
    component = parse("const a = <Page filter={<Icon id='foo' />} />;", "x.tsx").root_node
    assert marker_for("#foo", component, "data-testid") is None
    own = parse("const a = <div id='foo' data-testid='x' />;", "x.tsx").root_node
    assert marker_for("#foo", own, "data-testid") is None
    # A selector that is more than one id or class.
    assert marker_for("#foo .bar", root, "data-testid") is None
