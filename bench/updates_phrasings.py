"""The words of the knowledge-updates bench (``bench/bench_updates.py``), as data: how a change is told, how the
listener reacts, how questions are asked, and the fictional cast's names.

Every relation kind has two fixed halves of phrasings, ``tune`` and ``check``: a slot (an office, or one person's
residence / employer / team / marriage) is told only in the phrasings of its half, so work tuned on the ``tune``
half is checked on sentences it never saw. Each half mixes the same forms (active, passive, appositive, possessive,
the previous value named first, a lead-in before the news), so the halves are alike in difficulty, not in words.

Placeholders: ``{x}`` the new holder / ``{z}`` the previous holder (offices), ``{y}`` the country ("the United
Kingdom"), ``{role}`` the role in running text ("prime minister"), ``{Role}`` capitalised ("Prime Minister"),
``{role_short}`` ("PM"); ``{p}`` the person, ``{v}`` the value (city, employer, team, spouse), ``{z}`` the previous
value (other kinds). A phrasing needing ``{z}`` is used only where there is a previous, different value.
Office phrasings carry ``roles``: ``any``, ``elected`` (not for monarchs) or ``crown`` (monarchs only).
"""

from __future__ import annotations

from typing import Final

KINDS: Final = ("office", "residence", "employment", "team", "relationship")
HALVES: Final = ("tune", "check")

# kind -> half -> "start" | "end" -> [(template, roles)] (roles only matter for offices)
Phrasings = dict[str, dict[str, dict[str, list[tuple[str, str]]]]]

