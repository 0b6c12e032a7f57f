"""The type check narrowed to the files a test needs, against the example app's real tsc."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testmend.runners.tsc_scope import scope_typecheck
from tests.support.runners import PASSING_TEST, runners_for, write

TSC = ["node_modules/.bin/tsc", "--noEmit", "-p", "tsconfig.json"]

MATCHERS_TEST = """
import { render, screen } from '@testing-library/react';

it('shows the version', () => {
  render(<p>{APP_VERSION}</p>);
  expect(screen.getByText(APP_VERSION)).toBeInTheDocument();
});
"""


def listed(root: Path, file: str) -> list[str]:
    scope = scope_typecheck(root, TSC, file)
    assert scope is not None
    config = json.loads(scope.config.read_text())
    assert config["extends"] == "../tsconfig.json" and config["include"] == []
    return sorted(
        str((scope.config.parent / f).resolve().relative_to(root)) for f in config["files"]
    )


async def test_tsc_checks_the_test_with_the_declarations_and_globals_it_needs(
    example_copy: Path,
) -> None:
    """The jest setup file brings jest-dom's matchers into every test's types by a
    side-effect import (the package is imported, not the setup file); a script declares a
    global; a stylesheet import adds nothing."""
    write(example_copy, "src/globals.ts", "declare const APP_VERSION: string;\n")
    write(example_copy, "src/styles.ts", "import './App.css';\nexport const themed = true;\n")
    test = write(example_copy, "src/Version.test.tsx", MATCHERS_TEST)
    # An intent check's copy, there only while the check runs (never beside tsc).
    write(example_copy, "src/Version.testmend-m1-o.test.tsx", "import './Version.test';\n")
    # A file whose package resolves to another copy from its folder than from the root's.
    write(example_copy, "src/legacy/node_modules/@testing-library/jest-dom/package.json", "{}")
    write(example_copy, "src/legacy/setup.ts", "import '@testing-library/jest-dom';\nexport {};\n")
    assert listed(example_copy, test) == [
        ".testmend/side-effect-imports.d.ts",
        "src/Version.test.tsx",
        "src/globals.ts",
        "src/legacy/setup.ts",
        "src/types/css.d.ts",
    ]
    imports = example_copy / ".testmend" / "side-effect-imports.d.ts"
    assert imports.read_text() == 'import "@testing-library/jest-dom";\nexport {};\n'
    runners = runners_for(example_copy)
    result = await runners.typecheck(test)
    assert result.clean and result.scoped
    # What the project's tsc says about the same file.
    whole = await runners_for(example_copy, workspace={"narrowTypeCheck": False}).typecheck(test)
    assert whole.clean and not whole.scoped
    # The scoped config stays out of git's view of the workspace.
    assert (example_copy / ".testmend" / ".gitignore").read_text() == "*\n"


async def test_an_error_in_the_narrowed_program_is_confirmed_by_the_projects_tsc(
    example_copy: Path,
) -> None:
    """A global the narrowing cannot see (declared by a file outside ``include`` that a
    module imports by name): the narrowed program says the name is missing, the project's
    tsc does not, and the user gets the project's verdict; the rest of the run uses it."""
    write(
        example_copy,
        "typings/version.ts",
        "declare global {\n  const APP_VERSION: string;\n}\nexport const loaded = true;\n",
    )
    write(
        example_copy,
        "src/version.ts",
        "import { loaded } from '../typings/version';\nexport const ready = loaded;\n",
    )
    test = write(example_copy, "src/Version.test.tsx", MATCHERS_TEST)
    assert "src/version.ts" not in listed(example_copy, test)
    runners = runners_for(example_copy)
    result = await runners.typecheck(test)
    assert result.clean and not result.scoped
    assert not (await runners.typecheck(PASSING_TEST)).scoped  # narrowing is off for the run
    # A real error is the project's tsc's, whichever program found it first.
    broken = write(example_copy, "src/Broken.test.tsx", "export const n: number = 'one';\n")
    fresh = runners_for(example_copy)
    [diagnostic] = (await fresh.typecheck(broken)).diagnostics
    assert diagnostic.code == "TS2322"
    assert (await fresh.typecheck(PASSING_TEST)).scoped  # they agreed: narrowing stays on


