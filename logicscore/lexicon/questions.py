"""Words that tell a question's type (docs/metrics.md) and which way a comparison points."""

from __future__ import annotations

from ._sets import words

QUESTION_TYPES = ("bridge", "comparison", "yesno", "intersection")
# Open a question that asks for a thing.
ASKING_WORDS = words("who whom whose what which when where why how")
# Open a question that asks to verify: "Are A and B both American?".
AUXILIARIES = words("""
is are was were do does did has have had can could will would shall should may might must
""")
# A comparative or superlative: the answer is the option the compared values select.
# Low: the smaller value (an earlier date, a smaller count) wins.
LOW_WORDS = words("""
first earlier earliest older oldest before sooner less fewer fewest smaller smallest
shorter shortest lower lowest least
""")
# High: the larger value wins.
HIGH_WORDS = words("""
later latest last recent recently newer newest younger youngest after more most larger
largest bigger biggest longer longest higher highest taller tallest greater greatest wider
widest
""")
COMPARATIVE_WORDS = LOW_WORDS | HIGH_WORDS
# "Are A and B from different countries?": the answer is yes when the values differ.
DIFFERENT_WORDS = words("different differ differs")
# Degree words that grade qualities as well as amounts ("more literary fame"): no sign
# that the compared value is a date or number.
DEGREE_WORDS = words("more most less least")
# Comparatives of amount, never of time ("more goals", "larger population"; not "older",
# "later"): a count, not a date, is what they compare.
AMOUNT_WORDS = DEGREE_WORDS | words("""
fewer fewest larger largest bigger biggest greater greatest smaller smallest higher highest
""")
# A yes/no question that sets its sides in parallel ("Are A and B both …?", "the same …"):
# a statement tying one side to the other states no side's value. ("Is A older than B?" is
# a magnitude: its sides need a number, which "A is older than B" does not give.)
PARALLEL_WORDS = words("both same share shares common") | DIFFERENT_WORDS
YES_WORDS = words("yes yeah true correct")
NO_WORDS = words("no false incorrect")
# Open the clause that draws the conclusion: what follows them states no side's value.
CONCLUDING_WORDS = words("so therefore thus hence")
# Values of count words and scales, for comparing "two members" with "four acts".
COUNT_VALUES = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100,
}
SCALE_VALUES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
# The compared attribute is a number ("the same number of members", "the same age"): only
# then do equal dates or counts make two sides "the same".
NUMERIC_ATTRIBUTE_WORDS = words("number age year years count size height population length many much")
# A question's attribute word → the relation words that state it ("older" is told by "born").
ATTRIBUTE_RELATIONS = {
    "older": "born birth", "oldest": "born birth", "younger": "born birth",
    "youngest": "born birth", "lived": "born died birth death", "came": "released release",
    "out": "released release published", "debuted": "released premiered",
    "recent": "released release published", "recently": "released release published",
    "formed": "formed founded", "founded": "founded formed established",
    "established": "established founded",
}
# A conclusion that guesses ("it is likely that B is larger"): with no compared value stated
# for any side, it says the values were never found.
GUESS_WORDS = words("likely probably possibly perhaps presumably maybe")

# Words that say a question speaks of two or more things.
PLURAL_CUES = words("both each either neither between respectively")
# Verbs that agree with a plural subject.
PLURAL_VERBS = words("are were have do")
# Question words before a noun: "which film", "whose wife".
WH_DETERMINERS = words("what which whose")
