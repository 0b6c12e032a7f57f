"""The test inventory read from the syntax tree, and what a candidate may not lose."""

from __future__ import annotations

import pytest

from testmend.fidelity import compare, read_inventory, test_counts

ORIGINAL = """\
import { mount } from 'enzyme';
import { Counter } from './Counter';

const expectCount = (wrapper, n) => {
  expect(wrapper.find('output').text()).toBe(String(n));
};

describe('Counter', () => {
  it('starts at zero', () => {
    const wrapper = mount(<Counter />);
    expectCount(wrapper, 0);
    expect(wrapper.find('button')).toHaveLength(2);
  });

  it.each([[1], [2]])('steps by %i', (step) => {
    const wrapper = mount(<Counter step={step} />);
    wrapper.find('button.up').simulate('click');
    expectCount(wrapper, step);
  });

  describe('limits', () => {
    test('stops at max', async () => {
      const wrapper = mount(<Counter max={1} />);
      wrapper.find('button.up').simulate('click');
      expect(wrapper.find('button.up').prop('disabled')).toBe(true);
    });
  });

  xit('was already skipped', () => {
    expect(1).toBe(2);
  });
});
"""

HONEST = """\
import { fireEvent, render, screen } from '@testing-library/react';
import { Counter } from './Counter';

const expectCount = (n) => {
  expect(screen.getByRole('status')).toHaveTextContent(String(n));
};

describe('Counter', () => {
  it('starts at zero', () => {
    render(<Counter />);
    expectCount(0);
    expect(screen.getAllByRole('button')).toHaveLength(2);
  });

  it.each([[1], [2]])('steps by %i', (step) => {
    render(<Counter step={step} />);
    fireEvent.click(screen.getByRole('button', { name: 'up' }));
    expectCount(step);
  });

  describe('limits', () => {
    test('stops at max', async () => {
      render(<Counter max={1} />);
      fireEvent.click(screen.getByRole('button', { name: 'up' }));
      expect(screen.getByRole('button', { name: 'up' })).toBeDisabled();
    });
  });

  xit('was already skipped', () => {
    expect(1).toBe(2);
  });
});
"""

FILE = "src/Counter.test.jsx"


def findings_of(candidate: str, **reasons: dict[str, str]) -> list[tuple[str, str | None]]:
    _, found = compare(read_inventory(ORIGINAL, FILE), read_inventory(candidate, FILE), **reasons)
    return [(f.kind, f.test) for f in found]


def test_names_marks_and_assertions_come_from_the_syntax_tree() -> None:
    tests = {t.name: t for t in read_inventory(ORIGINAL, FILE).tests}
    assert list(tests) == [
        "Counter starts at zero",
        "Counter steps by %i",
        "Counter limits stops at max",
        "Counter was already skipped",
    ]
    # A helper's assertion counts where the test calls it.
    assert tests["Counter starts at zero"].assertions == 2
    assert tests["Counter steps by %i"].marks == ["each"]
    assert tests["Counter steps by %i"].assertions == 1
    assert tests["Counter limits stops at max"].line == 22
    assert tests["Counter was already skipped"].marks == ["skip"]
    assert tests["Counter was already skipped"].tautologies == ["expect(1).toBe(2)"]


def test_an_honest_migration_loses_nothing() -> None:
    assert findings_of(HONEST) == []
    rows, _ = compare(read_inventory(ORIGINAL, FILE), read_inventory(HONEST, FILE))
    assert test_counts(rows, "migrate") == {"migrated": 4, "kept": 0, "deleted": 0, "created": 0}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda s: s.replace("test('stops at max'", "test.skip('stops at max'"),
            [("test-disabled", "Counter limits stops at max")],
        ),
        (
            lambda s: s.replace("  describe('limits'", "  describe.only('limits'"),
            [("test-disabled", "Counter limits stops at max")],
        ),
        (
            lambda s: s.replace("it.each([[1], [2]])", "xit"),
            [("test-disabled", "Counter steps by %i")],
        ),
        (
            lambda s: s.replace(
                "expect(screen.getByRole('button', { name: 'up' })).toBeDisabled();",
                "expect(true).toBe(true);",
            ),
            [("tautology", "Counter limits stops at max")],
        ),
        (
            lambda s: s.replace(
                "expect(screen.getByRole('button', { name: 'up' })).toBeDisabled();",
                "screen.getByRole('button', { name: 'up' });",
            ),
            [("no-assertion", "Counter limits stops at max")],
        ),
        (
            lambda s: s.replace("    expect(screen.getAllByRole('button')).toHaveLength(2);\n", ""),
            [("fewer-assertions", "Counter starts at zero")],
        ),
        (
            lambda s: s.replace(
                """      render(<Counter max={1} />);
      fireEvent.click(screen.getByRole('button', { name: 'up' }));
      expect(screen.getByRole('button', { name: 'up' })).toBeDisabled();
""",
                "      // render(<Counter max={1} />);\n",
            ),
            [("test-emptied", "Counter limits stops at max")],
        ),
        (
            lambda s: s.replace("it('starts at zero'", "it('starts at 0'"),
            [("test-missing", "Counter starts at zero")],
        ),
    ],
    ids=["skip", "only", "xit", "tautology", "no-assertion", "fewer", "emptied", "renamed"],
)
def test_what_a_candidate_may_not_lose(change: object, expected: list[tuple[str, str]]) -> None:
    candidate = change(HONEST)  # type: ignore[operator]
    assert candidate != HONEST
    assert findings_of(candidate) == expected


def test_a_recorded_reason_allows_a_deletion_or_fewer_assertions() -> None:
    deleted = HONEST.replace("it('starts at zero'", "it('gone'")
    assert ("test-missing", "Counter starts at zero") in findings_of(deleted)
    assert ("test-missing", "Counter starts at zero") not in findings_of(
        deleted, deletions={"Counter starts at zero": "covered by the e2e suite"}
    )
    fewer = HONEST.replace("    expect(screen.getAllByRole('button')).toHaveLength(2);\n", "")
    assert findings_of(fewer, fewer_assertions={"Counter starts at zero": "merged"}) == []


def test_the_counts_come_from_the_result_file() -> None:
    candidate = HONEST.replace("it('starts at zero'", "it('a new test'")
    rows, _ = compare(read_inventory(ORIGINAL, FILE), read_inventory(candidate, FILE))
    assert test_counts(rows, "migrate") == {"migrated": 3, "kept": 0, "deleted": 1, "created": 1}
    assert test_counts(rows, "fix") == {"migrated": 0, "kept": 3, "deleted": 1, "created": 1}
