"""The sandbox policy: what is writable, what is hidden, which variables the tools get."""

from __future__ import annotations

from pathlib import Path

from testmend.config import SandboxConfig
from testmend.sandbox import build_policy, tool_env
from testmend.sandbox.blocked import explain


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("secret")
    (home / ".aws").mkdir()
    (home / ".npmrc").write_text("//registry/:_authToken=secret")
    (home / ".env").write_text("TOKEN=secret")
    (home / "code").mkdir()
    return home


def test_secrets_are_hidden_and_the_work_never_is(tmp_path: Path) -> None:
    home = _home(tmp_path)
    repo = home / "code" / "repo"
    project = repo / "packages" / "app"
    project.mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text("url = https://user:token@host/repo.git")
    (project / ".env.local").write_text("A=1")
    (repo / ".env").write_text("B=2")
    (project / "src").mkdir()
    (project / "src" / ".env").write_text("nested: not scanned")
    workspace = tmp_path / "ws" / "tree"
    policy = build_policy(
        SandboxConfig(deny=[str(home / "code" / "private")], writable=[str(tmp_path / "cache")]),
        workdir=workspace,
        writable=[workspace],
        temp_dir=tmp_path / "ws" / "tmp",
        project_root=project,
        repo_root=repo,
        home=str(home),
    )
    hidden = set(policy.hidden)
    assert {
        home / ".ssh",
        home / ".aws",
        home / ".npmrc",
        home / ".env",
        project / ".env.local",
        repo / ".env",
        repo / ".git" / "config",
    } <= hidden
    # Missing paths are not listed (bubblewrap cannot mount over them); nested .env files in
    # the project are not looked for.
    assert home / ".kube" not in hidden and project / "src" / ".env" not in hidden
    assert policy.writable == (workspace, tmp_path / "ws" / "tmp", tmp_path / "cache")
    assert policy.may_write(workspace / "src" / "a.ts")
    assert not policy.may_write(project / "src" / "a.ts")
    assert policy.is_hidden(home / ".ssh" / "id_rsa")


def test_a_deny_entry_above_the_project_is_ignored(tmp_path: Path) -> None:
    home = _home(tmp_path)
    project = home / ".config" / "work" / "app"  # an odd place, but the user's choice
    project.mkdir(parents=True)
    policy = build_policy(
        SandboxConfig(deny=[str(home)]),
        workdir=project,
        writable=[project],
        temp_dir=project / "tmp",
        project_root=project,
        home=str(home),
    )
    assert home not in policy.hidden and home / ".config" not in policy.hidden
    assert home / ".ssh" in policy.hidden


def test_readable_brings_a_path_back(tmp_path: Path) -> None:
    home = _home(tmp_path)
    (home / ".config" / "tool").mkdir(parents=True)
    policy = build_policy(
        SandboxConfig(readable=[str(home / ".config" / "tool")]),
        workdir=tmp_path,
        writable=[tmp_path / "ws"],
        temp_dir=tmp_path / "ws" / "tmp",
        project_root=tmp_path,
        home=str(home),
    )
    assert policy.is_hidden(home / ".config" / "other")
    assert not policy.is_hidden(home / ".config" / "tool" / "settings.json")


def test_the_tools_get_what_they_need_and_no_credentials() -> None:
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "LC_ALL": "C",
        "NODE_OPTIONS": "--max-old-space-size=4096",
        "NODE_AUTH_TOKEN": "npm-secret",
        "npm_config_registry": "https://registry.example",
        "npm_config__authToken": "npm-secret-2",
        "GITHUB_TOKEN": "gh-secret",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "OPENAI_API_KEY": "sk-secret",
        "MY_MODEL_KEY": "sk-other",
        "DATABASE_URL": "postgres://user:pw@db",
        "REACT_APP_API_URL": "https://api.example",
        "TZ": "UTC",
        "PROJECT_FLAG": "1",
    }
    env = tool_env(base, passed=["PROJECT_FLAG", "MY_MODEL_KEY"], never=["MY_MODEL_KEY"])
    assert env["PATH"] == "/usr/bin" and env["NODE_OPTIONS"] == "--max-old-space-size=4096"
    assert env["REACT_APP_API_URL"] == "https://api.example" and env["TZ"] == "UTC"
    assert env["npm_config_registry"] == "https://registry.example"
    assert env["PROJECT_FLAG"] == "1"  # named in sandbox.env
    assert env["CI"] == "true" and env["COLORS"] == "false"
    for secret in (
        "npm-secret",
        "npm-secret-2",
        "gh-secret",
        "aws-secret",
        "sk-secret",
        "sk-other",
    ):
        assert secret not in env.values(), secret
    assert "DATABASE_URL" not in env  # not a tool's variable; sandbox.env can pass it


def test_blocked_accesses_are_named(tmp_path: Path) -> None:
    home = _home(tmp_path)
    workspace = tmp_path / "ws"
    (workspace / "node_modules").mkdir(parents=True)
    policy = build_policy(
        SandboxConfig(),
        workdir=workspace,
        writable=[workspace],
        temp_dir=workspace / "tmp",
        project_root=tmp_path / "project",
        home=str(home),
    )
    outside = tmp_path / "outside.txt"
    failure = f"Error: EROFS: read-only file system, open '{outside}'\n    at Object.<anonymous>"
    explained = explain(failure, policy)
    assert explained.startswith(f"blocked by the sandbox: {outside} (tests may write only")
    assert explained.endswith(failure)  # the raw message (and its stack) stays
    secret = home / ".ssh" / "id_rsa"
    assert explain(f"ENOENT: no such file or directory, open '{secret}'", policy).startswith(
        f"blocked by the sandbox: {secret} (secrets"
    )
    network = explain("Error: getaddrinfo EAI_AGAIN example.com", policy)
    assert network.startswith("blocked by the sandbox: network access to example.com")
    # Inside the workspace: a test's own error, not the sandbox's.
    own = f"ENOENT: no such file or directory, open '{workspace / 'missing.json'}'"
    assert explain(own, policy) == own
    relative = "EACCES: permission denied, open 'src/locked.txt'"
    assert explain(relative, policy) == relative
    assert explain("expected 2, received 3", policy) == "expected 2, received 3"
