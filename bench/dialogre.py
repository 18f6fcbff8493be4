"""DialogRE (dev, v2) for the relation bench: dialogues as chat episodes, the predicate table, pair scoring.

The measure is the one ``shared/data/relations/dialogre/README.md`` describes: every dialogue is one chat episode
(one group per dialogue), each stored predicate maps to at most one DialogRE relation through ``PREDICATE_TABLE``
(plus the inverse relation DialogRE annotates from the other argument's side), a fact's subject and object match a
pair's ``x`` and ``y`` by name or alias (case-insensitive), and a speaker id ("Speaker 2") matches an entity that is
that speaker or carries one of that speaker's names. ``per:alternate_names`` is scored on the names learnt for a
speaker (an entity "Speaker 2" with the alias "Rachel" gives the pair (Speaker 2, Rachel)). ``unanswerable`` pairs
and relations the table does not reach count for nothing. Everything here is pure; the data stays in ../shared.

Direction conventions, read off dev.json before the table was fixed: ``per:parents(x, y)`` = y is a parent of x
("Speaker 3: Hi! Hey mom." gives (Speaker 3, Speaker 2)), ``per:children(x, y)`` = y is a child of x,
``per:boss(x, y)`` = y is x's boss ("we're Joanna's two assistants": (Speaker 2, Joanna)), ``per:subordinate``
the reverse, ``per:client(x, y)`` = y is x's client (Estelle the agent, (Estelle, Speaker 1)); person -> place /
organization relations have the person as x and a ``gpe:``/``org:`` inverse with the place first; spouse,
siblings, girl/boyfriend, friends, roommate, neighbor, other_family and acquaintance are annotated both ways.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strata.resolve.predicates import stored_predicate
from strata.schema.errors import InputError
from strata.schema.models import Extraction

DEV = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "relations" / "dialogre" / "dev.json"
# DialogRE has no dates; a fixed reference time keeps episode ids (and reruns) stable.
REFERENCE_TIME = "2020-01-01T00:00:00Z"
ALTERNATE_NAMES = "per:alternate_names"
SPEAKER_ID = re.compile(r"^speaker \d+$", re.I)
_TURN = re.compile(r"^(?P<speaker>Speaker \d+(?:\s*,\s*Speaker \d+)*)\s*:\s?(?P<text>.*)$", re.S)

# THE MAPPING TABLE, written before any scored run (issue 14: "the table written before the run"); changing it
# after seeing results would measure the table, not the extractor. Keys are stored predicate names (the ontology's
# canonical names, which is what the write path stores); "so" = relation(x=subject, y=object), "os" = relation(x=
# object, y=subject). At most one DialogRE relation per predicate; predicates not listed count for nothing.
PREDICATE_TABLE: dict[str, tuple[str, str]] = {
    "spouse_of": ("per:spouse", "so"),
    "partner_of": ("per:girl/boyfriend", "so"),
    "engaged_to": ("per:girl/boyfriend", "so"),  # DialogRE has no fiance relation; an engaged couple are a couple
    "sibling_of": ("per:siblings", "so"),
    "parent_of": ("per:children", "so"),  # parent_of(A, B): B is A's child
    "child_of": ("per:parents", "so"),  # child_of(A, B): B is A's parent
    "relative_of": ("per:other_family", "so"),
    "friend_of": ("per:friends", "so"),
    "roommate_of": ("per:roommate", "so"),
    "neighbor_of": ("per:neighbor", "so"),
    "knows": ("per:acquaintance", "so"),
    "boss_of": ("per:subordinate", "so"),  # boss_of(A, B): B is A's subordinate
    "client_of": ("per:client", "os"),  # client_of(A, B): A is B's client, DialogRE puts B first
    "has_pet": ("per:pet", "so"),
    "works_as": ("per:title", "so"),
    "holds_office": ("per:title", "so"),
    "employed_by": ("per:employee_or_member_of", "so"),
    "member_of": ("per:employee_or_member_of", "so"),
    "lives_in": ("per:place_of_residence", "so"),
    "visits": ("per:visited_place", "so"),
    "likes": ("per:positive_impression", "so"),
    "dislikes": ("per:negative_impression", "so"),
    "studies_at": ("per:schools_attended", "so"),
    "studies": ("per:major", "so"),
    "born_in": ("per:place_of_birth", "so"),  # not an ontology predicate: what "was born in" normalizes to
}
# DialogRE annotates these relations from the other argument's side too: a predicted (x, y, r) also predicts
# (y, x, INVERSE[r]). Symmetric relations are their own inverse.
INVERSE: dict[str, str] = {
    "per:spouse": "per:spouse", "per:girl/boyfriend": "per:girl/boyfriend", "per:siblings": "per:siblings",
    "per:other_family": "per:other_family", "per:friends": "per:friends", "per:roommate": "per:roommate",
    "per:neighbor": "per:neighbor", "per:acquaintance": "per:acquaintance",
    "per:children": "per:parents", "per:parents": "per:children",
    "per:boss": "per:subordinate", "per:subordinate": "per:boss",
    "per:employee_or_member_of": "org:employees_or_members", "per:place_of_residence": "gpe:residents_of_place",
    "per:visited_place": "gpe:visitors_of_place", "per:schools_attended": "org:students",
    "per:place_of_birth": "gpe:births_in_place",
}


def covered_relations() -> set[str]:
    """Every DialogRE relation the table (with inverses) or the learnt speaker names can predict."""
    direct = {relation for relation, _ in PREDICATE_TABLE.values()}
    return direct | {INVERSE[r] for r in direct if r in INVERSE} | {ALTERNATE_NAMES}


@dataclass(frozen=True)
class Pair:
    x: str
    y: str
    relations: tuple[str, ...]
    x_type: str = ""
    y_type: str = ""


@dataclass(frozen=True)
class Dialogue:
    index: int
    turns: tuple[str, ...]
    pairs: tuple[Pair, ...]

    @property
    def group(self) -> str:
        return f"bench-dialogre-{self.index}"

    def speaker_names(self) -> dict[str, frozenset[str]]:
        """Folded speaker id -> the (folded) person names DialogRE gives that speaker; nicknames typed STRING
        ("honey", "man") are left out, since they would make any entity so addressed the speaker."""
        names: dict[str, set[str]] = defaultdict(set)
        for p in self.pairs:
            if ALTERNATE_NAMES in p.relations and SPEAKER_ID.match(p.x) and p.y_type == "PER":
                names[fold(p.x)].add(fold(p.y))
        return {k: frozenset(v) for k, v in names.items()}


def load_dialogues(path: Path = DEV) -> list[Dialogue]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Dialogue(index=i, turns=tuple(turns),
                     pairs=tuple(Pair(x=p["x"], y=p["y"], relations=tuple(p["r"]), x_type=p.get("x_type", ""),
                                      y_type=p.get("y_type", "")) for p in pairs))
            for i, (turns, pairs) in enumerate(data)]


def split_turn(turn: str) -> tuple[str, str]:
    """("Speaker 2", "text") of a "Speaker 2: text" turn; a turn said together keeps its joint label."""
    match = _TURN.match(turn)
    if not match:
        return "unknown", turn  # as the transcript reader labels a line with no speaker
    return match["speaker"], match["text"]


def episode_body(dialogue: Dialogue) -> dict[str, Any]:
    """The request body of POST /v1/groups/{g}/episodes for a dialogue: one chat episode, one message a turn
    (``to_episode`` renders them back as "Speaker N: text" lines, as a chat export is ingested)."""
    messages = [{"speaker": s, "text": t} for s, t in map(split_turn, dialogue.turns)]
    return {"source": f"dialogre-dev-{dialogue.index}", "reference_time": REFERENCE_TIME, "messages": messages,
            "metadata": {"dialogue": dialogue.index}}


def fold(text: str) -> str:
    return " ".join(text.casefold().split())


@dataclass(frozen=True)
class Statement:
    """A fact as the bench sees it: its arguments as the folded names of the entities (name and aliases)."""

    subject: frozenset[str]
    predicate: str  # the stored name
    object: frozenset[str]
    text: str = ""


@dataclass(frozen=True)
class Predicted:
    dialogue: int
    relation: str
    x: frozenset[str]
    y: frozenset[str]
    why: str = field(default="", compare=False)


def predictions(dialogue: int, statements: Iterable[Statement],
                speaker_aliases: Mapping[str, Iterable[str]]) -> list[Predicted]:
    """Map facts through the table (and its inverses) and learnt speaker names to DialogRE pairs, deduplicated.

    ``speaker_aliases``: speaker id -> the other names of the entity that is that speaker.
    """
    out: dict[Predicted, Predicted] = {}

    def add(p: Predicted) -> None:
        out.setdefault(p, p)

    for s in statements:
        mapped = PREDICATE_TABLE.get(s.predicate)
        if mapped is None:
            continue
        relation, order = mapped
        x, y = (s.subject, s.object) if order == "so" else (s.object, s.subject)
        add(Predicted(dialogue, relation, x, y, s.text))
        if relation in INVERSE:
            add(Predicted(dialogue, INVERSE[relation], y, x, s.text))
    for speaker, aliases in speaker_aliases.items():
        for alias in aliases:
            if fold(alias) != fold(speaker):
                add(Predicted(dialogue, ALTERNATE_NAMES, frozenset({fold(speaker)}), frozenset({fold(alias)}),
                              f"{speaker} goes by {alias}"))
    return list(out.values())


def argument_matches(gold: str, names: frozenset[str], speaker_names: Mapping[str, frozenset[str]]) -> bool:
    """A pair's argument is the entity when one of its names is the argument, or when the argument is a speaker
    id and the entity carries one of that speaker's names."""
    g = fold(gold)
    return g in names or bool(SPEAKER_ID.match(g) and names & speaker_names.get(g, frozenset()))


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def _prf(tp_pred: int, predicted: int, tp_gold: int, gold: int) -> dict[str, Any]:
    p, r = _ratio(tp_pred, predicted), _ratio(tp_gold, gold)
    f1 = round(2 * p * r / (p + r), 4) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f1, "predicted": predicted, "correct": tp_pred, "gold": gold,
            "found": tp_gold}


