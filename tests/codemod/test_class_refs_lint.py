"""A class component's internals read through a ref (the example app's ``Counter``:
``state('history')``, ``state()``, ``setState``) in a TypeScript project whose lint
forbids the non-null assertion (typescript-eslint's ``strict``, airbnb's TypeScript config:
addons-code-manager's). The ref's ``current`` is read through ``?.`` where the code is an
assertion's subject or a call as a statement, so the result is accepted under that rule too.
Real jest, tsc and eslint."""

from __future__ import annotations

from pathlib import Path

from tests.support.codemod import migrate_offline

NO_NON_NULL = """
module.exports.push({
  files: ['src/**/*.test.tsx'],
  rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
});
"""


async def test_class_internals_through_a_ref_pass_a_lint_that_forbids_non_null(
    example_copy: Path,
) -> None:
    root = example_copy
    config = root / "eslint.config.js"
    config.write_text(config.read_text(encoding="utf-8") + NO_NON_NULL, encoding="utf-8")
    result = await migrate_offline(root, "src/components/Counter/Counter.test.tsx")
    assert result.content is not None
    content = result.content
    assert "expect(wrapperRef.current?.state.history).toHaveLength(0);" in content, content
    assert "wrapperRef.current?.setState({ count: 9, history: [5, 7] });" in content, content
    assert "current!" not in content, content
    assert result.lint_messages == [] and result.type_messages == [], (
        result.lint_messages,
        result.type_messages,
    )
    assert result.status == "succeeded", result.reasons
