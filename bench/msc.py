"""Multi-Session Chat sessions for the benches: each line's last dialog as one chat episode's text and messages.

(The project's `sessions-json` loader also turns every previous dialog of a line into an episode; the benches
want one session per line.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from strata.schema.models import Message

MSC = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "chatlogs" / "msc" / "msc_session3_test.jsonl"


def msc_sessions(n: int) -> Iterator[tuple[str, list[Message]]]:
    """Rendered ``Speaker: text`` lines and their messages, with exact offsets, for the first ``n`` lines."""
    with MSC.open(encoding="utf-8") as f:
        for line in islice(f, n):
            content, messages = "", []
            for turn in json.loads(line)["dialog"]:
                speaker, text = turn["id"], turn["text"].strip()
                content += f"{speaker}: "
                messages.append(Message(speaker=speaker, text=text, start=len(content), end=len(content) + len(text)))
                content += text + "\n"
            yield content, messages
