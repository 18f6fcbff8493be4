"""What hangs off an episode's resolved entities: memory notes (about them) and quotes (said by and to them).

Pure: the planner hands in its resolution (each surface form's group, each group's entity uuid).
"""

from __future__ import annotations

from strata.resolve.normalize import fold_name
from strata.schema import ids
from strata.schema.models import Episode, Extraction
from strata.schema.plan import NoteWrite, PassageWrite, QuoteWrite


def notes_for(episode: Episode, extraction: Extraction, passages: list[PassageWrite], by_form: dict[str, int],
           uuid_of_group: list[str]) -> list[NoteWrite]:
    """Notes with their passage and the resolved uuids of the entities they name."""
    out = []
    for k, note in enumerate(extraction.notes):
        span = note.spans[0] if note.spans else None
        passage = next((p for p in passages if span and p.start <= span.start < p.end), None)
        entities = [uuid_of_group[i] for name in note.entities if (i := by_form.get(fold_name(name))) is not None]
        out.append(NoteWrite(uuid=ids.stable_uuid("note", episode.uuid, k), text=note.text,
                             start=span.start if span else 0, end=span.end if span else 0,
                             passage_uuid=passage.uuid if passage else None, valid_at=note.valid_at,
                             speaker=note.asserted_by, entity_uuids=list(dict.fromkeys(entities))))
    return out


def quotes_for(episode: Episode, extraction: Extraction, by_form: dict[str, int],
            uuid_of_group: list[str]) -> list[QuoteWrite]:
    """Quotes with the resolved uuids of their speaker and addressees (names that matched no entity stay names)."""

    def uuid_of(name: str | None) -> str | None:
        i = by_form.get(fold_name(name)) if name else None
        return uuid_of_group[i] if i is not None else None

    out = []
    for k, quote in enumerate(extraction.quotes):
        to = [u for name in quote.addressees if (u := uuid_of(name)) is not None]
        out.append(QuoteWrite(uuid=ids.stable_uuid("quote", episode.uuid, k), text=quote.text, start=quote.start,
                              end=quote.end, position=k, speaker=quote.speaker, speaker_uuid=uuid_of(quote.speaker),
                              addressees=quote.addressees, addressee_uuids=list(dict.fromkeys(to)),
                              method=quote.method, confidence=quote.confidence, narrator=quote.narrator))
    return out