def score(dialogues: Iterable[Dialogue], predicted: Iterable[Predicted],
          relations: set[str] | None = None) -> dict[str, Any]:
    """Precision (predicted pairs that match a gold pair of their relation), recall (gold pairs some prediction
    matches) and F1, per relation and micro-averaged over ``relations`` (default: what the table covers);
    ``micro_facts`` leaves out per:alternate_names (the relations facts alone must reach)."""
    relations = relations if relations is not None else covered_relations()
    by_dialogue = {d.index: d for d in dialogues}
    gold: dict[int, set[tuple[str, str, str]]] = {
        i: {(p.x, p.y, r) for p in d.pairs for r in p.relations if r in relations} for i, d in by_dialogue.items()}
    names = {i: d.speaker_names() for i, d in by_dialogue.items()}
    counts: dict[str, list[int]] = {r: [0, 0, 0, 0] for r in sorted(relations)}  # correct, predicted, found, gold
    judged: dict[str, int] = dict.fromkeys(relations, 0)  # predictions on an annotated pair of a covered relation
    annotated: dict[int, set[tuple[str, str]]] = {i: {(x, y) for x, y, _ in g} for i, g in gold.items()}
    found: set[tuple[int, str, str, str]] = set()
    right: list[Predicted] = []
    wrong: list[Predicted] = []
    for p in predicted:
        if p.relation not in relations or p.dialogue not in by_dialogue:
            continue
        counts[p.relation][1] += 1
        judged[p.relation] += any(argument_matches(x, p.x, names[p.dialogue]) and
                                  argument_matches(y, p.y, names[p.dialogue]) for x, y in annotated[p.dialogue])
        hits = [(p.dialogue, x, y, r) for x, y, r in gold[p.dialogue] if r == p.relation
                and argument_matches(x, p.x, names[p.dialogue]) and argument_matches(y, p.y, names[p.dialogue])]
        if hits:
            counts[p.relation][0] += 1
            found.update(hits)
            right.append(p)
        else:
            wrong.append(p)
    for i, pairs in gold.items():
        for x, y, r in pairs:
            counts[r][3] += 1
            counts[r][2] += (i, x, y, r) in found
    per_relation = {r: _prf(*c) for r, c in counts.items() if c[1] or c[3]}

    def micro(keep: Iterable[str]) -> dict[str, Any]:
        kept = list(keep)
        total = [sum(counts[r][k] for r in kept) for k in range(4)]
        return _prf(*total)

    def on_pairs(keep: Iterable[str]) -> dict[str, Any]:
        """DialogRE's own protocol: a prediction is judged only where the dataset annotates its two arguments
        (a pair holding a covered relation); elsewhere (an alias the annotators did not list, a fact about
        a pair nobody annotated) it counts for nothing."""
        kept = list(keep)
        total = [sum(counts[r][0] for r in kept), sum(judged[r] for r in kept),
                 sum(counts[r][2] for r in kept), sum(counts[r][3] for r in kept)]
        return _prf(*total)

    return {"micro": micro(relations), "micro_facts": micro(r for r in relations if r != ALTERNATE_NAMES),
            "micro_on_annotated_pairs": on_pairs(relations),
            "micro_facts_on_annotated_pairs": on_pairs(r for r in relations if r != ALTERNATE_NAMES),
            "per_relation": per_relation, "right": right, "wrong": wrong}


