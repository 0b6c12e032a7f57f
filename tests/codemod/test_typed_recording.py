"""The recording's ``jest.mock`` in a TypeScript project linted with typescript-eslint's
type-checked rules (``no-unsafe-*``; visx warns on them, stricter projects fail on them). The
factory's ``jest.requireActual`` is ``any``: the helper module it requires is asserted as
itself, and the recorded module is passed as the ``unknown`` the helper takes, so the result
is as clean under those rules as under the example's own. Real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import broken_tests, migrated, write_components

SOURCES = {
    "Step.tsx": """
        export interface StepProps {
          title: string;
          done: boolean;
        }

        export function Step({ title, done }: StepProps) {
          return <li className={done ? 'step step--done' : 'step'}>{title}</li>;
        }
    """,
    "Steps.tsx": """
        import { Step } from './Step';

        export function Steps({ titles, current }: { titles: string[]; current: number }) {
          return (
            <ol>
              {titles.map((title, index) => (
                <Step key={title} title={title} done={index < current} />
              ))}
            </ol>
          );
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Step } from './Step';
import { Steps } from './Steps';

describe('<Steps>', () => {
  it('marks the steps before the current one as done', () => {
    const wrapper = mount(<Steps titles={['Cart', 'Address', 'Pay']} current={1} />);
    expect(wrapper.find(Step).at(0).prop('done')).toBe(true);
    expect(wrapper.find(Step).at(1).prop('done')).toBe(false);
  });
});
"""

TYPE_CHECKED_RULES = """
module.exports.push({
  files: ['src/**/*.{ts,tsx}'],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
  rules: {
    '@typescript-eslint/no-unsafe-argument': 'error',
    '@typescript-eslint/no-unsafe-assignment': 'error',
    '@typescript-eslint/no-unsafe-call': 'error',
    '@typescript-eslint/no-unsafe-member-access': 'error',
    '@typescript-eslint/no-unsafe-return': 'error',
  },
});
"""


async def test_the_recording_mock_is_clean_under_type_checked_lint(example_copy: Path) -> None:
    root = example_copy
    config = root / "eslint.config.js"
    config.write_text(config.read_text(encoding="utf-8") + TYPE_CHECKED_RULES, encoding="utf-8")
    folder = write_components(root / "src/components/Steps", SOURCES)
    file = "src/components/Steps/Steps.test.tsx"
    result = await migrated(root, file, SUITE)
    content = result.content
    assert "recordedProps(Step)[0].done" in content, content
    assert "as typeof import(" in content, content
    assert result.lint_messages == [] and result.type_messages == [], (
        result.lint_messages,
        result.type_messages,
    )
    assert result.status == "succeeded", result.reasons
    # The recording still reads what Steps gives each step.
    failing = await broken_tests(
        root, file, folder / "Steps.tsx", "done={index < current}", "done={index <= current}"
    )
    assert failing == ["<Steps> marks the steps before the current one as done"], failing
