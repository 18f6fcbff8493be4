"""The offline extractor on conversation: the issue's five probe lines, addressing, aliases, pronouns, notes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from strata.ingest.extractors import SpacyExtractor
from strata.ingest.protocols import ExtractionContext
from strata.resolve.ontology import load_ontology
from strata.schema.models import Episode, Extraction, Message

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def chat(lines: list[tuple[str, str]]) -> Episode:
    """A chat episode rendered like the API renders one ("Speaker: text" per line)."""
    content, messages = "", []
    for speaker, text in lines:
        content += f"{speaker}: "
        messages.append(Message(speaker=speaker, text=text, start=len(content) - len(speaker) - 2,
                                end=len(content) + len(text)))
        content += text + "\n"
    return Episode(uuid="ep", group_id="g", kind="chat", content=content.rstrip("\n"), reference_time=REF,
                   content_hash="h", messages=messages, speakers=list(dict.fromkeys(s for s, _ in lines)))


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def run(extractor: SpacyExtractor, lines: list[tuple[str, str]]) -> Extraction:
    return extractor.extract(chat(lines), ExtractionContext())


def facts(result: Extraction) -> dict[tuple[str, str, str], object]:
    return {(f.subject, f.predicate, f.object): f for f in result.facts}


# -- the five probe lines of the issue --------------------------------------------------------------------------
def test_probe_move_is_residence_and_she_is_resolved(extractor: SpacyExtractor) -> None:
    got = facts(run(extractor, [("Maya", "I moved to Berlin in June. She works at Northwind now.")]))
    assert ("Maya", "lives_in", "Berlin") in got
    assert ("Maya", "employed_by", "Northwind") in got
    assert not any(o == "June" or s == "June" for s, _, o in got)  # a date is a time, never an argument
    assert got[("Maya", "lives_in", "Berlin")].valid_at == datetime(2023, 6, 1, tzinfo=UTC)


def test_probe_office_and_succession(extractor: SpacyExtractor) -> None:
    got = facts(run(extractor, [("Maya", "Ann Archer was elected mayor of Avalon in 1990. "
                                         "Ben Baker succeeded her in 1995.")]))
    ann = got[("Ann Archer", "holds_office", "Avalon")]
    ben = got[("Ben Baker", "holds_office", "Avalon")]
    assert ann.role == ben.role == "mayor"  # one slot: (Avalon, mayor)
    assert ann.valid_at.year == 1990 and ben.valid_at.year == 1995
    assert ("Ben Baker", "succeeded", "Ann Archer") in got  # "her" is Ann Archer (female name, most recent)
    assert load_ontology().functional("holds_office") == "object"  # so Ben's term closes Ann's


def test_probe_honorifics_keep_two_people(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Tom", "Mrs. Bennet spoke to Mr. Bennet. Mr. Bennet ignored Mrs. Bennet.")])
    names = {e.name for e in result.entities}
    assert {"Mrs. Bennet", "Mr. Bennet"} <= names and "Bennet" not in names
    assert {(s, o) for s, _, o in facts(result)} >= {("Mrs. Bennet", "Mr. Bennet"), ("Mr. Bennet", "Mrs. Bennet")}


def test_probe_family_marriage_and_dated_event(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Tom", "My sister Sofia got married to Luis last year. "
                                     "I went to the climbing gym yesterday.")])
    got = facts(result)
    assert ("Sofia", "sibling_of", "Tom") in got
    assert got[("Sofia", "spouse_of", "Luis")].valid_at == datetime(2022, 1, 1, tzinfo=UTC)
    gym = got[("Tom", "visits", "climbing gym")]
    assert gym.valid_at == datetime(2023, 5, 7, tzinfo=UTC)  # yesterday = the session date minus one day
    notes = [n.text for n in result.notes]
    assert "Tom went to the climbing gym on 7 May 2023." in notes


def test_probe_passive_founding(extractor: SpacyExtractor) -> None:
    got = facts(run(extractor, [("Tom", "Acme was founded by Carol in 2001.")]))
    assert got[("Carol", "founded", "Acme")].valid_at.year == 2001
    assert got[("Carol", "founded", "Acme")].fact == "Acme was founded by Carol"


# -- conversation mechanics ------------------------------------------------------------------------------------
def test_second_person_is_the_addressee_and_vocatives_teach_aliases(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Speaker 1", "Hey!"),
                             ("Speaker 2", "I got a new job at Google."),
                             ("Speaker 1", "Pheebs, you can't be serious. You work at Google?"),
                             ("Speaker 2", "I do! Thanks, Joey.")])
    aliases = {e.name: e.aliases for e in result.entities}
    assert "Pheebs" in aliases["Speaker 2"] and "Joey" in aliases["Speaker 1"]
    assert ("Speaker 2", "employed_by", "Google") in facts(result) or any(
        n.text.startswith("Speaker 2 got a new job at Google") for n in result.notes)


def test_self_introduction_is_an_alias(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Speaker 1", "Hi, I'm Rachel."), ("Speaker 2", "Nice to meet you.")])
    assert "Rachel" in {e.name: e.aliases for e in result.entities}["Speaker 1"]


def test_relation_noun_vocative_and_copula(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ross", "Hey mom, this is great."), ("Judy", "Monica is my daughter.")])
    got = facts(result)
    assert ("Judy", "parent_of", "Ross") in got  # "Hey mom": the addressee is the speaker's mother
    assert ("Monica", "child_of", "Judy") in got


def test_breakups_and_quitting_are_negated(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ann", "I broke up with Paul last week. I quit Initech yesterday.")])
    negated = {(f.subject, f.predicate, f.object) for f in result.facts if f.negated}
    assert ("Ann", "partner_of", "Paul") in negated
    assert ("Ann", "employed_by", "Initech") in negated


def test_pets_likes_and_hobbies(extractor: SpacyExtractor) -> None:
    got = facts(run(extractor, [("Mel", "I have a dog named Max. I love painting and I play the guitar.")]))
    assert ("Mel", "has_pet", "Max") in got
    assert ("Mel", "likes", "painting") in got
    assert ("Mel", "practices", "guitar") in got


def test_notes_name_people_and_skip_small_talk(extractor: SpacyExtractor) -> None:
    episode = chat([("Caroline", "Hey Mel! How are you?"),
                    ("Melanie", "Great! I went to a pottery class yesterday with my kids."),
                    ("Caroline", "That sounds great!"),
                    ("Melanie", "Thanks, Caroline. Are you still painting?")])
    result = extractor.extract(episode, ExtractionContext())
    notes = [n.text for n in result.notes]
    assert notes == ["Melanie went to a pottery class on 7 May 2023 with Melanie's kids."]
    note = result.notes[0]
    assert note.asserted_by == "Melanie" and note.valid_at == REF.replace(hour=0, minute=0) - timedelta(days=1)
    assert "Melanie" in note.entities
    span = note.spans[0]
    assert episode.content[span.start:span.end] == "I went to a pottery class yesterday with my kids."
    assert "Mel" in {e.name: e.aliases for e in result.entities}["Melanie"]


def test_every_offline_predicate_is_in_the_ontology() -> None:
    from strata.ingest.extractors.relation_words import RELATION_NOUNS, VERB_FRAMES

    onto = load_ontology()
    used = {r.predicate for r in RELATION_NOUNS.values()} | {f.predicate for fs in VERB_FRAMES.values() for f in fs}
    assert {p for p in used if p not in onto.predicates} == set()


def test_a_relative_named_once_is_the_same_relative_later(extractor: SpacyExtractor) -> None:
    got = facts(run(extractor, [("Tom", "My sister Sofia lives in Porto."),
                                ("Ann", "Nice!"),
                                ("Tom", "My sister moved to Madrid last month.")]))
    assert ("Sofia", "lives_in", "Porto") in got and ("Sofia", "lives_in", "Madrid") in got


def test_in_a_crowd_a_name_sticks_only_to_whom_it_addresses(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Speaker 1", "I need coffee."),
                             ("Speaker 2", "Rachel, you always need coffee."),
                             ("Speaker 1", "True."),
                             ("Speaker 3", "Ross said Rachel was tired."),
                             ("Speaker 2", "Whatever.")])
    aliases = {e.name: e.aliases for e in result.entities}
    assert aliases.get("Speaker 1") == ["Rachel"]  # addressed in an A-B-A exchange
    assert "Rachel" not in aliases.get("Speaker 3", []) and "Rachel" not in aliases.get("Speaker 2", [])


def test_relative_dates_become_absolute_where_they_stand(extractor: SpacyExtractor) -> None:
    notes = [n.text for n in run(extractor, [("Maria", "Last week was wild - I volunteered at the shelter. "
                                                       "Yesterday I went to a concert.")]).notes]
    assert notes == ["The week of 1 May 2023 was wild - Maria volunteered at the shelter.",
                     "On 7 May 2023 Maria went to a concert."]


@pytest.mark.parametrize(("said", "holder", "org", "role", "ended"), [
    ("Did you hear? Doug McMillon is the new CEO of Walmart.", "Doug McMillon", "Walmart", "ceo", False),
    ("Big news today: Walmart named Doug McMillon as its CEO.", "Doug McMillon", "Walmart", "ceo", False),
    ("Walmart's new CEO is Doug McMillon.", "Doug McMillon", "Walmart", "ceo", False),
    ("Doug McMillon was appointed CEO by Walmart.", "Doug McMillon", "Walmart", "ceo", False),
    ("Olaf Scholz replaced Angela Merkel as Chancellor of Germany.", "Olaf Scholz", "Germany", "chancellor", False),
    ("Sanna Marin was sworn in as Prime Minister of Finland today.", "Sanna Marin", "Finland", "prime_minister",
     False),
    ("Finland has a new prime minister: Sanna Marin.", "Sanna Marin", "Finland", "prime_minister", False),
    ("Mike Duke stepped down as CEO of Walmart.", "Mike Duke", "Walmart", "ceo", True),
    ("The board of Volkswagen ousted Martin Winterkorn as CEO.", "Martin Winterkorn", "Volkswagen", "ceo", True),
    ("Angela Merkel is no longer the chancellor of Germany.", "Angela Merkel", "Germany", "chancellor", True),
    ("Felipe VI is now the King of Spain.", "Felipe VI", "Spain", "monarch", False),
])
def test_who_takes_or_leaves_an_office(extractor: SpacyExtractor, said, holder, org, role, ended) -> None:
    result = run(extractor, [("Ana", said), ("Ben", "Wow, really? Good for him.")])
    offices = [(f.subject, f.object, f.role, f.negated) for f in result.facts if f.predicate == "holds_office"]
    assert offices == [(holder, org, role, ended)]
    assert not any("Ben" in (f.subject, f.object) for f in result.facts)  # the listener states nothing


def test_a_question_or_a_wish_about_an_office_states_nothing(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ana", "Is Doug McMillon the new CEO of Walmart?"),
                             ("Ben", "I hope Ann Lee will become the CEO of Acme.")])
    assert not [f for f in result.facts if f.predicate == "holds_office"]


@pytest.mark.parametrize(("said", "fact"), [
    ("Leo joined Ajax after a record transfer.", ("Leo", "plays_for", "Ajax", False)),
    ("Priya joined Deloitte as a consultant.", ("Priya", "employed_by", "Deloitte", False)),
    ("Leo moved to Real Madrid for a huge fee.", ("Leo", "plays_for", "Real Madrid", False)),
    ("Maya moved to Madrid for a new job.", ("Maya", "lives_in", "Madrid", False)),
    ("Leo left Chelsea after five seasons.", ("Leo", "plays_for", "Chelsea", True)),
    ("Tom left Google.", ("Tom", "employed_by", "Google", True)),
    ("Maya no longer lives in Lisbon.", ("Maya", "lives_in", "Lisbon", True)),
])
def test_joining_leaving_and_moving_read_by_what_the_sentence_is_about(extractor: SpacyExtractor, said, fact) -> None:
    result = run(extractor, [("Ana", said), ("Ben", "Oh wow.")])
    assert [(f.subject, f.predicate, f.object, f.negated) for f in result.facts] == [fact]


def test_a_name_the_model_cut_short_is_read_whole(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ana", "Anders Fogh Rasmussen became the Secretary General of NATO.")])
    assert [(f.subject, f.object, f.role) for f in result.facts] == [("Anders Fogh Rasmussen", "NATO",
                                                                       "secretary_general")]


def test_a_role_beside_its_holder_is_read_apart_from_the_verb(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ana", "Sanna Marin, Finland's former foreign minister, became its prime minister."),
                             ("Ana", "Li Wei, a longtime party leader, became China's premier.")])
    got = {(f.subject, f.object, f.role, f.negated) for f in result.facts if f.predicate == "holds_office"}
    assert got == {("Sanna Marin", "Finland", "foreign_minister", True),
                   ("Sanna Marin", "Finland", "prime_minister", False),
                   ("Li Wei", "China", "prime_minister", False)}  # the party leader's party is not China


def test_a_regnal_number_is_part_of_the_name_and_the_speaker_keeps_their_i(extractor: SpacyExtractor) -> None:
    result = run(extractor, [("Ben", "Juan Carlos I ascended the throne of Spain."),
                             ("Ana", "I told Tom I would come.")])
    assert [(f.subject, f.role, f.object) for f in result.facts if f.predicate == "holds_office"] == [
        ("Juan Carlos I", "monarch", "Spain")]
    assert not any(f.subject == "Ben" or f.object == "Ben" for f in result.facts)


@pytest.mark.parametrize(("said", "fact"), [
    ("Riverton Rovers' new striker is Alma Marchetti.", ("Alma Marchetti", "plays_for", "Riverton Rovers")),
    ("Harbor Point Media's newest analyst is Alma Marchetti.", ("Alma Marchetti", "employed_by", "Harbor Point Media")),
    ("Acme hired Tom Lee as a senior engineer.", ("Tom Lee", "employed_by", "Acme")),
])
def test_a_position_states_its_own_relation_not_an_office(extractor: SpacyExtractor, said, fact) -> None:
    result = run(extractor, [("Ana", said)])
    assert [(f.subject, f.predicate, f.object) for f in result.facts] == [fact]
    assert all(f.role is None for f in result.facts)


@pytest.mark.parametrize(("said", "fact"), [
    ("Tom Lee got a job at Acme Corp.", ("Tom Lee", "employed_by", "Acme Corp", False)),
    ("Tom Lee is employed at Acme Corp.", ("Tom Lee", "employed_by", "Acme Corp", False)),
    ("Tom Lee was poached by Acme Corp.", ("Tom Lee", "employed_by", "Acme Corp", False)),
    ("Tom Lee was laid off from Acme Corp.", ("Tom Lee", "employed_by", "Acme Corp", True)),
    ("Tom Lee retired from Acme Corp.", ("Tom Lee", "employed_by", "Acme Corp", True)),
    ("Leo Park went on loan to Ajax.", ("Leo Park", "plays_for", "Ajax", False)),
    ("Maya Lopez emigrated to Canada.", ("Maya Lopez", "lives_in", "Canada", False)),
    ("Maya Lopez relocated from Lisbon to Porto.", ("Maya Lopez", "lives_in", "Porto", False)),
    ("Maya Lopez is based in Porto now.", ("Maya Lopez", "lives_in", "Porto", False)),
])
def test_more_ways_to_tell_a_change_of_job_team_or_home(extractor: SpacyExtractor, said, fact) -> None:
    result = run(extractor, [("Ana", said)])
    assert [(f.subject, f.predicate, f.object, f.negated) for f in result.facts] == [fact]
