"""Thin adapter over the ``openai`` SDK: the only module that imports it.

Works against any OpenAI-compatible ``base_url``. The SDK's own retries are off (``max_retries=0``) so that
tenacity owns them: one policy, honouring ``Retry-After``/``retry-after-ms``, bounded by settings.
Every openai exception is mapped to strata.schema.errors here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from time import sleep, time
from typing import Any, TypeVar

import openai
from tenacity import RetryCallState, Retrying, stop_after_attempt

from strata.ingest.protocols import ChatMessage, JsonSchema, MalformedOutputError
from strata.ingest.ratelimit import CallLimiter
from strata.schema.errors import (
    ConfigError,
    ExtractionError,
    RateLimitedError,
    RetryableError,
    StrataError,
    UpstreamUnavailableError,
)
from strata.schema.models import TokenUsage
from strata.schema.settings import Settings

T = TypeVar("T")
# A Retry-After longer than this is not slept through in a worker: the error goes to Celery's retry instead.
MAX_RETRY_AFTER_S = 60.0


def _retry_after(response: Any) -> float | None:
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    if (value := headers.get("retry-after")) is not None:
        try:
            return max(0.0, float(value))
        except ValueError:
            try:
                return max(0.0, parsedate_to_datetime(value).timestamp() - time())
            except (TypeError, ValueError):
                return None
    return None


def map_openai_error(exc: Exception, fatal: type[StrataError] = ExtractionError) -> StrataError:
    """The most specific Strata error for an openai exception (httpx's map_httpcore_exceptions idea)."""
    if isinstance(exc, openai.RateLimitError):
        if getattr(exc, "code", None) == "insufficient_quota":  # retrying cannot help
            return ConfigError(f"LLM quota exhausted: {exc.message}")
        return RateLimitedError(f"LLM endpoint rate limited: {exc.message}", retry_after=_retry_after(exc.response))
    if isinstance(exc, openai.APITimeoutError):
        return UpstreamUnavailableError("LLM endpoint timed out")
    if isinstance(exc, openai.APIConnectionError):
        return UpstreamUnavailableError(f"LLM endpoint unreachable: {exc.message}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        details = {"status": status}
        if status >= 500 or status in (408, 409):
            return UpstreamUnavailableError(f"LLM endpoint answered {status}: {exc.message}", details)
        if status in (401, 403):
            return ConfigError(f"LLM endpoint refused the credentials ({status}): {exc.message}", details)
        return fatal(f"LLM endpoint rejected the request ({status}): {exc.message}", details)
    return fatal(f"LLM client error: {exc}")


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter; a server's Retry-After wins when it gives one."""

    max_retries: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 30.0

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
            return exc.retry_after
        backoff = min(self.backoff_max_s, self.backoff_base_s * 2 ** (state.attempt_number - 1))
        return backoff * (0.5 + random.random() / 2)

    def _should_retry(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        if not isinstance(exc, RetryableError):
            return False
        retry_after = getattr(exc, "retry_after", None)
        return retry_after is None or retry_after <= MAX_RETRY_AFTER_S

    def call(self, fn: Callable[[], T]) -> T:
        retrying = Retrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=self._should_retry,
            reraise=True,
            sleep=sleep,
        )
        return retrying(fn)


@contextmanager
def _mapped(fatal: type[StrataError]) -> Iterator[None]:
    try:
        yield
    except openai.OpenAIError as exc:
        raise map_openai_error(exc, fatal) from exc


def _make_client(base_url: str | None, api_key: str | None, timeout_s: float) -> openai.OpenAI:
    if api_key is None and base_url is None:
        raise ConfigError("an OpenAI-compatible endpoint needs a base_url or an API key")
    # local servers (vLLM, Ollama, llama.cpp) accept any key; the SDK insists on one
    return openai.OpenAI(api_key=api_key or "not-needed", base_url=base_url, timeout=timeout_s, max_retries=0)


@dataclass(frozen=True)
class ChatOptions:
    """What every chat request asks: a JSON schema (else JSON mode), the temperature (None: the server's), and
    an output cap."""

    json_schema: bool = True
    temperature: float | None = 0.0
    max_tokens: int | None = None


class OpenAIChatLLM:
    """Implements the LLM protocol: one chat.completions call returning one parsed JSON object."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        retry: RetryPolicy = RetryPolicy(),
        options: ChatOptions = ChatOptions(),
        limiter: CallLimiter | None = None,
    ) -> None:
        self.model = model
        self.json_schema = options.json_schema
        self.temperature = options.temperature
        self.max_tokens = options.max_tokens
        # Optional shared rate limit: acquire/settle/throttle per attempt.
        self.limiter = limiter
        self._client = _make_client(base_url, api_key, timeout_s)
        self._policy = retry

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> OpenAIChatLLM:
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        kwargs: dict[str, Any] = dict(
            model=settings.llm_model, base_url=settings.llm_base_url, api_key=key,
            timeout_s=settings.llm_timeout_s, retry=RetryPolicy(max_retries=settings.llm_max_retries),
            options=ChatOptions(json_schema=settings.llm_json_schema, max_tokens=settings.llm_max_tokens or None),
        )
        return cls(**{**kwargs, **overrides})

    def _response_format(self, schema: JsonSchema | None) -> dict[str, Any]:
        if schema is None or not self.json_schema:
            return {"type": "json_object"}
        return {
            "type": "json_schema",
            "json_schema": {"name": schema.name, "schema": schema.schema_, "strict": schema.strict},
        }

    def _create(self, messages: Sequence[ChatMessage], schema: JsonSchema | None) -> Any:
        extra: dict[str, Any] = {} if self.temperature is None else {"temperature": self.temperature}
        if self.max_tokens:
            extra["max_tokens"] = self.max_tokens
        estimated = self.limiter.acquire(messages) if self.limiter is not None else 0
        try:
            with _mapped(ExtractionError):
                # the SDK's overloads want its TypedDicts; ours are the same JSON, typed as plain dicts
                response = self._client.chat.completions.create(  # type: ignore[call-overload]
                    model=self.model,
                    messages=list(messages),
                    response_format=self._response_format(schema),
                    **extra,
                )
        except RateLimitedError as exc:
            if self.limiter is not None:
                self.limiter.throttle(exc.retry_after)
            raise
        if self.limiter is not None:
            used = getattr(response.usage, "total_tokens", None) or 0
            self.limiter.settle(estimated, used or estimated)
        return response

    def complete(
        self, messages: Sequence[ChatMessage], schema: JsonSchema | None
    ) -> tuple[dict[str, Any], TokenUsage]:
        response = self._policy.call(lambda: self._create(messages, schema))
        usage = TokenUsage(
            calls=1,
            prompt_tokens=getattr(response.usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(response.usage, "completion_tokens", 0) or 0,
        )
        if not response.choices:
            raise MalformedOutputError("LLM returned no choices", _details("", False, usage))
        choice = response.choices[0]
        content = choice.message.content or ""
        if choice.finish_reason == "length":
            raise MalformedOutputError("LLM reply truncated (finish_reason=length)", _details(content, True, usage))
        try:
            data = json.loads(_strip_fences(content))
        except json.JSONDecodeError as exc:
            raise MalformedOutputError(f"LLM reply is not JSON: {exc}", _details(content, False, usage)) from exc
        if not isinstance(data, dict):
            raise MalformedOutputError("LLM reply is JSON but not an object", _details(content, False, usage))
        return data, usage


def _details(raw: str, truncated: bool, usage: TokenUsage) -> dict[str, Any]:
    return {
        "raw": raw, "truncated": truncated, "calls": usage.calls,
        "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
    }


def _strip_fences(content: str) -> str:
    """Some local models wrap JSON in ```json fences even in JSON mode."""
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text


class OpenAIEmbeddingsAPI:
    """One embeddings.create call per batch, same retry policy and error mapping as chat."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 5,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 30.0,
    ) -> None:
        self.model = model
        self._client = _make_client(base_url, api_key, timeout_s)
        self._policy = RetryPolicy(max_retries, backoff_base_s, backoff_max_s)

    def create(self, texts: Sequence[str], dimensions: int | None = None) -> list[list[float]]:
        extra: dict[str, Any] = {} if dimensions is None else {"dimensions": dimensions}

        def call() -> Any:
            with _mapped(StrataError):
                return self._client.embeddings.create(
                    model=self.model, input=list(texts), encoding_format="float", **extra
                )

        response = self._policy.call(call)
        rows = sorted(response.data, key=lambda d: d.index)  # the API may return them out of order
        if len(rows) != len(texts):
            raise UpstreamUnavailableError(f"embeddings endpoint returned {len(rows)} vectors for {len(texts)} texts")
        return [list(map(float, r.embedding)) for r in rows]
