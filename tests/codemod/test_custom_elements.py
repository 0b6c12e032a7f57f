"""Web components behind React wrappers (kubeapps' Clarity ``<cds-button>``, in 7 of its files
``expect(wrapper.find(CdsButton)).toBeDisabled()``): the wrapper sets ``disabled`` as the
element's property, which no attribute shows, so jest-dom's ``toBeDisabled`` (reading the
attribute) never sees it. The capture records such state as the element's property, under the
example app's real jest, and the conversion asserts the property where it saw one."""

from __future__ import annotations

from pathlib import Path

from testmend.codemod import capture_dom, convert_enzyme_test
from testmend.codemod.models import (
    CapturedElement,
    CapturedQuery,
    CodemodOptions,
    DomCapture,
    FindRecord,
)
from tests.support.codemod import broken_tests, migrated, write_components
from tests.support.runners import runners_for

SUITE = """
import React, { ReactNode, useLayoutEffect, useRef } from 'react';
import { mount } from 'enzyme';

class XButton extends HTMLElement {
  disabled = false;
}
if (!customElements.get('x-button')) customElements.define('x-button', XButton);

function Button(props: { disabled?: boolean; children: ReactNode }) {
  const ref = useRef<XButton>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.disabled = !!props.disabled;
  });
  return React.createElement('x-button', { ref }, props.children);
}

it('is disabled while saving', () => {
  const wrapper = mount(<Button disabled>Save</Button>);
  expect(wrapper.find('x-button').text()).toBe('Save');
});

it('is enabled', () => {
  const wrapper = mount(<Button>Save</Button>);
  expect(wrapper.find('x-button').text()).toBe('Save');
});
"""


async def test_the_capture_records_a_custom_elements_state_no_attribute_shows(
    app_copy: Path,
) -> None:
    file = "src/components/XButton.test.tsx"
    (app_copy / file).write_text(SUITE.lstrip())
    try:
        capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    finally:
        (app_copy / file).unlink()
    assert capture.error is None, capture.error
    seen = {
        r.test: [e.properties for e in r.elements]
        for r in capture.records
        if r.selector == "x-button"
    }
    assert seen == {
        "is disabled while saving": [{"disabled": True}],
        "is enabled": [{"disabled": False}],
    }, seen


def test_a_disabled_state_seen_as_a_property_is_asserted_as_one() -> None:
    source = (
        "import { mount } from 'enzyme';\n"
        "import { CdsButton } from '@cds/react/button';\n"
        "import UpgradeButton from './UpgradeButton';\n\n"
        "it('cannot upgrade while pending', () => {\n"
        "  const wrapper = mount(<UpgradeButton pending />);\n"
        "  expect(wrapper.find(CdsButton)).toBeDisabled();\n"
        "});\n\n"
        "it('can upgrade', () => {\n"
        "  const wrapper = mount(<UpgradeButton />);\n"
        "  expect(wrapper.find(CdsButton)).not.toBeDisabled();\n"
        "});\n"
    )
    upgrade = CapturedQuery(method="Text", args=["Upgrade"])

    def button(line: int, test: str, disabled: bool) -> FindRecord:
        element = CapturedElement(
            tag="cds-button", text="Upgrade", properties={"disabled": disabled}
        )
        return FindRecord(
            line=line,
            column=24,
            selector="CdsButton",
            test=test,
            count=1,
            elements=[element],
            queries=[upgrade],
        )

    dom = DomCapture(
        file="src/UpgradeButton.test.tsx",
        records=[button(7, "cannot upgrade while pending", True), button(12, "can upgrade", False)],
    )
    options = CodemodOptions()
    result = convert_enzyme_test(
        source, path="src/UpgradeButton.test.tsx", options=options, dom=dom
    )
    assert result.error is None, result.error
    assert "expect(screen.getByText('Upgrade')).toHaveProperty('disabled', true);" in (
        result.content
    ), result.content
    assert "expect(screen.getByText('Upgrade')).toHaveProperty('disabled', false);" in (
        result.content
    ), result.content
    assert "toBeDisabled" not in result.content