def _names(name: str, aliases: Iterable[str]) -> frozenset[str]:
    return frozenset(fold(n) for n in (name, *aliases) if n.strip())


def from_extraction(extraction: Extraction, speakers: Iterable[str]) -> tuple[list[Statement], dict[str, list[str]]]:
    """Statements and learnt speaker names of an in-process extraction. Predicates are named as the write path
    names them against an empty registry (``stored_predicate``: normalization and the ontology's synonyms), so
    the table sees what a fresh group would store; negated facts state that a relation does not hold."""
    entities: dict[str, frozenset[str]] = {}
    for e in extraction.entities:
        names = _names(e.name, e.aliases)
        for n in names:
            entities[n] = entities.get(n, frozenset()) | names
    statements = []
    for f in extraction.facts:
        if f.negated:
            continue
        try:
            predicate = stored_predicate(f.predicate, [])
        except InputError:
            continue
        subject = entities.get(fold(f.subject), frozenset({fold(f.subject)}))
        obj = entities.get(fold(f.object), frozenset({fold(f.object)}))
        statements.append(Statement(subject, predicate, obj, f.fact or f"{f.subject} {f.predicate} {f.object}"))
    aliases = {s: sorted(entities.get(fold(s), frozenset()) - {fold(s)}) for s in speakers}
    return statements, {s: a for s, a in aliases.items() if a}


