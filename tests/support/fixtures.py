"""The test suite's fixtures (a pytest plugin, loaded by ``tests/conftest.py``).

Every test that runs node is marked ``node`` here, from the fixtures it uses: those that give
it a copy of the example app (whose node_modules its jest, eslint and tsc come from); one that
copies the app to a place of its own is marked by hand, and one that is not marked and reaches
for the app fails (``_node_only_where_marked``). Every test given a real Postgres is marked
``services``. The fast tier (``./scripts/test.sh --fast``) runs the others.

Engine runs check intent (the mutants of the component under test) only in tests marked
``intent``: elsewhere ``TESTMEND_FIDELITY__INTENT=false`` is set for the test (and the
``testmend`` processes it starts), so runs about something else do not pay for mutants.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .apps import EXAMPLE_APP, FIXTURES, copy_example_app, require_example_app, set_node_test
from .engine import SIMPLE_ENZYME, SIMPLE_TEST
from .git import commit_all
from .interrupt import stop_on_sigterm
from .postgres import postgres_cluster, postgres_url
from .redis import redis_server, redis_url

__all__ = [
    "postgres_cluster",
    "postgres_url",
    "redis_server",
    "redis_url",
]  # fixtures of the plugin

NODE_FIXTURES = frozenset(
    {"example_copy", "app_copy", "project", "example_app", "typescript4", "node"}
)
"""Fixtures that give a test the example app: its tests run node (jest, eslint, tsc)."""
SERVICE_FIXTURES = frozenset({"postgres_cluster", "postgres_url", "redis_server", "redis_url"})
"""Fixtures that start a real service (Postgres): not in the fast tier either."""


def pytest_configure(config: pytest.Config) -> None:
    stop_on_sigterm()
    config.addinivalue_line(
        "markers", "node: runs node (jest, eslint or tsc of the example app); set from fixtures"
    )
    config.addinivalue_line(
        "markers", "intent: engine runs in this test run the intent check (mutants)"
    )
    config.addinivalue_line(
        "markers", "services: starts a real Postgres or Redis; set from fixtures"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if NODE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.node)
        if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)


@pytest.fixture(autouse=True)
def _node_only_where_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test not marked ``node`` that reaches for the example app fails, in every tree: in a
    fresh checkout's fast tier it would fail for want of node_modules, in a set-up one it would
    quietly run jest in the fast tier."""
    set_node_test(request.node.get_closest_marker("node") is not None)
    yield
    set_node_test(None)


@pytest.fixture(autouse=True)
def _intent_only_where_asked(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if request.node.get_closest_marker("intent") is None:
        monkeypatch.setenv("TESTMEND_FIDELITY__INTENT", "false")


@pytest.fixture
def example_app() -> Path:
    """The example app itself, installed (read it, link its node_modules; never write in it)."""
    require_example_app()
    return EXAMPLE_APP


@pytest.fixture
def node() -> str:
    """The node binary, for a test that starts node itself."""
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is not on PATH: install Node.js 20")
    return found


@pytest.fixture
def typescript4() -> Path:
    """A folder whose node_modules holds TypeScript 4 (``npm ci`` by scripts/setup.sh)."""
    folder = FIXTURES / "typescript4"
    if not (folder / "node_modules" / ".bin" / "tsc").exists():
        pytest.fail("tests/fixtures/typescript4/node_modules is missing: run scripts/setup.sh")
    return folder


@pytest.fixture
def example_copy(tmp_path: Path) -> Iterator[Path]:
    """A private copy of the example app (sources copied, node_modules linked)."""
    yield copy_example_app(tmp_path / "react-app")


@pytest.fixture(scope="module")
def app_copy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of the example app shared by a module's tests (they write files of their own)."""
    yield copy_example_app(tmp_path_factory.mktemp("codemod") / "react-app")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The example app in a git repository of its own (committed), with SIMPLE_TEST added."""
    root = copy_example_app(tmp_path / "app")
    (root / SIMPLE_TEST).write_text(SIMPLE_ENZYME, encoding="utf-8")
    return commit_all(root, "app")


@pytest.fixture
def workspaces(tmp_path: Path) -> Path:
    """A workspaces directory of the test's own (never the machine's shared one)."""
    path = tmp_path / "workspaces"
    path.mkdir()
    return path
