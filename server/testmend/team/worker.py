"""``testmend worker``: a Celery worker in this machine's checkout, taking its project's tasks
(``tasks.queue_of``) with ``concurrency`` pool processes, each with a ``Runtime``."""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import TYPE_CHECKING, Any

from ..config import Config, redact_url
from ..engine.models import EngineError
from .runtime import Runtime
from .tasks import TASK_NAME, TaskPayload, celery_app, queue_of

if TYPE_CHECKING:
    from pathlib import Path

    from celery import Celery

log = logging.getLogger("testmend.worker")

REJECT_PAUSE_SECONDS = 5.0
"""How long a worker holds a task for another commit before it goes back to the queue (so that
a worker at the wrong commit does not spin on it, and one at the right commit can take it)."""

_RUNTIME: list[Runtime] = []
"""The pool process's runtime (made at its first task: after the fork)."""


def worker_app(broker: str, config: Config, *, workspaces_dir: Path | None = None) -> Celery:
    """The Celery app of a worker, its task bound to a runtime of ``config``'s project."""
    from celery.exceptions import Reject
    from celery.signals import worker_process_shutdown

    app = celery_app(broker, config.team)

    def runtime() -> Runtime:
        if not _RUNTIME:
            _RUNTIME.append(Runtime(config, workspaces_dir=workspaces_dir))
        return _RUNTIME[0]

    @app.task(name=TASK_NAME, bind=True, max_retries=None)  # type: ignore[untyped-decorator]
    def migrate_file(self: Any, payload: dict[str, Any]) -> str:
        task = TaskPayload.model_validate(payload)
        try:
            outcome = runtime().run(task)
        except Exception as exc:
            why = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0]}"
            log.warning("%s: %s", task.file, why)
            if self.request.retries >= config.team.max_retries:
                runtime().give_up(task, f"gave up after {self.request.retries + 1} tries: {why}")
                return why
            raise self.retry(countdown=5) from None
        if outcome.action == "reject":
            time.sleep(REJECT_PAUSE_SECONDS)
            raise Reject(outcome.reason, requeue=True)
        if outcome.action == "retry":
            raise self.retry(countdown=5)
        return outcome.reason or "done"

    @worker_process_shutdown.connect  # type: ignore[untyped-decorator]
    def _close(**_: object) -> None:
        if _RUNTIME:
            _RUNTIME.pop().close()

    return app


def serve(
    config: Config,
    project: str,
    *,
    concurrency: int,
    workspaces_dir: Path | None = None,
    hostname: str | None = None,
) -> int:
    """Run a worker until it is stopped (SIGTERM or Ctrl-C: the tasks under way end first)."""
    broker = config.team.broker_url
    if broker is None:
        raise EngineError("no broker: name one with --broker URL (or TESTMEND_TEAM__BROKER)")
    app = worker_app(broker, config, workspaces_dir=workspaces_dir)
    logging.getLogger("testmend").setLevel(logging.INFO)
    worker = app.Worker(
        concurrency=concurrency,
        pool="prefork",
        queues=[queue_of(project)],
        hostname=hostname or f"testmend-{os.getpid()}@{socket.gethostname()}",
        loglevel="INFO",
        without_mingle=True,
        without_gossip=True,
        optimization="fair",
        quiet=True,
    )
    log.info("worker for %s on %s, %d at once", project, redact_url(broker), concurrency)
    worker.start()
    code: int = worker.exitcode or 0
    return code
