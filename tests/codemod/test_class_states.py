"""A class that shows an element's state, asserted by the ARIA state that shows it to a user,
under the example app's real jest and eslint.

The shape, from kubeapps' ``ContextSelector`` (``find('.dropdown')`` toggling ``open``) and
the example app's ``Accordion`` (``find('.accordion-item').first()`` toggling
``accordion-item--open``): a container no query selects, whose class a test reads, holding one
button whose ``aria-expanded`` the capture saw be ``"true"`` exactly when the class was there.
A class that does not follow that state (a size the props set) stays a class check."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Dropdown.tsx": """
        import { useState } from 'react';

        export function Dropdown({ label, wide = false }: { label: string; wide?: boolean }) {
          const [open, setOpen] = useState(false);
          const classes = ['dropdown', open ? 'dropdown--open' : '', wide ? 'dropdown--wide' : ''];
          return (
            <div className={classes.join(' ').trim()}>
              <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
                {label}
              </button>
              {open && <p>Choose an action</p>}
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Dropdown } from './Dropdown';

describe('dropdown', () => {
  it('opens when its button is clicked', () => {
    const wrapper = mount(<Dropdown label="Actions" />);
    expect(wrapper.find('.dropdown').hasClass('dropdown--open')).toBe(false);
    wrapper.find('button').simulate('click');
    expect(wrapper.find('.dropdown').hasClass('dropdown--open')).toBe(true);
  });

  it('is wide when asked', () => {
    const wrapper = mount(<Dropdown label="Actions" wide />);
    expect(wrapper.find('.dropdown').hasClass('dropdown--wide')).toBe(true);
  });
});
"""


@pytest.fixture(scope="module")
def dropdown(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Dropdown", SOURCES)


async def test_a_class_that_follows_an_aria_state_is_asserted_by_that_state(
    app_copy: Path, dropdown: Path
) -> None:
    file = "src/components/Dropdown/Dropdown.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    button = "screen.getByRole('button', { name: 'Actions' })"
    assert f"expect({button}).toHaveAttribute('aria-expanded', 'false');" in content, content
    assert f"expect({button}).toHaveAttribute('aria-expanded', 'true');" in content, content
    assert "toHaveClass('dropdown--open')" not in content, content
    # A class the state does not show: still the class, by the CSS the capture verified.
    wide = "expect(document.querySelector('.dropdown')).toHaveClass('dropdown--wide');"
    assert wide in content, content
    assert [m.rule for m in result.lint_messages] == ["testing-library/no-node-access"]
    failing = await broken_tests(
        app_copy, file, dropdown / "Dropdown.tsx", "setOpen(!open)", "setOpen(open)"
    )
    assert failing == ["dropdown opens when its button is clicked"], failing
