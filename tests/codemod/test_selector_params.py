"""A test file's own helper that takes the selector its find selects by: ``fillIn(wrapper,
selector, value)``, ``click(wrapper, selector)`` (the example app's ``SignupForm``; public suites
write ``setTextIn(selector, text)`` over a shared wrapper, ``type(wrapper, selector, string)``,
``(wrapper, selector, value) => wrapper.find(selector).simulate('change', …)``), under the
example app's real jest and eslint. The helper takes the element instead, and each call passes
the query the capture verified for its selector; where one selector has none, the helper is
translated as before, and its finding names the parameter."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from testmend.codemod import convert_enzyme_test
from testmend.codemod.models import (
    CapturedElement,
    CapturedQuery,
    CodemodOptions,
    DomCapture,
    FindRecord,
)
from tests.support.codemod import broken_tests, migrate_offline, migrated, write_components

SOURCES = {
    "Profile.tsx": """
        import { FormEvent, useState } from 'react';

        export interface ProfileValues {
          name: string;
          password: string;
        }

        export function Profile(props: { onSave: (values: ProfileValues) => void }) {
          const [name, setName] = useState('');
          const [password, setPassword] = useState('');
          const [saved, setSaved] = useState('');
          const save = (event: FormEvent) => {
            event.preventDefault();
            props.onSave({ name, password });
            setSaved(name);
          };
          return (
            <form aria-label="Profile" onSubmit={save}>
              <label htmlFor="profile-name">Name</label>
              <input id="profile-name" value={name} onChange={(e) => setName(e.target.value)} />
              <label htmlFor="profile-password">Password</label>
              <input
                id="profile-password"
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <input className="nickname" />
              <button type="submit" className="save">
                Save
              </button>
              <button type="button" className="reset" onClick={() => setName('')}>
                Reset
              </button>
              {saved && <p className="status">Saved {saved}</p>}
            </form>
          );
        }
    """,
}

SUITE = """
import { mount, ReactWrapper } from 'enzyme';
import { Profile } from './Profile';

function fillIn(wrapper: ReactWrapper, selector: string, value: string) {
  wrapper.find(selector).simulate('change', { target: { value } });
}

const click = (wrapper: ReactWrapper, selector: string) => {
  wrapper.find(selector).simulate('click');
};

it('saves the name and password', () => {
  const onSave = jest.fn();
  const wrapper = mount(<Profile onSave={onSave} />);
  fillIn(wrapper, '#profile-name', 'Ada');
  fillIn(wrapper, 'input[type="password"]', 'analytical1');
  wrapper.find('form').simulate('submit');
  expect(onSave).toHaveBeenCalledWith({ name: 'Ada', password: 'analytical1' });
  expect(wrapper.find('.status').text()).toBe('Saved Ada');
});

it('resets the name', () => {
  const wrapper = mount(<Profile onSave={jest.fn()} />);
  fillIn(wrapper, 'input#profile-name', 'Grace');
  click(wrapper, 'button.reset');
  expect(wrapper.find('#profile-name').prop('value')).toBe('');
});
"""


@pytest.fixture(scope="module")
def folder(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Profile", SOURCES)


async def test_a_helpers_selector_parameter_becomes_the_element_its_calls_query(
    app_copy: Path, folder: Path
) -> None:
    file = "src/components/Profile/Profile.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "function fillIn(element: HTMLElement, value: string)" in content, content
    assert "fillIn(screen.getByRole('textbox', { name: 'Name' }), 'Ada');" in content, content
    # A password field has no role: its label selects it.
    assert "fillIn(screen.getByLabelText('Password'), 'analytical1');" in content, content
    assert "click(screen.getByRole('button', { name: 'Reset' }))" in content, content
    assert "querySelector" not in content and "selector" not in content, content
    assert result.lint_messages == [], result.lint_messages
    assert result.status == "succeeded", result.reasons

    # Each call still acts on the field it named: a password field that ignores what is typed,
    # a reset button that does nothing, each fails its test.
    profile = folder / "Profile.tsx"
    failing = await broken_tests(
        app_copy, file, profile, "onChange={(e) => setPassword(e.target.value)}", ""
    )
    assert failing == ["saves the name and password"], failing
    failing = await broken_tests(app_copy, file, profile, "onClick={() => setName('')}", "")
    assert failing == ["resets the name"], failing


UNQUERYABLE_SUITE = """
import { mount, ReactWrapper } from 'enzyme';
import { Profile } from './Profile';

