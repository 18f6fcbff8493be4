"""Neo4j Browser's style sheet and guide, served without a key: they hold no data, only how to look at it.

Browser fetches them from its own page (another origin: the Neo4j HTTP port), so the answers allow any origin,
and `:play` sends `pragma` and `cache-control` headers, which makes Chromium ask with a preflight first.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from strata.schema.neo4j_browser import guide_html, style_sheet

router = APIRouter(prefix="/browser", tags=["browser"])

_CORS = {"Access-Control-Allow-Origin": "*"}


@router.get("/style.grass", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
def style() -> Response:
    """The GraSS style sheet for Neo4j Browser (`:style <url>`): entity types coloured, facts captioned."""
    return Response(style_sheet(), media_type="text/plain; charset=utf-8", headers=_CORS)


@router.get("/guide", response_class=Response, responses={200: {"content": {"text/html": {}}}})
def guide(request: Request) -> Response:
    """The Browser guide (`:play <url>`): parameterized queries over one group's graph."""
    return Response(guide_html(str(request.base_url)), media_type="text/html; charset=utf-8", headers=_CORS)


@router.options("/style.grass", include_in_schema=False)
@router.options("/guide", include_in_schema=False)
def preflight(request: Request) -> Response:
    asked = request.headers.get("access-control-request-headers", "")
    return Response(status_code=204, headers={**_CORS, "Access-Control-Allow-Methods": "GET, OPTIONS",
                                              "Access-Control-Allow-Headers": asked or "*",
                                              "Access-Control-Max-Age": "600"})
