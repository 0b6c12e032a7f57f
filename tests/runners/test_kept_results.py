"""The key of the original test's kept results: what a shadow workspace holds (real git) and the
store the results are kept in. A key that misses a change would hand a run another state's
verdict; one that changes for nothing would only cost time."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from testmend.runners import TestRunResult
from testmend.runners.kept import ResultCache, digest
from testmend.workspace.state import workspace_state


def git(root: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "app" / "src").mkdir(parents=True)
    (root / ".gitignore").write_text("node_modules/\nbuild/\n")
    (root / "app" / "src" / "Button.js").write_text("export const Button = () => null;\n")
    (root / "app" / "src" / "Button.test.js").write_text("it('renders', () => {});\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    return root


def test_the_state_follows_every_file_the_workspace_holds(repo: Path) -> None:
    app = repo / "app"
    test = "src/Button.test.js"
    first = workspace_state(app, exclude=[test])
    assert first is not None and first == workspace_state(app, exclude=[test])
    button = app / "src" / "Button.js"
    button.write_text("export const Button = () => 'x';\n")  # a tracked file edited
    edited = workspace_state(app, exclude=[test])
    assert edited != first
    button.write_text("export const Button = () => null;\n")  # put back: the same state
    assert workspace_state(app, exclude=[test]) == first
    (app / "src" / "helpers.js").write_text("export const x = 1;\n")  # a new untracked file
    assert workspace_state(app, exclude=[test]) not in (first, edited)
    (app / "src" / "helpers.js").unlink()
    button.unlink()  # a deleted file
    assert workspace_state(app, exclude=[test]) != first
    git(repo, "checkout", "-q", "--", "app/src/Button.js")
    assert workspace_state(app, exclude=[test]) == first
    (repo / "babel.config.js").write_text("module.exports = {};\n")  # above the project
    assert workspace_state(app, exclude=[test]) != first


def test_the_file_under_migration_and_ignored_files_do_not_count(repo: Path) -> None:
    app = repo / "app"
    test = "src/Button.test.js"
    first = workspace_state(app, exclude=[test])
    (app / test).write_text("it('is the candidate now', () => {});\n")
    assert workspace_state(app, exclude=[test]) == first
    assert workspace_state(app) != first  # it counts where it is not left out
    (app / "build").mkdir()
    (app / "build" / "out.js").write_text("ignored")
    assert workspace_state(app, exclude=[test]) == first


def test_a_new_commit_is_a_new_state_even_with_the_same_files(repo: Path) -> None:
    app = repo / "app"
    first = workspace_state(app)
    git(repo, "commit", "-q", "--allow-empty", "-m", "two")
    assert workspace_state(app) != first


def test_an_install_changes_the_state(repo: Path, tmp_path: Path) -> None:
    app = repo / "app"
    modules = tmp_path / "node_modules"
    for name in ("react", "@testing-library/react"):
        (modules / name).mkdir(parents=True)
        (modules / name / "package.json").write_text('{"version": "1.0.0"}')
    (modules / ".package-lock.json").write_text('{"packages": {"react": "1.0.0"}}')
    first = workspace_state(app, linked=[modules])
    assert first == workspace_state(app, linked=[modules])
    assert first != workspace_state(app)
    # npm rewrites its marker at every install.
    (modules / ".package-lock.json").write_text('{"packages": {"react": "1.0.1"}}')
    marker = workspace_state(app, linked=[modules])
    assert marker != first
    # A package replaced (a new directory), the marker aside: as yarn 1 without integrity.
    (modules / ".package-lock.json").unlink()
    before = workspace_state(app, linked=[modules])
    shutil.rmtree(modules / "@testing-library" / "react")
    (modules / "@testing-library" / "react").mkdir()
    stamp = os.stat(modules / "@testing-library" / "react").st_mtime_ns + 1_000_000
    os.utime(modules / "@testing-library" / "react", ns=(stamp, stamp))
    assert workspace_state(app, linked=[modules]) != before


def test_outside_git_nothing_is_kept(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    assert workspace_state(tmp_path / "plain") is None


def result(name: str) -> TestRunResult:
    return TestRunResult(file=name, exit_code=0, tests=[], duration_s=0.5)


def test_the_store_keeps_the_recently_used_and_misses_what_it_cannot_read(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "results", max_entries=2)
    keys = [digest("capture", str(n)) for n in range(3)]
    assert cache.get(keys[0], TestRunResult) is None
    cache.put(keys[0], result("a"))
    cache.put(keys[1], result("b"))
    old = os.stat(tmp_path / "results" / f"{keys[1]}.json").st_mtime_ns - 10_000_000_000
    os.utime(tmp_path / "results" / f"{keys[1]}.json", ns=(old, old))
    assert cache.get(keys[0], TestRunResult) == result("a")
    cache.put(keys[2], result("c"))  # past the limit: the least recently used goes
    assert cache.get(keys[1], TestRunResult) is None
    assert cache.get(keys[2], TestRunResult) == result("c")
    assert cache.get(keys[0], TestRunResult) == result("a")
    (tmp_path / "results" / f"{keys[2]}.json").write_text('{"file": ')  # torn by a crash
    assert cache.get(keys[2], TestRunResult) is None
    with pytest.raises(ValueError):
        cache.get("../../etc/passwd", TestRunResult)


def test_a_generated_input_of_the_tests_counts(repo: Path) -> None:
    """The CSS a build step compiled (ignored by git) is what a test imports: a change of it
    is a new state; a build folder's output and a secret are not inputs."""
    (repo / ".gitignore").write_text("node_modules/\nbuild/\n*.css\n.env\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore")
    app = repo / "app"
    (app / "src" / "Button.css").write_text(".button { color: red; }\n")
    first = workspace_state(app)
    (app / "src" / "Button.css").write_text(".button { color: blue; }\n")
    second = workspace_state(app)
    assert second != first
    (app / "build").mkdir(exist_ok=True)
    (app / "build" / "bundle.css").write_text("built")
    (app / ".env").write_text("KEY=1\n")
    assert workspace_state(app) == second
