"""A child component's callback prop the test calls itself (``(wrapper.find(Button).prop
('onClick') as any)()``: kubeapps' ``CdsButton``, ``ConfirmDialog``; any UI kit), under the
example app's real jest. Where an element the child rendered holds that very function as its
handler, the call becomes that element's event as a user makes it, so the wiring between the
child and the element is tested too; where the test passes what no event carries (a filter's
value), the recording calls it, with a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrate_offline, migrated, write_components

SOURCES = {
    "Button.tsx": """
        import { ReactNode } from 'react';

        export function Button(props: {
          onClick: () => void;
          disabled?: boolean;
          children: ReactNode;
        }) {
          return (
            <button type="button" className="btn" onClick={props.onClick} disabled={props.disabled}>
              {props.children}
            </button>
          );
        }
    """,
    "SearchFilter.tsx": """
        export function SearchFilter({ onChange }: { onChange: (value: string) => void }) {
          return <input aria-label="Search" onChange={(event) => onChange(event.target.value)} />;
        }
    """,
    "Options.tsx": """
        import { ChangeEvent } from 'react';

        export function Options(props: {
          options: string[];
          onChange: (event: ChangeEvent<HTMLInputElement>) => void;
        }) {
          return (
            <div className="options">
              {props.options.map((option) => (
                <label key={option}>
                  <input type="checkbox" value={option} onChange={props.onChange} />
                  {option}
                </label>
              ))}
            </div>
          );
        }
    """,
    "Filters.tsx": """
        import { ChangeEvent } from 'react';
        import { Options } from './Options';

        export function Filters(props: { onAdd: (value: string) => void }) {
          const onChange = (event: ChangeEvent<HTMLInputElement>) =>
            props.onAdd(event.target.value);
          return <Options options={['foo', 'bar']} onChange={onChange} />;
        }
    """,
    "Archive.tsx": """
        import { Button } from './Button';

        export function Archive(props: { onArchive: () => void }) {
          return <Button onClick={props.onArchive} disabled>Archive</Button>;
        }
    """,
    # kubeapps' DeleteButton and RollbackButton: the confirming dialog's button has the label
    # of the button that opened it.
    "Remover.tsx": """
        import { useState } from 'react';
        import { Button } from './Button';

        export function Remover(props: { onRemove: () => void }) {
          const [asking, setAsking] = useState(false);
          return (
            <div>
              <Button onClick={() => setAsking(true)}>Remove</Button>
              {asking && (
                <div className="modal">
                  <p>Remove the item?</p>
                  <Button onClick={props.onRemove}>Remove</Button>
                </div>
              )}
            </div>
          );
        }
    """,
    # kubeapps' AlertGroup: Clarity's `CdsAlert` takes an optional `onCloseChange` of an event,
    # which the test calls with nothing, cast to `any`.
    "Alert.tsx": """
        export function Alert(props: { onClose?: (event: CustomEvent) => void; text: string }) {
          return <p className="alert">{props.text}</p>;
        }
    """,
    "Notice.tsx": """
        import { useState } from 'react';
        import { Alert } from './Alert';

        export function Notice({ text }: { text: string }) {
          const [open, setOpen] = useState(true);
          return open ? <Alert text={text} onClose={() => setOpen(false)} /> : null;
        }
    """,
    "Toolbar.tsx": """
        import { useState } from 'react';
        import { Button } from './Button';
        import { SearchFilter } from './SearchFilter';

        export function Toolbar(props: { onDelete: () => void; onSearch: (q: string) => void }) {
          const [confirming, setConfirming] = useState(false);
          return (
            <div>
              <SearchFilter onChange={props.onSearch} />
              <Button onClick={() => setConfirming(true)}>Delete</Button>
              {confirming && <Button onClick={props.onDelete}>Confirm</Button>}
            </div>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Button } from './Button';
import { SearchFilter } from './SearchFilter';
import { Toolbar } from './Toolbar';

describe('Toolbar', () => {
  it('asks before deleting', () => {
    const onDelete = jest.fn();
    const wrapper = mount(<Toolbar onDelete={onDelete} onSearch={jest.fn()} />);
    (wrapper.find(Button).prop('onClick') as any)();
    wrapper.update();
    expect(wrapper.find(Button)).toHaveLength(2);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('deletes once confirmed', () => {
    const onDelete = jest.fn();
    const wrapper = mount(<Toolbar onDelete={onDelete} onSearch={jest.fn()} />);
    (wrapper.find(Button).prop('onClick') as any)();
    wrapper.update();
    const confirm = wrapper.find(Button).last();
    (confirm.prop('onClick') as any)();
    expect(onDelete).toHaveBeenCalled();
  });

  it('searches for what the filter reports', () => {
    const onSearch = jest.fn();
    const wrapper = mount(<Toolbar onDelete={jest.fn()} onSearch={onSearch} />);
    (wrapper.find(SearchFilter).prop('onChange') as any)('bar');
    expect(onSearch).toHaveBeenCalledWith('bar');
  });
});
"""


@pytest.fixture(scope="module")
def toolbar(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Toolbar", SOURCES)


async def test_a_callback_an_element_holds_becomes_a_click_on_it(
    app_copy: Path, toolbar: Path
) -> None:
    file = "src/components/Toolbar/Toolbar.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content

    # The buttons' callbacks: clicks on the buttons the capture saw hold them.
    assert "await user.click(screen.getByRole('button', { name: 'Delete' }));" in content, content
    assert "await user.click(screen.getByRole('button', { name: 'Confirm' }));" in content, content
    assert "recordedProps(Button)" not in content, content
    # The filter's value is no event's: called through the recording, with a finding.
    # The test's own cast stays on the callback it calls.
    assert "(recordedProps(SearchFilter)[0].onChange as any)('bar')" in content, content
    notes = [f.message for f in result.codemod_findings if "SearchFilter's onChange" in f.message]
    assert notes, result.codemod_findings

    # A button that drops its callback is now noticed by the tests that click it, and only
    # by them (the recording called the callback whatever the button did with it).
    failing = await broken_tests(
        app_copy,
        file,
        toolbar / "Button.tsx",
        "onClick={props.onClick}",
        "onClick={() => undefined}",
    )
    assert failing == ["Toolbar asks before deleting", "Toolbar deletes once confirmed"], failing


ARCHIVE_SUITE = """
import { mount } from 'enzyme';
import { Archive } from './Archive';
import { Button } from './Button';

describe('Archive', () => {
  it('hands its callback to its button', () => {
    const onArchive = jest.fn();
    const wrapper = mount(<Archive onArchive={onArchive} />);
    (wrapper.find(Button).prop('onClick') as any)();
    expect(onArchive).toHaveBeenCalled();
  });
});
"""


async def test_a_callback_a_disabled_element_holds_is_called_through_the_recording(
    app_copy: Path, toolbar: Path
) -> None:
    """The button is disabled: no click of a user's reaches the callback the test calls, so the
    test keeps calling it itself, through the recording, with a finding."""
    file = "src/components/Toolbar/Archive.test.tsx"
    (app_copy / file).write_text(ARCHIVE_SUITE.lstrip())
    result = await migrate_offline(app_copy, file)
    assert result.tests_pass and result.summary.enzyme_free, result.reasons
    assert "(recordedProps(Button)[0].onClick as any)();" in result.content, result.content
    assert "click(" not in result.content, result.content
    assert any("Button's onClick" in f.message for f in result.codemod_findings)


FILTERS_SUITE = """
import { mount } from 'enzyme';
import { Filters } from './Filters';
import { Options } from './Options';

describe('Filters', () => {
  it('adds the option checked', () => {
    const onAdd = jest.fn();
    const wrapper = mount(<Filters onAdd={onAdd} />);
    (wrapper.find(Options).prop('onChange') as any)({ target: { value: 'bar' } });
    expect(onAdd).toHaveBeenCalledWith('bar');
  });
});
"""


async def test_a_callback_every_item_holds_is_the_event_of_the_item_the_data_names(
    app_copy: Path, toolbar: Path
) -> None:
    """Each option's checkbox holds the same callback (kubeapps' ``MultiCheckbox``): the event's
    data (``{ target: { value: 'bar' } }``) names the one the test meant, the one whose value a
    change on it carries."""
    file = "src/components/Toolbar/Filters.test.tsx"
    result = await migrated(app_copy, file, FILTERS_SUITE)
    assert "await user.click(screen.getByRole('checkbox', { name: 'bar' }));" in result.content
    failing = await broken_tests(
        app_copy,
        file,
        toolbar / "Options.tsx",
        "value={option} onChange={props.onChange}",
        "value={option.toUpperCase()} onChange={props.onChange}",
    )
    assert failing == ["Filters adds the option checked"], failing


REMOVER_SUITE = """
import { mount } from 'enzyme';
import { Button } from './Button';
import { Remover } from './Remover';

describe('Remover', () => {
  it('removes once confirmed', () => {
    const onRemove = jest.fn();
    const wrapper = mount(<Remover onRemove={onRemove} />);
    (wrapper.find(Button).prop('onClick') as any)();
    wrapper.update();
    expect(onRemove).not.toHaveBeenCalled();
    (wrapper.find(Button).last().prop('onClick') as any)();
    expect(onRemove).toHaveBeenCalled();
  });
});
"""


async def test_a_callback_of_a_button_another_shares_the_label_of_is_a_click_by_position(
    app_copy: Path, toolbar: Path
) -> None:
    """The dialog's "Remove" beside the "Remove" that opened it: no query selects it alone, so
    the click goes to its position among the buttons of that name, as the capture saw it."""
    file = "src/components/Toolbar/Remover.test.tsx"
    result = await migrated(app_copy, file, REMOVER_SUITE)
    assert "await user.click(screen.getByRole('button', { name: 'Remove' }));" in result.content
    assert (
        "await user.click(screen.getAllByRole('button', { name: 'Remove' })[1]);" in result.content
    ), result.content
    assert [m.rule for m in result.lint_messages] == []
    failing = await broken_tests(
        app_copy,
        file,
        toolbar / "Remover.tsx",
        "<Button onClick={props.onRemove}>",
        "<Button onClick={() => undefined}>",
    )
    assert failing == ["Remover removes once confirmed"], failing


NOTICE_SUITE = """
import { mount } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { Alert } from './Alert';
import { Notice } from './Notice';

it('closes the notice', () => {
  const wrapper = mount(<Notice text="Saved" />);
  act(() => {
    (wrapper.find(Alert).prop('onClose') as any)();
  });
  wrapper.update();
  expect(wrapper.find(Alert).exists()).toBe(false);
});
"""


async def test_a_callback_the_test_casts_to_call_keeps_the_cast(
    app_copy: Path, toolbar: Path
) -> None:
    """Optional and taking an event, the callback cannot be called with nothing but for the
    test's cast: dropped, the result has two type errors its original does not. The test's own
    ``act`` from react-dom stays the one ``act`` (a second import of it was a duplicate)."""
    file = "src/components/Toolbar/Notice.test.tsx"
    result = await migrated(app_copy, file, NOTICE_SUITE)
    assert "(recordedProps(Alert)[0].onClose as any)();" in result.content, result.content
    assert result.type_messages == [], result.type_messages
