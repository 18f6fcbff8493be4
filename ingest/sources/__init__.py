"""Sources and segmentation: files in five formats become a Source and its ordered Episodes.

See docs/formats.md for the formats and their fallbacks.
"""

from .base import FORMATS, SourceDocument, SourceOptions, load_source, parse_source_bytes, parse_source_text
from .book import count_tokens
from .facts import render_fact
from .times import parse_timestamp

__all__ = [
    "FORMATS",
    "SourceDocument",
    "SourceOptions",
    "count_tokens",
    "load_source",
    "parse_source_bytes",
    "parse_source_text",
    "parse_timestamp",
    "render_fact",
]
