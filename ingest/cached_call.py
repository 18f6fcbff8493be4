"""One structured-output LLM call answered from a cache when the same prompt was asked before.

The key is the prompt version, the model, the messages and the response schema: any of them changing asks again.
A failed or invalid answer is never cached; the caller gets None and the tokens it cost.
"""

from __future__ import annotations

import json
import logging
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from strata.ingest.protocols import LLM, Cache, ChatMessage, JsonSchema, MalformedOutputError
from strata.schema.errors import StrataError
from strata.schema.ids import content_hash
from strata.schema.models import TokenUsage

log = logging.getLogger(__name__)
Answer = TypeVar("Answer", bound=BaseModel)


def cached_call(llm: LLM, cache: Cache | None, version: str, messages: list[ChatMessage], schema: JsonSchema,
                answer: type[Answer], what: str) -> tuple[Answer | None, TokenUsage]:
    key = content_hash("\x1f".join([version, llm.model, json.dumps(messages),
                                     json.dumps(schema.schema_, sort_keys=True)]))
    data = cache.get(key) if cache is not None else None
    usage = TokenUsage(cached=data is not None)
    try:
        if data is None:
            data, usage = llm.complete(messages, schema)
        parsed = answer.model_validate(data)
    except MalformedOutputError as exc:
        log.warning("%s failed: %s", what, exc)
        return None, exc.usage
    except (StrataError, ValidationError) as exc:
        log.warning("%s failed: %s", what, exc)
        return None, usage
    if cache is not None and not usage.cached:
        cache.set(key, parsed.model_dump(mode="json"))
    return parsed, usage
