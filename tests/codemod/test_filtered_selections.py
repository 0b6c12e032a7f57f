"""``find(x).filterWhere(predicate)`` with a predicate over props (kubeapps' sliders,
``filterWhere((i) => i.prop('type') === 'range')``, icons, alerts: ten of its files), under
the example app's real jest: the capture records what the predicate kept, at its call site, and
the query that selects exactly that replaces the chain. A value read back from a slider is the
DOM's string, from a number input a number, as jest-dom reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.engine import RunResult
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


async def migrated_by_queries(app: Path, file: str, suite: str) -> RunResult:
    """``suite`` migrated (see ``migrated``), with every filter gone and no CSS lookup in its
    place."""
    result = await migrated(app, file, suite)
    content = result.content
    assert "filterWhere" not in content and "querySelector" not in content, content
    return result


@pytest.fixture(scope="module")
def size(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Size", SOURCES)


async def test_a_filter_over_props_becomes_the_query_for_what_it_kept(
    app_copy: Path, size: Path
) -> None:
    file = "src/components/Size/Size.test.tsx"
    content = (await migrated_by_queries(app_copy, file, SUITE)).content
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


CONFIRM_SOURCES = {
    "Repo.tsx": """
        import React, { ReactNode, useState } from 'react';

        export function ActionButton(props: { onClick: () => void; children: ReactNode }) {
          return React.createElement('x-action', { onClick: props.onClick }, props.children);
        }

        export function ConfirmDialog(props: { onConfirm: () => void; onCancel: () => void }) {
          return (
            <div role="dialog" aria-label="Delete repository">
              <p>Are you sure?</p>
              <ActionButton onClick={props.onCancel}>Cancel</ActionButton>
              <ActionButton onClick={props.onConfirm}>Delete</ActionButton>
            </div>
          );
        }

        export function Repo(props: { onDelete: () => void }) {
          const [confirming, setConfirming] = useState(false);
          return (
            <div>
              <ActionButton onClick={() => setConfirming(true)}>Delete</ActionButton>
              {confirming && (
                <ConfirmDialog onConfirm={props.onDelete} onCancel={() => setConfirming(false)} />
              )}
            </div>
          );
        }
    """,
}

CONFIRM_SUITE = """
import { mount } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { ActionButton, ConfirmDialog, Repo } from './Repo';

it('deletes the repository once confirmed', () => {
  const onDelete = jest.fn();
  const wrapper = mount(<Repo onDelete={onDelete} />);
  const deleteButton = wrapper.find(ActionButton).filterWhere((b) => b.text() === 'Delete');
  act(() => {
    (deleteButton.prop('onClick') as () => void)();
  });
  wrapper.update();
  expect(wrapper.find(ConfirmDialog).text()).toContain('Are you sure?');
  const confirmButton = wrapper
    .find(ConfirmDialog)
    .find(ActionButton)
    .filterWhere((b) => b.text() === 'Delete');
  act(() => {
    (confirmButton.prop('onClick') as () => void)();
  });
  expect(onDelete).toHaveBeenCalled();
});
"""


async def test_a_filter_keeps_one_of_a_components_elements_no_query_selects_together(
    app_copy: Path,
) -> None:
    """kubeapps' confirming dialogs (``find(ConfirmDialog).find(CdsButton).filterWhere((b) =>
    b.text() === 'Delete')``, in 13 files of kubeapps and addons-code-manager a component's
    find narrowed by a filter): no query or CSS selects the dialog's buttons together (Clarity's
    ``<cds-button>`` has no role, and its tag selects the page's buttons too), but one selects
    the button the filter keeps, here by its position among the elements of its text."""
    write_components(app_copy / "src/components/Repo", CONFIRM_SOURCES)
    file = "src/components/Repo/Repo.test.tsx"
    result = await migrated_by_queries(app_copy, file, CONFIRM_SUITE)
    content = result.content
    assert "await user.click(screen.getByText('Delete'));" in content, content
    assert "await user.click(screen.getAllByText('Delete')[1]);" in content, content
    assert result.summary.lint_errors == 0, result.reasons

    # The click confirms in the dialog: a dialog whose Delete cancels fails the test.
    failing = await broken_tests(
        app_copy,
        file,
        app_copy / "src/components/Repo/Repo.tsx",
        "<ActionButton onClick={props.onConfirm}>Delete",
        "<ActionButton onClick={props.onCancel}>Delete",
    )
    assert failing == ["deletes the repository once confirmed"], failing
