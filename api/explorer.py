"""Strata's explorer at /ui: static pages over the REST API (docs/browse.md).

The graph-drawing library is vendored from npm into ``ui/static/vendor`` by ``make ui`` (no CDN at run time).
The pages hold no data and need no key to load; every read they make carries the user's key.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "ui" / "static"
VENDORED = ("cytoscape.min.js",)

MISSING = """<!doctype html><title>Strata explorer</title>
<h1>The explorer's assets are not built</h1>
<p>Run <code>make ui</code> (or <code>make setup</code>) in the checkout: it vendors the graph library from npm
into <code>api/ui/static/vendor/</code>.</p>"""


def missing_assets() -> list[str]:
    return [name for name in VENDORED if not (STATIC / "vendor" / name).is_file()]


def mount_explorer(app: FastAPI) -> None:
    @app.get("/ui", include_in_schema=False)
    def explorer_root() -> RedirectResponse:
        return RedirectResponse("/ui/")

    if missing_assets():
        @app.get("/ui/", include_in_schema=False)
        def explorer_unbuilt() -> HTMLResponse:
            return HTMLResponse(MISSING, status_code=503)
        return
    app.mount("/ui", StaticFiles(directory=STATIC, html=True), name="explorer")
