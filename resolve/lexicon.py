"""Small, general English word lists used by name analysis. Data only, no logic.

Kept deliberately generic (not fitted to any one book): honorifics with the gender/marital information
needed for conflict rules, a diminutive table, surname particles and affectionate address prefixes.
"""

from __future__ import annotations

from typing import Literal

Gender = Literal["m", "f"]
Marital = Literal["married", "unmarried"]

# canonical honorific -> (gender, marital status); None = says nothing about it.
HONORIFICS: dict[str, tuple[Gender | None, Marital | None]] = {
    "mr": ("m", None),
    "master": ("m", "unmarried"),
    "mrs": ("f", "married"),
    "miss": ("f", "unmarried"),
    "ms": ("f", None),
    "mme": ("f", "married"),
    "mlle": ("f", "unmarried"),
    "madam": ("f", None),
    "sir": ("m", None),
    "lord": ("m", None),
    "lady": ("f", None),
    "dame": ("f", None),
    "king": ("m", None),
    "queen": ("f", None),
    "prince": ("m", None),
    "princess": ("f", None),
    "duke": ("m", None),
    "duchess": ("f", None),
    "earl": ("m", None),
    "count": ("m", None),
    "countess": ("f", None),
    "baron": ("m", None),
    "baroness": ("f", None),
    "uncle": ("m", None),
    "aunt": ("f", None),
    "father": ("m", None),
    "mother": ("f", None),
    "brother": ("m", None),
    "sister": ("f", None),
    "dr": (None, None),
    "prof": (None, None),
    "rev": (None, None),
    "colonel": (None, None),
    "captain": (None, None),
    "major": (None, None),
    "general": (None, None),
    "lieutenant": (None, None),
    "sergeant": (None, None),
    "admiral": (None, None),
    "commander": (None, None),
    "judge": (None, None),
    "president": (None, None),
    "senator": (None, None),
    "governor": (None, None),
    "mayor": (None, None),
}

# Abbreviations written with a period inside a name or a sentence ("Mr. Darcy", "St. Louis", "Gen. Tilney"): that
# period ends neither the name nor the sentence.
NAME_ABBREVIATIONS: tuple[str, ...] = ("mr", "mrs", "ms", "mme", "dr", "st", "jr", "sr", "col", "capt", "lt", "gen",
                                       "rev", "prof", "hon")

# Spelled-out or abbreviated variants -> canonical honorific (applied after periods are removed).
HONORIFIC_VARIANTS: dict[str, str] = {
    "mister": "mr",
    "missus": "mrs",
    "missis": "mrs",
    "mx": "ms",
    "madame": "mme",
    "mademoiselle": "mlle",
    "doctor": "dr",
    "professor": "prof",
    "reverend": "rev",
    "revd": "rev",
    "col": "colonel",
    "capt": "captain",
    "cpt": "captain",
    "maj": "major",
    "gen": "general",
    "lt": "lieutenant",
    "sgt": "sergeant",
    "adm": "admiral",
    "cmdr": "commander",
    "pres": "president",
    "sen": "senator",
    "gov": "governor",
}

# Honorifics that stand for one another on the same surname. "Ms." says nothing about marriage, and period
# text and transcripts use it for both "Miss" and "Mrs."; "Miss" and "Mrs." themselves never match.
INTERCHANGEABLE_HONORIFICS: dict[str, frozenset[str]] = {
    "ms": frozenset({"miss", "mrs", "mlle", "mme"}),
    "miss": frozenset({"ms"}),
    "mrs": frozenset({"ms"}),
    "mlle": frozenset({"ms"}),
    "mme": frozenset({"ms"}),
}

# Titles that tell only gender or marital status. A shared title outside this set ("Sir", "Colonel", "Lady")
# is evidence for one candidate over untitled namesakes; a shared "Mr." is not.
PLAIN_HONORIFICS = frozenset({"mr", "mrs", "miss", "ms", "mme", "mlle", "madam", "master"})

# Titles under which "<title> <surname>" may be matched to the one same-gender full name with that surname
# ("Mr. Bingley" / "Charles Bingley"). Not "Mrs." or "Lady": a wife's surname came by marriage, so a full name
# sharing it is as likely her daughter. Not "Miss" or "Master": every unmarried daughter or young son of a
# family bears it, so one known "Maria Lucas" does not make her "Miss Lucas" (her elder sister usually is).
SURNAME_MATCH_TITLES = frozenset({"mr"})

