"""``testmend doctor``: what testmend finds in a project, what is missing, and how to fix it."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from .config import CONFIG_FILE_NAME, Config, ConfigError, load_config
from .layout import STATE_DIR, find_project_root
from .llm.probe import probe_endpoint
from .project import enzyme_test_files
from .project.packages import (
    detect_package_manager,
    install_command,
    installed_version,
    needs_node_modules,
    node_modules_dirs,
    package_dir,
    read_package_json,
)
from .project.testing_library import declared_version, major, testing_library_status
from .runners.detect import ResolvedCommands, resolve_commands
from .runners.errors import RunnerError
from .runners.process import run_command
from .runners.runner import tool_environment
from .sandbox import build_policy, choose_sandbox
from .sandbox.select import how_to
from .workspace.owner import default_workspaces_dir

Status = Literal["ok", "warning", "missing", "info"]


class Check(BaseModel):
    name: str
    status: Status
    detail: str
    fix: str | None = None
    blocking: bool = False
    """Without this, no migration can run."""


class DoctorReport(BaseModel):
    project_root: str
    checks: list[Check]

    @property
    def ready(self) -> bool:
        return not any(c.blocking for c in self.checks)


async def _version(argv: list[str], cwd: Path, env: Mapping[str, str], tool: str) -> str:
    done = await run_command([*argv, "--version"], cwd=cwd, env=env, timeout=30, tool=tool)
    text = (done.stdout or done.stderr).strip().splitlines()
    if done.returncode != 0 or not text:
        raise RunnerError(tool, f"`{' '.join(argv)} --version` exited with {done.returncode}")
    return text[0].removeprefix("Version ").strip()


async def _tool_checks(
    config: Config, commands: ResolvedCommands, root: Path, install: str
) -> list[Check]:
    env = tool_environment(config)
    specs = [
        ("jest", "test", commands.test, True, "npm install --save-dev jest"),
        ("eslint", "lint", commands.lint, False, "npm install --save-dev eslint"),
        ("tsc", "typecheck", commands.typecheck, False, "npm install --save-dev typescript"),
    ]

    async def one(tool: str, setting: str, argv: list[str] | None, needed: bool, how: str) -> Check:
        origin = commands.origin.get(setting, "")
        if argv is None:
            if tool == "tsc" and origin.startswith("no tsconfig"):
                return Check(name=tool, status="info", detail=origin)
            return Check(
                name=tool,
                status="missing" if needed else "warning",
                detail=origin or "not found",
                fix=f"`{how}` or set commands.{setting} in {CONFIG_FILE_NAME}"
                + ("" if needed else f" (without it the {setting} step is skipped)"),
                blocking=needed,
            )
        resolved = argv
        if "/" in argv[0] and not os.path.isabs(argv[0]):
            resolved = [str(root / argv[0]), *argv[1:]]
        try:
            version = await _version(resolved, root, env, tool)
        except RunnerError as exc:
            return Check(
                name=tool,
                status="missing" if needed else "warning",
                detail=f"{' '.join(argv)}: {exc.message}",
                fix=f"`{install}` in {root}",
                blocking=needed,
            )
        return Check(name=tool, status="ok", detail=f"{version}  ({' '.join(argv)}; {origin})")

    return list(await asyncio.gather(*(one(*spec) for spec in specs)))


def _model_check(config: Config, *, probe_model: bool = True) -> Check:
    model = config.model
    names = {
        t: getattr(model.tiers, t) for t in ("nano", "mini", "full") if getattr(model.tiers, t)
    }
    if model.offline:
        return Check(name="model", status="info", detail="offline (model.offline is set)")
    if model.configured:
        key = "key set" if model.api_key else f"no key in ${model.api_key_env}"
        tiers = ", ".join(f"{t}={n}" for t, n in names.items())
        probe = probe_endpoint(model) if probe_model else None
        if probe is None:
            return Check(name="model", status="ok", detail=f"{tiers} ({key}; not tried)")
        return Check(
            name="model",
            status=probe.status,
            detail=f"{tiers} ({key}): {probe.detail}",
            fix=None
            if probe.status == "ok"
            else "check model.baseUrl, the key and model.tiers; until then runs fall back to "
            "the deterministic tier (model.fallback)",
        )
    detail = "no model configured: runs use the deterministic codemod tier only"
    if names and not (model.api_key or model.base_url):
        detail = f"models named but ${model.api_key_env} is not set: runs are offline"
    return Check(
        name="model",
        status="info",
        detail=detail,
        fix="for agent-assisted runs set model.tiers.full (and .mini) in "
        f"{CONFIG_FILE_NAME} and export {model.api_key_env} (or OPENAI_BASE_URL for a local "
        "OpenAI-compatible endpoint)",
    )


def _sandbox_check(config: Config, environ: Mapping[str, str]) -> Check:
    """The sandbox in force, what it lets the tools do, and how to get one when missing."""
    choice = choose_sandbox(config.sandbox)
    if choice.sandboxed:
        policy = build_policy(
            config.sandbox,
            workdir=config.project_root,
            writable=[Path("<workspace>")],
            temp_dir=Path("<workspace>/tmp"),
            project_root=config.project_root,
            home=environ.get("HOME"),
        )
        hidden = ", ".join(str(p) for p in policy.hidden[:6])
        network = (
            f"only {', '.join(config.sandbox.network)}, through testmend's proxy"
            if config.sandbox.network
            else "none"
        )
        more = f" and {len(policy.hidden) - 6} more" if len(policy.hidden) > 6 else ""
        return Check(
            name="sandbox",
            status="warning" if choice.problem else "ok",
            detail=f"{choice.summary()}. Writable: the run's workspace and its temp dir"
            + "".join(f", {p}" for p in config.sandbox.writable)
            + f"; network: {network}; hidden: {hidden or 'nothing'}{more}",
            fix=f"for a stronger sandbox: {how_to()}" if choice.problem else None,
        )
    if choice.mode == "off":
        return Check(
            name="sandbox",
            status="warning",
            detail='off (sandbox.mode is "off"): tests the model writes run with your rights',
            fix='remove sandbox.mode "off" from the configuration',
        )
    return Check(
        name="sandbox",
        status="missing",
        detail=f"none: {choice.problem}. Agent runs are refused"
        + ("; offline codemod runs run unsandboxed" if choice.mode == "auto" else ""),
        fix=how_to(),
        blocking=choice.refusal(model_code=config.model.configured) is not None,
    )


def _testing_library_check(root: Path) -> Check:
    status = testing_library_status(root)
    if status.ready:
        return Check(name="testing library", status="ok", detail=status.summary())
    return Check(
        name="testing library",
        status="missing",
        detail=f"{status.summary()}: migrated tests cannot run",
        fix=f"`{status.install}` in {root} "
        f"(for React {status.react or '?'} and jest {status.jest or '?'})",
        blocking=True,
    )


def _user_event_check(root: Path, config: Config) -> Check:
    """How migrated tests fire events: user-event 14 (``codemod.events`` ``auto``) needs what
    jsdom 16 added (``document.getSelection``, ``Event.composedPath``); under an older jsdom
    every call would throw, so the codemod writes ``fireEvent``, and this says why."""
    setting = config.codemod.events
    version = installed_version(root, "@testing-library/user-event")
    if setting == "fireEvent":
        return Check(name="user-event", status="info", detail="fireEvent (codemod.events)")
    if version is None or (major(version) or 0) < 14:
        found = f"{version} (before 14)" if version else "not installed"
        return Check(
            name="user-event",
            status="info",
            detail=f"{found}: migrated tests fire events with fireEvent",
            fix="`@testing-library/user-event@14` as a dev dependency for userEvent",
        )
    environment = package_dir(root, "jest-environment-jsdom")
    jsdom = installed_version(environment, "jsdom") if environment is not None else None
    if jsdom is not None and (major(jsdom) or 0) < 16:
        return Check(
            name="user-event",
            status="warning",
            detail=(
                f"user-event {version} calls document.getSelection and Event.composedPath, "
                f"which jest's jsdom {jsdom} lacks: migrated tests fire events with fireEvent"
            ),
            fix="jest 26 or newer (jsdom 16+) for userEvent; `codemod.events: fireEvent` to "
            "say that fireEvent is meant",
        )
    where = f" (jest's jsdom {jsdom})" if jsdom else ""
    return Check(name="user-event", status="ok", detail=f"{version}: userEvent{where}")


def _writable_checks(root: Path) -> list[Check]:
    """``.testmend/`` (runs, reports) and the workspaces directory must take files."""
    checks = []
    for name, folder in (("state", root / STATE_DIR), ("workspaces", default_workspaces_dir())):
        created = not folder.exists()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-check-"):
                pass
            if created:
                folder.rmdir()  # doctor only looks: a run makes it
        except OSError as exc:
            checks.append(
                Check(
                    name=name,
                    status="missing",
                    detail=f"cannot write {folder} ({exc.strerror or exc})",
                    fix="run testmend where it may write (a writable checkout; set "
                    "TESTMEND_WORKSPACES_DIR for the workspaces)",
                    blocking=True,
                )
            )
        else:
            checks.append(Check(name=name, status="ok", detail=f"{folder} is writable"))
    return checks


def _workspace_check(root: Path) -> Check:
    git = shutil.which("git")
    if git:
        probe = subprocess.run(
            [git, "-C", str(root), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        has_head = subprocess.run(
            [git, "-C", str(root), "rev-parse", "--verify", "-q", "HEAD"],
            capture_output=True,
            timeout=10,
            check=False,
        )
        if probe.returncode == 0 and has_head.returncode == 0:
            return Check(
                name="workspace",
                status="ok",
                detail=f"git worktree of HEAD (repository {probe.stdout.strip()})",
            )
    return Check(
        name="workspace",
        status="info",
        detail="not a git repository with commits: runs work in a filtered copy",
    )


def run_doctor(
    path: Path,
    *,
    editor_settings: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    probe_model: bool = True,
) -> DoctorReport:
    """Every check of a project; ``probe_model``: try the model endpoint (one request)."""
    root = find_project_root(path)
    checks: list[Check] = []
    pkg_file = root / "package.json"
    if not Path(path).exists():
        checks.append(
            Check(name="project", status="missing", detail=f"{path} does not exist", blocking=True)
        )
        return DoctorReport(project_root=str(root), checks=checks)
    if not pkg_file.is_file():
        checks.append(
            Check(
                name="project",
                status="missing",
                detail=f"no package.json at or above {path}",
                fix="run testmend on a JavaScript/TypeScript project (a folder with package.json)",
                blocking=True,
            )
        )
        return DoctorReport(project_root=str(root), checks=checks)
    pkg = read_package_json(root)
    react = installed_version(root, "react") or declared_version(pkg, "react")
    checks.append(
        Check(
            name="project",
            status="ok",
            detail=f"{pkg.get('name', root.name)} (react {react or 'not found'})",
        )
    )

    try:
        config = load_config(root, editor_settings=editor_settings, environ=environ)
    except ConfigError as exc:
        checks.append(
            Check(
                name="config",
                status="missing",
                detail=str(exc),
                fix="correct that value",
                blocking=True,
            )
        )
        return DoctorReport(project_root=str(root), checks=checks)
    config_file = root / CONFIG_FILE_NAME
    checks.append(
        Check(
            name="config",
            status="ok",
            detail=str(config_file)
            if config_file.is_file()
            else f"no {CONFIG_FILE_NAME} (defaults)",
        )
    )

    manager, why = detect_package_manager(root)
    install = install_command(manager)
    checks.append(Check(name="package manager", status="ok", detail=f"{manager} ({why})"))

    node = shutil.which("node")
    if node is None:
        checks.append(
            Check(
                name="node",
                status="missing",
                detail="node is not on PATH",
                fix="install Node.js (18 or newer) and make sure `node` is on PATH",
                blocking=True,
            )
        )
    else:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
        checks.append(Check(name="node", status="ok", detail=f"{version} ({node})"))

    modules = node_modules_dirs(root)
    if not modules and needs_node_modules(root):
        checks.append(
            Check(
                name="node_modules",
                status="missing",
                detail=f"not installed in {root}",
                fix=f"run `{install}` in {root}",
                blocking=True,
            )
        )
    else:
        checks.append(
            Check(
                name="node_modules",
                status="ok",
                # Node resolves through each, nearest first (a monorepo hoists to the root's).
                detail=", ".join(str(m) for m in modules) if modules else "none needed",
            )
        )

    commands = resolve_commands(config, root)
    if node is not None:
        checks.extend(asyncio.run(_tool_checks(config, commands, root, install)))

    checks.append(_testing_library_check(root))
    checks.append(_user_event_check(root, config))
    enzyme_files = enzyme_test_files(root)
    checks.append(
        Check(
            name="enzyme tests",
            status="ok" if enzyme_files else "info",
            detail=f"{len(enzyme_files)} test file(s) import Enzyme"
            + ("" if enzyme_files else ": nothing to migrate"),
        )
    )
    checks.extend(_writable_checks(root))
    checks.append(_model_check(config, probe_model=probe_model))
    checks.append(_sandbox_check(config, os.environ if environ is None else environ))
    checks.append(_workspace_check(root))
    return DoctorReport(project_root=str(root), checks=checks)


_MARKS = {"ok": "✓", "warning": "!", "missing": "✗", "info": "·"}


def render_report(report: DoctorReport) -> str:
    width = max(len(c.name) for c in report.checks) + 2
    lines = [f"testmend doctor — {report.project_root}", ""]
    for check in report.checks:
        lines.append(f"  {_MARKS[check.status]} {check.name.ljust(width)}{check.detail}")
        if check.fix:
            lines.append(f"    {' ' * width}fix: {check.fix}")
    lines.append("")
    if report.ready:
        lines.append("Ready: a migration can run.")
    else:
        blocking = ", ".join(c.name for c in report.checks if c.blocking)
        lines.append(f"Not ready: fix {blocking} first.")
    return "\n".join(lines)
