"""A class component's state that its render shows: ``expect(wrapper.state('open')).toBe(true)``
asserts the element showing it, as the user sees it (``aria-expanded``, the text of an
``<output>``), where every read of that key in the file saw the same element show it and saw
more than one value; a value the page does not follow stays a read through a ref. Under the
example app's real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Disclosure.tsx": """
        import { Component } from 'react';

        interface DisclosureProps {
          title: string;
          children: string;
        }

        export class Disclosure extends Component<DisclosureProps, { open: boolean }> {
          state = { open: false };

          toggle = () => this.setState(({ open }) => ({ open: !open }));

          render() {
            const { title, children } = this.props;
            return (
              <section>
                <button type="button" aria-expanded={this.state.open} onClick={this.toggle}>
                  {title}
                </button>
                {this.state.open && <p>{children}</p>}
              </section>
            );
          }
        }

        interface StepperState {
          value: number;
          steps: number;
          touched: boolean;
        }

        export class Stepper extends Component<{ start: number }, StepperState> {
          state = { value: this.props.start, steps: 0, touched: false };

          up = () =>
            this.setState(({ value, steps }) => ({
              value: value + 1,
              steps: steps + 1,
              touched: true,
            }));

          render() {
            return (
              <div>
                <output>{this.state.value}</output>
                <span className="stepper__steps">{this.state.steps}</span>
                <button type="button" onClick={this.up}>
                  Up
                </button>
              </div>
            );
          }
        }
    """,
}

SUITE = """
import { mount, shallow } from 'enzyme';
import { Disclosure, Stepper } from './Disclosure';

it('starts closed', () => {
  const wrapper = shallow(<Disclosure title="Details">More</Disclosure>);
  expect(wrapper.state('open')).toBe(false);
});

it('opens on click', () => {
  const wrapper = mount(<Disclosure title="Details">More</Disclosure>);
  wrapper.find('button').simulate('click');
  expect(wrapper.state().open).toBe(true);
});

it('counts up', () => {
  const wrapper = mount(<Stepper start={3} />);
  expect(wrapper.state('value')).toBe(3);
  wrapper.find('button').simulate('click');
  expect(wrapper.state('value')).toBe(4);
  expect(wrapper.state('steps')).toBe(1);
  expect(wrapper.state('touched')).toBe(true);
});
"""


async def test_a_state_the_page_shows_is_asserted_as_the_user_sees_it(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Disclosure", SOURCES)
    file = "src/components/Disclosure/Disclosure.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    button = "screen.getByRole('button', { name: 'Details' })"
    assert f"expect({button}).toHaveAttribute('aria-expanded', 'false');" in content, content
    assert f"expect({button}).toHaveAttribute('aria-expanded', 'true');" in content, content
    assert "expect(screen.getByRole('status')).toHaveTextContent(/^3$/);" in content, content
    assert "expect(screen.getByRole('status')).toHaveTextContent(/^4$/);" in content, content
    # Only its own text shows `steps` (a query by "1" would not select it at another value),
    # and nothing shows `touched`: both are read through the one ref left, the Stepper's.
    assert "expect(wrapperRef.current?.state.steps).toBe(1);" in content, content
    assert "expect(wrapperRef.current?.state.touched).toBe(true);" in content, content
    assert content.count("createRef") == 2, content  # its import and the Stepper's ref
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    # What the page shows is what each test checks now.
    module = folder / "Disclosure.tsx"
    failing = await broken_tests(
        app_copy, file, module, "aria-expanded={this.state.open}", "aria-expanded={false}"
    )
    assert failing == ["opens on click"], failing
    failing = await broken_tests(
        app_copy, file, module, "<output>{this.state.value}</output>", "<output>0</output>"
    )
    assert failing == ["counts up"], failing


TAB_STRIP = {
    "TabStrip.tsx": """
        import { Component } from 'react';

        export class TabStrip extends Component<{ titles: string[] }, { active: number }> {
          state = { active: 0 };

          render() {
            return (
              <div role="tablist">
                {this.props.titles.map((title, index) => (
                  <button
                    key={title}
                    type="button"
                    role="tab"
                    aria-selected={index === this.state.active}
                    onClick={() => this.setState({ active: index })}
                  >
                    {title}
                  </button>
                ))}
              </div>
            );
          }
        }
    """,
}

TAB_SUITE = """
import { mount, shallow } from 'enzyme';
import { TabStrip } from './TabStrip';

const titles = ['Overview', 'Specs', 'Reviews'];

it('starts on the first tab', () => {
  const wrapper = shallow(<TabStrip titles={titles} />);
  expect(wrapper.state('active')).toBe(0);
});

it('selects the clicked tab', () => {
  const wrapper = mount(<TabStrip titles={titles} />);
  wrapper.find('button').at(2).simulate('click');
  expect(wrapper.state('active')).toBe(2);
});
"""


async def test_an_index_the_page_shows_as_the_selected_element(app_copy: Path) -> None:
    """An index in the state is which tab is selected: the tab at that position holds
    ``aria-selected``, at every read (two values)."""
    folder = write_components(app_copy / "src/components/TabStrip", TAB_STRIP)
    file = "src/components/TabStrip/TabStrip.test.tsx"
    result = await migrated(app_copy, file, TAB_SUITE)
    content = result.content
    for index in (0, 2):
        tab = f"screen.getAllByRole('tab')[{index}]"
        assert f"expect({tab}).toHaveAttribute('aria-selected', 'true');" in content, content
    assert "createRef" not in content, content
    assert result.status == "succeeded", result.reasons
    failing = await broken_tests(
        app_copy,
        file,
        folder / "TabStrip.tsx",
        "aria-selected={index === this.state.active}",
        "aria-selected={index === 0}",
    )
    assert failing == ["selects the clicked tab"], failing
