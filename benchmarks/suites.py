"""Set up the public Enzyme suites testmend is measured on, outside the tree, by the recipe each
needed, so that their figures in docs/codemod.md can be measured again on a fresh machine.

    .venv/bin/python benchmarks/suites.py NAME... --into DIR [--source NAME=GIT_DIR ...]
    .venv/bin/python benchmarks/suites.py --list

Each suite is cloned into ``DIR/NAME`` (from GitHub, or from a local clone given with
``--source``), checked out at the commit its figures were measured at, installed as it must be
today (some of its locked packages are no longer served, some need a pin), and the result is
committed, so that a migration's diff is the migration's alone. Then:

    .venv/bin/python benchmarks/migrate_examples.py --app DIR/NAME[/APP] --jobs 2 --json OUT

where ``APP`` is the suite's project folder (kubeapps' ``dashboard``), which this script prints.
An existing ``DIR/NAME`` is left alone: the script says so and goes on with the next suite. A
suite whose step fails (or a run stopped) leaves no checkout: what the step started is stopped
and the half-made ``DIR/NAME`` removed; the other suites are still set up, and the script exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Steps are commands run in the project folder, or Python functions given that folder.
Step = tuple[str, ...] | Callable[[Path], None]

YARN_IGNORE_ENGINES = ("yarn", "install", "--frozen-lockfile", "--ignore-engines")
# The Testing Library that supports React 16, added where a suite has none (what `testmend
# doctor` asks for).
TESTING_LIBRARY_12 = (
    "yarn",
    "add",
    "--dev",
    "@testing-library/react@12",
    "@testing-library/jest-dom@5",
    "--ignore-engines",
)


def _locked_name(header: str) -> str:
    """The package a yarn 1 lockfile entry is for: ``"@scope/x@^1", "@scope/x@^1.2":`` →
    ``@scope/x``."""
    first = header.split(",")[0].strip().strip('"')
    return first[: first.rindex("@")] if first.rfind("@") > 0 else first


def _pinned(pins: dict[str, str], drop_lockfile: bool = False) -> Callable[[Path], None]:
    """A step that pins packages (in the project's own dependencies where it names them, in
    yarn's ``resolutions`` for the others) and takes them out of the lockfile, which yarn would
    otherwise still follow; ``drop_lockfile``: the whole lockfile goes, so yarn resolves
    everything again (for one that names packages the registry no longer serves)."""

    def step(app: Path) -> None:
        manifest = app / "package.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        for name, version in pins.items():
            # yarn 1 ignores a resolution of the project's own dependency that its range
            # allows; the range itself is pinned there.
            owners = [d for d in ("dependencies", "devDependencies") if name in data.get(d, {})]
            for owner in owners:
                data[owner][name] = version
            if not owners:
                data.setdefault("resolutions", {})[name] = version
        manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        lockfile = app / "yarn.lock"
        if drop_lockfile or not lockfile.exists():
            lockfile.unlink(missing_ok=True)
            return
        entries = lockfile.read_text(encoding="utf-8").split("\n\n")
        kept = [e for e in entries if _locked_name(e.lstrip("\n").split("\n")[0]) not in pins]
        lockfile.write_text("\n\n".join(kept), encoding="utf-8")

    step.__doc__ = f"pin {', '.join(f'{k}@{v}' for k, v in pins.items())}" + (
        ", resolve again without the lockfile" if drop_lockfile else ""
    )
    return step


@dataclass(frozen=True)
class Suite:
    name: str
    repo: str  # owner/name on GitHub
    commit: str
    steps: tuple[Step, ...]
    app: str = "."  # the project folder inside the checkout
    why: str = ""  # what the recipe works around, in a sentence
    # Files the steps write that the project's .gitignore hides but its tests import.
    generated: tuple[str, ...] = ()


SUITES: dict[str, Suite] = {
    suite.name: suite
    for suite in (
        Suite(
            "visx",
            "airbnb/visx",
            "4b6dd163",
            (
                YARN_IGNORE_ENGINES,
                ("yarn", "run", "build:vendor"),
                ("yarn", "run", "babel"),
                ("yarn", "run", "type:clean"),
                # Its own `type:build` starts every package's `tsc --build` at once, and
                # those write the same shared declarations: under load one reads another's
                # half-written `lib/Group.d.ts` ("is not a module"). In dependency order,
                # each finds what it references built (lerna exec's default, without
                # --parallel). yarn 1 swallows the first `--`; the second keeps lerna from
                # taking `--build` as its own.
                ("yarn", "lerna", "exec", "--", "--", "tsc", "--build"),
            ),
            why=(
                "its tests import the packages' built lib/ folders (RTL 16, React 18 already); "
                "`yarn build` with its declarations built in dependency order"
            ),
        ),
        Suite(
            "reactstrap",
            "reactstrap/reactstrap",
            "2c95598e",
            (YARN_IGNORE_ENGINES, TESTING_LIBRARY_12),
            why="React 16: Testing Library 12 added",
        ),
        Suite(
            "typeahead",
            "ericgio/react-bootstrap-typeahead",
            "27b525b5",
            (YARN_IGNORE_ENGINES, TESTING_LIBRARY_12),
            why="React 16: Testing Library 12 added",
        ),
        Suite(
            "kubeapps",
            "vmware-tanzu/kubeapps",
            "a1c4ea53d",
            (
                _pinned({"cheerio": "1.0.0-rc.12"}, drop_lockfile=True),
                ("yarn", "install", "--ignore-engines"),
                ("yarn", "run", "compile-lang"),
                ("yarn", "run", "build-css"),
            ),
            app="dashboard",
            why=(
                "the registry no longer serves its locked @cds/react 6.10.0, so its dependencies "
                "are resolved again (cheerio held at 1.0.0-rc.12 for enzyme); its tests need the "
                "compiled messages and CSS that `yarn test` builds first"
            ),
            generated=("src/locales", "src/**/*.css"),
        ),
        Suite(
            "addons-code-manager",
            "mozilla/addons-code-manager",
            "38c56a8a",
            (
                _pinned(
                    {
                        "eslint-config-amo": "5.1.0",
                        "eslint-plugin-amo": "1.21.0",
                        "get-intrinsic": "1.2.4",
                    }
                ),
                ("yarn", "install", "--ignore-engines", "--ignore-scripts"),
                (*TESTING_LIBRARY_12, "--ignore-scripts"),
            ),
            why=(
                "the registry no longer serves eslint-config-amo 5.0.0 and eslint-plugin-amo "
                "1.18.0 (5.1.0 pins the same airbnb config); get-intrinsic past 1.2.4 needs ES "
                "modules eslint 7 cannot load; install scripts skipped (a dev tool's node-pty "
                "does not build here)"
            ),
        ),
    )
}


def _run(command: tuple[str, ...], cwd: Path) -> None:
    """Run one step in a process group of its own; when it fails or this script is stopped,
    what it started goes with it (a failed `lerna exec --parallel` leaves its other children
    building)."""
    print(f"  $ {' '.join(command)}", flush=True)
    process = subprocess.Popen(command, cwd=cwd, start_new_session=True)
    try:
        code = process.wait()
    finally:
        _stop_group(process.pid)
    if code != 0:
        raise subprocess.CalledProcessError(code, command)


def _stop_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(pid, signal.SIGKILL)


def _describe(step: Step) -> str:
    return " ".join(step) if isinstance(step, tuple) else (step.__doc__ or step.__name__)


def set_up(suite: Suite, into: Path, source: str | None) -> Path | None:
    """Clone, check out, install and commit one suite; the project folder, or None if the
    folder was there already."""
    checkout = into / suite.name
    app = checkout / suite.app
    if checkout.exists():
        print(f"{suite.name}: {checkout} exists; left as it is", flush=True)
        return None
    origin = source or f"https://github.com/{suite.repo}.git"
    print(f"{suite.name}: {origin} at {suite.commit} ({suite.why})", flush=True)
    try:
        _install(suite, origin, checkout, app, into)
    except BaseException:
        shutil.rmtree(checkout, ignore_errors=True)
        raise
    return app


def _install(suite: Suite, origin: str, checkout: Path, app: Path, into: Path) -> None:
    _run(("git", "clone", "--quiet", origin, str(checkout)), into)
    _run(("git", "checkout", "--quiet", suite.commit), checkout)
    for step in suite.steps:
        if isinstance(step, tuple):
            _run(step, app)
        else:
            print(f"  · {_describe(step)}", flush=True)
            step(app)
    # Committed with the generated files the tests need (the project ignores them), so the
    # checkout is clean and a migration's diff is its own.
    _run(("git", "add", "--all", "."), app)
    for generated in suite.generated:
        _run(("git", "add", "--force", "--all", generated), app)
    _run(
        (
            "git",
            "-c",
            "user.name=testmend benchmarks",
            "-c",
            "user.email=benchmarks@testmend.invalid",
            "commit",
            "--quiet",
            "--no-verify",
            "--allow-empty",
            "-m",
            "testmend: installed for the benchmark (benchmarks/suites.py)",
        ),
        checkout,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--into", type=Path)
    parser.add_argument("--source", action="append", default=[], metavar="NAME=GIT_DIR")
    parser.add_argument("--list", action="store_true", help="print the recipes")
    args = parser.parse_args(argv)
    if args.list or not args.names:
        for suite in SUITES.values():
            print(f"{suite.name}: {suite.repo} @ {suite.commit}, project folder {suite.app}")
            for step in suite.steps:
                print(f"    {_describe(step)}")
        return 0
    unknown = [n for n in args.names if n not in SUITES]
    if unknown:
        print(f"no such suite: {', '.join(unknown)} (known: {', '.join(SUITES)})")
        return 2
    sources = dict(s.split("=", 1) for s in args.source if "=" in s)
    if args.into is None:
        print("say where the suites go, outside the project: --into DIR")
        return 2
    into = args.into.resolve()
    if into.is_relative_to(Path(__file__).resolve().parents[1]):
        print(f"{into} is inside testmend's tree; the suites are kept outside it")
        return 2
    if shutil.which("yarn") is None:
        print("yarn 1 is needed (npm install --global yarn)")
        return 2
    into.mkdir(parents=True, exist_ok=True)
    # Stopped from outside, the steps' process groups are stopped and the half-made checkout
    # removed, as for a failed step.
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGHUP, _interrupted)
    failed = []
    for name in args.names:
        try:
            app = set_up(SUITES[name], into, sources.get(name))
        except subprocess.CalledProcessError as error:
            print(
                f"{name}: a step failed ({' '.join(map(str, error.cmd))}, exit "
                f"{error.returncode}); its checkout is removed, so a run again starts it afresh",
                flush=True,
            )
            failed.append(name)
            continue
        except KeyboardInterrupt:
            print(f"{name}: stopped; its checkout is removed", flush=True)
            return 130
        if app is not None:
            print(f"{name}: ready; measure with --app {app}", flush=True)
    if failed:
        print(f"not set up: {', '.join(failed)}")
        return 1
    return 0


def _interrupted(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
