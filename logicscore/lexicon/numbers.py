"""Number and ordinal words."""

from __future__ import annotations

from ._sets import words

NUMBER_WORDS = words("""
one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty
sixty hundred thousand million billion
""")
# The number words a mention may be: not "one", a pronoun too ("one of the oldest clubs").
MENTION_NUMBER_WORDS = NUMBER_WORDS - {"one"}
# The number words a question's name or count is read with ("Seven", "seven members");
# "fifteen" and "sixty" were never listed there.
COUNT_WORDS = NUMBER_WORDS - {"fifteen", "sixty"}
# Ordinal words in order, so that a word's index is its value ("zeroth" is 0).
ORDINAL_WORDS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                 "eighth", "ninth", "tenth", "eleventh", "twelfth")
# Small numbers by value, as answers write them in words ("5" is written "five books").
SMALL_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve")


def in_words(text: str) -> tuple[str, ...]:
    """A count written in digits, as a word: "5" is also "five"; not "one", a pronoun too."""
    text = text.strip()
    return (SMALL_NUMBERS[int(text)],) if text.isdigit() and 1 < int(text) < len(SMALL_NUMBERS) else ()


# Plurals not made by adding -s, -es or -ies, for `number_forms`.
IRREGULAR_PLURALS = {"man": "men", "woman": "women", "person": "people", "child": "children",
                     "businessman": "businessmen", "chairman": "chairmen", "wife": "wives",
                     "life": "lives", "thief": "thieves", "hero": "heroes", "goose": "geese",
                     "foot": "feet", "tooth": "teeth", "mouse": "mice", "series": "series",
                     "species": "species", "analysis": "analyses", "crisis": "crises"}
_SINGULARS = {p: s for s, p in IRREGULAR_PLURALS.items()}


def number_forms(text: str) -> tuple[str, ...]:
    """An answer ending in a common noun, with that noun in the other grammatical number:
    "Football players" is also "Football player", "painter" also "painters". A name's last
    word (capitalised past the first word) is left alone."""
    words_ = text.strip().split()
    if not words_ or not words_[-1].isalpha() or (not words_[-1].islower() and len(words_) > 1):
        return ()
    last = words_[-1]
    low = last.lower()
    if len(low) < 4:
        return ()
    if low[-2:] in ("ss", "us", "is") and low not in _SINGULARS:
        forms = [_plural(low)]
    elif low in _SINGULARS:
        forms = [_SINGULARS[low]]
    elif low in IRREGULAR_PLURALS:
        forms = [IRREGULAR_PLURALS[low]]
    elif low.endswith("ies") and len(low) > 4:
        forms = [low[:-3] + "y"]
    elif low.endswith(("ches", "shes", "sses", "xes", "zes")):
        forms = [low[:-2]]
    elif low.endswith("s"):
        forms = [low[:-1]]
    else:
        forms = [_plural(low)]
    if last[0].isupper():
        forms = [f[:1].upper() + f[1:] for f in forms]
    return tuple(" ".join([*words_[:-1], f]) for f in forms if f != last)


def _plural(word: str) -> str:
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"