def from_listing(facts: Iterable[Mapping[str, Any]], entities: Mapping[str, Mapping[str, Any]],
                 speakers: Mapping[str, Mapping[str, Any] | None]) -> tuple[list[Statement], dict[str, list[str]]]:
    """Statements and learnt speaker names from the REST API: ``facts`` as GET /groups/{g}/facts lists them,
    ``entities`` uuid -> GET /entities/{uuid}, ``speakers`` speaker id -> the entity that is that speaker."""
    statements = []
    for f in facts:
        if f.get("negated") or f.get("expired_at"):
            continue
        s, o = entities[f["subject_uuid"]], entities[f["object_uuid"]]
        statements.append(Statement(_names(s["name"], s.get("aliases", [])), f["predicate"],
                                    _names(o["name"], o.get("aliases", [])), f.get("fact", "")))
    aliases = {sid: sorted(_names(e["name"], e.get("aliases", [])) - {fold(sid)})
               for sid, e in speakers.items() if e}
    return statements, {s: a for s, a in aliases.items() if a}


def speakers_of(dialogue: Dialogue) -> list[str]:
    """The speaker ids of a dialogue, each once, joint labels ("Speaker 1, Speaker 2") split."""
    ids = [s.strip() for turn in dialogue.turns for s in split_turn(turn)[0].split(",")]
    return list(dict.fromkeys(s for s in ids if SPEAKER_ID.match(s)))
