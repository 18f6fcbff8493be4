"""Word lists for the offline conversation extractor: relation nouns, verb frames, phatic words. Data only.

Every predicate named here is a canonical predicate of schema/ontology.json (a test checks it), so offline
facts land on the same names as structured statements and the LLM's folded predicates.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from strata.resolve.lexicon import Gender

# Which side of "<possessor>'s <noun> <Name>" is the subject: "named" = the named person ("my sister Sofia":
# Sofia sibling_of me), "possessor" = the possessor ("my dog Max": me has_pet Max).
Side = Literal["named", "possessor"]


class NounRelation(NamedTuple):
    predicate: str
    subject: Side = "named"
    negated: bool = False  # "my ex-wife Ann": the relation held and no longer does
    named_type: str = "Person"
    # the possessor must not be a person: "the master of Pemberley" owns it, "her master" is someone else
    place_possessor: bool = False
    # read only when someone speaks of their own people: a novel's "her partner" is a dance partner
    spoken_only: bool = False


def _same(predicate: str, *nouns: str, subject: Side = "named", negated: bool = False,
          named_type: str = "Person", place_possessor: bool = False,
          spoken_only: bool = False) -> dict[str, NounRelation]:
    return {n: NounRelation(predicate, subject, negated, named_type, place_possessor, spoken_only) for n in nouns}


RELATION_NOUNS: dict[str, NounRelation] = {
    **_same("sibling_of", "sister", "brother", "sis", "bro", "twin", "sibling", "stepsister", "stepbrother",
            "half-sister", "half-brother"),
    **_same("parent_of", "mother", "father", "mom", "mum", "dad", "mommy", "daddy", "mama", "papa", "parent",
            "stepmother", "stepfather", "stepmom", "stepdad", "ma", "pa"),
    **_same("child_of", "son", "daughter", "child", "stepson", "stepdaughter"),
    **_same("child_of", "kid", "baby", "boy", "girl", spoken_only=True),
    **_same("spouse_of", "wife", "husband", "spouse", "bride", "bridegroom"),
    **_same("spouse_of", "ex-wife", "ex-husband", negated=True),
    **_same("partner_of", "boyfriend", "girlfriend"),
    **_same("partner_of", "partner", "lover", "date", spoken_only=True),
    **_same("partner_of", "ex-boyfriend", "ex-girlfriend", "ex", negated=True),
    **_same("engaged_to", "fiance", "fiancee", "fiancé", "fiancée", "betrothed"),
    **_same("friend_of", "friend", "buddy", "pal", "bestie", "bff", "best friend", "girlfriend's friend"),
    **_same("roommate_of", "roommate", "roomie", "flatmate", "housemate"),
    **_same("neighbor_of", "neighbor", "neighbour"),
    **_same("colleague_of", "colleague", "coworker", "co-worker", "teammate", "partner at work"),
    **_same("boss_of", "boss", "manager", "supervisor", "employer"),
    **_same("boss_of", "assistant", "employee", "secretary", subject="possessor"),
    **_same("relative_of", "cousin", "aunt", "uncle", "niece", "nephew", "grandmother", "grandfather",
            "grandma", "grandpa", "granny", "grandson", "granddaughter", "grandchild", "grandkid",
            "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "in-law", "relative", "kinsman",
            "kinswoman", "relation"),
    **_same("knows", "acquaintance"),
    # a household's people and a house's owners and tenants, as narration names them
    **_same("employed_by", "housekeeper", "servant", "steward", "butler", "footman", "maid", "maidservant",
            "coachman", "gardener", "valet", "governess", "clerk", "gamekeeper", "groom", "housemaid",
            "parlourmaid", "parlormaid", "kitchenmaid", "nursemaid", "manservant", "porter", "cook", "apprentice"),
    # "in the service of Mrs. Maylie", "in his employ": the noun's subject serves its owner (frames.py)
    **_same("employed_by", "service", "employ", "employment"),
    **_same("owns", "master", "mistress", "owner", "proprietor", place_possessor=True),
    **_same("lives_in", "tenant", "inhabitant", "resident", "occupant", place_possessor=True),
    **_same("heir_of", "heir", "heiress"),
    **_same("teacher_of", "teacher", "mentor", "coach", "tutor", "professor"),
    **_same("teacher_of", "student", "pupil", "mentee", subject="possessor"),
    **_same("client_of", "client", "customer", subject="named"),
    **_same("has_pet", "dog", "cat", "puppy", "kitten", "pup", "pet", "bird", "parrot", "hamster", "horse",
            "pony", "rabbit", "bunny", "turtle", "tortoise", "snake", "fish", "goldfish", "guinea pig",
            "lizard", "ferret", "gerbil", "mouse", "rat", subject="possessor", named_type="Animal"),
}
# Relation nouns that say which parent or child: the named person's gender, for pronouns.
FEMALE: Gender = "f"
MALE: Gender = "m"
NOUN_GENDER: dict[str, Gender] = {
    **dict.fromkeys(["sister", "sis", "mother", "mom", "mum", "mommy", "mama", "daughter", "wife", "ex-wife",
                     "girlfriend", "ex-girlfriend", "aunt", "niece", "grandmother", "grandma", "granny",
                     "stepmother", "stepmom", "stepdaughter", "fiancee", "fiancée", "girl", "ma", "heiress", "bride",
                     "housekeeper", "maid", "maidservant", "governess", "kinswoman", "mistress", "housemaid",
                     "parlourmaid", "parlormaid", "kitchenmaid", "nursemaid"], FEMALE),
    **dict.fromkeys(["brother", "bro", "father", "dad", "daddy", "papa", "son", "husband", "ex-husband",
                     "boyfriend", "ex-boyfriend", "uncle", "nephew", "grandfather", "grandpa", "stepfather",
                     "stepdad", "stepson", "fiance", "fiancé", "boy", "pa", "kinsman", "butler", "footman",
                     "bridegroom", "valet", "master", "manservant"], MALE),
}
# Nouns of a job a person holds: "the housekeeper, Mrs. Bernstone", "Mr. Bumble, the beadle", "a clerk named
# Rook" say what the person works as (works_as), whether or not the sentence names an employer.
OCCUPATIONS = frozenset({
    "housekeeper", "servant", "steward", "butler", "footman", "maid", "maidservant", "housemaid", "parlourmaid",
    "parlormaid", "kitchenmaid", "nursemaid", "manservant", "coachman", "gardener", "valet", "governess", "clerk",
    "gamekeeper", "groom", "porter", "gatekeeper", "doorkeeper", "cook", "apprentice", "beadle", "sexton",
    "curate", "vicar", "rector", "chaplain", "clergyman", "apothecary", "surgeon", "physician", "attorney",
    "solicitor", "barrister", "lawyer", "constable", "policeman", "inspector", "detective", "sergeant",
    "blacksmith", "carpenter", "butcher", "baker", "grocer", "tailor", "shoemaker", "undertaker", "innkeeper",
    "landlord", "landlady", "publican", "barman", "barmaid", "waiter", "chauffeur", "cabman", "courier",
    "schoolmaster", "schoolmistress", "tutor", "secretary", "bookseller", "chemist", "jeweller", "jeweler",
    "milliner", "dressmaker", "farmer", "shepherd", "miller", "turnkey", "jailer", "gaoler", "magistrate",
})
# Nouns that tell a service rather than a person ("in the service of", "in his employ"): the person is the
# subject of the verb the noun's preposition hangs from, not a name beside the noun.
SERVICE_NOUNS = frozenset({"service", "employ", "employment"})
SERVICE_PREPS = frozenset({"in", "into"})
# Dwellings a person lives in that stand for the place their own preposition names: "lived in a big yellow
# house at White Sands Cove", "lodgings in Baker Street" (lives_in frames read through them).
DWELLINGS = frozenset({"house", "home", "cottage", "lodgings", "lodging", "rooms", "room", "flat", "villa",
                       "farmhouse", "farm", "hall", "lodge", "manor", "mansion", "apartment", "apartments", "place",
                       "quarters", "residence", "parsonage", "vicarage", "rectory", "inn", "hotel"})
DWELLING_PREPS = frozenset({"at", "in", "on"})
# Predicates whose organization slot a person fills in narration: a novel's servants work for a master.
PERSON_EMPLOYERS = frozenset({"employed_by"})
PET_NOUNS = frozenset(n for n, r in RELATION_NOUNS.items() if r.predicate == "has_pet")


class VerbFrame(NamedTuple):
    predicate: str
    # where the object is: "dobj" (direct object), a preposition ("to", "at"), or "oprd" (elected *mayor*)
    slot: str
    object_type: str = "Entity"
    # whether a common noun ("the climbing gym", "painting") may be the object, or only a name
    concepts: bool = False
    negated: bool = False
    # where the fact's subject is when it is not the verb's subject: "dobj" ("introduced *him* to Ann")
    subject_slot: str = ""
    # object nouns that stand for their possessor: "accepted *his* hand" engages her to him
    through: frozenset[str] = frozenset()
    # read only when people speak of themselves: "I left Acme" quits a job, a novel's "left Bath" departs
    spoken_only: bool = False
    # read only when the sentence or the object's name has one of these words: "joined Ajax *on a free
    # transfer*" and "joined Riverton *Rovers*" are teams, "joined Acme *as an engineer*" a job (empty: always)
    cues: frozenset[str] = frozenset()
    # the object must be a name the model typed as the frame's kind ("left *Tallinn* for Dublin": places only)
    typed: bool = False
    # after this frame states something, the next frames are read too ("left Chelsea *for Ajax*": the new
    # team, then the old one's end)
    more: bool = False


_PROPOSALS = frozenset({"hand", "offer", "proposal", "proposals", "addresses", "suit"})
# Words (lemmas) that make a verb of joining, leaving or moving about a sports team or about a job.
TEAM_CUES = frozenset({"team", "club", "squad", "side", "transfer", "fee", "loan", "striker", "midfielder", "defender",
                       "goalkeeper", "keeper", "winger", "forward", "season", "league", "sign", "player", "play",
                       "football", "soccer", "basketball", "hockey", "baseball", "cricket", "rugby", "cup", "match",
                       "game", "coach", "fan", "fans", "goal", "debut", "kit", "jersey", "shirt", "roster"})
# ... and words that end the names of teams and of companies ("Riverton Rovers", "Harbor Point Media").
TEAM_CUES = TEAM_CUES | frozenset({"fc", "afc", "cf", "sc", "united", "rovers", "rangers", "wanderers", "athletic",
                                   "albion", "hotspur", "olympic", "olympique", "town", "county", "dynamo",
                                   "sporting", "inter", "lakers", "celtics", "bulls", "giants", "warriors"})
COMPANY_NAME_CUES = frozenset({"inc", "corp", "corporation", "ltd", "llc", "gmbh", "plc", "co", "company", "media",
                               "labs", "lab", "systems", "technologies", "tech", "software", "bank", "partners",
                               "consulting", "solutions", "industries", "holdings", "capital", "studios", "studio",
                               "press", "ventures", "analytics", "networks", "pharma", "motors", "airlines",
                               "energy", "logistics", "foods", "insurance", "agency", "associates"})
# Nouns that make getting, landing or starting something a job: "got a job at Acme", "landed a position at".
_JOB_NOUNS = frozenset({"job", "position", "post", "role", "internship", "placement", "offer",
                        "contract"})
JOB_CUES = COMPANY_NAME_CUES | frozenset({"job", "work", "company", "firm", "startup", "employer", "hire", "position",
                                          "role", "salary",
                      "career", "office", "intern", "internship", "engineer", "developer", "designer", "analyst",
                      "consultant", "manager", "nurse", "teacher", "lawyer", "accountant", "scientist", "researcher",
                      "staff", "employee", "colleague", "boss", "promotion", "offer", "contract", "resign", "quit"})
_TO_PLACE = (VerbFrame("visits", "to", "Place"), VerbFrame("visits", "into", "Place"))


# (verb lemma, particle or "") -> frames, tried in order; the first whose slot is filled wins.
VERB_FRAMES: dict[tuple[str, str], tuple[VerbFrame, ...]] = {
    ("marry", ""): (VerbFrame("spouse_of", "dobj", "Person"), VerbFrame("spouse_of", "to", "Person")),
    ("wed", ""): (VerbFrame("spouse_of", "dobj", "Person"),),
    ("divorce", ""): (VerbFrame("spouse_of", "dobj", "Person", negated=True),),
    ("date", ""): (VerbFrame("partner_of", "dobj", "Person"),),
    ("go", "out"): (VerbFrame("partner_of", "with", "Person"),),
    ("break", "up"): (VerbFrame("partner_of", "with", "Person", negated=True),),
    ("split", "up"): (VerbFrame("partner_of", "with", "Person", negated=True),),
    ("dump", ""): (VerbFrame("partner_of", "dobj", "Person", negated=True),),
    ("engage", ""): (VerbFrame("engaged_to", "to", "Person"),),
    ("propose", ""): (VerbFrame("engaged_to", "to", "Person"),),
    ("move", ""): (VerbFrame("plays_for", "to", "Organization", cues=TEAM_CUES),
                   VerbFrame("lives_in", "to", "Place"), VerbFrame("lives_in", "into", "Place"),
                   VerbFrame("lives_in", "out_of", "Place", negated=True)),
    ("move", "back"): (VerbFrame("lives_in", "to", "Place"),),
    ("move", "out"): (VerbFrame("lives_in", "of", "Place", negated=True),),  # "out" as a particle
    ("relocate", ""): (VerbFrame("lives_in", "to", "Place"),),
    ("live", ""): (VerbFrame("lives_in", "in", "Place"), VerbFrame("lives_in", "at", "Place"),
                   VerbFrame("roommate_of", "with", "Person", spoken_only=True)),
    ("reside", ""): (VerbFrame("lives_in", "at", "Place"), VerbFrame("lives_in", "in", "Place")),
    ("settle", ""): (VerbFrame("lives_in", "in", "Place"),),
    ("work", ""): (VerbFrame("employed_by", "at", "Organization"), VerbFrame("employed_by", "for", "Organization"),
                   VerbFrame("works_as", "as", "Concept", concepts=True)),
    ("join", ""): (VerbFrame("plays_for", "dobj", "Organization", cues=TEAM_CUES),
                   VerbFrame("employed_by", "dobj", "Organization", cues=JOB_CUES),
                   VerbFrame("member_of", "dobj", "Organization")),
    ("hire", ""): (VerbFrame("employed_by", "by", "Organization"),
                   VerbFrame("employed_by", "nsubj", "Organization", subject_slot="dobj")),
    ("employ", ""): (VerbFrame("employed_by", "by", "Organization"), VerbFrame("employed_by", "at", "Organization"),
                     VerbFrame("employed_by", "with", "Organization"),
                     VerbFrame("employed_by", "nsubj", "Organization", subject_slot="dobj")),
    ("recruit", ""): (VerbFrame("employed_by", "by", "Organization"),
                      VerbFrame("employed_by", "nsubj", "Organization", subject_slot="dobj")),
    ("tie", ""): (VerbFrame("spouse_of", "with", "Person"),),  # "tied the knot" (IDIOM_OBJECTS)
    ("quit", ""): (VerbFrame("employed_by", "dobj", "Organization", negated=True, spoken_only=True),),
    ("leave", ""): (VerbFrame("plays_for", "for", "Organization", spoken_only=True, cues=TEAM_CUES, more=True),
                    VerbFrame("plays_for", "dobj", "Organization", negated=True, spoken_only=True, cues=TEAM_CUES),
                    VerbFrame("lives_in", "for", "Place", spoken_only=True, typed=True, more=True),
                    VerbFrame("lives_in", "dobj", "Place", negated=True, spoken_only=True, typed=True),
                    VerbFrame("employed_by", "for", "Organization", spoken_only=True, cues=JOB_CUES, more=True),
                    VerbFrame("employed_by", "dobj", "Organization", negated=True, spoken_only=True)),
    ("sign", ""): (VerbFrame("plays_for", "for", "Organization"), VerbFrame("plays_for", "with", "Organization"),
                   VerbFrame("plays_for", "nsubj", "Organization", subject_slot="dobj", cues=TEAM_CUES)),
    ("release", ""): (VerbFrame("plays_for", "nsubj", "Organization", negated=True, subject_slot="dobj",
                                cues=TEAM_CUES),
                      VerbFrame("employed_by", "nsubj", "Organization", negated=True, subject_slot="dobj",
                                cues=JOB_CUES)),
    ("get", ""): (VerbFrame("employed_by", "at", "Organization", cues=_JOB_NOUNS),
                  VerbFrame("employed_by", "with", "Organization", cues=_JOB_NOUNS)),
    ("land", ""): (VerbFrame("employed_by", "at", "Organization", cues=_JOB_NOUNS),
                   VerbFrame("employed_by", "with", "Organization", cues=_JOB_NOUNS)),
    ("poach", ""): (VerbFrame("employed_by", "by", "Organization"),
                    VerbFrame("employed_by", "nsubj", "Organization", subject_slot="dobj")),
    ("bring", "on"): (VerbFrame("employed_by", "nsubj", "Organization", subject_slot="dobj"),),
    ("lay", "off"): (VerbFrame("employed_by", "from", "Organization", negated=True),
                     VerbFrame("employed_by", "by", "Organization", negated=True),
                     VerbFrame("employed_by", "nsubj", "Organization", negated=True, subject_slot="dobj")),
    ("retire", ""): (VerbFrame("employed_by", "from", "Organization", negated=True),),
    ("part", ""): (VerbFrame("plays_for", "with", "Organization", negated=True, cues=TEAM_CUES),
                   VerbFrame("employed_by", "with", "Organization", negated=True)),
    ("emigrate", ""): (VerbFrame("lives_in", "to", "Place"),),
    ("take", ""): (VerbFrame("employed_by", "at", "Organization", cues=frozenset({"job", "position", "post", "role"})),
                   VerbFrame("employed_by", "with", "Organization", cues=frozenset({"job", "position", "post"}))),
    ("study", ""): (VerbFrame("studies_at", "at", "Organization"), VerbFrame("studies", "dobj", "Concept", True)),
    ("graduate", ""): (VerbFrame("studies_at", "from", "Organization"),),
    ("attend", ""): (VerbFrame("attended", "dobj", "Event", concepts=True),),
    ("visit", ""): (VerbFrame("visits", "dobj", "Place", concepts=True),),
    ("go", ""): (VerbFrame("plays_for", "to", "Organization", cues=TEAM_CUES),
                 VerbFrame("visits", "to", "Place", concepts=True)),
    ("travel", ""): (VerbFrame("visits", "to", "Place", concepts=True),),
    ("fly", ""): (VerbFrame("visits", "to", "Place"),),
    # narration's comings and goings: named places only (a novel goes "to the window" all the time)
    ("come", ""): _TO_PLACE,
    ("return", ""): _TO_PLACE,
    ("walk", ""): _TO_PLACE,
    ("ride", ""): _TO_PLACE,
    ("drive", ""): _TO_PLACE,
    ("journey", ""): _TO_PLACE,
    ("arrive", ""): (VerbFrame("visits", "at", "Place"), VerbFrame("visits", "in", "Place")),
    ("stay", ""): (VerbFrame("visits", "at", "Place"), VerbFrame("visits", "with", "Person"),
                   VerbFrame("visits", "in", "Place")),
    ("call", ""): (VerbFrame("visits", "on", "Person"), VerbFrame("visits", "upon", "Person"),
                   VerbFrame("visits", "at", "Place")),
    ("call", "on"): (VerbFrame("visits", "dobj", "Person"),),
    ("wait", ""): (VerbFrame("visits", "on", "Person"), VerbFrame("visits", "upon", "Person")),
    ("wait", "on"): (VerbFrame("visits", "dobj", "Person"),),
    ("dine", ""): (VerbFrame("dined_with", "with", "Person"), VerbFrame("visits", "at", "Place")),
    ("din", ""): (VerbFrame("dined_with", "with", "Person"), VerbFrame("visits", "at", "Place")),  # "dined"
    ("dance", ""): (VerbFrame("danced_with", "with", "Person"),),
    ("write", ""): (VerbFrame("wrote_to", "to", "Person"),),
    ("inherit", ""): (VerbFrame("heir_of", "dobj", "Place"),),
    ("introduce", ""): (VerbFrame("knows", "to", "Person", subject_slot="dobj"),),
    ("acquaint", ""): (VerbFrame("knows", "with", "Person"),),
    ("accept", ""): (VerbFrame("engaged_to", "dobj", "Person", through=_PROPOSALS),),
    ("refuse", ""): (VerbFrame("engaged_to", "dobj", "Person", negated=True, through=_PROPOSALS),),
    ("reject", ""): (VerbFrame("engaged_to", "dobj", "Person", negated=True, through=_PROPOSALS),),
    ("admire", ""): (VerbFrame("likes", "dobj", "Person"),),
    ("elect", ""): (VerbFrame("holds_office", "oprd", "Concept", concepts=True),
                    VerbFrame("holds_office", "as", "Concept", concepts=True)),
    ("appoint", ""): (VerbFrame("holds_office", "oprd", "Concept", concepts=True),
                      VerbFrame("holds_office", "as", "Concept", concepts=True)),
    ("name", ""): (VerbFrame("holds_office", "oprd", "Concept", concepts=True),),
    # a novel "becomes an object of interest" far more often than it becomes the rector
    ("become", ""): (VerbFrame("holds_office", "attr", "Concept", concepts=True, spoken_only=True),),
    ("found", ""): (VerbFrame("founded", "dobj", "Organization"),),
    ("establish", ""): (VerbFrame("founded", "dobj", "Organization"),),
    ("start", ""): (VerbFrame("employed_by", "at", "Organization", cues=_JOB_NOUNS),
                    VerbFrame("practices", "dobj", "Concept", concepts=True)),
    ("love", ""): (VerbFrame("likes", "dobj", "Concept", concepts=True),),
    ("like", ""): (VerbFrame("likes", "dobj", "Concept", concepts=True),),
    ("enjoy", ""): (VerbFrame("likes", "dobj", "Concept", concepts=True),),
    ("adore", ""): (VerbFrame("likes", "dobj", "Concept", concepts=True),),
    ("prefer", ""): (VerbFrame("likes", "dobj", "Concept", concepts=True),),
    ("hate", ""): (VerbFrame("dislikes", "dobj", "Concept", concepts=True),),
    ("dislike", ""): (VerbFrame("dislikes", "dobj", "Concept", concepts=True),),
    ("detest", ""): (VerbFrame("dislikes", "dobj", "Concept", concepts=True),),
    ("play", ""): (VerbFrame("practices", "dobj", "Concept", concepts=True),),
    ("practice", ""): (VerbFrame("practices", "dobj", "Concept", concepts=True),),
    ("do", ""): (VerbFrame("practices", "dobj", "Concept", concepts=True),),
    ("take", "up"): (VerbFrame("practices", "dobj", "Concept", concepts=True),),
    ("adopt", ""): (VerbFrame("has_pet", "dobj", "Animal", concepts=True),),
    ("buy", ""): (VerbFrame("owns", "dobj", "Object", concepts=True),),
    ("own", ""): (VerbFrame("owns", "dobj", "Object", concepts=True),),
    ("sell", ""): (VerbFrame("owns", "dobj", "Object", concepts=True, negated=True),),
    ("meet", ""): (VerbFrame("knows", "dobj", "Person"),),
    ("know", ""): (VerbFrame("knows", "dobj", "Person"),),
    ("succeed", ""): (VerbFrame("succeeded", "dobj", "Person"),),
    ("replace", ""): (VerbFrame("succeeded", "dobj", "Person"),),
}
# verb lemma -> the predicates its frames state (the generic rule leaves those to the frames)
FRAME_PREDICATES: dict[str, frozenset[str]] = {
    lemma: frozenset(f.predicate for (other, _), fs in VERB_FRAMES.items() if other == lemma for f in fs)
    for lemma, _ in VERB_FRAMES
}
# Verbs whose concept object is an activity only when bare ("I do yoga", "started running"; not "I did the
# dishes", "started a fight"): their frames drop objects with a determiner or possessive.
BARE_OBJECT_ONLY = frozenset({"do", "start", "take"})
# Concept objects that carry no memory ("I love that", "I like it", "I did something").
EMPTY_OBJECTS = frozenset({"it", "that", "this", "them", "thing", "things", "something", "anything", "everything",
                           "nothing", "one", "lot", "bit", "way", "stuff", "time", "idea", "sense", "job",
                           "sure", "best", "work", "fun", "much", "more", "most", "all", "what", "which",
                           "part", "kind", "sort", "question", "point", "chance", "look", "moment", "day",
                           "week", "year", "month", "night", "morning", "while", "other", "others", "you",
                           "him", "her", "me", "us", "myself", "yourself", "home", "here", "there", "place",
                           "love", "hate", "everyone", "someone", "anyone", "people", "lots", "tons", "plenty"})

# Greetings and discourse words that may precede a vocative: "Hey Maria!", "Thanks, Mel".
VOCATIVE_LEADS = frozenset({"hey", "hi", "hello", "oh", "ah", "thanks", "thank", "woah", "whoa", "wow", "yeah",
                            "yes", "no", "well", "okay", "ok", "sorry", "so", "um", "uh", "dear", "bye", "goodbye",
                            "morning", "night", "congrats", "congratulations", "look", "listen", "come", "right",
                            "sure", "cool", "great", "awesome", "yay", "hmm", "aw", "aww", "ooh", "see"})

# Verbs around an office's role ("CEO of Walmart", the roles of schema/ontology.json), read by offices.py: what
# the verb says of the office and where its holder is.
#   "start": the subject takes it ("X became / took over as / was sworn in as / is the new CEO");
#   "appoint": the object takes it, the subject (often the organization) gives it ("Y named X as its CEO",
#              "X was appointed CEO", passives turned round);
#   "succeed": the subject takes it from the object ("X succeeded / replaced Z as CEO");
#   "end": the subject leaves it ("X stepped down / resigned / retired as CEO", "X left the presidency");
#   "removed": the object leaves it ("the board ousted X as CEO", "X was fired as coach").
OfficeChange = Literal["start", "appoint", "succeed", "end", "removed"]
OFFICE_VERBS: dict[tuple[str, str], OfficeChange] = {
    **dict.fromkeys([("become", ""), ("take", "over"), ("take", ""), ("serve", ""), ("start", ""), ("step", "in"),
                     ("assume", ""), ("return", ""), ("remain", ""), ("continue", ""), ("stay", ""), ("be", ""),
                     ("swear", "in"), ("swear", ""), ("inaugurate", ""), ("begin", ""), ("win", ""),
                     ("act", ""), ("move", "up"), ("rise", ""), ("come", "in")], "start"),
    **dict.fromkeys([("appoint", ""), ("name", ""), ("elect", ""), ("reelect", ""), ("re", "elect"),
                     ("choose", ""), ("pick", ""), ("select", ""), ("install", ""), ("hire", ""),
                     ("promote", ""), ("tap", ""), ("vote", "in"), ("make", ""), ("confirm", ""),
                     ("crown", ""), ("designate", ""), ("announce", ""), ("unveil", ""), ("recruit", ""),
                     ("bring", "in"), ("put", "in"), ("vote", "")], "appoint"),
    **dict.fromkeys([("ascend", ""), ("accede", "")], "start"),
    **dict.fromkeys([("succeed", ""), ("replace", ""), ("follow", ""), ("supersede", ""), ("unseat", ""),
                     ("defeat", "")], "succeed"),
    **dict.fromkeys([("step", "down"), ("step", "aside"), ("stand", "down"), ("resign", ""), ("retire", ""),
                     ("quit", ""), ("leave", ""), ("depart", ""), ("exit", ""), ("vacate", ""), ("lose", ""),
                     ("give", "up"), ("relinquish", ""), ("end", ""), ("die", ""), ("abdicate", "")], "end"),
    **dict.fromkeys([("oust", ""), ("fire", ""), ("sack", ""), ("dismiss", ""), ("remove", ""), ("depose", ""),
                     ("overthrow", ""), ("topple", ""), ("force", "out"), ("push", "out"), ("kick", "out")],
                    "removed"),
}
# Objects that are part of their verb's idiom, not its object: "tied *the knot*", "parted *ways* with".
IDIOM_OBJECTS = frozenset({"knot", "ways", "company"})
# Prepositions whose object is the one who held the office before: "took over from Z", "in place of Z".
PREDECESSOR_PREPS = frozenset({"from"})
# Words that say an office is someone's no longer ("the former CEO X", "outgoing president Z").
FORMER_WORDS = frozenset({"former", "outgoing", "ex", "ex-", "previous", "departing", "retiring", "retired",
                          "late", "erstwhile", "then"})
