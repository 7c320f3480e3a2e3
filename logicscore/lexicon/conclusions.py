"""Words of the sentence that states a response's conclusion ("So the answer is X")."""

from __future__ import annotations

from ._sets import words

# Open the sentence that draws the conclusion ("So …", "In conclusion, …").
CONCLUSION_OPENERS = ("so", "therefore", "thus", "hence", "consequently", "in conclusion",
                      "as a result", "in summary", "in short", "to conclude")
# "the final answer is", "the correct answer would be".
ANSWER_QUALIFIERS = words("final correct short right true")
# The verbs that state the answer after "the answer": "is", "would be", …
ANSWER_VERBS = ("is", "would be", "should be", "must be", "will be", "was")
# The copulas a concluding sentence states its value with ("So the director is X").
COPULAS = words("is are was were")
# A stated value that opens with one of these is no answer: "… is not known", "… is unclear".
NOT_ANSWERS = words("""
not no never unknown unclear uncertain unsure undetermined ambiguous impossible unable
also both either neither
""")
# A copula followed by one of these is a passive or a place, not a value: "is located in X",
# "was born in 1934" state something of the subject, not the thing asked for (a word ending
# in "-ed" is taken as a participle too).
NOT_VALUE_STARTS = words("""
in of from at on by with to for into as than about within near
born written known made built held shown drawn given taken found sung led run won begun
first still only now then originally mainly primarily native
""")
# A reply that opens with one of these states a yes/no answer ("Yes, both are …").
YES_NO = ("yes", "no")

# What a sentence that gives the answer calls it ("the final answer", "the result").
ANSWER_NOUNS = frozenset({"answer", "final answer", "result", "solution"})
