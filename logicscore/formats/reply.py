"""The short answer a free-text reply states on its last "Answer: X" line.

`assess` reads agent replies with it and the RAG adapters read a `response` with it, so a
reply means the same short answer whichever way it reached the auditor.
"""

from __future__ import annotations

import re

from ..lexicon.sentences import ABBREVIATIONS

# "Answer: X", "Final answer: X", "**Answer:** X", any case; the colon may be full-width.
ANSWER_LINE = re.compile(r"^\W*(?:final\s+)?answer\W*?\s*[:：]\s*\**\s*(?P<answer>.*?)[\s*]*$",
                         re.IGNORECASE)


def final_answer(text: str) -> tuple[str, str] | None:
    """(short answer, the text before its line) from the last "Answer: X" line, else None.

    A reply that is only that line is its own long answer (the audit then finds no chain).
    """
    lines = text.rstrip().splitlines()
    for i in range(len(lines) - 1, -1, -1):
        found = ANSWER_LINE.match(lines[i])
        if found and found.group("answer").strip():
            answer = trim_stop(found.group("answer").strip())
            reasoning = "\n".join(lines[:i]).strip()
            return answer, reasoning or lines[i].strip()
    return None


def trim_stop(answer: str) -> str:
    """`answer` without the full stops that end it, unless the last one closes an
    abbreviation, an initial or a dotted short form ("Tiffany & Co.", "John F.", "D.C."),
    which are part of the name."""
    bare = answer.rstrip(".").strip()
    last = bare.split()[-1].lower() if bare.split() else ""
    # A one-word answer ("C.", "Co.") is a word ending a sentence; "John F." ends a name.
    named = len(bare.split()) > 1 and (last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()))
    if answer.rstrip().endswith(".") and ("." in last or named):
        return bare + "."
    return bare
