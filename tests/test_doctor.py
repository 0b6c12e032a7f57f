"""`testmend doctor` on the example app and on projects that lack something."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from testmend.cli import main
from testmend.doctor import Check, render_report, run_doctor


def checks_by_name(report_json: dict[str, object]) -> dict[str, dict[str, object]]:
    return {c["name"]: c for c in report_json["checks"]}  # type: ignore[index,union-attr]


def test_example_app_is_ready(example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", str(example_copy), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["ready"] is True
    checks = checks_by_name(report)
    assert checks["project"]["detail"].startswith("testmend-example-react-app (react 17.")
    assert checks["package manager"]["detail"].startswith("npm (")
    assert checks["jest"]["status"] == "ok" and checks["jest"]["detail"].startswith("29.")
    assert checks["eslint"]["status"] == "ok" and checks["eslint"]["detail"].startswith("v9.")
    assert checks["tsc"]["status"] == "ok" and checks["tsc"]["detail"].startswith("5.9")
    assert checks["testing library"]["status"] == "ok"
    assert checks["testing library"]["detail"].startswith("@testing-library/react 12.1.5, ")
    # The example app has 10 Enzyme suites (and 3 already on RTL).
    assert checks["enzyme tests"]["detail"].startswith("10 test file(s)")
    # Not a git repository (a temp copy): runs will use a filtered copy.
    assert "filtered copy" in checks["workspace"]["detail"]


def test_human_output_lists_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], node: str
) -> None:
    (tmp_path / "package.json").write_text(
        json.dumps({"name": "bare", "devDependencies": {"react": "^18.2.0", "jest": "^29"}})
    )
    code = main(["doctor", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "✗ node_modules" in out and "fix: run `npm ci` in" in out
    assert "@testing-library/react@16" in out  # the right major for React 18
    assert out.rstrip().endswith("first.")
    assert "Not ready: fix node_modules, jest, testing library first." in out


def test_no_package_json(tmp_path: Path) -> None:
    report = run_doctor(tmp_path)
    assert not report.ready
    assert "no package.json" in report.checks[0].detail
    missing = run_doctor(tmp_path / "nope")
    assert not missing.ready and "does not exist" in missing.checks[0].detail


def test_bad_config_blocks_with_its_message(example_copy: Path) -> None:
    (example_copy / "testmend.config.json").write_text(json.dumps({"retry": {"max": 1}}))
    report = run_doctor(example_copy)
    assert not report.ready
    config_check = next(c for c in report.checks if c.name == "config")
    assert "retry.max: unknown key" in config_check.detail


def _project(root: Path, app: Path, react: str, installed: dict[str, str]) -> None:
    """A project with jest from the example ``app`` and these packages at these versions."""
    (root / "package.json").write_text(
        json.dumps({"name": "old", "dependencies": {"react": react}})
    )
    modules = root / "node_modules"
    (modules / ".bin").mkdir(parents=True)
    (modules / "jest").symlink_to(app / "node_modules" / "jest")
    (modules / ".bin" / "jest").symlink_to("../jest/bin/jest.js")
    for name, version in installed.items():
        (modules / name).mkdir(parents=True)
        (modules / name / "package.json").write_text(json.dumps({"version": version}))


def test_project_without_testing_library(tmp_path: Path, example_app: Path) -> None:
    """A project with jest installed but not RTL: the migrated tests could not run; the fix is
    one command with the project's package manager and the versions for its React and jest."""
    _project(tmp_path, example_app, "^17.0.2", {"react": "17.0.2"})
    (tmp_path / "yarn.lock").write_text("")
    report = run_doctor(tmp_path, environ={})
    checks = {c.name: c for c in report.checks}
    assert checks["package manager"].detail == "yarn (yarn.lock)"
    assert checks["jest"].status == "ok"
    assert checks["eslint"].status == "warning" and not checks["eslint"].blocking
    assert checks["tsc"].status == "info"  # no tsconfig: a JavaScript project
    library = checks["testing library"]
    assert library.blocking
    assert (library.fix or "").startswith(
        "`yarn add --dev @testing-library/react@12 @testing-library/jest-dom@6` in "
    )
    assert "for React 17.0.2 and jest 29." in (library.fix or "")
    assert checks["enzyme tests"].detail.endswith("nothing to migrate")
    assert not report.ready


