"""A rate limit on LLM calls shared by every worker: requests and tokens per minute, in Redis.

Two token buckets (requests, tokens) refill continuously; one Lua script checks both and takes from both
atomically, using the Redis server's clock so workers on different machines agree. Before a call a worker
takes one request and its estimated tokens; after the call the estimate is settled against the real usage.
A 429 from the provider pauses every worker until its Retry-After (``throttle``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import redis
from redis.exceptions import RedisError

from strata.ingest import metrics
from strata.schema.errors import RateLimitedError

# KEYS: requests bucket, tokens bucket, pause-until. ARGV: rpm, tpm, tokens wanted.
# A bucket is a hash {level, ts}. Returns 0 when granted, else milliseconds to wait.
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pause = tonumber(redis.call('GET', KEYS[3]) or '0')
if pause > now then return pause - now end
local function level(key, per_min)
  if per_min <= 0 then return nil end
  local v = redis.call('HMGET', key, 'level', 'ts')
  local lvl = tonumber(v[1]) or per_min
  local ts = tonumber(v[2]) or now
  lvl = math.min(per_min, lvl + (now - ts) * per_min / 60000)
  return lvl
end
local rpm, tpm, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
want = math.min(want, tpm > 0 and tpm or want)
local r, k = level(KEYS[1], rpm), level(KEYS[2], tpm)
local wait = 0
if r ~= nil and r < 1 then wait = math.max(wait, math.ceil((1 - r) * 60000 / rpm)) end
if k ~= nil and k < want then wait = math.max(wait, math.ceil((want - k) * 60000 / tpm)) end
if wait > 0 then return wait end
if r ~= nil then redis.call('HSET', KEYS[1], 'level', r - 1, 'ts', now); redis.call('PEXPIRE', KEYS[1], 120000) end
if k ~= nil then redis.call('HSET', KEYS[2], 'level', k - want, 'ts', now); redis.call('PEXPIRE', KEYS[2], 120000) end
return 0
"""

# Settle the token bucket: positive ARGV[1] takes more (the call used more than estimated), negative gives back.
_SETTLE = """
local v = redis.call('HGET', KEYS[1], 'level')
if v then redis.call('HINCRBYFLOAT', KEYS[1], 'level', -tonumber(ARGV[1])) end
return 0
"""

_THROTTLE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = now + tonumber(ARGV[1])
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > cur then redis.call('SET', KEYS[1], until_ms, 'PX', tonumber(ARGV[1]) + 1000) end
return until_ms
"""

DEFAULT_PAUSE_S = 1.0
COMPLETION_ALLOWANCE = 800  # tokens expected in a reply, added to the prompt estimate


class CallLimiter(Protocol):
    """The hook OpenAIChatLLM calls around each HTTP attempt."""

    def acquire(self, messages: Sequence[Any]) -> int: ...
    def settle(self, estimated: int, used: int) -> None: ...
    def throttle(self, retry_after: float | None) -> None: ...


def estimate_tokens(messages: Sequence[Any]) -> int:
    chars = sum(len(str(m.get("content", ""))) if isinstance(m, dict) else len(str(m)) for m in messages)
    return chars // 4 + COMPLETION_ALLOWANCE


class RedisRateLimiter:
    def __init__(self, client: redis.Redis, requests_per_minute: int, tokens_per_minute: int, *,
                 namespace: str = "strata:llm", max_wait_s: float = 300.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.client = client
        self.rpm = requests_per_minute
        self.tpm = tokens_per_minute
        self.keys = [f"{namespace}:requests", f"{namespace}:tokens", f"{namespace}:pause"]
        self.max_wait_s = max_wait_s
        self._sleep = sleep
        self._acquire = client.register_script(_ACQUIRE)
        self._settle = client.register_script(_SETTLE)
        self._throttle = client.register_script(_THROTTLE)

    @classmethod
    def from_url(cls, url: str, requests_per_minute: int, tokens_per_minute: int, **kw: Any) -> RedisRateLimiter:
        return cls(redis.Redis.from_url(url), requests_per_minute, tokens_per_minute, **kw)

    def try_acquire(self, tokens: int) -> float:
        """0.0 when granted, else seconds to wait before trying again."""
        return int(self._acquire(keys=self.keys, args=[self.rpm, self.tpm, tokens])) / 1000.0

    def acquire(self, messages: Sequence[Any]) -> int:
        tokens = estimate_tokens(messages)
        waited = 0.0
        while True:
            try:
                wait = self.try_acquire(tokens)
            except RedisError:
                return tokens  # no Redis, no shared limit: the provider's 429s still hold us back
            if wait <= 0:
                metrics.LLM_LIMITER_WAIT_SECONDS.inc(waited)
                return tokens
            if waited + wait > self.max_wait_s:
                raise RateLimitedError(f"shared LLM rate limit: waited {waited:.0f}s", retry_after=wait)
            self._sleep(wait)
            waited += wait

    def settle(self, estimated: int, used: int) -> None:
        if self.tpm > 0 and used != estimated:
            try:
                self._settle(keys=[self.keys[1]], args=[used - estimated])
            except RedisError:
                pass

    def throttle(self, retry_after: float | None) -> None:
        metrics.LLM_RATE_LIMITED.inc()
        pause_ms = int(1000 * (retry_after if retry_after is not None else DEFAULT_PAUSE_S))
        try:
            self._throttle(keys=[self.keys[2]], args=[max(1, pause_ms)])
        except RedisError:
            pass
