"""A child a shallow render renders again, ``find(Label).shallow().text()`` (public suites:
``wrapper.find(ToastWrapper).shallow().text()``, ``firstItem.shallow().text()``) or
``root.first().shallow().text()`` (reactstrap's ``ButtonToggle``): a full render has already
rendered it, so the text is the DOM's at the same element, as for ``dive()``. Under the example
app's real jest and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Badge.tsx": """
        export function Label({ text }: { text: string }) {
          return <span className="badge__label">{text}</span>;
        }

        export function Badge({ count }: { count: number }) {
          return (
            <div className="badge">
              <Label text={count === 1 ? '1 message' : `${count} messages`} />
            </div>
          );
        }

        export function Pill({ children }: { children: string }) {
          return <Label text={`(${children})`} />;
        }
    """,
}

SUITE = """
import { shallow } from 'enzyme';
import { Badge, Label, Pill } from './Badge';

it('counts one message', () => {
  const wrapper = shallow(<Badge count={1} />);
  expect(wrapper.find(Label).shallow().text()).toBe('1 message');
});

it('counts several messages', () => {
  const wrapper = shallow(<Badge count={3} />);
  expect(wrapper.find(Label).first().shallow().text()).toBe('3 messages');
});

it('puts a pill in brackets', () => {
  const wrapper = shallow(<Pill>new</Pill>);
  expect(wrapper.first().shallow().text()).toBe('(new)');
});
"""


async def test_a_child_rendered_again_is_read_where_the_full_render_rendered_it(
    app_copy: Path,
) -> None:
    folder = write_components(app_copy / "src/components/Badge", SOURCES)
    file = "src/components/Badge/Badge.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert ".shallow()" not in content and "testmend:" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    # Each text is the one the child renders: a wrong one fails its test, and only that one.
    failing = await broken_tests(
        app_copy, file, folder / "Badge.tsx", "'1 message'", "'1 messages'"
    )
    assert failing == ["counts one message"], failing
    failing = await broken_tests(
        app_copy, file, folder / "Badge.tsx", "`${count} messages`", "`${count} message(s)`"
    )
    assert failing == ["counts several messages"], failing
    failing = await broken_tests(
        app_copy, file, folder / "Badge.tsx", "`(${children})`", "`${children}`"
    )
    assert failing == ["puts a pill in brackets"], failing
