"""A handler prop read into a ``const`` and then called (kubeapps' ``OperatorNew``: ``const
onSubmit = wrapper.find("form").prop("onSubmit") as () => Promise<void>; await onSubmit();``;
addons-code-manager's ``App``: ``const onClose = root.find(Alert).at(0).prop('onClose') as
() => void; onClose();``, ``Browse`` and ``Compare``), under the example app's real jest and
eslint. Each call is what the same call written out is: the element's event (a form's submit
by its submit button, a child's callback by the element holding it); the declaration goes.
A child's callback that no element holds is read as before (its recording)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrate_offline, migrated, write_components

SOURCES = {
    "Notice.tsx": """
        import { ReactNode } from 'react';

        export function Notice(props: { onClose: () => void; children: ReactNode }) {
          return (
            <div role="status">
              {props.children}
              <button type="button" onClick={props.onClose}>
                Dismiss
              </button>
            </div>
          );
        }
    """,
    "Subscribe.tsx": """
        import { FormEvent, useState } from 'react';
        import { Notice } from './Notice';

        export function Subscribe(props: { onSubscribe: (email: string) => void }) {
          const [email, setEmail] = useState('ada@example.com');
          const [notice, setNotice] = useState(true);
          const submit = (event?: FormEvent) => {
            event?.preventDefault();
            props.onSubscribe(email);
          };
          return (
            <div>
              {notice && <Notice onClose={() => setNotice(false)}>Weekly digest</Notice>}
              <form onSubmit={submit}>
                <input
                  aria-label="Email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
                <button type="submit">Subscribe</button>
              </form>
            </div>
          );
        }
    """,
    "Plan.tsx": """
        export function Picker(props: { onSelect: (value: string) => void }) {
          return (
            <select aria-label="Plan" onChange={(event) => props.onSelect(event.target.value)}>
              <option value="monthly">Monthly</option>
              <option value="yearly">Yearly</option>
            </select>
          );
        }

        export function Plan(props: { onPick: (value: string) => void }) {
          return <Picker onSelect={props.onPick} />;
        }
    """,
}

SUITE = """
import { act } from 'react-dom/test-utils';
import { mount } from 'enzyme';
import { Notice } from './Notice';
import { Subscribe } from './Subscribe';

it('subscribes with the email', async () => {
  const onSubscribe = jest.fn();
  const wrapper = mount(<Subscribe onSubscribe={onSubscribe} />);
  await act(async () => {
    const onSubmit = wrapper.find('form').prop('onSubmit') as () => Promise<void>;
    await onSubmit();
  });
  expect(onSubscribe).toHaveBeenCalledWith('ada@example.com');
});

it('dismisses the notice', () => {
  const wrapper = mount(<Subscribe onSubscribe={jest.fn()} />);
  const onClose = wrapper.find(Notice).prop('onClose') as () => void;
  act(() => {
    onClose();
  });
  wrapper.update();
  expect(wrapper.find(Notice).exists()).toBe(false);
});
"""


@pytest.fixture(scope="module")
def folder(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Subscribe", SOURCES)


async def test_a_handler_read_into_a_const_is_called_as_its_event(
    app_copy: Path, folder: Path
) -> None:
    file = "src/components/Subscribe/Subscribe.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "prop(" not in content and "onSubmit()" not in content, content
    assert "onClose()" not in content and "recordedProps" not in content, content
    assert "user.click(screen.getByRole('button', { name: 'Subscribe' }))" in content, content
    assert "user.click(screen.getByRole('button', { name: 'Dismiss' }))" in content, content
    assert result.lint_messages == [], result.lint_messages
    assert result.status == "succeeded", result.reasons

    # The calls are the user's: a form that does not submit, a button that does not dismiss,
    # each fails its test.
    failing = await broken_tests(
        app_copy, file, folder / "Subscribe.tsx", "<form onSubmit={submit}>", "<form>"
    )
    assert failing == ["subscribes with the email"], failing
    failing = await broken_tests(
        app_copy, file, folder / "Notice.tsx", "onClick={props.onClose}", "onClick={() => {}}"
    )
    assert failing == ["dismisses the notice"], failing


UNTRANSLATABLE_SUITE = """
import { mount } from 'enzyme';
import { Picker, Plan } from './Plan';

it('picks the plan', () => {
  const onPick = jest.fn();
  const wrapper = mount(<Plan onPick={onPick} />);
  const onSelect = wrapper.find(Picker).prop('onSelect');
  onSelect('yearly');
  expect(onPick).toHaveBeenCalledWith('yearly');
});
"""


async def test_a_handler_const_no_event_stands_for_stays_untranslated(
    app_copy: Path, folder: Path
) -> None:
    """A child's callback called with a value no event carries (``onSelect('yearly')``, which
    the select calls with its value) is no event: the declaration is read as before (a
    component's props from its recording, where the test could mock its module; not here),
    and the test fails until someone resolves it, never firing an event the test did not."""
    file = "src/components/Subscribe/Plan.test.tsx"
    (app_copy / file).write_text(UNTRANSLATABLE_SUITE.lstrip())
    result = await migrate_offline(app_copy, file)
    content = result.content
    assert "// const onSelect = wrapper.find(Picker).prop('onSelect');" in content, content
    assert "// onSelect('yearly');" in content, content
    assert "fireEvent" not in content and "user." not in content, content
    assert "1 of 1 tests fail" in result.reasons, result.reasons