function fillIn(wrapper: ReactWrapper, selector: string, value: string) {
  wrapper.find(selector).simulate('change', { target: { value } });
}

it('fills in the name and an element no query selects', () => {
  const onSave = jest.fn();
  const wrapper = mount(<Profile onSave={onSave} />);
  fillIn(wrapper, '#profile-name', 'Ada');
  fillIn(wrapper, '.nickname', 'ada');
  wrapper.find('form').simulate('submit');
  expect(onSave).toHaveBeenCalledWith({ name: 'Ada', password: '' });
});
"""


async def test_a_selector_no_query_stands_for_keeps_the_helper_as_it_was(
    app_copy: Path, folder: Path
) -> None:
    """One call's selector (an unlabelled field among others) has no query: the helper keeps
    its selector parameter, its find the CSS it holds, and the finding says the selector is
    the one that parameter holds."""
    file = "src/components/Profile/Nickname.test.tsx"
    (app_copy / file).write_text(UNQUERYABLE_SUITE.lstrip())
    result = await migrate_offline(app_copy, file)
    content = result.content
    assert "function fillIn(selector: string, value: string)" in content, content
    assert "document.querySelector(selector)" in content, content
    assert "fillIn('#profile-name', 'Ada');" in content, content
    assert result.tests_pass, result.reasons
    findings = [f.message for f in result.codemod_findings if f.kind == "fallback"]
    assert any(m.startswith("the CSS selector held in selector: no role") for m in findings), (
        findings
    )


def _capture(source: str, selectors: dict[str, CapturedQuery]) -> DomCapture:
    """What the capture records for each ``.find(selector)`` of ``source``: one run per
    selector in ``selectors``, each selecting one element that its query selects."""
    records = []
    for number, line in enumerate(source.splitlines(), start=1):
        column = line.find(".find(selector)")
        for selector, query in selectors.items() if column >= 0 else []:
            records.append(
                FindRecord(
                    line=number,
                    column=column + 2,
                    selector=selector,
                    test="fills",
                    count=1,
                    elements=[CapturedElement(tag="input")],
                    queries=[query],
                )
            )
    return DomCapture(file="src/Form.test.js", records=records)


NAME = CapturedQuery(method="Role", args=["textbox", {"name": "Name"}])


def test_a_javascript_helper_takes_an_untyped_element() -> None:
    source = textwrap.dedent(
        """
        import { mount } from 'enzyme';
        import { Form } from './Form';

        const fill = (wrapper, selector, value) => {
          wrapper.find(selector).simulate('change', { target: { value } });
        };

        it('fills', () => {
          const wrapper = mount(<Form />);
          fill(wrapper, '#name', 'Ada');
        });
        """
    ).lstrip()
    dom = _capture(source, {"#name": NAME})
    result = convert_enzyme_test(source, path="src/Form.test.js", options=CodemodOptions(), dom=dom)
    assert "const fill = (element, value) => {" in result.content, result.content
    assert "fill(screen.getByRole('textbox', { name: 'Name' }), 'Ada');" in result.content


def test_two_helpers_of_one_name_keep_their_selector_parameters() -> None:
    """Two ``fill`` helpers in two describes: which call is whose the converter does not tell
    apart, so neither changes (the second, which narrows its find, never could)."""
    source = textwrap.dedent(
        """
        import { mount } from 'enzyme';
        import { Form } from './Form';

        describe('one', () => {
          const fill = (wrapper, selector, value) => {
            wrapper.find(selector).simulate('change', { target: { value } });
          };
          it('fills', () => {
            const wrapper = mount(<Form />);
            fill(wrapper, '#name', 'Ada');
          });
        });

        describe('two', () => {
          const fill = (wrapper, selector, value) => {
            wrapper.find(selector).first().simulate('change', { target: { value } });
          };
          it('fills', () => {
            const wrapper = mount(<Form />);
            fill(wrapper, '#name', 'Ada');
          });
        });
        """
    ).lstrip()
    dom = _capture(source, {"#name": NAME})
    result = convert_enzyme_test(source, path="src/Form.test.js", options=CodemodOptions(), dom=dom)
    assert result.content.count("fill('#name', 'Ada');") == 2, result.content
    assert "(element, value)" not in result.content, result.content
