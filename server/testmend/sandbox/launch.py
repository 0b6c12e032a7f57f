"""Start a command that dies with testmend, optionally under a Landlock ruleset.

Run as a script (``python -I -S launch.py -- CMD…``), not imported: it must start fast and
depend on nothing but the standard library. The spec comes in the ``TESTMEND_SANDBOX_SPEC``
environment variable (JSON, removed before the command starts, so the command cannot read or
change the rules of later runs)::

    {"parent": PID,
     "landlock": {"abi": N, "read": [...], "write": [...], "devices": [...], "ports": [...]},
     "bridge": {"socket": PATH, "port": N}}

``parent``: this process stays as the command's supervisor, with PR_SET_PDEATHSIG: when
testmend dies (even by SIGKILL) it kills its process group, the command and its workers.
``landlock``: read/execute beneath ``read``, everything beneath ``write``, read/write on the
device files under ``devices``; nothing else. With ABI ≥ 4 TCP bind/connect are denied, with
ABI ≥ 6 signals to and abstract sockets of processes outside the sandbox too; ``ports`` are the
TCP ports it may still connect to (the allow-list proxy's).
``bridge``: inside bubblewrap's network namespace, listen on 127.0.0.1:``port`` and relay each
connection to the allow-list proxy's Unix socket outside (``proxy.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import socket
import stat
import sys
import threading

SPEC_ENV = "TESTMEND_SANDBOX_SPEC"

# Generic syscall numbers (the same on x86_64 and aarch64).
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2
_PR_SET_PDEATHSIG, _PR_SET_NO_NEW_PRIVS = 1, 38
_O_PATH = getattr(os, "O_PATH", 0o10000000)

# Filesystem access rights, by the ABI that introduced them.
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_ABI1_WRITE = sum(1 << bit for bit in range(4, 13))  # remove, make char/dir/reg/sock/fifo/...
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV


def fs_rights(abi: int) -> int:
    rights = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | _ABI1_WRITE
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _NetPortAttr(ctypes.Structure):
    _fields_ = [("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    if not sys.platform.startswith("linux"):
        return 0
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    return max(int(abi), 0)


def _fail(what: str) -> None:
    err = ctypes.get_errno()
    sys.stderr.write(f"testmend sandbox: {what}: {os.strerror(err)}\n")
    os._exit(126)


def _add(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, _O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # gone meanwhile: nothing to grant
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_RIGHTS
        attr = _PathBeneathAttr(rights, fd)
        if libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(attr), 0) != 0:
            _fail(f"landlock_add_rule({path})")
    finally:
        os.close(fd)


def restrict(spec: dict[str, object]) -> None:
    """Apply the ruleset to this process (and so to everything it starts)."""
    abi = min(int(str(spec["abi"])), landlock_abi())
    if abi < 1:
        sys.stderr.write("testmend sandbox: Landlock is not available in this kernel\n")
        os._exit(126)
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    everything = fs_rights(abi)
    attr = _RulesetAttr(everything, 0, 0)
    size = 8
    if abi >= 4:
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
        size = 16
    if abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        size = 24
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0)
    if ruleset < 0:
        _fail("landlock_create_ruleset")
    read = EXECUTE | READ_FILE | READ_DIR
    for path in spec.get("read", []):  # type: ignore[attr-defined]
        _add(libc, ruleset, str(path), read)
    for path in spec.get("write", []):  # type: ignore[attr-defined]
        _add(libc, ruleset, str(path), everything)
    device = read | WRITE_FILE | (TRUNCATE if abi >= 3 else 0) | (IOCTL_DEV if abi >= 5 else 0)
    for path in spec.get("devices", []):  # type: ignore[attr-defined]
        _add(libc, ruleset, str(path), device)
    for port in spec.get("ports", []) if abi >= 4 else []:  # type: ignore[attr-defined]
        rule = _NetPortAttr(NET_CONNECT_TCP, int(port))
        if libc.syscall(_ADD_RULE, ruleset, _RULE_NET_PORT, ctypes.byref(rule), 0) != 0:
            _fail(f"landlock_add_rule(port {port})")
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        _fail("prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.syscall(_RESTRICT_SELF, ruleset, 0) != 0:
        _fail("landlock_restrict_self")
    os.close(ruleset)


def _exec(command: list[str]) -> None:
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"testmend sandbox: cannot run {command[0]}: {exc.strerror}\n")
        os._exit(127)


def _kill_group(signum: int, frame: object) -> None:
    os.killpg(0, signal.SIGKILL)


def _supervise(child: int) -> None:
    """Wait for the command; when testmend dies (or stops us), kill our whole process group.

    PR_SET_PDEATHSIG reaches only this process: jest's workers are the command's children, so
    they are killed here, by group (start_new_session made this process its leader). The
    handlers are in place before PR_SET_PDEATHSIG is (see ``main``).
    """
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # killed by a signal: die by the same one, as the command did
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _relay(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            with contextlib.suppress(OSError):
                sock.shutdown(how)


def _bridge(listener: socket.socket, path: str) -> None:
    """Relay each TCP connection to the proxy's Unix socket (a thread; dies with us)."""
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            continue
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=_relay, args=(source, sink), daemon=True).start()


def main(argv: list[str]) -> None:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        sys.stderr.write("usage: launch.py -- COMMAND [ARGS…]\n")
        os._exit(2)
    command = argv[argv.index("--") + 1 :]
    spec = json.loads(os.environ.pop(SPEC_ENV, "{}") or "{}")
    if spec.get("landlock"):
        restrict(spec["landlock"])
    parent = int(spec.get("parent") or 0) if sys.platform.startswith("linux") else 0
    bridge = spec.get("bridge")
    if not parent and not bridge:
        _exec(command)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # reset by exec in the child
        signal.signal(signum, _kill_group)
    if parent:
        _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # testmend died before the line above
            os._exit(137)
    listener = None
    if bridge:  # listening before the command starts: it may connect at once
        listener = socket.socket()
        listener.bind(("127.0.0.1", int(bridge["port"])))
        listener.listen(64)
    child = os.fork()
    if child == 0:
        if listener is not None:
            listener.close()
        _exec(command)
    if listener is not None:
        threading.Thread(target=_bridge, args=(listener, bridge["socket"]), daemon=True).start()
    _supervise(child)


if __name__ == "__main__":
    main(sys.argv[1:])
