"""The Celery application: Redis broker and result backend, reliability defaults from Celery's guide.

``make_celery(settings)`` builds an app for a given configuration; importing this module builds nothing. The
worker's entry point (`celery -A strata.memory.worker worker`) is strata.memory.worker, the one module that
builds an app when imported, as Celery's ``-A`` needs. Tasks live in strata.ingest.tasks, the re-drive of dead
workers' episodes in strata.ingest.recovery; ``strata worker`` starts a worker with sensible defaults.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from celery import Celery

from strata.ingest.recovery import register_recovery
from strata.ingest.tasks import ProcessRuntime, WorkerRuntime, register_tasks
from strata.schema.settings import Settings


def make_celery(settings: Settings, build: Callable[[], ProcessRuntime] | None = None) -> Celery:
    """The app, its tasks and the recovery sweep registered; ``build`` makes a worker process's runtime (the
    composition root hands it over: strata.memory.worker), an app without one only sends tasks."""
    celery = Celery("strata", broker=settings.redis_url, backend=settings.redis_url)
    celery.conf.update(
        task_acks_late=True,  # a task is acknowledged only after it finished: a killed worker's task is redelivered
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=3600,
        task_ignore_result=False,
        broker_connection_retry_on_startup=True,
        # Redis redelivers an unacked task after this long: must exceed the longest task. A last resort: a dead
        # worker's episodes are re-driven when their leases expire (ingest/recovery.py).
        broker_transport_options={"visibility_timeout": settings.broker_visibility_timeout_s},
        result_backend_transport_options={"visibility_timeout": settings.broker_visibility_timeout_s},
        task_default_queue=settings.celery_queue,
        worker_cancel_long_running_tasks_on_connection_loss=True,
    )
    celery.conf.strata_settings = settings

    @celery.task(name="strata.ping", shared=False)
    def ping(payload: str = "ping") -> dict[str, str]:
        """A round trip through the broker: proves a worker is consuming."""
        return {"reply": "pong", "payload": payload, "worker": socket.gethostname()}

    runtime = WorkerRuntime(settings, build)
    register_tasks(celery, settings, runtime)
    register_recovery(celery, settings, runtime)
    return celery


