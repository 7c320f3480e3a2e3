"""Pronouns, grouped by what they may refer to."""

from __future__ import annotations

from ._sets import words

# Third-person pronouns by referent: a person, a thing, several.
PERSON_PRONOUNS = words("he him his himself she her hers herself")
THING_PRONOUNS = words("it its itself")
PLURAL_PRONOUNS = words("they them their theirs themselves")
THIRD_PERSON_PRONOUNS = PERSON_PRONOUNS | THING_PRONOUNS | PLURAL_PRONOUNS
# The third-person pronouns a sentence may stand on instead of naming its subject.
STANDING_PRONOUNS = THIRD_PERSON_PRONOUNS - words("himself herself itself themselves theirs")
# Relative pronouns: they open a clause about the noun before them.
RELATIVE_PRONOUNS = words("who whom which that whose")
# Words that are no name, whatever they refer to: a mention of "it" or "these" names nothing.
# Demonstratives that point back at what a previous sentence named ("this film").
DEMONSTRATIVES = words("this these those")
PRONOUNS = THIRD_PERSON_PRONOUNS | DEMONSTRATIVES | words("that who whom which we us i you")
