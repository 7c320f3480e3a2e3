"""Function words: question words and the small words that glue names and titles together."""

from __future__ import annotations

from ._sets import words
from .names import RUN_PARTICLES, TITLE_PARTICLES

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
QUESTION_LEADING = words("in on at of for by from to as the a an")