def test_a_button_picked_by_its_text_keeps_what_the_capture_saw_of_it() -> None:
    """kubeapps' ``const submit = wrapper.find(CdsButton).filterWhere((b) => b.text() ===
    'Rollback')`` then ``expect(submit).toBeDisabled()``: the element the text picked out of
    the find is the one whose property is asserted, through the variable, and the
    ``forEach`` over the find's elements asserts each one's."""
    source = (
        "import { mount } from 'enzyme';\n"
        "import { CdsButton } from '@cds/react/button';\n"
        "import RollbackDialog from './RollbackDialog';\n\n"
        "it('cannot roll back without revisions', () => {\n"
        "  const wrapper = mount(<RollbackDialog />);\n"
        "  const submit = wrapper.find(CdsButton).filterWhere((b) => b.text() === 'Rollback');\n"
        "  expect(submit).toBeDisabled();\n"
        "  wrapper.find(CdsButton).forEach((button) => expect(button).toBeDisabled());\n"
        "});\n"
    )
    cancel = CapturedElement(tag="cds-button", text="Cancel", properties={"disabled": True})
    rollback = CapturedElement(tag="cds-button", text="Rollback", properties={"disabled": True})
    found = FindRecord(
        line=7,
        column=26,
        selector="CdsButton",
        test="cannot roll back without revisions",
        count=2,
        elements=[cancel, rollback],
        element_queries=[
            [CapturedQuery(method="Text", args=["Cancel"])],
            [CapturedQuery(method="Text", args=["Rollback"])],
        ],
        css="cds-button",
    )
    each = found.model_copy(update={"line": 9, "column": 17})
    dom = DomCapture(file="src/RollbackDialog.test.tsx", records=[found, each])
    options = CodemodOptions()
    result = convert_enzyme_test(
        source, path="src/RollbackDialog.test.tsx", options=options, dom=dom
    )
    assert "const submit = screen.getByText('Rollback');" in result.content, result.content
    assert "expect(submit).toHaveProperty('disabled', true);" in result.content
    assert (
        "document.querySelectorAll('cds-button').forEach((button) => "
        "{ expect(button).toHaveProperty('disabled', true); });"
    ) in result.content, result.content


NAMESPACE_SOURCES = {
    "NamespaceForm.tsx": """
        import React, { ReactNode, useLayoutEffect, useRef, useState } from 'react';

        // A design system's button (Clarity's `<cds-button type="submit">`): `type` is the
        // element's property, and a click on it submits its form itself.
        class XButton extends HTMLElement {
          type = 'button';

          constructor() {
            super();
            this.addEventListener('click', () => {
              if (this.type === 'submit') this.closest('form')?.requestSubmit();
            });
          }
        }
        if (!customElements.get('x-button')) customElements.define('x-button', XButton);

        function Button(props: { type: string; onClick?: () => void; children: ReactNode }) {
          const ref = useRef<XButton>(null);
          useLayoutEffect(() => {
            if (ref.current) ref.current.type = props.type;
          });
          return React.createElement('x-button', { ref, onClick: props.onClick }, props.children);
        }

        export function NamespaceForm(props: { onCreate: (name: string) => void }) {
          const [name, setName] = useState('');
          return (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                props.onCreate(name);
              }}
            >
              <label htmlFor="namespace">Namespace</label>
              <input id="namespace" value={name} onChange={(e) => setName(e.target.value)} />
              <Button type="button" onClick={() => setName('')}>Clear</Button>
              <Button type="submit">Create</Button>
            </form>
          );
        }
    """,
}

NAMESPACE_SUITE = """
import { mount } from 'enzyme';
import { NamespaceForm } from './NamespaceForm';

it('creates the namespace', () => {
  const onCreate = jest.fn();
  const wrapper = mount(<NamespaceForm onCreate={onCreate} />);
  wrapper.find('input').simulate('change', { target: { value: 'team-a' } });
  wrapper.find('form').simulate('submit', { preventDefault: jest.fn() });
  expect(onCreate).toHaveBeenCalledWith('team-a');
});
"""


