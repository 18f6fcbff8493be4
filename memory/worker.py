"""The worker's entry point: `celery -A strata.memory.worker worker` (what `strata worker` runs).

Celery's ``-A`` finds the app as this module's ``app``, so this module, and only this one, builds it when
imported, from the environment's settings; nothing else imports it. Each worker process builds its runtime
(memory/runtime.py: driver, pipeline, thread pool) on its first task, after the prefork fork, and closes it
when the process ends.
"""

from __future__ import annotations

from typing import Any

from celery import signals

from strata.memory.runtime import worker_app
from strata.schema.settings import Settings

app = worker_app(Settings())


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


@signals.worker_process_shutdown.connect
def _close_runtime(**_: Any) -> None:
    app.conf.strata_worker_runtime.close()
