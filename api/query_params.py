"""A query parameter the API takes as one value, given twice, is refused (422) instead of FastAPI quietly keeping
the last one: what the server reads is what the OpenAPI document declares. The parameters that take lists
(``kinds``, ``types``, ...) are read from that document, so a new list parameter needs no change here."""

from __future__ import annotations

from collections import Counter
from urllib.parse import parse_qsl

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from strata.api import errors


def list_parameters(app: FastAPI) -> frozenset[str]:
    """Names of the query parameters some operation declares as an array (no name is both, in this API)."""
    names = set()
    for operations in app.openapi().get("paths", {}).values():
        for operation in operations.values():
            for p in operation.get("parameters", []) if isinstance(operation, dict) else []:
                schema = p.get("schema", {})
                if p.get("in") == "query" and "array" in {s.get("type") for s in [schema, *schema.get("anyOf", [])]}:
                    names.add(p["name"])
    return frozenset(names)


class SingleValuedQuery:
    def __init__(self, app: ASGIApp, api: FastAPI) -> None:
        self.app, self.api = app, api
        self._lists: frozenset[str] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("query_string"):
            counts = Counter(k for k, _ in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True))
            repeated = {name for name, n in counts.items() if n > 1}
            if repeated:
                if self._lists is None:  # the document exists once every route is installed: read it once
                    self._lists = list_parameters(self.api)
                if refused := sorted(repeated - self._lists):
                    response = errors.error_json(
                        422, "validation_error", f"query parameter given more than once: {', '.join(refused)}",
                        {"errors": [{"loc": ["query", name], "msg": "takes one value", "type": "repeated"}
                                    for name in refused]})
                    return await response(scope, receive, send)
        await self.app(scope, receive, send)
