"""A real HTTP server speaking the OpenAI Chat Completions and Embeddings wire format, for tests and bench.

Replies are scripted per endpoint (a queue); when a queue is empty a default responder answers. Every
request body is logged, so tests count calls and prompt tokens without patching the client.

    with OpenAIServer() as server:
        server.chat(Reply.rate_limited(retry_after=0.2), Reply.json({...}))
        client = openai.OpenAI(base_url=server.base_url, api_key="x")
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Rough BPE-like count (words + punctuation); consistent, which is what the comparisons need."""
    return len(_TOKEN.findall(text))


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # chat message content
    finish_reason: str = "stop"
    body: dict[str, Any] | None = None  # full body override (errors, embeddings)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0

    @classmethod
    def json(cls, obj: Any, **kw: Any) -> Reply:
        return cls(content=json.dumps(obj), **kw)

    @classmethod
    def text(cls, content: str, finish_reason: str = "stop") -> Reply:
        return cls(content=content, finish_reason=finish_reason)

    @classmethod
    def truncated(cls, content: str) -> Reply:
        return cls(content=content, finish_reason="length")

    @classmethod
    def rate_limited(cls, retry_after: float | None = None, retry_after_ms: float | None = None) -> Reply:
        headers = {}
        if retry_after is not None:
            headers["retry-after"] = str(retry_after)
        if retry_after_ms is not None:
            headers["retry-after-ms"] = str(retry_after_ms)
        return cls.error(429, "Rate limit reached", "rate_limit_exceeded", headers)

    @classmethod
    def error(cls, status: int, message: str = "error", code: str | None = None,
              headers: dict[str, str] | None = None) -> Reply:
        body = {"error": {"message": message, "type": "server_error", "param": None, "code": code}}
        return cls(status=status, body=body, headers=headers or {})

    @classmethod
    def slow(cls, delay_s: float, then: Reply | None = None) -> Reply:
        base = then or cls.json({})
        return cls(base.status, base.content, base.finish_reason, base.body, base.headers, delay_s)


@dataclass
class LoggedRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    at: float
    prompt_tokens: int


def _chat_text(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def hash_vector(text: str, dim: int) -> list[float]:
    """Deterministic unit vector for a text: the default embeddings reply."""
    raw = hashlib.sha256(text.encode()).digest()
    values = [((raw[i % len(raw)] + i * 31) % 255) / 127.0 - 1.0 for i in range(dim)]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


class OpenAIServer:
    """ThreadingHTTPServer on 127.0.0.1:0; use as a context manager."""

    def __init__(
        self,
        chat_default: Callable[[dict[str, Any]], Reply] | None = None,
        embedding_dim: int = 8,
    ) -> None:
        self.requests: list[LoggedRequest] = []
        self._queues: dict[str, deque[Reply]] = {"chat": deque(), "embeddings": deque()}
        self._chat_default = chat_default or (lambda body: Reply.json({"entities": [], "facts": [], "summary": ""}))
        self.embedding_dim = embedding_dim
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    # scripting ---------------------------------------------------------------------------------------------
    def chat(self, *replies: Reply) -> None:
        with self._lock:
            self._queues["chat"].extend(replies)

    def embeddings(self, *replies: Reply) -> None:
        with self._lock:
            self._queues["embeddings"].extend(replies)

    def requests_to(self, endpoint: str) -> list[LoggedRequest]:
        return [r for r in self.requests if r.path.endswith(endpoint)]

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}/v1"

    # lifecycle ---------------------------------------------------------------------------------------------
    def start(self) -> OpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # serving -----------------------------------------------------------------------------------------------
    def _next(self, kind: str, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._queues[kind]:
                return self._queues[kind].popleft()
        if kind == "chat":
            return self._chat_default(body)
        return Reply()

    def _chat_body(self, reply: Reply, body: dict[str, Any], prompt_tokens: int) -> dict[str, Any]:
        content = reply.content or ""
        return {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "test-model"),
            "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                         "message": {"role": "assistant", "content": content, "refusal": None}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": count_tokens(content),
                      "total_tokens": prompt_tokens + count_tokens(content)},
        }

    def _embeddings_body(self, body: dict[str, Any]) -> dict[str, Any]:
        inputs = body.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else inputs
        dim = int(body.get("dimensions") or self.embedding_dim)
        data = [{"object": "embedding", "index": i, "embedding": hash_vector(str(t), dim)}
                for i, t in enumerate(inputs)]
        tokens = sum(count_tokens(str(t)) for t in inputs)
        return {"object": "list", "data": data, "model": body.get("model", "test-embed"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                return

            def do_POST(self) -> None:  # noqa: N802 (stdlib name)
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                kind = "embeddings" if self.path.endswith("/embeddings") else "chat"
                text = _chat_text(body) if kind == "chat" else json.dumps(body.get("input", ""))
                tokens = count_tokens(text)
                with server._lock:
                    server.requests.append(LoggedRequest(self.path, body, dict(self.headers), time.time(), tokens))
                reply = server._next(kind, body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.body is not None:
                    payload = reply.body
                elif kind == "chat":
                    payload = server._chat_body(reply, body, tokens)
                else:
                    payload = server._embeddings_body(body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left: that was the point of a slow reply

        return Handler
