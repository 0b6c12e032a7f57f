"""The tidy pass on what the conversion wrote (act, renders in hooks, render results, imports,
lookups nothing reads): each case a file in tests/fixtures/codemod/tidy and the file it must
become."""

from __future__ import annotations

import pytest

from testmend.codemod.tidy import tidy
from tests.support.apps import FIXTURES, fixture_text

CASES = sorted(
    p.name.removesuffix(".input.tsx") for p in (FIXTURES / "codemod/tidy").glob("*.input.tsx")
)


@pytest.mark.parametrize("case", CASES)
def test_tidy(case: str) -> None:
    source = fixture_text(f"codemod/tidy/{case}.input.tsx")
    expected = fixture_text(f"codemod/tidy/{case}.expected.tsx")
    assert tidy(source, f"src/{case}.test.tsx") == expected


def test_tidy_is_idempotent_and_leaves_what_does_not_parse() -> None:
    for case in CASES:
        once = fixture_text(f"codemod/tidy/{case}.expected.tsx")
        assert tidy(once, "src/x.test.tsx") == once
    broken = "it('x', () => {\n  act(() => { fireEvent.click(a); }\n"
    assert tidy(broken, "src/x.test.tsx") == broken
