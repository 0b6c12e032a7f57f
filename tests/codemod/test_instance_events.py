"""A class component's method called through the instance of its render (public suites:
``wrapper.instance().handleClick()``; the example's ``Counter``: ``instance().increment()``),
where the element the render holds that very method on as its own handler was found at the
call: the call becomes that element's event, as a user makes it, which tests the wiring too.
A method no element holds, or one called with a value, stays a call through the ref. Shallow
and full renders; an arrow field and a method bound in the constructor. Under the example
app's real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Pager.tsx": """
        import { Component } from 'react';

        interface PagerProps {
          pages: number;
        }

        interface PagerState {
          page: number;
        }

        export class Pager extends Component<PagerProps, PagerState> {
          constructor(props: PagerProps) {
            super(props);
            this.state = { page: 1 };
            this.next = this.next.bind(this);
          }

          previous = () => this.setState(({ page }) => ({ page: Math.max(1, page - 1) }));

          next() {
            this.setState(({ page }) => ({ page: Math.min(this.props.pages, page + 1) }));
          }

          goTo(page: number) {
            this.setState({ page });
          }

          render() {
            const { page } = this.state;
            return (
              <nav aria-label="Pages">
                <button type="button" onClick={this.previous} disabled={page === 1}>
                  Previous
                </button>
                <span>Page {page}</span>
                <button type="button" onClick={this.next}>
                  Next
                </button>
              </nav>
            );
          }
        }
    """,
}

SUITE = """
import { mount, shallow } from 'enzyme';
import { Pager } from './Pager';

it('goes to the next page', () => {
  const wrapper = shallow<Pager>(<Pager pages={3} />);
  wrapper.instance().next();
  expect(wrapper.find('span').text()).toBe('Page 2');
});

it('goes back a page', () => {
  const wrapper = mount<Pager>(<Pager pages={3} />);
  wrapper.instance().goTo(3);
  wrapper.instance().previous();
  wrapper.update();
  expect(wrapper.find('span').text()).toBe('Page 2');
});
"""


async def test_a_method_an_element_holds_is_called_by_its_event(app_copy: Path) -> None:
    folder = write_components(app_copy / "src/components/Pager", SOURCES)
    file = "src/components/Pager/Pager.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert "await user.click(screen.getByRole('button', { name: 'Next' }));" in content, content
    assert "await user.click(screen.getByRole('button', { name: 'Previous' }));" in content
    # goTo(3) takes a value no event carries: through the ref, the one the file needs.
    assert "wrapperRef.current?.goTo(3);" in content, content
    assert content.count("createRef") == 2, content  # its import and the one ref
    assert ".next()" not in content and ".previous()" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    # The wiring is tested now: a button holding another handler fails its test.
    module = folder / "Pager.tsx"
    failing = await broken_tests(
        app_copy, file, module, "onClick={this.next}", "onClick={this.previous}"
    )
    assert failing == ["goes to the next page"], failing
    failing = await broken_tests(
        app_copy, file, module, "onClick={this.previous}", "onClick={this.next}"
    )
    assert failing == ["goes back a page"], failing
