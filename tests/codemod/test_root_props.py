"""A prop of a full render's root, read by the test (reactstrap's ``Progress``: "should render
with "max" 100 by default", ``mount(<Progress value={10} />).prop('value')``; its
``PopperContent`` and ``TooltipPopoverWrapper``: ``hideArrow`` false by default). Enzyme
answers with the props the test gave its element, defaults included: the result asserts the one
attribute of the rendered DOM that shows the value (what the user sees), else, for a prop the
test did not give, the component's default. Under the example app's real jest and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Meter.tsx": """
        export interface MeterProps {
          label: string;
          value: number;
          max: number;
          striped: boolean;
        }

        export function Meter({ label, value, max, striped }: MeterProps) {
          return (
            <div className={striped ? 'meter meter--striped' : 'meter'}>
              <div
                className="meter__bar"
                role="progressbar"
                aria-label={label}
                aria-valuenow={value}
                aria-valuemin={0}
                aria-valuemax={max}
              />
            </div>
          );
        }

        Meter.defaultProps = { value: 0, max: 100, striped: false };
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Meter } from './Meter';

it('is empty by default', () => {
  const wrapper = mount(<Meter label="Upload" />);
  expect(wrapper.prop('value')).toBe(0);
});

it('goes up to 100 by default', () => {
  const wrapper = mount(<Meter label="Upload" />);
  expect(wrapper.prop('max')).toBe(100);
});

it('is not striped by default', () => {
  const wrapper = mount(<Meter label="Upload" />);
  expect(wrapper.prop('striped')).toBe(false);
});

it('renders with the given value', () => {
  const wrapper = mount(<Meter label="Upload" value={40} />);
  expect(wrapper.prop('value')).toBe(40);
});
"""


async def test_a_root_prop_is_asserted_where_the_dom_shows_it_else_as_its_default(
    app_copy: Path,
) -> None:
    folder = write_components(app_copy / "src/components/Meter", SOURCES)
    file = "src/components/Meter/Meter.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    meter = "screen.getByRole('progressbar', { name: 'Upload' })"
    # Shown by one attribute: asserted there.
    assert f"expect({meter}).toHaveAttribute('aria-valuemax', '100');" in content, content
    assert f"expect({meter}).toHaveAttribute('aria-valuenow', '40');" in content, content
    # 0 is shown twice (aria-valuenow, aria-valuemin), a boolean by no attribute: the default.
    assert "expect(Meter.defaultProps?.value).toBe(0);" in content, content
    assert "expect(Meter.defaultProps?.striped).toBe(false);" in content, content
    assert ".prop(" not in content and "removed an assertion" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], result.reasons
    assert result.status == "succeeded", result.reasons

    # Each assertion holds the component to what the original's did.
    failing = await broken_tests(
        app_copy, file, folder / "Meter.tsx", "{ value: 0, max: 100,", "{ value: 5, max: 100,"
    )
    assert failing == ["is empty by default"], failing
    failing = await broken_tests(
        app_copy, file, folder / "Meter.tsx", "aria-valuemax={max}", "aria-valuemax={50}"
    )
    assert failing == ["goes up to 100 by default"], failing
    failing = await broken_tests(
        app_copy, file, folder / "Meter.tsx", "aria-valuenow={value}", "aria-valuenow={0}"
    )
    assert failing == ["renders with the given value"], failing
