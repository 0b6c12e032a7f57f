"""How each backend expresses the policy: bubblewrap arguments, Landlock rules, the Seatbelt
profile (macOS cannot run here: its text is what is checked)."""

from __future__ import annotations

from pathlib import Path

from testmend.sandbox import SandboxPolicy
from testmend.sandbox.bubblewrap import command_prefix
from testmend.sandbox.landlock import read_paths
from testmend.sandbox.seatbelt import profile, quote


def _policy(tmp_path: Path) -> SandboxPolicy:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".netrc").write_text("machine x password y")
    (home / ".config" / "tool").mkdir(parents=True)
    (home / "code").mkdir()
    ws = tmp_path / "ws"
    return SandboxPolicy(
        workdir=ws / "tree",
        writable=(ws / "tree", ws / "tmp"),
        temp_dir=ws / "tmp",
        hidden=(home / ".ssh", home / ".netrc", home / ".config"),
        readable=(home / ".config" / "tool",),
    )


def test_bubblewrap_mounts_everything_read_only_then_the_workspace_then_hides(
    tmp_path: Path,
) -> None:
    policy = _policy(tmp_path)
    args = command_prefix("/usr/bin/bwrap", policy)
    assert args[0] == "/usr/bin/bwrap" and args[-1] == "--"
    for flag in ("--die-with-parent", "--unshare-net", "--unshare-pid", "--new-session"):
        assert flag in args
    text = " ".join(args)
    ws, home = tmp_path / "ws", tmp_path / "home"
    order = [
        "--ro-bind / /",
        f"--bind-try {ws / 'tree'} {ws / 'tree'}",
        f"--bind-try {ws / 'tmp'} {ws / 'tmp'}",
        f"--tmpfs {home / '.ssh'}",
        f"--ro-bind /dev/null {home / '.netrc'}",  # a file is hidden behind /dev/null
        f"--tmpfs {home / '.config'}",
        f"--ro-bind {home / '.config' / 'tool'} {home / '.config' / 'tool'}",
        f"--chdir {ws / 'tree'} --",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
    assert (ws / "tmp").is_dir()  # created, so that the bind does not fail


def test_landlock_grants_reading_everything_but_the_hidden(tmp_path: Path) -> None:
    policy = _policy(tmp_path)
    granted = read_paths(policy)
    home = tmp_path / "home"
    assert str(home / "code") in granted and "/usr" in granted
    for hidden in policy.hidden:
        assert not any(g == str(hidden) or g.startswith(f"{hidden}/") for g in granted[:-1])
    assert granted[-1] == str(home / ".config" / "tool")  # readable comes back
    # No rule covers a hidden path from above: no ancestor of one is granted whole.
    assert not any(Path(g) in hidden.parents for g in granted for hidden in policy.hidden)


def test_seatbelt_profile_denies_by_default_and_orders_its_rules(tmp_path: Path) -> None:
    policy = _policy(tmp_path)
    text = profile(policy)
    lines = text.splitlines()
    assert lines[:2] == ["(version 1)", "(deny default)"]
    home, ws = tmp_path / "home", tmp_path / "ws"
    read_all = lines.index("(allow file-read*)")
    deny = next(i for i, line in enumerate(lines) if line.startswith("(deny file-read*"))
    readable = next(i for i, line in enumerate(lines) if line.startswith("(allow file-read* ("))
    write = next(i for i, line in enumerate(lines) if line.startswith("(allow file-write* (sub"))
    assert read_all < deny < readable < write  # the last matching rule wins in SBPL
    assert f'(subpath "{home / ".ssh"}")' in lines[deny]
    assert f'(subpath "{home / ".config" / "tool"}")' in lines[readable]
    assert lines[write] == (
        f'(allow file-write* (subpath "{ws / "tree"}") (subpath "{ws / "tmp"}"))'
    )
    assert "network" not in text  # denied by default: no rule opens it
    with_proxy = profile(policy, 4321).splitlines()
    assert with_proxy[-1] == '(allow network-outbound (remote ip "localhost:4321"))'


def test_seatbelt_quotes_paths() -> None:
    assert quote('/Users/a "b"\\c') == '"/Users/a \\"b\\"\\\\c"'
