"""Structured logs: one JSON object per line with the event and its ids (episode, job, group, task).

``log_event(logger, "episode.done", episode_uuid=..., job_uuid=...)`` puts the fields in ``extra``;
``JsonFormatter`` writes them. Workers install it through Celery's ``setup_logging`` signal.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

_RESERVED = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def log_event(logger: logging.Logger, event: str, level: int = logging.INFO, **fields: Any) -> None:
    logger.log(level, event, extra={"strata": {k: v for k, v in fields.items() if v is not None}})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        out.update(getattr(record, "strata", {}) or {})
        for key, value in record.__dict__.items():
            if key not in _RESERVED and key != "strata" and not key.startswith("_"):
                out.setdefault(key, value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def configure_json_logging(level: int | str = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