PHRASINGS: Phrasings = {
    "office": {
        "tune": {
            "start": [
                ("Did you hear? {x} is the new {role_short} of {y}.", "any"),
                ("Big news today: {y} named {x} as its {role}.", "any"),
                ("{x} has taken over as {role} of {y}.", "any"),
                ("{y}'s new {role} is {x}.", "any"),
                ("{x} was sworn in as {role} of {y} today.", "elected"),
                ("{x}, {y}'s former foreign minister, became its {role}.", "elected"),
                ("{x} succeeded {z} as {role} of {y}.", "any"),
                ("After {z} resigned, {x} became {role} of {y}.", "elected"),
                ("{x} was elected {role} of {y}.", "elected"),
                ("{x} was appointed {role} of {y} by parliament.", "elected"),
                ("{y} has a new {role}: {x}.", "any"),
                ("The new {Role} of {y}, {x}, gave a first speech this morning.", "any"),
                ("{x} ascended the throne of {y}.", "crown"),
                ("{x} took office today as {role} of {y}.", "any"),
            ],
            "end": [
                ("{x} stepped down as {role} of {y}.", "any"),
                ("{x} is no longer the {role} of {y}.", "any"),
                ("{y}'s {role}, {x}, left office this week.", "any"),
                ("{x} was ousted as {role} of {y}.", "elected"),
                ("{x} abdicated as {role} of {y}.", "crown"),
            ],
        },
        "check": {
            "start": [
                ("Breaking: {x} is now {role_short} of {y}.", "any"),
                ("{y} chose {x} as its next {role}.", "any"),
                ("{x} took over from {z} as {role} of {y}.", "any"),
                ("{y}'s {role} from today is {x}.", "any"),
                ("{x} was inaugurated as {role} of {y} this morning.", "elected"),
                ("{x}, a longtime party leader, became {y}'s {role}.", "elected"),
                ("{z} stepped down and {x} replaced {z} as {role} of {y}.", "any"),
                ("{x} won the vote and became {role} of {y}.", "elected"),
                ("{x} was chosen to lead {y} as {role}.", "any"),
                ("Parliament in {y} confirmed {x} as the new {role}.", "elected"),
                ("So {y} finally has its new {role}, and it is {x}.", "any"),
                ("{Role} {x} of {y} was sworn in today.", "elected"),
                ("{x} was crowned {role} of {y}.", "crown"),
                ("{x} assumed the office of {role} of {y}.", "any"),
            ],
            "end": [
                ("{x} resigned as {y}'s {role}.", "any"),
                ("{x}'s time as {role} of {y} is over.", "any"),
                ("{y} no longer has {x} as its {role}.", "any"),
                ("{x} left the post of {role} of {y} today.", "any"),
                ("{x} gave up the throne of {y}.", "crown"),
            ],
        },
    },
    "residence": {
        "tune": {
            "start": [
                ("{p} moved to {v}.", ""),
                ("{p} now lives in {v}.", ""),
                ("Did you hear? {p} relocated to {v}.", ""),
                ("{p}'s new home is in {v}.", ""),
                ("{p} packed up and left {z} for {v}.", ""),
                ("{p} bought a flat in {v} and lives there now.", ""),
                ("These days {p} is living in {v}.", ""),
                ("{p}, who grew up by the sea, settled in {v}.", ""),
            ],
            "end": [
                ("{p} no longer lives in {v}.", ""),
                ("{p} moved out of {v}.", ""),
                ("{p} sold the place in {v} and is travelling for a while.", ""),
            ],
        },
        "check": {
            "start": [
                ("{p} has moved to {v}.", ""),
                ("{p} lives in {v} now.", ""),
                ("Guess what: {p} made the move to {v}.", ""),
                ("{p}'s address is in {v} these days.", ""),
                ("{p} swapped {z} for {v}.", ""),
                ("{p} rented an apartment in {v} and moved in.", ""),
                ("{v} is where {p} lives now.", ""),
                ("{p}, tired of the commute, relocated to {v}.", ""),
            ],
            "end": [
                ("{p} doesn't live in {v} anymore.", ""),
                ("{p} gave up the flat in {v}.", ""),
                ("{p} left {v} and has no fixed address right now.", ""),
            ],
        },
    },
    "employment": {
        "tune": {
            "start": [
                ("{p} joined {v}.", ""),
                ("{p} started working at {v}.", ""),
                ("{p} was hired by {v}.", ""),
                ("{v} hired {p} as an engineer.", ""),
                ("{p} left {z} to join {v}.", ""),
                ("{p} works for {v} now.", ""),
                ("{v}'s newest analyst is {p}.", ""),
                ("{p}, a friend from school, took a job at {v}.", ""),
            ],
            "end": [
                ("{p} left {v}.", ""),
                ("{p} quit {v}.", ""),
                ("{p} no longer works at {v}.", ""),
            ],
        },
        "check": {
            "start": [
                ("{p} signed a contract with {v} and starts Monday.", ""),
                ("{p} got a job at {v}.", ""),
                ("{p} was recruited by {v}.", ""),
                ("{v} took on {p} as a designer.", ""),
                ("{p} moved from {z} to {v}.", ""),
                ("{p} is employed by {v} these days.", ""),
                ("{v}'s new project lead is {p}.", ""),
                ("{p}, who used to freelance, now works at {v}.", ""),
            ],
            "end": [
                ("{p} resigned from {v}.", ""),
                ("{v} let {p} go.", ""),
                ("{p} doesn't work for {v} anymore.", ""),
            ],
        },
    },
    "team": {
        "tune": {
            "start": [
                ("{p} signed for {v}.", ""),
                ("{p} was transferred to {v}.", ""),
                ("{p} joined {v}.", ""),
                ("{v} signed {p} on a three-year deal.", ""),
                ("{p} left {z} for {v}.", ""),
                ("{p} plays for {v} now.", ""),
                ("{v}'s new striker is {p}.", ""),
                ("{p}, the young midfielder, moved to {v}.", ""),
            ],
            "end": [
                ("{p} left {v}.", ""),
                ("{v} released {p}.", ""),
                ("{p} no longer plays for {v}.", ""),
            ],
        },
        "check": {
            "start": [
                ("{p} put pen to paper with {v}.", ""),
                ("{p} was sold to {v}.", ""),
                ("{p} is a {v} player now.", ""),
                ("{v} completed the signing of {p}.", ""),
                ("{p} made the switch from {z} to {v}.", ""),
                ("{p} has been playing for {v} since this week.", ""),
                ("{v}'s latest signing is {p}.", ""),
                ("{p}, the club's former captain, joined {v}.", ""),
            ],
            "end": [
                ("{p}'s contract with {v} ended and was not renewed.", ""),
                ("{p} parted ways with {v}.", ""),
                ("{p} isn't with {v} anymore.", ""),
            ],
        },
    },
    "relationship": {
        "tune": {
            "start": [
                ("{p} married {v}.", ""),
                ("{p} got married to {v}.", ""),
                ("{p} and {v} tied the knot.", ""),
                ("{v} and {p} got married this weekend.", ""),
                ("{p} is married to {v} now.", ""),
                ("{p} and {v} are husband and wife now.", ""),
                ("{p} wed {v} in a small ceremony.", ""),
                ("{p}, after years of dating, married {v}.", ""),
            ],
            "end": [
                ("{p} divorced {v}.", ""),
                ("{p} and {v} broke up.", ""),
                ("{p} is no longer married to {v}.", ""),
            ],
        },
        "check": {
            "start": [
                ("{p} and {v} got married.", ""),
                ("{p} exchanged rings with {v} today.", ""),
                ("{v} married {p} at the town hall.", ""),
                ("{p} and {v} said their vows this week.", ""),
                ("{p} has been married to {v} since the spring.", ""),
                ("{p}'s wedding to {v} was lovely.", ""),
                ("{p} finally married {v}.", ""),
                ("{p}, the shy one, is now {v}'s spouse.", ""),
            ],
            "end": [
                ("{p} and {v} got divorced.", ""),
                ("{p} split up with {v}.", ""),
                ("{p} and {v} separated for good.", ""),
            ],
        },
    },
}

