"""Kin terms as paths of one-generation steps, for reading the hops a kin question asks
("the paternal grandmother of X" is two: X's father, then his mother).

Steps: `P` a parent, `C` a child, `S` a sibling, `M` a spouse. A "great-" before a
grand-term adds one more generation; "paternal"/"maternal" only say which parent.
"""

from __future__ import annotations

import re

# term → its steps, read from the person named to the person asked for.
KIN_STEPS: dict[str, str] = {
    "father": "P", "mother": "P", "parent": "P", "dad": "P", "mom": "P",
    "son": "C", "daughter": "C", "child": "C", "children": "C", "offspring": "C",
    "brother": "S", "sister": "S", "sibling": "S", "half-brother": "S", "half-sister": "S",
    "husband": "M", "wife": "M", "spouse": "M", "widow": "M", "widower": "M",
    "married": "M", "marry": "M", "marries": "M", "wed": "M",
    "grandfather": "PP", "grandmother": "PP", "grandparent": "PP",
    "grandson": "CC", "granddaughter": "CC", "grandchild": "CC", "grandchildren": "CC",
    "uncle": "PS", "aunt": "PS", "nephew": "SC", "niece": "SC", "cousin": "PSC",
    "father-in-law": "MP", "mother-in-law": "MP", "parent-in-law": "MP",
    "son-in-law": "CM", "daughter-in-law": "CM",
    "brother-in-law": "MS", "sister-in-law": "MS",
    "stepfather": "PM", "stepmother": "PM", "stepson": "MC", "stepdaughter": "MC",
}
# A kin word before one of these names an organisation or a language, not a person.
NOT_KIN_AFTER = frozenset("""
company companies organisation organization firm group body church tongue language club
corporation board ship station airline
""".split())

KIN_TERM = re.compile(
    r"\b(?P<great>(?:great[- ])*)(?P<term>"
    + "|".join(sorted(map(re.escape, KIN_STEPS), key=len, reverse=True))
    + r")s?\b(?P<after>\s+\w+)?", re.I)

# Relations that only say "is" (or a possessive, read as "of"): the kin term of such a claim
# is in its sentence.
COPULA_RELATIONS = frozenset({"be", "is", "was", "are", "were", "of"})
# The words of a relation besides its kin term ("have nephew name", "mother-in-law of").
KIN_FILLERS = frozenset({"of", "be", "is", "was", "have", "has", "had", "name", "named", "'s", "the", "a",
                         "paternal", "maternal", "great", "step", "half", "in", "law"})