@pytest.mark.parametrize(
    ("react", "installed", "install"),
    [
        # RTL 13+ renders with createRoot: React 18 only.
        ("17.0.2", {"@testing-library/react": "14.3.1"}, "@testing-library/react@12"),
        # RTL 16 takes @testing-library/dom as a peer.
        ("18.3.1", {"@testing-library/react": "16.1.0"}, "@testing-library/dom@10"),
        # React 19 removed ReactDOM.render, which RTL 12 uses (and 16 needs dom beside it).
        (
            "19.0.0",
            {"@testing-library/react": "12.1.5"},
            "@testing-library/react@16 @testing-library/dom@10",
        ),
    ],
)
def test_testing_library_that_does_not_fit_react(
    tmp_path: Path, react: str, installed: dict[str, str], install: str, example_app: Path
) -> None:
    _project(
        tmp_path,
        example_app,
        react,
        {"react": react, "@testing-library/jest-dom": "6.6.3", **installed},
    )
    (tmp_path / "package-lock.json").write_text("{}")
    library = next(
        c for c in run_doctor(tmp_path, environ={}).checks if c.name == "testing library"
    )
    assert library.blocking
    assert (library.fix or "").startswith(f"`npm install --save-dev {install}` in ")


def test_jest_before_28_gets_jest_dom_5(tmp_path: Path, example_app: Path) -> None:
    _project(
        tmp_path, example_app, "16.14.0", {"react": "16.14.0", "@testing-library/react": "12.1.5"}
    )
    (tmp_path / "node_modules" / "jest").unlink()
    (tmp_path / "node_modules" / "jest").mkdir()
    (tmp_path / "node_modules" / "jest" / "package.json").write_text('{"version": "27.5.1"}')
    library = next(
        c for c in run_doctor(tmp_path, environ={}).checks if c.name == "testing library"
    )
    assert "@testing-library/jest-dom@5" in (library.fix or "")


def test_monorepo_package_with_the_lockfile_two_levels_up(
    tmp_path: Path, example_app: Path
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "yarn.lock").write_text("")
    package = tmp_path / "packages" / "ui"
    package.mkdir(parents=True)
    _project(package, example_app, "^17.0.2", {"react": "17.0.2"})
    report = run_doctor(package, environ={})
    checks = {c.name: c for c in report.checks}
    assert checks["package manager"].detail == "yarn (../../yarn.lock)"
    assert "yarn add --dev" in (checks["testing library"].fix or "")


def test_model_reported_without_the_key(example_copy: Path) -> None:
    secret = "sk-never-print-this"
    (example_copy / "testmend.config.json").write_text(
        json.dumps({"model": {"tiers": {"full": "gpt-4.1"}}})
    )
    environ = {**os.environ, "OPENAI_API_KEY": secret}
    report = run_doctor(example_copy, environ=environ, probe_model=False)
    model = next(c for c in report.checks if c.name == "model")
    assert model.status == "ok" and "full=gpt-4.1" in model.detail and "key set" in model.detail
    assert "not tried" in model.detail
    rendered = render_report(report) + report.model_dump_json()
    assert secret not in rendered

    named_only = run_doctor(example_copy, environ={"PATH": os.environ["PATH"]}, probe_model=False)
    model = next(c for c in named_only.checks if c.name == "model")
    assert "OPENAI_API_KEY is not set" in model.detail


