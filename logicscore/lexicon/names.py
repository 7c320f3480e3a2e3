"""Words inside and around personal and proper names: articles, particles, titles, kinship."""

from __future__ import annotations

import re

from ._sets import subset, words

ARTICLES = frozenset({"the", "a", "an"})

# Lowercase particles a name may hold between its capitalised words, in several languages:
# "María del Pilar del Río", "Ludwig van Beethoven", "Los Angeles", "Muhammad ibn Musa".
PARTICLES = words("""
d de del della des di da das dos du el la las le les los van von der den ter y zu bin ibn al
""")
# The particles inside a person's name, for telling one name's parts from another name.
PERSON_PARTICLES = PARTICLES - words("des el las les los zu")
# The particles a question's run of capitalised words continues over ("Leonardo da Vinci").
RUN_PARTICLES = subset(PARTICLES, "de la von van der del du da di le")
# The particles a written title holds lowercase ("Les Misérables", "Shrek el Ogro").
TITLE_PARTICLES = subset(PARTICLES, "des les y el los las zu den")
# The particles an abbreviation may leave out or spell ("BA", "BOA").
ABBREVIATION_PARTICLES = subset(PARTICLES, "de del des du la le von van der den di da y")
# The particles a capitalised phrase of a question keeps inside it.
PHRASE_PARTICLES = subset(PARTICLES, "de du da von van la le")

# Titles of nobility and royalty: "2nd Earl of Essex", "Landgrave of Hesse".
NOBLE_TITLES = words("""
earl duke baron baroness count countess marquess marquis viscount king queen prince princess
lord lady duchess emperor empress landgrave margrave elector
""")
# Offices written before a name: "Senator X", "Pope Y", "Prime Minister Z".
OFFICE_TITLES = words("""
pope president senator governor general captain colonel admiral mayor chancellor bishop
archbishop cardinal judge minister prime representative saint st
""")
# Forms of address: "Mrs Dalloway", "Dr. No", "Sir Walter".
COURTESY_TITLES = words("mr mrs ms miss mx dr prof professor sir dame rev reverend")
HONORIFICS = NOBLE_TITLES | OFFICE_TITLES | COURTESY_TITLES
# The titles a mention's name is stripped of ("Prince Albert" is "Albert"); rarer titles and
# offices that double as words ("Saint", "Judge", "Minister") stay part of the name.
MENTION_HONORIFICS = HONORIFICS - subset(
    HONORIFICS, "marquess marquis viscount landgrave margrave elector representative saint st "
                "judge minister prime")
# The titles that go with regnal numbers: "Prince Albert" may be the text's only "Albert II".
ROYAL_TITLES = subset(HONORIFICS, """
king queen prince princess duke duchess earl count countess baron baroness emperor empress pope
""")
# Titles that say a bare mention names a person; a monarch's or general's title also names
# ships, pubs and battles ("Queen Mary", "General Belgrano").
PERSON_TITLES = MENTION_HONORIFICS - subset(HONORIFICS, "king queen prince princess general")
# The titles a question's name may carry before it, for matching the answer's spelling.
QUESTION_HONORIFICS = HONORIFICS - subset(
    HONORIFICS, "miss mx prof dame rev reverend archbishop cardinal")

# Kinship nouns: they relate one person to another.
KIN = words("""
son daughter wife husband widow widower father mother brother sister child grandson
granddaughter nephew niece heir spouse
""")
# Nouns that relate a name to another and are never part of it, even capitalised.
RELATIONAL = KIN | words("ceo chairman chairwoman cofounder co-founder founder")
# A person known only by how they relate to a named one ("X's brother", "the founder of X"):
# a clause about them states nothing of X.
PERSON_RELATIONS = RELATIONAL | words("""
creator inventor discoverer author composer designer owner successor predecessor
""")
# After a person's name, a generation keeps it that person's: "Hector Macpherson Sr.".
GENERATIONS = words("jr sr ii iii iv")

# ", 2nd Earl of Essex" belongs to the name before it; it is not an entity of its own.
EPITHET = re.compile(
    r",\s*(?i:the\s+)?(?:\d+(?i:st|nd|rd|th)\s+)?(?i:" + "|".join(sorted(NOBLE_TITLES)) + r")\b"
    r"(?:\s+(?i:of|de|von|the)\b|\s+[A-Z][\w’'.-]*)*"
)
# A parenthesis right after a word: "Bill Patterson (Racing Driver)" says which one.
PARENTHESIS = re.compile(r"(?<=[\w.])\s*\(([^()]*)\)")


def is_title_words(text: str) -> bool:
    """Three capitalised words or more: a title, whatever its words ("When Can I See You Again")."""
    words = text.split()
    return len(words) >= 3 and all(w[:1].isupper() for w in words)

# The articles as they open a sentence or a title.
CAPITALISED_ARTICLES = frozenset(a.capitalize() for a in ARTICLES)