# Titles that precede a given name rather than a surname when followed by one name ("Sir William").
GIVEN_NAME_TITLES = frozenset({"sir", "dame", "king", "queen", "prince", "princess", "uncle", "aunt"})

# Affectionate or vocative prefixes that are not part of a name ("My dear Jane").
ADDRESS_PREFIXES: tuple[tuple[str, ...], ...] = (
    ("my", "dearest"),
    ("my", "dear"),
    ("my",),
    ("dearest",),
    ("dear",),
    ("poor",),
    ("a",),
    ("an",),
    ("the",),
)

# Descriptors that make a name refer to a DIFFERENT person than the bare name ("the late Mr. X").
DISTINCT_QUALIFIERS = frozenset({"late", "elder", "younger", "junior", "senior", "jr", "sr", "young", "old"})
# Modifiers a narrator or an annotator puts before a name in passing ("little Mary Joe"): a name lookup that finds
# nobody so qualified tries the name without them (strata.resolve.lookup). Not "old" / "young": beside a family
# they name another generation ("young Mr. X" is not the father who holds "Mr. X"), so they stay qualifiers.
PASSING_MODIFIERS = frozenset({"little"})

# Kinship nouns after a possessive ("Mr. Collins' father"): the phrase names another person.
RELATION_NOUNS = frozenset(
    {"father", "mother", "son", "daughter", "wife", "husband", "brother", "sister", "uncle", "aunt",
     "cousin", "nephew", "niece", "widow", "friend", "servant", "grandfather", "grandmother"}
)

# Surname particles: "de Bourgh", "van der Berg" belong to the surname.
SURNAME_PARTICLES = frozenset(
    {"de", "du", "da", "di", "del", "della", "des", "van", "von", "der", "den", "la", "le", "st", "bin", "ibn",
     "al", "el", "ter", "ten"}
)

# canonical given name -> spelling variants and diminutives (general English usage).
_GIVEN_NAME_FORMS: dict[str, tuple[str, ...]] = {
    "elizabeth": ("elisabeth", "eliza", "lizzy", "lizzie", "liz", "lizbeth", "beth", "betsy", "betty", "bess",
                  "bessie", "libby", "elsie"),
    "catherine": ("katherine", "katharine", "catharine", "kathryn", "kitty", "kate", "katie", "cathy", "kathy",
                  "kat", "kay"),
    "william": ("bill", "billy", "will", "willie", "willy", "liam"),
    "robert": ("bob", "bobby", "rob", "robbie"),
    "richard": ("dick", "rick", "ricky", "rich", "richie"),
    "james": ("jim", "jimmy", "jamie"),
    "john": ("jack", "johnny"),
    "jane": ("jenny", "janie"),
    "margaret": ("maggie", "meg", "peggy", "madge", "margie", "greta", "marge"),
    "mary": ("molly", "polly", "mae"),
    "edward": ("ed", "eddie", "ned", "ted", "teddy"),
    "theodore": ("theo", "ted", "teddy"),
    "thomas": ("tom", "tommy"),
    "charles": ("charlie", "charley", "chuck", "chas"),
    "henry": ("harry", "hank", "hal"),
    "joseph": ("joe", "joey"),
    "michael": ("mike", "mikey", "mick", "mickey"),
    "anthony": ("tony",),
    "christopher": ("chris", "kit"),
    "christine": ("christina", "chris", "tina", "chrissy"),
    "alexander": ("alex", "alec", "sandy", "xander"),
    "alexandra": ("alex", "sandra", "sasha"),
    "benjamin": ("ben", "benny"),
    "samuel": ("sam", "sammy"),
    "samantha": ("sam", "sammy"),
    "daniel": ("dan", "danny"),
    "david": ("dave", "davy"),
    "andrew": ("andy", "drew"),
    "patrick": ("pat", "paddy"),
    "patricia": ("pat", "patty", "trish"),
    "susan": ("susanna", "susannah", "sue", "susie", "suzy"),
    "deborah": ("debbie", "deb"),
    "jennifer": ("jen", "jenny"),
    "rebecca": ("becky", "becca"),
    "victoria": ("vicky", "tori"),
    "frederick": ("fred", "freddie", "freddy"),
    "francis": ("frank", "frankie"),
    "frances": ("fanny", "fran", "frankie"),
    "nicholas": ("nick", "nicky"),
    "matthew": ("matt",),
    "anne": ("ann", "anna", "annie", "nan", "nancy"),
    "sarah": ("sara", "sally", "sadie"),
    "gregory": ("greg",),
    "peter": ("pete",),
    "stephen": ("steven", "steve"),
    "timothy": ("tim", "timmy"),
    "lawrence": ("laurence", "larry"),
    "louisa": ("louise", "lou"),
    "caroline": ("carolyn", "carrie", "caro"),
    "georgiana": ("georgina", "georgie"),
    "george": ("georgie",),
    "dorothy": ("dot", "dolly", "dottie"),
    "jacob": ("jake",),
    "josephine": ("jo", "josie"),
    "harriet": ("hattie",),
    "eleanor": ("elinor", "ellen", "nell", "nellie", "ellie"),
    "isabella": ("isabel", "isobel", "bella", "belle", "izzy"),
    "philip": ("phillip", "phil"),
    "jonathan": ("jon", "jonny"),
    "abigail": ("abby", "abbie"),
    "kenneth": ("ken", "kenny"),
    "donald": ("don", "donnie"),
    "ronald": ("ron", "ronnie"),
    "gerald": ("gerry", "jerry"),
    "albert": ("al", "bert", "bertie"),
}