def test_console_script_runs_doctor_on_the_git_checkout(example_app: Path) -> None:
    """The installed `testmend` entry point, on the bundled example inside this repository."""
    testmend = Path(sys.executable).with_name("testmend")
    done = subprocess.run(
        [str(testmend), "doctor", str(example_app)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ready: a migration can run." in done.stdout
    assert "git worktree of HEAD" in done.stdout


def test_the_sandbox_in_force_and_what_it_allows(example_copy: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    environ = {**os.environ, "HOME": str(home)}
    report = run_doctor(example_copy, environ=environ)
    sandbox = next(c for c in report.checks if c.name == "sandbox")
    assert sandbox.status in ("ok", "warning") and not sandbox.blocking
    assert sandbox.detail.startswith(("bubblewrap", "landlock"))
    assert "Writable: the run's workspace and its temp dir" in sandbox.detail
    assert "network: none" in sandbox.detail and str(home / ".ssh") in sandbox.detail

    allowed = run_doctor(
        example_copy,
        editor_settings={"sandbox": {"network": ["registry.npmjs.org"]}},
        environ=environ,
    )
    detail = next(c for c in allowed.checks if c.name == "sandbox").detail
    assert "network: only registry.npmjs.org, through testmend's proxy" in detail


def test_a_missing_sandbox_says_how_to_get_one(example_copy: Path) -> None:
    report = run_doctor(example_copy, editor_settings={"sandbox": {"mode": "seatbelt"}})
    sandbox = next(c for c in report.checks if c.name == "sandbox")
    if sys.platform == "darwin":  # pragma: no cover - the macOS path
        pytest.skip("sandbox-exec exists on macOS")
    assert sandbox.status == "missing" and sandbox.blocking and not report.ready
    assert "Seatbelt (sandbox-exec) is macOS only" in sandbox.detail
    assert sandbox.fix is not None and "bubblewrap" in sandbox.fix

    off = run_doctor(example_copy, editor_settings={"sandbox": {"mode": "off"}})
    sandbox = next(c for c in off.checks if c.name == "sandbox")
    assert sandbox.status == "warning" and not sandbox.blocking
    assert "run with your rights" in sandbox.detail


def test_an_unwritable_state_folder_blocks(example_copy: Path) -> None:
    (example_copy / ".testmend").write_text("a file where the folder goes")
    report = run_doctor(example_copy, probe_model=False)
    state = next(c for c in report.checks if c.name == "state")
    assert state.status == "missing" and state.blocking and not report.ready
    assert f"cannot write {example_copy / '.testmend'}" in state.detail


def _model_settings(url: str) -> dict[str, object]:
    return {"model": {"baseUrl": url, "tiers": {"full": "gpt-4.1", "mini": "gpt-4.1-mini"}}}


def test_the_model_is_tried_for_real(tmp_path: Path) -> None:
    """One request to the endpoint's model list: unreachable, a refused key and a model it does
    not serve are each one sentence (the run would fall back to the codemod)."""
    import http.server
    import threading

    served: list[str] = []

    class Endpoint(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.append(self.headers.get("Authorization", ""))
            if self.headers.get("Authorization") != "Bearer right":
                self.send_response(401)
                self.end_headers()
                return
            body = json.dumps({"data": [{"id": "gpt-4.1"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    (tmp_path / "package.json").write_text("{}")
    try:

        def model_check(key: str) -> Check:
            report = run_doctor(
                tmp_path, editor_settings=_model_settings(url), environ={"OPENAI_API_KEY": key}
            )
            return next(c for c in report.checks if c.name == "model")

        refused = model_check("wrong")
        assert refused.status == "missing" and "refused the key (HTTP 401)" in refused.detail
        partly = model_check("right")
        assert partly.status == "missing" and "does not serve gpt-4.1-mini" in partly.detail
        assert "wrong" not in partly.detail and "right" not in partly.detail
    finally:
        server.shutdown()
        server.server_close()  # nobody listens any more: the connection is refused
    gone = run_doctor(
        tmp_path, editor_settings=_model_settings(url), environ={"OPENAI_API_KEY": "right"}
    )
    unreachable = next(c for c in gone.checks if c.name == "model")
    assert unreachable.status == "missing" and "cannot reach" in unreachable.detail
    assert served == ["Bearer wrong", "Bearer right"]


@pytest.mark.parametrize(
    ("installed", "settings", "status", "detail"),
    [
        # Jest 25's jsdom 15 lacks what user-event 14 calls: the codemod fires events instead.
        (
            {"@testing-library/user-event": "14.5.2", "jest-environment-jsdom": "25.5.0"},
            {},
            "warning",
            "user-event 14.5.2 calls document.getSelection and Event.composedPath, which "
            "jest's jsdom 15.2.1 lacks: migrated tests fire events with fireEvent",
        ),
        (
            {"@testing-library/user-event": "14.5.2", "jest-environment-jsdom": "29.7.0"},
            {},
            "ok",
            "14.5.2: userEvent (jest's jsdom 20.0.3)",
        ),
        (
            {"@testing-library/user-event": "13.5.0"},
            {},
            "info",
            "13.5.0 (before 14): migrated tests fire events with fireEvent",
        ),
        (
            {"@testing-library/user-event": "14.5.2", "jest-environment-jsdom": "25.5.0"},
            {"codemod": {"events": "fireEvent"}},
            "info",
            "fireEvent (codemod.events)",
        ),
    ],
)
def test_how_migrated_tests_fire_events(
    tmp_path: Path,
    example_app: Path,
    installed: dict[str, str],
    settings: dict[str, dict[str, str]],
    status: str,
    detail: str,
) -> None:
    """user-event 14 where the project has it, unless jest's jsdom is older than 16 (every call
    would throw): then doctor says the tests get fireEvent, and what would give userEvent."""
    _project(tmp_path, example_app, "17.0.2", {"react": "17.0.2", **installed})
    environment = tmp_path / "node_modules" / "jest-environment-jsdom"
    if environment.is_dir():
        jsdom = "15.2.1" if installed["jest-environment-jsdom"].startswith("25") else "20.0.3"
        (environment / "node_modules" / "jsdom").mkdir(parents=True)
        (environment / "node_modules" / "jsdom" / "package.json").write_text(
            json.dumps({"version": jsdom})
        )
    report = run_doctor(tmp_path, environ={}, editor_settings=settings or None)
    check = next(c for c in report.checks if c.name == "user-event")
    assert (check.status, check.detail) == (status, detail)
    assert not check.blocking
