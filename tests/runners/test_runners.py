"""The runners against the example app's real jest, eslint and tsc."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from testmend.config import CONFIG_FILE_NAME, load_config
from testmend.runners import (
    BrokenTsconfigError,
    MissingBinaryError,
    MissingNodeModulesError,
    NoTestsFoundError,
    ProjectRunners,
    RunnerTimeoutError,
    ToolCrashedError,
    resolve_commands,
)
from testmend.runners.process import run_command
from testmend.workflow.context import RunDeps
from testmend.workspace.paths import PathEscapeError
from tests.support.git import git
from tests.support.runners import PASSING_TEST, runners_for, write

# --- jest -------------------------------------------------------------------------------------


async def test_passing_file(example_copy: Path) -> None:
    result = await runners_for(example_copy).run_tests(PASSING_TEST)
    assert result.file == PASSING_TEST
    assert result.success
    assert result.exit_code == 0
    assert result.suite_error is None
    assert result.passed_count == len(result.tests) >= 3
    first = result.tests[0]
    assert first.ancestors and first.title and first.full_name.endswith(first.title)
    assert first.location is not None and first.location.line > 1


async def test_failing_test_has_message_and_line(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/Failing.test.tsx",
        """
        describe('maths', () => {
          it('adds', () => {
            expect(1 + 1).toBe(2);
          });

          it('is wrong about subtraction', () => {
            const result = 5 - 3;
            expect(result).toBe(3);
          });

          it.skip('is skipped', () => {});
          it.todo('is planned');
        });
        """,
    )
    result = await runners_for(example_copy).run_tests(relative)
    assert not result.success
    assert result.exit_code == 1
    assert (result.passed_count, result.failed_count, result.skipped_count) == (1, 1, 2)
    [failing] = result.failing()
    assert failing.full_name == "maths is wrong about subtraction"
    assert failing.location is not None and failing.location.line == 6
    assert failing.failure_location is not None and failing.failure_location.line == 8
    message = failing.failure_messages[0]
    assert "Expected: 3" in message and "Received: 2" in message
    assert "\x1b[" not in message  # no colour codes reach the agent


async def test_a_failure_jest_cannot_serialise_still_gives_a_report(example_copy: Path) -> None:
    """A failed comparison of a class instance (React internals, circular) made jest's --json
    writer crash with no report; the results processor drops the raw error objects."""
    test = write(
        example_copy,
        "src/components/Counter/Circular.test.tsx",
        """
        import { mount } from 'enzyme';
        import { Counter } from './Counter';

        it('compares an instance', () => {
          const wrapper = mount(<Counter label="Seats" />);
          expect(wrapper.instance()).toEqual({ count: 1 });
        });

        it('passes', () => {
          expect(1 + 1).toBe(2);
        });
        """,
    )
    [result] = (await runners_for(example_copy).run_test_files([test])).values()
    assert result.suite_error is None
    assert [t.status for t in result.tests] == ["failed", "passed"]
    assert "toEqual" in result.tests[0].failure_messages[0]


async def test_rtl_dom_dump_has_no_colour_codes(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/Dom.test.tsx",
        """
        import { render, screen } from '@testing-library/react';

        it('looks for a missing button', () => {
          render(<p>hello</p>);
          screen.getByRole('button');
        });
        """,
    )
    result = await runners_for(example_copy).run_tests(relative)
    [failing] = result.failing()
    message = failing.failure_messages[0]
    assert "Unable to find an accessible element with the role" in message
    assert "<p>" in message and "\x1b[" not in message


async def test_syntax_error_is_a_suite_error_with_position(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/Broken.test.tsx",
        """
        describe('broken', () => {
          it('never runs', () => {
            const x = ;
          });
        });
        """,
    )
    result = await runners_for(example_copy).run_tests(relative)
    assert not result.success
    assert result.tests == []
    assert result.suite_error is not None
    assert "SyntaxError" in result.suite_error.message
    # What a one-line report shows: the error, not jest's "● Test suite failed to run" header.
    assert result.suite_error.headline.startswith("SyntaxError:")
    assert result.suite_error.location is not None
    assert result.suite_error.location.line == 3


async def test_file_without_tests_is_a_suite_error(example_copy: Path) -> None:
    relative = write(example_copy, "src/Empty.test.tsx", "export const nothing = 1;\n")
    result = await runners_for(example_copy).run_tests(relative)
    assert not result.success
    assert result.suite_error is not None
    assert "must contain at least one test" in result.suite_error.message
    assert "must contain at least one test" in result.suite_error.headline


async def test_no_tests_found(example_copy: Path) -> None:
    # jest.config.js has roots: ['<rootDir>/src'], so a test outside src is not a test to jest.
    relative = write(example_copy, "scripts/outside.test.ts", "it('x', () => {});\n")
    with pytest.raises(NoTestsFoundError) as caught:
        await runners_for(example_copy).run_tests(relative)
    assert "scripts/outside.test.ts" in caught.value.message
    assert "testMatch" in caught.value.hint


def _processes_mentioning(marker: str) -> list[str]:
    # -ww: full command lines (without it ps cuts them at 80 columns and the path is lost).
    listing = subprocess.run(
        ["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, check=True
    )
    return [line for line in listing.stdout.splitlines() if marker in line and "ps -ww" not in line]


async def test_hanging_test_is_killed_at_the_timeout(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/HangsForever.test.ts",
        """
        it('spins', () => {
          // A synchronous loop: jest's own per-test timeout cannot interrupt it.
          for (;;) {}
        });
        """,
    )
    runners = runners_for(example_copy, timeouts={"test": 6})
    with pytest.raises(RunnerTimeoutError) as caught:
        await runners.run_tests(relative)
    assert "did not finish within 6 s" in caught.value.message
    assert "timeouts.test" in caught.value.hint
    # The whole process group is gone: no jest (or jest worker) still runs the file.
    for _ in range(20):
        if not _processes_mentioning(str(example_copy)):
            break
        await asyncio.sleep(0.1)
    assert _processes_mentioning(str(example_copy)) == []


async def test_a_run_that_times_out_once_is_tried_again_with_more_time_when_asked(
    example_copy: Path, tmp_path: Path
) -> None:
    """What a run's steps call, with ``timeouts.retrySlowTests``: the first jest run hangs (a
    loaded machine), the second gets twice the time and its result is the step's, instead of
    a failed step. By default a run that times out is not tried again."""
    relative = write(
        example_copy,
        "src/SlowOnce.test.ts",
        """
        import fs from 'fs';
        import path from 'path';

        it('is slow the first time', () => {
          const marker = path.join(__dirname, 'ran-once');
          if (!fs.existsSync(marker)) {
            fs.writeFileSync(marker, '');
            for (;;) {}
          }
          expect(1).toBe(1);
        });
        """,
    )
    once = load_config(example_copy, environ={}, editor_settings={"timeouts": {"test": 6}})
    with pytest.raises(RunnerTimeoutError):
        await RunDeps(
            run_id="r",
            config=once,
            workspace_root=example_copy,
            runners=ProjectRunners(once),
            run_dir=tmp_path,
        ).run_tests(relative)
    (example_copy / "src" / "ran-once").unlink()
    config = load_config(
        example_copy,
        environ={},
        editor_settings={"timeouts": {"test": 6, "retrySlowTests": True}},
    )
    deps = RunDeps(
        run_id="r",
        config=config,
        workspace_root=example_copy,
        runners=ProjectRunners(config),
        run_dir=tmp_path,
    )
    result = await deps.run_tests(relative)
    assert result.passed_count == 1 and result.success
    assert (example_copy / "src" / "ran-once").exists()


async def test_cancelling_a_run_kills_jest(example_copy: Path) -> None:
    relative = write(example_copy, "src/Spin.test.ts", "it('spins', () => { for (;;) {} });\n")
    task = asyncio.create_task(runners_for(example_copy).run_tests(relative))
    for _ in range(100):
        await asyncio.sleep(0.1)
        if _processes_mentioning(str(example_copy)):
            break
    else:
        pytest.fail("jest never started")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _processes_mentioning(str(example_copy)) == []


# --- eslint -----------------------------------------------------------------------------------


async def test_lint_clean_file(example_copy: Path) -> None:
    result = await runners_for(example_copy).lint(PASSING_TEST)
    assert result.clean
    assert result.error_count == result.warning_count == 0


LINT_PROBLEMS = """
/* eslint prefer-const: "error", eqeqeq: "error" */
export function compare(a: number, b: number): boolean {
  let same = a == b;
  return same;
}
"""


async def test_lint_reports_rules_positions_and_fixability(example_copy: Path) -> None:
    relative = write(example_copy, "src/lintProblems.ts", LINT_PROBLEMS)
    result = await runners_for(example_copy).lint(relative)
    by_rule = {m.rule: m for m in result.messages}
    assert set(by_rule) == {"prefer-const", "eqeqeq"}
    assert by_rule["prefer-const"].fixable and by_rule["prefer-const"].severity == "error"
    assert (by_rule["prefer-const"].line, by_rule["prefer-const"].column) == (3, 7)
    assert not by_rule["eqeqeq"].fixable
    assert by_rule["eqeqeq"].line == 3
    assert result.fixable_count == 1
    # Linting reads only: the file is unchanged.
    assert (example_copy / relative).read_text().startswith("/* eslint")
    assert "let same" in (example_copy / relative).read_text()


async def test_lint_fix_repairs_what_it_can(example_copy: Path) -> None:
    relative = write(example_copy, "src/lintProblems.ts", LINT_PROBLEMS)
    result = await runners_for(example_copy).lint_fix(relative)
    assert result.changed
    assert [m.rule for m in result.messages] == ["eqeqeq"]  # not auto-fixable: left for the agent
    assert "const same = a == b;" in (example_copy / relative).read_text()


async def test_lint_fix_on_clean_file_changes_nothing(example_copy: Path) -> None:
    before = (example_copy / PASSING_TEST).read_bytes()
    result = await runners_for(example_copy).lint_fix(PASSING_TEST)
    assert not result.changed and result.clean
    assert (example_copy / PASSING_TEST).read_bytes() == before


async def test_lint_parse_error_is_fatal_message(example_copy: Path) -> None:
    relative = write(example_copy, "src/Broken.test.tsx", "const x = ;\n")
    result = await runners_for(example_copy).lint(relative)
    assert result.parse_error is not None
    assert result.parse_error.fatal and result.parse_error.rule is None
    assert result.parse_error.message.startswith("Parsing error")
    assert result.parse_error.line == 1


async def test_a_jest_that_dies_without_a_report_says_what_it_printed_last(
    example_copy: Path,
) -> None:
    """A component whose effects throw after the tests can kill jest before it writes its
    report (addons-code-manager's unmocked fetches): the error names what Node printed, not
    only the exit status."""
    relative = write(
        example_copy,
        "src/Dies.test.tsx",
        """
        it('passes, then the process dies', () => {
          setTimeout(() => {
            console.error(new TypeError('versions.filter is not a function'));
            process.exit(1);
          }, 0);
          expect(1).toBe(1);
        });

        it('waits', async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
        });
        """,
    )
    with pytest.raises(ToolCrashedError) as caught:
        await runners_for(example_copy).run_tests(relative)
    message = caught.value.message
    assert message.startswith("jest exited with status 1 without a report; it printed last: ")
    assert "TypeError: versions.filter is not a function" in message
    assert 'process.exit called with "1"' in message


async def test_lint_crash_is_a_clear_error(example_copy: Path) -> None:
    (example_copy / "eslint.config.js").write_text(
        "module.exports = [{ files: ['**/*.tsx'], rules: { 'no-such-rule': 'error' } }];\n"
    )
    with pytest.raises(ToolCrashedError) as caught:
        await runners_for(example_copy).lint(PASSING_TEST)
    assert caught.value.tool == "eslint"
    assert "no-such-rule" in caught.value.message


async def test_ignored_file_is_reported_as_ignored(example_copy: Path) -> None:
    config = (example_copy / "eslint.config.js").read_text()
    ignoring = config.replace("ignores: [", "ignores: ['src/ignored.ts', ", 1)
    assert ignoring != config
    (example_copy / "eslint.config.js").write_text(ignoring)
    relative = write(example_copy, "src/ignored.ts", "export const a = 1;\n")
    result = await runners_for(example_copy).lint(relative)
    assert result.ignored and not result.clean and result.messages == []


async def test_lint_and_type_results_are_kept_until_what_they_depend_on_changes(
    example_copy: Path, tmp_path: Path
) -> None:
    """eslint's and tsc's results on a content of the file are kept across runs (new runners
    over the same store: a next run's); once another file changes their verdict (eslint's
    configuration, a module the test imports), they run again: a kept result would give the
    old one."""
    from testmend.runners.kept import KeptResults, ResultCache

    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "app"]):
        git(example_copy, *args)
    store = ResultCache(tmp_path / "results")

    def runners() -> ProjectRunners:
        made = runners_for(example_copy)
        made.keep_checks_in(KeptResults(store, workspace_root=example_copy, tools=made.identity()))
        return made

    write(example_copy, "src/keptValue.ts", "export const value = 3;\n")
    relative = write(
        example_copy,
        "src/kept.test.ts",
        """
        import { value } from './keptValue';

        it('counts', () => {
          const count: number = value;
          console.info(count);
          expect(count).toBe(3);
        });
        """,
    )
    lint, types = await runners().lint(relative), await runners().typecheck(relative)
    assert lint.clean and types.clean
    # The same content in the same workspace: the kept results, timings and all (a run of
    # the tools would have taken another time).
    for again, first in (
        (await runners().lint(relative), lint),
        (await runners().typecheck(relative), types),
    ):
        assert again.reused and not first.reused
        assert again.model_copy(update={"reused": False}) == first

    config = example_copy / "eslint.config.js"
    config.write_text(
        config.read_text() + "\nmodule.exports.push({ rules: { 'no-console': 'error' } });\n"
    )
    assert [m.rule for m in (await runners().lint(relative)).messages] == ["no-console"]
    write(example_copy, "src/keptValue.ts", "export const value = 'three';\n")
    [diagnostic] = (await runners().typecheck(relative)).diagnostics
    assert (diagnostic.code, diagnostic.line) == ("TS2322", 4)


# --- tsc --------------------------------------------------------------------------------------


async def test_typecheck_clean(example_copy: Path) -> None:
    result = await runners_for(example_copy).typecheck(PASSING_TEST)
    assert result.clean and result.exit_code == 0
    assert result.diagnostics == [] and result.other_files_error_count == 0


async def test_type_error_with_code_and_position(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/typed.test.ts",
        """
        it('types', () => {
          const count: number = 'three';
          expect(count).toBeDefined();
        });
        """,
    )
    write(example_copy, "src/elsewhere.ts", "export const flag: boolean = 1;\n")
    result = await runners_for(example_copy).typecheck(relative)
    assert not result.clean
    [diagnostic] = result.diagnostics
    assert diagnostic.file == relative
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("TS2322", 2, 9)
    assert "not assignable to type 'number'" in diagnostic.message
    assert result.other_files_error_count == 1  # the error in elsewhere.ts is counted, not listed


async def test_broken_tsconfig(example_copy: Path) -> None:
    tsconfig = json.loads((example_copy / "tsconfig.json").read_text())
    tsconfig["compilerOptions"]["notAnOption"] = True
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    with pytest.raises(BrokenTsconfigError) as caught:
        await runners_for(example_copy).typecheck(PASSING_TEST)
    assert "TS5023" in caught.value.message and "notAnOption" in caught.value.message


async def test_typecheck_under_a_base_config_that_emits_declarations_only(
    tmp_path: Path, typescript4: Path
) -> None:
    """A package of a monorepo whose shared base config sets ``emitDeclarationOnly``:
    TypeScript 4 refuses it beside ``--noEmit`` (TS5053) unless the command turns it off."""
    write(
        tmp_path,
        "tsconfig.base.json",
        '{"compilerOptions": {"declaration": true, "emitDeclarationOnly": true, "strict": true}}',
    )
    package = tmp_path / "packages" / "ui"
    write(package, "package.json", '{"name": "ui", "devDependencies": {"typescript": "4.9.5"}}')
    write(package, "tsconfig.json", '{"extends": "../../tsconfig.base.json", "include": ["src"]}')
    (package / "node_modules").symlink_to(typescript4 / "node_modules")
    relative = write(package, "src/count.test.ts", "export const count: number = 'three';\n")
    runners = runners_for(package)
    assert runners.commands.typecheck is not None
    assert runners.commands.typecheck[:2] == ["node_modules/.bin/tsc", "--noEmit"]
    result = await runners.typecheck(relative)
    [diagnostic] = result.diagnostics
    assert diagnostic.code == "TS2322"


def test_javascript_tests_are_type_checked_only_where_tsc_checks_them(
    example_copy: Path,
) -> None:
    javascript = write(example_copy, "src/plain.test.js", "it('x', () => {});\n")
    checked = write(example_copy, "src/checked.test.js", "// @ts-check\nit('x', () => {});\n")
    runners = runners_for(example_copy)
    assert runners.type_checked(PASSING_TEST)
    assert not runners.type_checked(javascript)
    assert runners.type_checked(checked)
    # checkJs in the config it extends
    write(example_copy, "tsconfig.strict.json", '{"compilerOptions": {"checkJs": true}}')
    tsconfig = json.loads((example_copy / "tsconfig.json").read_text())
    tsconfig["extends"] = "./tsconfig.strict.json"
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    assert runners.type_checked(javascript)
    (example_copy / "tsconfig.json").unlink()
    assert not runners_for(example_copy).type_checked(PASSING_TEST)  # no type check at all


def test_tests_outside_the_tsconfig_program_are_not_type_checked(example_copy: Path) -> None:
    """visx's layout: the root tsconfig includes only ``./src/**/*`` (it has none: tsc fails
    with TS18003 "no inputs"), each package excludes its ``test`` folder. tsc never checks
    those tests, so they must not fail on it; tests the program holds still are checked."""
    tsconfig = json.loads((example_copy / "tsconfig.json").read_text())
    outside = write(example_copy, "packages/shape/test/Line.test.tsx", "it('x', () => {});\n")
    assert runners_for(example_copy).type_checked(PASSING_TEST)
    tsconfig["include"] = ["./src/**/*"]
    tsconfig["exclude"] = ["**/node_modules/*", "src/**/*.test.tsx"]
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    runners = runners_for(example_copy)
    assert not runners.type_checked(outside)
    assert not runners.type_checked(PASSING_TEST)  # excluded
    tsconfig["exclude"] = ["**/node_modules/*"]
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    assert runners_for(example_copy).type_checked(PASSING_TEST)
    # A folder in include means everything under it; `files` lists single files.
    tsconfig["include"] = ["packages"]
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    assert runners_for(example_copy).type_checked(outside)
    tsconfig.pop("include")
    tsconfig["files"] = ["src/index.tsx"]
    (example_copy / "tsconfig.json").write_text(json.dumps(tsconfig))
    assert not runners_for(example_copy).type_checked(PASSING_TEST)


# --- environment and errors -----------------------------------------------------------------


async def test_missing_node_modules(example_copy: Path) -> None:
    (example_copy / "node_modules").unlink()
    with pytest.raises(MissingNodeModulesError) as caught:
        await runners_for(example_copy).run_tests(PASSING_TEST)
    assert "npm ci" in caught.value.hint


async def test_missing_configured_binary(example_copy: Path) -> None:
    runners = runners_for(example_copy, commands={"test": "node_modules/.bin/vitest"})
    with pytest.raises(MissingBinaryError) as caught:
        await runners.run_tests(PASSING_TEST)
    assert "node_modules/.bin/vitest" in caught.value.message
    runners = runners_for(example_copy, commands={"lint": "/nonexistent/eslint"})
    with pytest.raises(MissingBinaryError, match="/nonexistent/eslint"):
        await runners.lint(PASSING_TEST)


async def test_unconfigured_tool_says_why(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "a.test.js").write_text("it('x', () => {});\n")
    with pytest.raises(MissingBinaryError, match=r"jest not found in node_modules/\.bin"):
        await runners_for(tmp_path).run_tests("a.test.js")


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        (
            "cross-env SKIP_PREFLIGHT_CHECK=true react-app-rewired test --env=jsdom",
            [
                "node_modules/.bin/cross-env",
                "SKIP_PREFLIGHT_CHECK=true",
                "node_modules/.bin/react-app-rewired",
                "test",
                "--env=jsdom",
                "--watchAll=false",
            ],
        ),
        (
            "react-scripts test --watch",
            ["node_modules/.bin/react-scripts", "test", "--watchAll=false"],
        ),
        ("craco test", ["node_modules/.bin/craco", "test", "--watchAll=false"]),
        ("jest --silent", ["node_modules/.bin/jest"]),
    ],
)
def test_create_react_app_test_scripts_win_over_the_bare_jest_they_install(
    tmp_path: Path, script: str, argv: list[str]
) -> None:
    """Create React App installs jest too, but jest alone lacks its transform: the project's
    test script is how its tests run."""
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": script}}))
    bin_dir = tmp_path / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    for name in ("jest", "react-scripts", "react-app-rewired", "craco", "cross-env"):
        (bin_dir / name).write_text("")
    commands = resolve_commands(load_config(tmp_path, environ={}), tmp_path)
    assert commands.test == argv


async def test_paths_outside_the_project_are_refused(example_copy: Path) -> None:
    runners = runners_for(example_copy)
    with pytest.raises(PathEscapeError):
        await runners.run_tests("../outside.test.ts")
    with pytest.raises(PathEscapeError):
        await runners.lint("/etc/passwd")
    with pytest.raises(FileNotFoundError):
        await runners.typecheck("src/missing.test.ts")


async def test_configured_commands_run_in_the_given_directory(example_copy: Path) -> None:
    (example_copy / CONFIG_FILE_NAME).write_text(
        json.dumps({"commands": {"test": ["node", "node_modules/jest/bin/jest.js"]}})
    )
    config = load_config(example_copy, environ={})
    assert resolve_commands(config).origin["test"] == "configured"
    result = await ProjectRunners(config).run_tests(PASSING_TEST)
    assert result.success


async def test_model_key_does_not_reach_the_tools(example_copy: Path) -> None:
    relative = write(
        example_copy,
        "src/Env.test.ts",
        """
        it('sees no key', () => {
          expect(process.env.OPENAI_API_KEY).toBeUndefined();
          expect(process.env.COLORS).toBe('false');
        });
        """,
    )
    config = load_config(example_copy, environ={})
    env = {**os.environ, "OPENAI_API_KEY": "sk-should-not-leak"}
    result = await ProjectRunners(config, env=env).run_tests(relative)
    assert result.success, result.failing()


@pytest.mark.parametrize("how", ["timeout", "cancel"])
async def test_a_stopped_command_leaves_no_unretrieved_error(tmp_path: Path, how: str) -> None:
    """A timeout or a cancel must not make asyncio log "exception was never retrieved" (it
    reached the editor's output channel as an ERROR with a traceback)."""
    loop = asyncio.get_running_loop()
    seen: list[str] = []
    loop.set_exception_handler(lambda loop, context: seen.append(str(context.get("message"))))
    argv = [sys.executable, "-c", "import time; time.sleep(30)"]
    call = run_command(argv, cwd=tmp_path, env=os.environ, timeout=0.5, tool="jest")
    if how == "timeout":
        with pytest.raises(RunnerTimeoutError):
            await call
    else:
        task = asyncio.ensure_future(call)
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    del call
    gc.collect()
    await asyncio.sleep(0.05)
    assert [m for m in seen if "never retrieved" in m] == []


async def test_a_reporter_of_the_projects_is_left_out(example_copy: Path) -> None:
    """A project's reporter can fail the run (addons-code-manager's runs eslint and git,
    which the sandbox blocks): testmend's runs print with jest's default reporter only, from
    the config and from the command alike."""
    write(
        example_copy,
        "failing-reporter.js",
        """
        class FailingReporter {
          onRunStart() {
            throw new Error('this reporter needs git');
          }
        }
        module.exports = FailingReporter;
        """,
    )
    config = (example_copy / "jest.config.js").read_text()
    (example_copy / "jest.config.js").write_text(
        config.replace(
            "clearMocks: true,",
            "clearMocks: true,\n  reporters: ['default', '<rootDir>/failing-reporter.js'],",
        )
    )
    runners = runners_for(
        example_copy,
        commands={"test": ["node_modules/.bin/jest", "--reporters=<rootDir>/failing-reporter.js"]},
    )
    result = await runners.run_tests(PASSING_TEST)
    assert result.success and result.passed_count > 0, result.suite_error


def test_lint_warnings_count_where_the_projects_lint_fails_on_them(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(
        json.dumps(
            {
                "scripts": {
                    "lint": "eslint src --max-warnings=3",
                    "lint:ci": "eslint . --max-warnings 0 && tsc",
                    "format": "prettier --max-warnings 9 .",
                }
            }
        )
    )
    commands = resolve_commands(load_config(tmp_path, environ={}), tmp_path)
    assert commands.lint_max_warnings == 0
    configured = load_config(
        tmp_path, environ={}, editor_settings={"commands": {"lintMaxWarnings": 5}}
    )
    assert resolve_commands(configured, tmp_path).lint_max_warnings == 5
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"lint": "eslint ."}}))
    assert resolve_commands(load_config(tmp_path, environ={}), tmp_path).lint_max_warnings is None