def _invert(table: dict[str, tuple[str, ...]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for canonical, forms in table.items():
        for form in (canonical, *forms):
            out.setdefault(form, set()).add(canonical)
    return {k: frozenset(v) for k, v in out.items()}


# any form -> the canonical names it may stand for ("ted" -> {edward, theodore}).
GIVEN_NAME_CANONICAL: dict[str, frozenset[str]] = _invert(_GIVEN_NAME_FORMS)

# A few very common given names outside the diminutive table, used only to tell "Miss Lydia" (given name)
# from "Miss Bingley" (surname) when a title is followed by a single name.
COMMON_GIVEN_NAMES = frozenset(GIVEN_NAME_CANONICAL) | frozenset(
    {"lydia", "maria", "emma", "anna", "lucy", "emily", "alice", "charlotte", "julia", "laura", "helen",
     "grace", "clara", "rose", "amelia", "olivia", "sophia", "hannah", "ruth", "martha", "esther", "paul",
     "mark", "luke", "hugh", "arthur", "walter", "harold", "ralph", "simon", "adam", "oliver", "louis",
     "lewis", "martin", "hugo", "edmund", "marianne"}
)

# Given names read as one gender in general English usage (ambiguous ones such as Alex, Sam, Chris, Pat,
# Jo, Frankie are left out): lets "Mr. Bennet" conflict with "Elizabeth Bennet".
FEMALE_GIVEN_NAMES = frozenset(
    {"elizabeth", "catherine", "jane", "margaret", "mary", "christine", "alexandra", "samantha", "patricia",
     "susan", "deborah", "jennifer", "rebecca", "victoria", "frances", "anne", "sarah", "louisa", "caroline",
     "georgiana", "dorothy", "josephine", "harriet", "eleanor", "isabella", "abigail", "lydia", "maria",
     "emma", "lucy", "emily", "alice", "charlotte", "julia", "laura", "helen", "grace", "clara", "rose",
     "amelia", "olivia", "sophia", "hannah", "ruth", "martha", "esther", "marianne"}
)
MALE_GIVEN_NAMES = frozenset(
    {"william", "robert", "richard", "james", "john", "edward", "theodore", "thomas", "charles", "henry",
     "joseph", "michael", "anthony", "christopher", "alexander", "benjamin", "samuel", "daniel", "david",
     "andrew", "patrick", "frederick", "francis", "nicholas", "matthew", "gregory", "peter", "stephen",
     "timothy", "lawrence", "george", "jacob", "philip", "jonathan", "kenneth", "donald", "ronald", "gerald",
     "albert", "paul", "mark", "luke", "hugh", "arthur", "walter", "harold", "ralph", "simon", "adam",
     "oliver", "louis", "lewis", "martin", "hugo", "edmund"}
)