# What the listener answers: it states no fact. Some name a person or a value inside a question (a question states
# nothing): ``{x}`` the value the news is about, ``{z}`` the previous one, ``{p}`` the person (other kinds).
REACTIONS: dict[str, list[str]] = {
    "any": [
        "Wow, really?", "I had no idea.", "Interesting, thanks for telling me!", "Huh, I missed that.",
        "That's a surprise.", "Makes sense, I guess.", "Oh, nice.", "No way!", "Let's see how that goes.",
        "Time flies.", "Good to know.", "Hm, okay.",
    ],
    "office": [
        "Wasn't {z} in charge before?", "Wait, {x}? Are you sure?", "Is {x} any good, do you think?",
        "What happened to {z}?", "Good for them.",
    ],
    "residence": ["Didn't {p} live in {z} before?", "Does {p} like it there?", "Is {p} happy about it?"],
    "employment": ["Wasn't {p} at {z} before?", "Does {p} like the new job?", "Is that a good place to work?"],
    "team": ["Didn't {p} play for {z} before?", "Is {p} any good?", "What a transfer!"],
    "relationship": ["Wait, {p} and {v}?", "Congratulations to them!", "Is {p} okay?"],
}

# Questions. Office: {Role} / {role} / {y}; others: {p}. "now" wordings rotate over the three for as_of asks.
NOW_QUESTIONS: dict[str, list[str]] = {
    "office": ["Who is the current {Role} of {y}?", "Who is {y}'s {role} now?",
               "Who holds the office of {role} of {y}?"],
    "residence": ["Where does {p} live?", "Where does {p} live now?", "Which city is {p} living in these days?"],
    "employment": ["Who does {p} work for?", "Where does {p} work now?", "Which company employs {p} at the moment?"],
    "team": ["Which team does {p} play for?", "What team is {p} on now?", "Who does {p} play for these days?"],
    "relationship": ["Who is {p} married to?", "Who is {p}'s spouse now?", "Who is {p} married to these days?"],
}
YEAR_QUESTIONS: dict[str, list[str]] = {
    "office": ["Who was the {Role} of {y} in {year}?", "Who was {y}'s {role} in {year}?"],
    "residence": ["Where did {p} live in {year}?", "Which city was {p} living in in {year}?"],
    "employment": ["Who did {p} work for in {year}?", "Where was {p} working in {year}?"],
    "team": ["Which team did {p} play for in {year}?", "What team was {p} on in {year}?"],
    "relationship": ["Who was {p} married to in {year}?", "Who was {p}'s spouse in {year}?"],
}

