"""Phrasings and word tables for restyling an answer without changing what it states
(the style-invariance bench, docs/styles.md)."""

from __future__ import annotations

from ._sets import words
from .kinds import PLACE_NOUNS, WORK_NOUNS

# A first sentence that restates the question; {clause} is the question as an indirect one.
RESTATING = (
    "The question asks {clause}.",
    "We need to find {clause}.",
    "To answer this, we need to determine {clause}.",
    "The question is asking {clause}.",
    "I need to determine {clause}.",
)
# The clause of a question that opens with neither a wh-word nor a preposition before one
# ("Are A and B both directors?"): quoted, since moving its auxiliary needs a parse.
QUOTED_CLAUSE = 'the answer to "{question}"'
# Lead-ins: a sentence of their own, or words put before the first sentence.
LEAD_SENTENCES = ("Let's think step by step.", "Let me think about this step by step.")
LEAD_PREFIXES = ("From the context, I know that", "According to the context,",
                 "Based on the information given,")
# A first word that is capitalised only by its position, so a prefix may lowercase it.
LOWERABLE_OPENERS = words("""
the a an he she it they his her its their this these those there in on at of for by from to
as after before during when while both each one two three
""")
# A closing sentence that states the answer again; {answer} is the short answer.
CONCLUDING = ("So the answer is: {answer}.", "So the answer is {answer}.",
              "Therefore, the answer is {answer}.")
# Kind nouns a second mention may be replaced by ("the film"): a work or a place, which is
# one thing and "it". Bands, teams and groups are left out: "they" and "it" both occur.
THING_KINDS = (WORK_NOUNS | PLACE_NOUNS | words("company university college school club label")
               ) - words("series area building")
# Nouns that fix a person's pronoun; "actor", "singer" and kin roles taken by either sex
# ("wife" of a woman) are left out.
FEMALE_NOUNS = words("""
actress woman queen princess empress duchess countess daughter mother sister niece aunt
businesswoman sportswoman chairwoman congresswoman frontwoman heiress girl lady nun
""")
MALE_NOUNS = words("""
man king prince emperor duke son father brother nephew uncle businessman sportsman
chairman congressman frontman boy lord monk
""")
# Words a kind binding may not cross: "X is a member of the band" binds X to no band.
BINDING_STOPS = words("of in for by from with at on to and or who which that whose as into")
