"""The Celery application: Redis broker and result backend, reliability defaults from Celery's guide.

``make_celery(settings)`` builds an app for a given configuration (tests, API); the module-level ``app``
is the worker entry point (`celery -A strata.ingest.celery_app worker`), built from the environment.
Tasks live in strata.ingest.tasks, the re-drive of dead workers' episodes in strata.ingest.recovery;
``strata worker`` starts a worker with sensible defaults.
"""

from __future__ import annotations

import socket
from typing import Any

from celery import Celery, signals

from strata.schema.settings import Settings


def make_celery(settings: Settings) -> Celery:
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

    @celery.task(name="strata.ping")
    def ping(payload: str = "ping") -> dict[str, str]:
        """A round trip through the broker: proves a worker is consuming."""
        return {"reply": "pong", "payload": payload, "worker": socket.gethostname()}

    from strata.ingest.recovery import register_recovery
    from strata.ingest.tasks import register_tasks

    register_recovery(celery, settings, register_tasks(celery, settings))
    return celery


app = make_celery(Settings())


@signals.setup_logging.connect
def _json_logs(loglevel: Any = None, **_: Any) -> None:
    """Workers log one JSON object per line, with episode and job ids."""
    from strata.ingest.logging import configure_json_logging

    configure_json_logging(loglevel or "INFO")


@signals.worker_init.connect
def _metrics_server(**_: Any) -> None:
    port = app.conf.strata_settings.worker_metrics_port
    if port:
        from strata.ingest.metrics import serve_worker_metrics

        serve_worker_metrics(app.conf.strata_settings, port)
