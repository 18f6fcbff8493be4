"""The Celery application: Redis broker and result backend, reliability defaults from Celery's guide.

``make_celery(settings)`` builds an app for a given configuration (tests, API); the module-level ``app``
is the worker entry point (`celery -A strata.ingest.celery_app worker`), built from the environment.
"""

from __future__ import annotations

import socket

from celery import Celery

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
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": 3600},
        task_default_queue="strata",
    )

    @celery.task(name="strata.ping")
    def ping(payload: str = "ping") -> dict[str, str]:
        """A round trip through the broker: proves a worker is consuming."""
        return {"reply": "pong", "payload": payload, "worker": socket.gethostname()}

    return celery


app = make_celery(Settings())
