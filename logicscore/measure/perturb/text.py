"""Fixed text helpers for perturbations with known labels (docs/measurements.md).

These are deliberately independent of `logicscore.pipeline.normalize`: the labels a perturbation
claims must not change when the pipeline under test changes. They read only the lexicon's
fixed text key and word lists, through `logicscore.formats.text`, the helpers the dataset
adapters and the real-data harness (`benchmarks/realdata/`) build their cases with.
"""

from __future__ import annotations

import re

# The fixed helpers the dataset adapters read records with: one version for both.
from ...formats.text import capitalized_phrases, contains, contains_any, names_alone, norm, split_sentences
from ...lexicon.function_words import QUESTION_LEADING, QUESTION_OPENERS

__all__ = ["norm", "contains", "contains_any", "names_alone", "capitalized_phrases",
           "split_sentences", "question_names", "cut", "removal_noise"]


def question_names(question: str) -> list[str]:
    """The question's capitalised names, "X and Y" runs also as X and Y; numbers ("11-1")
    constrain an answer but name nothing."""
    out = []
    # "Tim Russert (Talk Show)": a disambiguator, not a name of its own.
    question = re.sub(r"\([^()]*\)", " ", question)
    for phrase in capitalized_phrases(question):
        opening = question.lstrip().startswith(phrase)
        words = phrase.split()
        while len(words) > 1 and words[0].lower() in QUESTION_LEADING:
            words.pop(0)  # "In True Grit, who …" names True Grit
        phrase = " ".join(words)
        if (opening and words[0].lower() in QUESTION_OPENERS) or not any(c.isalpha() for c in phrase):
            continue  # "Which American actor": the wh-phrase; inside: "on How I Met Your Mother"
        out.append(phrase)
        # "Barney on How I Met Your Mother": two names joined like "Miracle on 34th Street".
        out += [p for p in re.split(r"\s+(?:and|or|on)\s+", phrase) if p != phrase]
    return out


def cut(text: str, name: str) -> bool:
    """Whether `text` no longer writes `name`, a name sure to be an anchor: two words or more
    once a leading figure goes ("39th Vice President of the United States" is a
    description; "English", "Catholic" may be nationalities, never required chain ends)."""
    words = name.split()
    while words and any(c.isdigit() for c in words[0]):
        words.pop(0)
    return len(words) >= 2 and not contains(text, " ".join(words))


def removal_noise(question: str, answer: str, before: str, after: str,
                  subjects: list[str] | tuple[str, ...] = ()) -> str:
    """Why an "incomplete" label for `after` (`before` with sentences removed) may be wrong
    ("" when it is sound).

    A removal that leaves a name of the question unwritten cuts that anchor off for sure
    (`cut`). Otherwise the chain may survive legitimately when what remains still names
    the removed part's subject (`subjects`), or when every name of the question `before`
    writes is still written beside the answer: then no named anchor lost its support
    ("Which river system in Chilhowie, Virginia …" kept by "… the Holston River Valley near
    Chilhowie, Virginia").
    """
    asked = [n for n in question_names(question) if contains(before, n)]
    if any(cut(after, n) for n in asked):
        return ""
    if any(names_alone(after, name) for name in subjects):
        return "removed hop's subject still named"
    if asked and all(contains(after, n) for n in asked) and contains(after, answer):
        return "every question name still written beside the answer"
    return ""
