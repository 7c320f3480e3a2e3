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
