"""Which tests reach Enzyme through the project's own helper modules: only those that take a
rendering function (or the whole module) from one; a test that takes only a store's initial
state or a spy from the same module renders nothing with Enzyme."""

from __future__ import annotations

from pathlib import Path

from testmend.project.enzyme_helpers import EnzymeHelpers, enzyme_renders, imported_names

HELPER = """
import { mount } from 'enzyme';
export const initialState = { auth: {} };
export const mountWrapper = (store, element) => mount(element);
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "src" / "specs").mkdir(parents=True)
    (tmp_path / "src" / "specs" / "mountWrapper.tsx").write_text(HELPER)
    return tmp_path


def test_only_a_rendering_import_from_an_enzyme_helper_makes_an_enzyme_test(
    tmp_path: Path,
) -> None:
    helpers = EnzymeHelpers(_project(tmp_path))
    renders = "import { initialState, mountWrapper } from './specs/mountWrapper';\n"
    state_only = "import { initialState } from './specs/mountWrapper';\n"
    whole = "import * as specs from './specs/mountWrapper';\n"
    direct = "import { shallow } from 'enzyme';\n"
    assert helpers.uses_enzyme("src/a.test.tsx", renders)
    assert not helpers.uses_enzyme("src/a.test.tsx", state_only)
    assert helpers.uses_enzyme("src/a.test.tsx", whole)  # what it uses cannot be told
    assert helpers.uses_enzyme("src/a.test.tsx", direct)


def test_imported_names_per_module() -> None:
    source = (
        "import Foo, { a } from './foo';\n"
        "import type { T } from './t';\n"
        "import { type X, renderX as r } from './r';\n"
        "const { shallowUntilTarget, spyOn } = require('../test-helpers');\n"
    )
    assert imported_names(source) == {
        "./foo": None,
        "./r": ["renderX"],
        "../test-helpers": ["shallowUntilTarget", "spyOn"],
    }


BOTH_KINDS = """
import { mount, shallow as enzymeShallow } from 'enzyme';
import { render } from '@testing-library/react';

export const mountWrapper = (store, element) => mount(element);

export function renderWithProviders(ui) {
  return render(ui);
}

export const shallowUntilTarget = (element, target, { _shallow = enzymeShallow } = {}) =>
  _shallow(element).dive();
"""


def test_of_a_module_of_both_kinds_only_its_enzyme_renders_make_an_enzyme_test(
    tmp_path: Path,
) -> None:
    """kubeapps keeps an RTL ``renderWithProviders`` beside its Enzyme ``mountWrapper``; a
    test that renders only with the first is a Testing Library test already."""
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "helpers.tsx").write_text(BOTH_KINDS)
    helpers = EnzymeHelpers(tmp_path)
    assert helpers.uses_enzyme("src/a.test.tsx", "import { mountWrapper } from './helpers';\n")
    # (Enzyme's shallow reached as a default value, under another name)
    assert helpers.uses_enzyme(
        "src/a.test.tsx", "import { shallowUntilTarget } from './helpers';\n"
    )
    assert not helpers.uses_enzyme(
        "src/a.test.tsx", "import { renderWithProviders } from './helpers';\n"
    )
    assert enzyme_renders(BOTH_KINDS, "mountWrapper")
    assert not enzyme_renders(BOTH_KINDS, "renderWithProviders")
    assert enzyme_renders(BOTH_KINDS, "shallowUntilTarget")


def test_enzyme_renders_reads_every_form_of_the_enzyme_import() -> None:
    default_and_named = (
        "import Enzyme, { mount as m } from 'enzyme';\n"
        "export const mountX = (e) => m(e);\n"
        "export const renderY = (e) => rtl(e);\n"
    )
    namespace = (
        "import * as enzyme from 'enzyme';\n"
        "export function mountX(e) { return enzyme.mount(e); }\n"
        "export function renderY(e) { return rtl(e); }\n"
    )
    required = (
        "const { shallow } = require('enzyme');\nexport const shallowX = (e) => shallow(e);\n"
    )
    for module in (default_and_named, namespace):
        assert enzyme_renders(module, "mountX")
        assert not enzyme_renders(module, "renderY")
    assert enzyme_renders(required, "shallowX")
    # An import these patterns do not read: what the helper does cannot be told.
    unread = "import enzyme = require('enzyme');\nexport const renderX = (e) => go(e);\n"
    assert enzyme_renders(unread, "renderX")
