"""A project's Enzyme render helper that takes the element after other arguments and wraps it
in what its own module keeps private (kubeapps' ``mountWrapper(store, children)``: a store's
provider, translations from the module's own messages), under the example app's real jest.
testmend writes the helper's twin into its module (``renderWrapper``: the same definition,
rendering with Testing Library) as a file of the result, and the test renders through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrate_offline, migrated, write_components

HELPER = """
import { mount } from 'enzyme';
import { ReactElement } from 'react';
import { Messages, MessagesContext } from '../components/Greeting/messages';

const messages: Record<string, Messages> = {
  de: { hello: 'Hallo' },
  en: { hello: 'Hello' },
};

export const mountWrapper = (locale: string, children: ReactElement) =>
  mount(<MessagesContext.Provider value={messages[locale]}>{children}</MessagesContext.Provider>);
"""

SOURCES = {
    "messages.ts": """
        import { createContext } from 'react';

        export interface Messages {
          hello: string;
        }

        export const MessagesContext = createContext<Messages>({ hello: '?' });
    """,
    "Greeting.tsx": """
        import { useContext } from 'react';
        import { MessagesContext } from './messages';

        export function Greeting({ name }: { name: string }) {
          const { hello } = useContext(MessagesContext);
          return <p>{`${hello}, ${name}`}</p>;
        }
    """,
}

SUITE = """
import { mountWrapper } from '../../specs/mountWrapper';
import { Greeting } from './Greeting';

describe('Greeting', () => {
  it('greets in German', () => {
    const wrapper = mountWrapper('de', <Greeting name="Ada" />);
    expect(wrapper.find('p').text()).toBe('Hallo, Ada');
  });

  it('greets in English', () => {
    const wrapper = mountWrapper('en', <Greeting name="Ada" />);
    expect(wrapper.find('p').text()).toBe('Hello, Ada');
  });
});
"""


@pytest.fixture(scope="module")
def greeting(app_copy: Path) -> Path:
    (app_copy / "src/specs").mkdir()
    (app_copy / "src/specs/mountWrapper.tsx").write_text(HELPER.lstrip())
    return write_components(app_copy / "src/components/Greeting", SOURCES)


async def test_a_helper_wrapping_the_element_in_its_modules_providers_gets_a_twin(
    app_copy: Path, greeting: Path
) -> None:
    file = "src/components/Greeting/Greeting.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    assert "renderWrapper('de', <Greeting name=\"Ada\" />);" in result.content, result.content
    assert "import { renderWrapper } from '../../specs/mountWrapper';" in result.content

    # The twin, beside the helper the other tests still use, in the result's files.
    module = (app_copy / "src/specs/mountWrapper.tsx").read_text()
    assert result.extra_files["src/specs/mountWrapper.tsx"] == module
    rtl = "import { render } from '@testing-library/react';\n"
    assert rtl in module, module
    assert module.replace(rtl, "").startswith(HELPER.strip()), module  # the helper kept
    assert "export const renderWrapper = (locale: string, children: ReactElement) =>" in module
    assert "  render(<MessagesContext.Provider value={messages[locale]}>" in module, module

    # The twin gives the test what the helper gave: a greeting without the messages fails.
    failing = await broken_tests(
        app_copy,
        file,
        app_copy / "src/specs/mountWrapper.tsx",
        "  render(<MessagesContext.Provider value={messages[locale]}>{children}",
        "  render(<MessagesContext.Provider value={messages.en}>{children}",
    )
    assert failing == ["Greeting greets in German"], failing


LEGACY_HELPER = """
import { mount } from 'enzyme';
import { ReactElement } from 'react';

export const mountLegacy = (element: ReactElement) => mount(element);
"""

LEGACY_SUITE = """
import { mountLegacy } from '~specs/legacy';
import { Greeting } from './Greeting';

