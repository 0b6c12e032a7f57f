"""Renders and calls inside a function a test expects to throw (or not): ``expect(() => {
shallow(<Tabs />); }).toThrow(/…/)``, a common shape of public suites ("renders without
crashing"), migrated offline and run under the example app's real jest; the component is then
broken and the migrated tests must notice, as the Enzyme ones did."""

from __future__ import annotations

from pathlib import Path

from tests.support.apps import fixture_text
from tests.support.codemod import broken_tests, migrate_offline, untranslated, write_components

TABS = """
    import React from 'react';

    export default class Tabs extends React.Component {
      state = { selected: 0 };

      select(index) {
        if (index >= this.props.titles.length) {
          throw new Error(`no tab ${index}`);
        }
        this.setState({ selected: index });
      }

      render() {
        const { titles } = this.props;
        if (!titles.length) {
          throw new Error('Tabs needs at least one tab');
        }
        return (
          <div role="tablist">
            {titles.map((title, i) => (
              <button
                key={title}
                type="button"
                role="tab"
                aria-selected={i === this.state.selected}
                onClick={() => this.select(i)}
              >
                {title}
              </button>
            ))}
          </div>
        );
      }
    }
"""


async def test_renders_expected_to_throw_are_translated_where_they_are(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Tabs", {"Tabs.js": TABS})
    file = "src/components/Tabs/Tabs.test.js"
    (app_copy / file).write_text(fixture_text("codemod/throws/Tabs.test.js"))
    result = await migrate_offline(app_copy, file, write=True)
    content = result.content
    assert "expect(() => { render(<Tabs titles={['One']} />); }).not.toThrow();" in content
    assert "expect(() => {\n      render(<Tabs titles={[]} />);\n    }).toThrow(" in content
    # A class instance's method, through a ref, still throws out of the expected function.
    assert "rootRef.current.select(3);" in content
    # An event's handler error is reported by jsdom, not thrown to the test as simulate() did:
    # the last test stays untranslated rather than pass without checking anything.
    assert untranslated(result) == [
        "fires an event in a function expected to throw (or not): a Testing Library event "
        "reports a handler's error instead of throwing it"
    ]
    assert result.summary.tests_passing == 3 and result.summary.tests_total == 4
    module = folder / "Tabs.js"

    async def noticed(correct: str, broken: str) -> list[str]:
        failing = await broken_tests(app_copy, file, module, correct, broken)
        return [t for t in failing if t != "<Tabs> selects a tab by clicking it"]  # it throws

    assert await noticed("if (!titles.length) {", "if (titles.length > 9) {") == [
        "<Tabs> refuses to render without tabs"
    ]
    assert await noticed("if (!titles.length) {", "if (titles.length > 0) {") == [
        "<Tabs> renders with tabs",
        "<Tabs> refuses to render without tabs",
        "<Tabs> refuses a tab it does not have",
    ]
    assert await noticed("if (index >= this.props.titles.length) {", "if (index > 9) {") == [
        "<Tabs> refuses a tab it does not have"
    ]
