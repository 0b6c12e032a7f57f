"""``find(x).filterWhere(predicate)`` with a predicate over props (kubeapps' sliders,
``filterWhere((i) => i.prop('type') === 'range')``, icons, alerts: ten of its files), under
the example app's real jest: the capture records what the predicate kept, at its call site, and
the query that selects exactly that replaces the chain. A value read back from a slider is the
DOM's string, from a number input a number, as jest-dom reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Size.tsx": """
        export function Size(props: { value: number; icon?: string }) {
          return (
            <div>
              <img alt="icon" src={props.icon || 'fallback-icon.svg'} />
              <img alt="" src="divider.svg" />
              <label htmlFor="size-range">Size</label>
              <input id="size-range" type="range" min={1} max={50} value={props.value} readOnly />
              <label htmlFor="size-number">Size in GiB</label>
              <input id="size-number" type="number" value={props.value} readOnly />
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Size } from './Size';

describe('Size', () => {
  it('shows the size on the slider and in the input', () => {
    const wrapper = mount(<Size value={10} />);
    const slider = wrapper.find('input').filterWhere((i) => i.prop('type') === 'range');
    expect(slider.prop('value')).toBe(10);
    const input = wrapper.find('input').filterWhere((i) => i.prop('type') === 'number');
    expect(input.prop('value')).toBe(10);
  });

  it('falls back to the default icon', () => {
    const wrapper = mount(<Size value={10} />);
    expect(
      wrapper
        .find('img')
        .filterWhere((i) => i.prop('alt') === 'icon')
        .prop('src'),
    ).toBe('fallback-icon.svg');
  });
});
"""


@pytest.fixture(scope="module")
def size(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Size", SOURCES)


async def test_a_filter_over_props_becomes_the_query_for_what_it_kept(
    app_copy: Path, size: Path
) -> None:
    file = "src/components/Size/Size.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "filterWhere" not in content and "querySelector" not in content, content
    assert "screen.getByRole('slider', { name: 'Size' })" in content, content
    assert "expect(slider).toHaveValue('10');" in content, content
    assert "screen.getByRole('spinbutton', { name: 'Size in GiB' })" in content, content
    assert "expect(input).toHaveValue(10);" in content, content
    assert (
        "expect(screen.getByRole('img', { name: 'icon' })).toHaveAttribute('src', "
        "'fallback-icon.svg');" in content
    ), content

    # The queries select what the filters kept: the slider alone, the icon alone.
    failing = await broken_tests(
        app_copy,
        file,
        size / "Size.tsx",
        'type="range" min={1} max={50} value={props.value}',
        'type="range" min={1} max={50} value={props.value + 1}',
    )
    assert failing == ["Size shows the size on the slider and in the input"], failing
    failing = await broken_tests(
        app_copy,
        file,
        size / "Size.tsx",
        "src={props.icon || 'fallback-icon.svg'}",
        "src={props.icon || 'default.svg'}",
    )
    assert failing == ["Size falls back to the default icon"], failing