async def test_a_form_is_submitted_by_its_custom_element_submit_button(app_copy: Path) -> None:
    """kubeapps' forms (``ContextSelector``, ``OperatorInstanceForm``, ``LoginForm``: seven of
    its files ``find('form').simulate('submit')``) have no name, so no query selects them, and
    their one submit button is Clarity's ``<cds-button type="submit">``, which is not among the
    form's ``elements``. The capture finds it by its ``type`` property, and the result clicks
    it, as a user submits the form."""
    write_components(app_copy / "src/components/Namespace", NAMESPACE_SOURCES)
    file = "src/components/Namespace/NamespaceForm.test.tsx"
    result = await migrated(app_copy, file, NAMESPACE_SUITE)
    content = result.content
    assert "await user.click(screen.getByText('Create'));" in content, content
    assert "querySelector" not in content and "fireEvent" not in content, content
    assert result.summary.lint_errors == 0, result.reasons

    # The click is what submits: a button that does not submit fails the test.
    failing = await broken_tests(
        app_copy,
        file,
        app_copy / "src/components/Namespace/NamespaceForm.tsx",
        '<Button type="submit">Create',
        '<Button type="button">Create',
    )
    assert failing == ["creates the namespace"], failing


EDITOR_SOURCES = {
    "DeployForm.tsx": """
        import React, { useEffect, useState } from 'react';

        // An editor that listens for clicks anywhere on the page (Monaco's clipboard service,
        // on kubeapps' operator forms) and uses what jsdom lacks: every click throws there.
        function Editor() {
          useEffect(() => {
            const copy = () => {
              throw new ReferenceError('ClipboardItem is not defined');
            };
            document.body.addEventListener('click', copy);
            return () => document.body.removeEventListener('click', copy);
          }, []);
          return <textarea aria-label="Values" defaultValue="replicas: 1" />;
        }

        export function DeployForm(props: { onDeploy: (name: string) => void }) {
          const [name, setName] = useState('');
          return (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                props.onDeploy(name);
              }}
            >
              <label htmlFor="name">Name</label>
              <input id="name" value={name} onChange={(e) => setName(e.target.value)} />
              <Editor />
              <button type="submit">Deploy</button>
            </form>
          );
        }
    """,
}

EDITOR_SUITE = """
import { mount } from 'enzyme';
import { DeployForm } from './DeployForm';

it('deploys', () => {
  const onDeploy = jest.fn();
  const wrapper = mount(<DeployForm onDeploy={onDeploy} />);
  wrapper.find('input').simulate('change', { target: { value: 'blog' } });
  wrapper.find('form').simulate('submit', { preventDefault: jest.fn() });
  expect(onDeploy).toHaveBeenCalledWith('blog');
});
"""


async def test_a_submit_whose_click_fails_under_jsdom_is_fired_at_the_submit_button(
    app_copy: Path,
) -> None:
    """A click on the submit button sets off the page's click listeners too, which the form's
    ``submit`` event never did; where one throws under jsdom (kubeapps' ``OperatorInstanceForm``
    and ``OperatorInstanceFormBody``, with Monaco's editor in the page), the test converted
    again with ``fireEvent`` fires ``submit`` itself at the form's submit button, from which
    it bubbles to the unnamed form as the original's did: no click, and no node access for
    the project's lint to reject (kubeapps' forms, in five of its files, were left as
    ``document.querySelector("form")``)."""
    write_components(app_copy / "src/components/Deploy", EDITOR_SOURCES)
    file = "src/components/Deploy/DeployForm.test.tsx"
    result = await migrated(app_copy, file, EDITOR_SUITE)
    content = result.content
    assert "fireEvent.submit(screen.getByRole('button', { name: 'Deploy' }));" in content, content
    assert "click(" not in content and "querySelector" not in content, content
    assert result.lint_messages == [] and result.applies, result.reasons

    # The submit reaches the form's handler: a form that handles no submit fails the test.
    failing = await broken_tests(
        app_copy,
        file,
        app_copy / "src/components/Deploy/DeployForm.tsx",
        "onSubmit={(event) => {",
        "data-submit={(event: React.FormEvent) => {",
    )
    assert failing == ["deploys"], failing