it('greets', () => {
  const wrapper = mountLegacy(<Greeting name="Ada" />);
  expect(wrapper.find('p').text()).toBe('?, Ada');
});
"""


async def test_a_result_still_rendering_through_an_enzyme_helper_is_never_enzyme_free(
    app_copy: Path, greeting: Path
) -> None:
    """A helper the tests reach by a name only jest's ``moduleNameMapper`` gives (``~specs``):
    the engine's pre-run check resolves it and finds Enzyme, the conversion does not and
    leaves the file as it is. The result is not called Enzyme-free, so it is never accepted
    (the unchanged originals of 52 kubeapps files were, until the conversion found their
    helper)."""
    config = app_copy / "jest.config.js"
    original = config.read_text()
    mapped = "'^@/(.*)$': '<rootDir>/src/$1',"
    assert mapped in original
    config.write_text(
        original.replace(mapped, mapped + "\n    '^~specs/(.*)$': '<rootDir>/src/specs/$1',")
    )
    (app_copy / "src/specs/legacy.tsx").write_text(LEGACY_HELPER.lstrip())
    file = "src/components/Greeting/Legacy.test.tsx"
    (app_copy / file).write_text(LEGACY_SUITE.lstrip())
    try:
        result = await migrate_offline(app_copy, file)
    finally:
        config.write_text(original)
    assert not result.summary.enzyme_free, result.content
    assert result.status != "succeeded"
    assert "the file still uses Enzyme" in result.reasons, result.reasons


ROOT_PROPS_SUITE = """
import { mountWrapper } from '../../specs/mountWrapper';
import { Greeting } from './Greeting';

const defaultProps = { name: 'Ada' };

it('shows the name it was rendered with', () => {
  const wrapper = mountWrapper('en', <Greeting {...defaultProps} />);
  wrapper.setProps({ ...defaultProps, name: 'Bob' });
  expect(wrapper.find('p').text()).toBe('Hello, Ada');
});
"""

ROOT_OWN_PROPS_SUITE = """
import { mountWrapper } from '../../specs/mountWrapper';
import { Greeting } from './Greeting';

it('shows the messages its provider was given', () => {
  const wrapper = mountWrapper('en', <Greeting name="Ada" />);
  wrapper.setProps({ value: { hello: 'Hi' } });
  expect(wrapper.find('p').text()).toBe('Hi, Ada');
});
"""


async def test_props_set_on_the_helpers_root_never_reach_the_tests_element(
    app_copy: Path, greeting: Path
) -> None:
    """Enzyme's root is the element the helper mounts, the provider: ``setProps`` set its
    props, and the provider hands none of them (``name``) down, so the greeting kept its own
    (kubeapps calls ``setProps`` to "force a re-render" in 7 files). The statement goes, with
    a finding; a re-render of ``<Greeting name="Bob" />`` would change what the test sees."""
    file = "src/components/Greeting/RootProps.test.tsx"
    result = await migrated(app_copy, file, ROOT_PROPS_SUITE)
    assert "setProps" not in result.content and "rerender" not in result.content
    assert "expect(screen.getByText('Hello, Ada')).toBeInTheDocument();" in result.content
    assert any(
        "<MessagesContext.Provider>, which does not hand them" in f.message
        for f in result.codemod_findings
    ), result.codemod_findings


async def test_a_prop_of_the_helpers_root_is_not_taken_for_the_elements(
    app_copy: Path, greeting: Path
) -> None:
    """The prop the helper gives the provider itself (``value``) did change what the greeting
    shows; a re-render of the greeting alone, outside the provider, would not do that: the
    line stays untranslated, with a finding, and the test fails honestly."""
    file = "src/components/Greeting/RootOwnProps.test.tsx"
    (app_copy / file).write_text(ROOT_OWN_PROPS_SUITE.lstrip())
    result = await migrate_offline(app_copy, file)
    assert "rerender(" not in result.content, result.content
    assert any(
        f.kind == "untranslated" and "<MessagesContext.Provider>, the root" in f.message
        for f in result.codemod_findings
    ), result.codemod_findings
