"""A hostile test, run by the project's jest in a real shadow workspace, tries every way out
that an unsandboxed run allowed. Each attempt fails inside jest, says "blocked by the sandbox",
and leaves the user's tree, its .git, node_modules and the files outside byte for byte as they
were. Also: nothing outlives a SIGKILLed testmend, and its temp files live in the workspace."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from testmend.config import load_config
from testmend.runners import ProjectRunners
from testmend.sandbox import choose_sandbox, sandbox_for
from testmend.workspace.shadow import collect_stale_workspaces, create_shadow_workspace
from tests.support.sandbox import (
    ESCAPE,
    NODE_MODULES_ESCAPE,
    SECRET,
    TOKEN,
    Listener,
    hostile_test,
    tree_digest,
)


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def no_node_modules_escape() -> Iterator[None]:
    try:
        yield
    finally:
        if NODE_MODULES_ESCAPE.exists():  # a failed sandbox must not leave it for other tests
            NODE_MODULES_ESCAPE.unlink()


@pytest.mark.parametrize("kind", ["bubblewrap", "landlock"])
async def test_a_hostile_test_cannot_get_out(
    project: Path,
    tmp_path: Path,
    listener: Listener,
    no_node_modules_escape: None,
    kind: str,
) -> None:
    config = load_config(project, environ={}, editor_settings={"sandbox": {"mode": kind}})
    choice = choose_sandbox(config.sandbox)
    if not choice.sandboxed:
        pytest.skip(f"{kind} is not available here: {choice.problem}")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    outside = tmp_path / "outside"
    outside.mkdir()
    environ = {**os.environ, "HOME": str(home), "GITHUB_TOKEN": TOKEN}
    before = tree_digest(project)
    home_before = tree_digest(home)

    with create_shadow_workspace(project, base_dir=tmp_path / "workspaces") as ws:
        ws.write_text(ESCAPE, hostile_test(outside, home, listener.port))
        sandbox = sandbox_for(
            config,
            ws.root,
            writable=[ws.tree or ws.root],
            temp_dir=ws.container / "tmp",
            repo_root=ws.repo_root,
            environ=environ,
            choice=choice,
        )
        runners = ProjectRunners(config, cwd=ws.root, env=environ, sandbox=sandbox)
        result = await runners.run_tests(ESCAPE)
        assert (ws.root / "scratch.txt").read_text() == "ok"
        assert (ws.container / "tmp" / "scratch.txt").read_text() == "ok"

    status = {t.title: t.status for t in result.tests}
    assert status.pop("writes in the workspace and its temp dir") == "passed", result
    assert set(status.values()) == {"failed"} and len(status) == 7, status
    messages = {t.title: "\n".join(t.failure_messages) for t in result.tests}
    for title in (
        "writes a file outside the workspace",
        "writes into node_modules through the link",
        "writes into the user's src",
        "plants a git hook",
        "reads a secret and shows it",
        "sends it over the network",
    ):
        assert messages[title].startswith("blocked by the sandbox: "), messages[title]
    assert (
        "blocked by the sandbox: network access to 127.0.0.1"
        in messages["sends it over the network"]
    )
    everything = "\n".join(messages.values())
    assert SECRET not in everything and TOKEN not in everything
    assert "HOME" in messages["dumps the environment"]  # the dump ran, minus the token
    assert tree_digest(project) == before
    assert tree_digest(home) == home_before
    assert list(outside.iterdir()) == []
    assert not NODE_MODULES_ESCAPE.exists()
    assert listener.connections == 0


HANGING = """\
it('hangs', async () => {
  await new Promise((resolve) => setTimeout(resolve, 120000));
});
"""

_CHILD = """\
import asyncio, sys
from pathlib import Path
from testmend.config import load_config
from testmend.runners import ProjectRunners
from testmend.sandbox import sandbox_for
from testmend.workspace.shadow import create_shadow_workspace

project, base, test = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
config = load_config(project, environ={})
ws = create_shadow_workspace(project, base_dir=base)
tests = [test, test.replace(".test.", ".2.test.")]  # two files: jest starts workers
for name in tests:
    ws.write_text(name, Path(sys.argv[4]).read_text())
sandbox = sandbox_for(config, ws.root, writable=[ws.tree], temp_dir=ws.container / "tmp")
runners = ProjectRunners(config, cwd=ws.root, sandbox=sandbox)
print(ws.container, flush=True)
asyncio.run(runners.run_test_files(tests, extra_args=["--maxWorkers=2"]))
"""


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_nothing_outlives_a_killed_testmend(project: Path, tmp_path: Path) -> None:
    marker = f"hang-{uuid.uuid4().hex[:8]}"
    test = f"src/{marker}.test.ts"
    (tmp_path / "hang.ts").write_text(HANGING)
    base = tmp_path / "workspaces"
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(project), str(base), test, str(tmp_path / "hang.ts")],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    container = Path(child.stdout.readline().strip())
    assert container.is_dir(), "the child could not create its workspace"
    # jest and its two workers (grandchildren, or deeper inside a sandbox)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        tree = _descendants(child.pid)
        commands = [Path(f"/proc/{p}/cmdline").read_bytes() for p in tree if _alive(p)]
        if sum(b"processChild" in c for c in commands) >= 2:
            break
        time.sleep(0.2)
    else:
        pytest.fail("jest's workers did not start")
    temp = container / "tmp"
    assert any(p.name.startswith("testmend-jest-") for p in temp.iterdir())  # in the workspace

    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in tree if _alive(p)], "a child outlived testmend"
    assert collect_stale_workspaces(base) == [container]
    assert not container.exists()