# Roles as the table writes them (case folded) -> (Role, running text, short form, crown?)
ROLES: dict[str, tuple[str, str, str, bool]] = {
    "prime minister": ("Prime Minister", "prime minister", "PM", False),
    "president": ("President", "president", "president", False),
    "federal chancellor": ("Federal Chancellor", "federal chancellor", "chancellor", False),
    "premier": ("Premier", "premier", "premier", False),
    "monarch": ("Monarch", "monarch", "monarch", True),
    "king": ("King", "king", "king", True),
    "emperor": ("Emperor", "emperor", "emperor", True),
}
# Country names that take "the" in running text.
WITH_ARTICLE: Final = frozenset({"United Kingdom", "United States of America", "Czech Republic", "Netherlands",
                                 "Philippines", "United Arab Emirates"})

# The fictional cast: nobody here shares a name with a leader, a speaker, a city, an employer or a team.
SPEAKERS: Final = ("Ana", "Ben")
FIRST_NAMES: Final = (
    "Maya", "Tomas", "Greta", "Oskar", "Leila", "Ruben", "Ingrid", "Dario", "Nadia", "Felix", "Selma", "Jonas",
    "Clara", "Mateo", "Yara", "Hugo", "Elif", "Bruno", "Alma", "Viktor", "Noor", "Emil", "Sofia", "Kasper",
    "Lucia", "Anton", "Mira", "Stellan", "Paula", "Idris", "Freya", "Marek", "Zoe", "Teodor", "Hanna", "Cyrus",
)
LAST_NAMES: Final = (
    "Lindqvist", "Okafor", "Marchetti", "Brandt", "Castellanos", "Novak", "Halloran", "Petrakis", "Varga",
    "Holmberg", "Quintero", "Achterberg", "Rasmussen", "Delacroix", "Wojcik", "Ferreira", "Thorsen", "Kowalczyk",
    "Almeida", "Haddad", "Sorensen", "Ibarra", "Nakamura", "Abernathy", "Strand", "Moreau", "Lindgren", "Kuznetsov",
    "Barros", "Eklund", "Fontaine", "Grieve", "Oyelaran", "Pellegrini", "Santoro", "Voss",
)
SPOUSE_FIRST_NAMES: Final = (
    "Rosa", "Tobias", "Imke", "Laszlo", "Amara", "Caspar", "Dalia", "Edvin", "Fatima", "Gunnar", "Helena", "Ivo",
    "Jasmin", "Kofi", "Linnea", "Milo", "Nina", "Otto", "Pia", "Rafael", "Saskia", "Theo", "Ulla", "Wendel",
)
CITIES: Final = (
    "Lisbon", "Porto", "Berlin", "Hamburg", "Munich", "Vienna", "Zurich", "Lyon", "Marseille", "Bordeaux", "Madrid",
    "Valencia", "Seville", "Barcelona", "Milan", "Turin", "Bologna", "Naples", "Amsterdam", "Rotterdam", "Antwerp",
    "Copenhagen", "Stockholm", "Gothenburg", "Oslo", "Bergen", "Helsinki", "Tallinn", "Riga", "Krakow", "Prague",
    "Budapest", "Edinburgh", "Glasgow", "Dublin", "Toronto", "Vancouver", "Montreal", "Boston", "Seattle",
)
EMPLOYERS: Final = (
    "Northwind Analytics", "Blue Heron Logistics", "Quarry Lane Software", "Silverpine Health", "Oakridge Foods",
    "Brightwater Labs", "Copperleaf Energy", "Harbor Point Media", "Ironwood Robotics", "Juniper Freight",
    "Kestrel Insurance", "Lumen Textiles", "Meadowbrook Pharma", "Nimbus Aerospace", "Orchid Telecom",
    "Pinecrest Bank", "Redstone Mining", "Saltmarsh Studios", "Tidewater Shipping", "Umber Architects",
    "Vantage Motors", "Willowby Publishing", "Yellowfin Games", "Zephyr Airlines",
)
TEAMS: Final = (
    "Riverton Rovers", "Ashford Athletic", "Caldera United", "Dunmore Wanderers", "Eastvale Rangers",
    "Fairhaven City", "Glenmoor Town", "Highcliff Albion", "Kingsbridge Harriers", "Larchmont Celtic",
    "Millbrook Olympic", "Northgate Swifts", "Port Ellis Mariners", "Stonebury Villa",
)
