"""Function words: question words, prepositions, negations, auxiliaries and the small words that
glue names and titles together."""

from __future__ import annotations

from ._sets import subset, words
from .names import ARTICLES, RUN_PARTICLES, TITLE_PARTICLES

# The prepositions the rules read; every preposition table below is a subset of this one.
PREPOSITIONS = words("in of by for from to into on at with as near")
# Prepositions a relation phrase ends on ("born in", "directed by"): its own, not a word of it.
RELATION_PREPOSITIONS = subset(PREPOSITIONS, "in of by for from to into on at with")
# ... and "as", which grounding also drops when matching a hop's relation in a document.
GROUNDING_PREPOSITIONS = RELATION_PREPOSITIONS | subset(PREPOSITIONS, "as")
# Before a capitalised window of a question: the window is a name in a context ("born in X").
CONTEXT_PREPOSITIONS = subset(PREPOSITIONS, "in on at for from with to by as")
# Before the place a question's sides are in ("the bands from A and B").
PLACE_PREPOSITIONS = subset(PREPOSITIONS, "in at near from on")
# After these, an apposition says where the place before it is ("in Springfield, Illinois").
LOCATING_PREPOSITIONS = subset(PREPOSITIONS, "in at from near")
# Function words a sub-answer may carry that its sentence does not ("for Best Actress").
LEADING_PREPOSITIONS = subset(PREPOSITIONS, "for in on at of by to from")
# Small words a capitalised phrase runs over ("Bank of America", "Tom and Jerry").
PHRASE_JOINERS = subset(PREPOSITIONS, "of on") | words("and")
# Small words an abbreviation may leave out or spell ("BA", "BOA").
ABBREVIATION_JOINERS = subset(PREPOSITIONS, "of for") | words("and")

# Question words and the auxiliaries that open a question: never a name of their own.
WH_WORDS = words("""
who whom whose what which when where why how
is are was were did do does has have had can could
""")
# Lowercase words a name's capitalised run continues over ("Duke of York", "Leonardo da Vinci").
CONNECTORS = RUN_PARTICLES | {"of"}
# Lowercase words a title's capitalised run continues over ("The Lord of the Rings").
TITLE_CONNECTORS = CONNECTORS | words("in the and a an on to for with at from my is")
# Lowercase words a title written out in an answer may hold between capitalised ones.
TITLE_SMALL_WORDS = (TITLE_CONNECTORS | TITLE_PARTICLES
                     | words("be or as by into up out off over et"))
# Capitalised at the start of a question, never the start of a name there (reading a
# question's names as fixed text, for perturbations whose labels must not move with the rules).
QUESTION_OPENERS = words("""
what which who whom whose when where why how is are was were do does did in on at the a an
of for by from to as
""")
# Capitalised only as the question's first word: "In True Grit, who …".
QUESTION_LEADING = subset(PREPOSITIONS, "in on at of for by from to as") | ARTICLES

# Words that deny what follows them.
NEGATIONS = words("not never no n't neither nor")
# Auxiliaries after which a verb is in its base form ("did write", "to direct").
BASE_AUXILIARIES = words("do does did to will would can could shall should may might must")
# Determiners that make a description definite ("the stadium", "this film").
DEFINITE_DETERMINERS = words("the this that these those")
# Capitalised words that open a sentence without being part of the name after them.
SENTENCE_CONJUNCTIONS = words("and but yes no")
# A plural subject read as the pair it stands for ("Both of them", "Each").
PLURAL_QUANTIFIERS = words("both all each")
