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
