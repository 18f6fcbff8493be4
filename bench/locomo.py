"""LoCoMo-format conversations for the retrieval bench: sessions as chat episodes, questions with clean evidence.

The format and the measure are those of ``shared/data/chatlogs/locomo_dev/README.md``: each session is one chat
episode whose messages carry ``{"dia_id": ...}`` metadata and whose reference time is the session's date; an
image turn's text gets `` (image: <caption>)``. Malformed evidence ids are split on ``;`` and spaces, ids that
are not turns of the conversation are dropped, and questions left without evidence are skipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dateutil import parser as dateparser

DEV = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "chatlogs" / "locomo_dev" / "locomo_dev4.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}  # 5 (adversarial) has no answer
_EVIDENCE_SPLIT = re.compile(r"[;\s]+")


@dataclass
class Question:
    text: str
    evidence: list[str]
    category: str


@dataclass
class Conversation:
    sample_id: str
    sessions: list[dict[str, Any]]  # request bodies for POST /v1/groups/{g}/episodes
    questions: list[Question] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return sum(len(s["messages"]) for s in self.sessions)


def session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> 2023-05-08T13:56Z."""
    return dateparser.parse(text.replace(" on ", " "), dayfirst=True).replace(tzinfo=UTC)


def load_conversations(path: Path = DEV) -> list[Conversation]:
    out = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conv = sample["conversation"]
        sessions, ids = [], set()
        n = 1
        while f"session_{n}" in conv:
            when = session_time(conv[f"session_{n}_date_time"])
            messages = []
            for turn in conv[f"session_{n}"]:
                text = turn["text"] + (f" (image: {turn['blip_caption']})" if turn.get("blip_caption") else "")
                messages.append({"speaker": turn["speaker"], "text": text, "metadata": {"dia_id": turn["dia_id"]}})
                ids.add(turn["dia_id"])
            sessions.append({"messages": messages, "reference_time": when.isoformat(),
                             "source": f"{sample['sample_id']}-session-{n}"})
            n += 1
        questions = []
        for qa in sample["qa"]:
            if qa["category"] not in CATEGORIES:
                continue
            evidence = [e for raw in qa["evidence"] for e in _EVIDENCE_SPLIT.split(raw) if e in ids]
            if evidence:
                questions.append(Question(qa["question"], list(dict.fromkeys(evidence)), CATEGORIES[qa["category"]]))
        out.append(Conversation(sample["sample_id"], sessions, questions))
    return out


def ranked_turns(hits: list[dict[str, Any]]) -> list[str]:
    """The README's ranked list: walk the hits in order, and each hit's provenance messages, without repeats."""
    seen: dict[str, None] = {}
    for hit in hits:
        for prov in hit.get("provenance", []):
            for message in prov.get("messages", []):
                dia_id = (message.get("metadata") or {}).get("dia_id")
                if dia_id:
                    seen.setdefault(dia_id, None)
    return list(seen)


def recall_at(turns: list[str], evidence: list[str], k: int) -> float:
    return len(set(turns[:k]) & set(evidence)) / len(evidence)