@pytest.mark.parametrize(
    ("tsconfig", "command"),
    [
        ({"compilerOptions": {"composite": True}}, TSC),
        ({"references": [{"path": "./packages/ui"}]}, TSC),
        ({"compilerOptions": {"typeRoots": ["${configDir}/types"]}}, TSC),
        ({"extends": "@tsconfig/recommended/tsconfig.json", "include": None}, TSC),
        ({"extends": ["@tsconfig/recommended/tsconfig.json", "./missing.json"]}, TSC),
        ({}, ["node_modules/.bin/tsc", "--build", "--noEmit"]),
        ({}, ["node_modules/.bin/tsc", "--noEmit", "src/index.tsx"]),
        ({}, ["node_modules/.bin/tsc", "-p", "tsconfig.json"]),  # emits
        ({}, ["npx", "tsc", "--noEmit"]),
    ],
)
def test_what_is_not_narrowed(
    example_copy: Path, tsconfig: dict[str, object], command: list[str]
) -> None:
    """The program's files or the config's meaning are not known here, or the command is not
    tsc checking the project's tsconfig without emitting."""
    config = json.loads((example_copy / "tsconfig.json").read_text())
    for key, value in tsconfig.items():
        if value is None:
            config.pop(key)
        elif isinstance(value, dict):
            config[key] = {**config.get(key, {}), **value}
        else:
            config[key] = value
    (example_copy / "tsconfig.json").write_text(json.dumps(config))
    assert scope_typecheck(example_copy, command, PASSING_TEST) is None


def test_a_package_base_config_is_fine_when_the_config_sets_its_own_files(
    example_copy: Path,
) -> None:
    """With ``include`` in the project's own config, what the package's base includes does not
    matter; the command without ``-p`` means ``tsconfig.json``."""
    config = json.loads((example_copy / "tsconfig.json").read_text())
    config["extends"] = "@tsconfig/recommended/tsconfig.json"
    (example_copy / "tsconfig.json").write_text(json.dumps(config))
    scope = scope_typecheck(example_copy, ["node_modules/.bin/tsc", "--noEmit"], PASSING_TEST)
    assert scope is not None
    assert scope.argv[-2:] == ["-p", str(example_copy / ".testmend" / "tsconfig.scoped.json")]
    assert scope.root_files == 3


async def test_errors_the_projects_tsc_reports_too_do_not_stop_the_narrowing(
    example_copy: Path,
) -> None:
    """A module the tests import has a type error of its own (pre-existing, not the test's):
    the first check asks the project's tsc, which reports it too; later checks trust the
    narrowed program while it reports nothing else."""
    write(example_copy, "src/legacy.ts", "export const count: number = 'three';\n")
    first = write(
        example_copy,
        "src/First.test.ts",
        "import { count } from './legacy';\nit('a', () => expect(count).toBe(3));\n",
    )
    second = write(
        example_copy,
        "src/Second.test.ts",
        "import { count } from './legacy';\nit('b', () => expect(count).toBe(3));\n",
    )
    runners = runners_for(example_copy)
    checked = await runners.typecheck(first)
    assert checked.clean and not checked.scoped and checked.other_files_error_count == 1
    trusted = await runners.typecheck(second)
    assert trusted.clean and trusted.scoped and trusted.other_files_error_count == 1
    # An error elsewhere the project's tsc did not report: asked again.
    write(
        example_copy,
        "src/legacy.ts",
        "export const count: number = 'three';\nexport const flag: boolean = 1;\n",
    )
    (example_copy / first).write_text((example_copy / first).read_text() + "// edited\n")
    again = await runners.typecheck(first)
    assert again.clean and not again.scoped and again.other_files_error_count == 2
