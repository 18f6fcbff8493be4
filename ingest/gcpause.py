"""Pause Python's cyclic garbage collector while one episode is planned and written.

A 10,000-fact episode allocates a few hundred thousand short-lived, acyclic objects (pydantic models,
row dicts); the allocation counter then triggers full collections that walk the worker's whole heap
(spaCy model, ONNX session) again and again: about a third of the planner's time, measured. Reference
counting still frees everything at once; the collector resumes when the last pausing stage ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = True


@contextmanager
def gc_paused() -> Iterator[None]:
    """Thread-safe: the collector is restored only when no pausing caller is left."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
