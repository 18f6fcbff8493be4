"""The retention beat task is registered and scheduled beside the other periodic tasks."""

from __future__ import annotations

from strata.ingest.celery_app import make_celery
from strata.ingest.tasks import TASK_RETENTION
from strata.schema.settings import Settings


def test_retention_runs_on_the_beat_schedule() -> None:
    celery = make_celery(Settings(retention_interval_s=123.0, _env_file=None))
    entry = celery.conf.beat_schedule["strata-retention"]
    assert entry == {"task": TASK_RETENTION, "schedule": 123.0}
    assert TASK_RETENTION in celery.tasks
    assert {"strata-summaries", "strata-communities", "strata-sweep-stuck"} <= set(celery.conf.beat_schedule)
