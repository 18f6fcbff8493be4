"""The Neo4j Browser guide as tests read it (the text of its `pre.runnable` blocks, as Browser reads them), and a
small group to run it against."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path


class _Runnable(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.slides: list[list[str]] = []
        self._pre: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "slide":
            self.slides.append([])
        elif tag == "pre" and "runnable" in (dict(attrs).get("class") or "").split():
            self._pre = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self._pre is not None:
            self.slides[-1].append("".join(self._pre).strip())
            self._pre = None

    def handle_data(self, data: str) -> None:
        if self._pre is not None:
            self._pre.append(data)


def runnable_blocks(html: str) -> list[list[str]]:
    """Per slide, the text of each runnable block, entities decoded (what a click puts in the editor)."""
    parser = _Runnable()
    parser.feed(html)
    return parser.slides


def block(html: str, *needles: str) -> str:
    """The one runnable block that contains every needle."""
    found = [b for slide in runnable_blocks(html) for b in slide if all(n in b for n in needles)]
    assert len(found) == 1, (needles, found)
    return found[0]


# A small group to run the guide against: the demo chat (Maya moves from Lisbon to Berlin on 2024-06-03, her
# sister Sofia), the demo office-holder table, and a scene of dialogue (Tom Grey and Anna).
SAMPLES = Path(__file__).resolve().parent.parent.parent / "docs" / "samples"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
DIALOGUE = '"Will you walk?" said Tom to Anna.\n\n"Not today, Tom."\n\n"Then tomorrow," said Tom.'


@dataclass
class SampleGroup:
    group_id: str
    chat_episodes: list[str]


def write_sample_group(graph, group_id: str) -> SampleGroup:
    from strata.graph.commit import commit_episode
    from strata.ingest.embedders import HashEmbedder
    from strata.ingest.extractors import SpacyExtractor
    from strata.ingest.pipeline import Pipeline
    from strata.ingest.sources import load_source
    from strata.resolve.timeline import recompute_timeline

    pipeline = Pipeline(graph, SpacyExtractor(), HashEmbedder(dimension=384))
    chat: list[str] = []
    for name, fmt in (("chat_sessions.json", "sessions-json"), ("offices.jsonl", "facts-jsonl")):
        doc = load_source(SAMPLES / name, fmt, group_id=group_id)
        for episode in doc.episodes:
            pipeline.process(episode, doc.source)
            if fmt == "sessions-json":
                chat.append(episode.uuid)
    commit_episode(graph, _dialogue_plan(group_id), recompute_timeline, NOW)
    return SampleGroup(group_id, chat)


def _dialogue_plan(group_id: str):
    from strata.schema import ids
    from strata.schema.models import Episode, ExtractorInfo
    from strata.schema.plan import CommitPlan, EntityWrite, MentionWrite, QuoteWrite

    ep = Episode(uuid=ids.episode_uuid(group_id, "walk", 0), group_id=group_id, kind="text", content=DIALOGUE,
                 reference_time=NOW, content_hash=ids.content_hash(DIALOGUE), status="done")
    tom, anna = (EntityWrite(uuid=ids.entity_uuid(group_id, f"person:{n.lower()}"), key=f"person:{n.lower()}",
                             name=n, type="Person", aliases=[n, *extra])
                 for n, extra in (("Tom Grey", ["Tom"]), ("Anna", [])))

    def quote(k: int, words: str, speaker: EntityWrite, to: EntityWrite) -> QuoteWrite:
        start = DIALOGUE.index(words)
        return QuoteWrite(uuid=ids.stable_uuid("quote", ep.uuid, k), text=words, start=start, end=start + len(words),
                          position=k, speaker=speaker.name, speaker_uuid=speaker.uuid, addressees=[to.name],
                          addressee_uuids=[to.uuid], method="tag", confidence=0.9)

    return CommitPlan(group_id=group_id, episode=ep, entities=[tom, anna],
                      mentions=[MentionWrite(entity_uuid=e.uuid, surface_forms=[e.name]) for e in (tom, anna)],
                      quotes=[quote(0, "Will you walk?", tom, anna), quote(1, "Not today, Tom.", anna, tom),
                              quote(2, "Then tomorrow,", tom, anna)],
                      extractor=ExtractorInfo(name="test"))
