"""A find by a class or an attribute that picked the elements of a role in one ARIA state (the
active tab, the current link, the checked radio) is that role in that state
(``getByRole('tab', { selected: true })``), where a query by the name of the element it happened
to pick would assert that element's text of itself; only where the selector names a state (the
state's attribute, or a class such as ``active``), the class went with that state wherever the
file read it, and the statement does not read that state. A portal's menu, asserted absent
before it opens, is found by the query that selects it where it is open. Under the example
app's real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Widgets.tsx": """
        import { useState } from 'react';
        import ReactDOM from 'react-dom';

        const TABS = ['Overview', 'Specs', 'Reviews'];

        export function Tabs() {
          const [active, setActive] = useState(0);
          return (
            <div role="tablist">
              {TABS.map((title, index) => (
                <button
                  key={title}
                  type="button"
                  role="tab"
                  aria-selected={index === active}
                  className={index === active ? 'tab tab--active' : 'tab'}
                  onClick={() => setActive(index)}
                >
                  {title}
                </button>
              ))}
            </div>
          );
        }

        export function Breadcrumbs({ current }: { current: string }) {
          return (
            <nav aria-label="Sections">
              {['Home', 'Reports', 'Settings'].map((section) => (
                <a
                  key={section}
                  href={`#/${section}`}
                  aria-current={section === current ? 'page' : undefined}
                  className={section === current ? 'active' : undefined}
                >
                  {section}
                </a>
              ))}
            </nav>
          );
        }

        export function Menu({ items }: { items: string[] }) {
          const [open, setOpen] = useState(false);
          return (
            <div>
              <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
                Fruit
              </button>
              {open &&
                ReactDOM.createPortal(
                  <ul className="menu__list" role="listbox" aria-label="Fruit">
                    {items.map((item) => (
                      <li
                        key={item}
                        role="option"
                        aria-selected={false}
                        onClick={() => setOpen(false)}
                      >
                        {item}
                      </li>
                    ))}
                  </ul>,
                  document.body,
                )}
            </div>
          );
        }

        export function Plan() {
          const [plan, setPlan] = useState('free');
          return (
            <fieldset>
              <legend>Plan</legend>
              {['free', 'pro'].map((option) => (
                <label key={option}>
                  <input
                    type="radio"
                    name="plan"
                    value={option}
                    checked={plan === option}
                    onChange={() => setPlan(option)}
                  />
                  {option === 'free' ? 'Free' : 'Pro'}
                </label>
              ))}
            </fieldset>
          );
        }

        export function Stars({ value }: { value: number }) {
          const [hover, setHover] = useState<number | null>(null);
          const shown = hover ?? value;
          return (
            <div role="radiogroup" aria-label="Rating">
              {[1, 2, 3, 4, 5].map((star) => (
                <span
                  key={star}
                  role="radio"
                  aria-checked={star === value}
                  aria-label={`${star} stars`}
                  className={star <= shown ? 'star star--on' : 'star'}
                  onMouseEnter={() => setHover(star)}
                  onMouseLeave={() => setHover(null)}
                >
                  *
                </span>
              ))}
            </div>
          );
        }
    """,
}

SUITE = """
import { mount, shallow } from 'enzyme';
import { Breadcrumbs, Menu, Plan, Tabs } from './Widgets';

it('shows the first tab at first', () => {
  const wrapper = shallow(<Tabs />);
  expect(wrapper.find('.tab--active').text()).toBe('Overview');
  expect(wrapper.find('.tab--active').prop('aria-selected')).toBe(true);
});

it('shows the clicked tab', () => {
  const wrapper = mount(<Tabs />);
  wrapper.find('.tab').at(1).simulate('click');
  expect(wrapper.find('.tab--active').text()).toBe('Specs');
});

it('marks the current section', () => {
  const wrapper = mount(<Breadcrumbs current="Reports" />);
  expect(wrapper.find('a.active').text()).toBe('Reports');
});

it('starts on the free plan', () => {
  const wrapper = mount(<Plan />);
  expect(wrapper.find('input[value="free"]').prop('checked')).toBe(true);
});

it('opens its menu in a portal and closes it on a choice', () => {
  const wrapper = mount(<Menu items={['Apple', 'Cherry']} />);
  expect(wrapper.find('.menu__list').exists()).toBe(false);
  wrapper.find('button').simulate('click');
  expect(wrapper.find('li')).toHaveLength(2);
  wrapper.find('li').at(1).simulate('click');
  expect(wrapper.find('.menu__list').exists()).toBe(false);
});
"""

STARS = """
import { mount } from 'enzyme';
import { Stars } from './Widgets';

it('previews the rating on hover', () => {
  const wrapper = mount(<Stars value={1} />);
  wrapper.find('.star').at(3).simulate('mouseenter');
  expect(wrapper.find('.star--on')).toHaveLength(4);
  wrapper.find('.star').at(3).simulate('mouseleave');
  expect(wrapper.find('.star--on')).toHaveLength(1);
});
"""


async def test_a_class_that_picks_a_state_is_the_role_in_that_state(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Widgets", SOURCES)
    file = "src/components/Widgets/Widgets.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    tab = "screen.getByRole('tab', { selected: true })"
    assert f"expect({tab}).toHaveTextContent(/^Overview$/);" in content, content
    assert f"expect({tab}).toHaveTextContent(/^Specs$/);" in content, content
    # The state a statement reads is never the state it finds by (that would assert it of
    # itself), and a selector by what an element is (`[value="free"]`) is no state.
    overview = "screen.getByRole('tab', { name: 'Overview' })"
    assert f"expect({overview}).toHaveAttribute('aria-selected', 'true');" in content, content
    assert "expect(screen.getByRole('radio', { name: 'Free' })).toBeChecked();" in content, content
    link = "screen.getByRole('link', { current: 'page' })"
    assert f"expect({link}).toHaveTextContent(/^Reports$/);" in content, content
    menu = "screen.queryByRole('listbox', { name: 'Fruit' })"
    assert content.count(f"expect({menu}).not.toBeInTheDocument();") == 2, content
    assert "document." not in content and "container" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    # Which tab is selected is what the tab tests check now: a click that selects the first
    # tab whichever is clicked fails the click's test (a query by "Specs" would still pass).
    module = folder / "Widgets.tsx"
    failing = await broken_tests(
        app_copy, file, module, "onClick={() => setActive(index)}", "onClick={() => setActive(0)}"
    )
    assert failing == ["shows the clicked tab"], failing
    failing = await broken_tests(
        app_copy, file, module, "section === current ? 'page'", "section !== 'Home' ? 'page'"
    )
    assert failing == ["marks the current section"], failing
    failing = await broken_tests(app_copy, file, module, "useState('free')", "useState('pro')")
    assert failing == ["starts on the free plan"], failing


async def test_a_class_that_only_once_went_with_a_state_is_not_that_state(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Stars", SOURCES)
    file = "src/components/Stars/Stars.test.tsx"
    result = await migrated(app_copy, file, STARS)
    content = result.content
    # `.star--on` was four stars, then the one checked: neither "checked" nor the name of
    # the one star is what it counts, so the count stays the selector's, with a finding.
    assert "checked: true" not in content and "'1 stars'" not in content, content
    assert content.count("document.querySelectorAll('.star--on')") == 2, content
    assert any(f.kind == "fallback" and "'.star--on'" in f.message for f in result.codemod_findings)
    failing = await broken_tests(
        app_copy, file, folder / "Widgets.tsx", "onMouseLeave={() => setHover(null)}", ""
    )
    assert failing == ["previews the rating on hover"], failing
