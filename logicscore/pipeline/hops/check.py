"""What the text can show of a proposed hop (docs/metrics.md, "Hops"): the model, or a
record's own decomposition, proposes; these checks verify.

A hop counts as stated only when

- its evidence is a passage of the long answer (`locate`: case, whitespace, quotes,
  citation marks and markdown aside), so an invented or misquoted sentence never counts;
- its result is written in that passage (`written_in`): by name, as most of its content
  words, or as an entity whose mention there the linker resolved (a pronoun, an alias);
- its input is a question entity or words of the question, or an earlier hop's result
  (`linked_input`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from ...models import Hop
from ..flow import Linked
from ..text.mentions import same_answer
from ..text.phrases import content_stems

# Typographic variants a model re-types: folded to one form before comparing.
_FOLD = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
                       "\u2018": "'", "\u2019": "'", "\u2032": "'", "`": "'", "\u2013": "-",
                       "\u2014": "-", "\u00a0": " "})
# Left out on both sides: citation marks ("[Doc2]", "[3]"), markdown emphasis and headers,
# and quotes, which a model adds or drops around a title.
_MARKUP = re.compile(r"\[[^\[\]\n]{1,20}\]|[*_#>\"']")
_YES_NO = re.compile(r"^\s*(?:yes|no)\b[\s,.;:()\-–—]*", re.I)
_PARTS = re.compile(r"\s*(?:[(),;/]|\s-\s|\bi\.e\.)\s*")
_CLOSING = ".!?;:, "
# Share of a result's (or an input's) content words that must be written for it to count.
WORD_SHARE = 0.5


def fold(text: str) -> tuple[str, list[int]]:
    """`text` folded for comparison, with the index in `text` of each folded character."""
    out: list[str] = []
    where: list[int] = []
    folded = text.translate(_FOLD)
    dropped = {i for m in _MARKUP.finditer(folded) for i in range(m.start(), m.end())}
    space = True
    for i, ch in enumerate(folded):
        if i in dropped:
            continue
        if ch.isspace():
            if space:
                continue
            ch, space = " ", True
        else:
            space = False
        for c in ch.casefold():
            out.append(c)
            where.append(i)
    while out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def locate(long_answer: str, evidence: str | None) -> tuple[int, int] | None:
    """The span of `evidence` in `long_answer`, or None when the long answer never writes it."""
    if not evidence or not evidence.strip():
        return None
    text, where = fold(long_answer)
    quoted = fold(evidence)[0].strip().rstrip(_CLOSING).strip()
    if len(quoted) < 3:
        return None
    at = text.find(quoted)
    if at < 0:
        return None
    return where[at], where[at + len(quoted) - 1] + 1


def sentence_at(span: tuple[int, int], sentences: Sequence[tuple[int, int]]) -> int | None:
    """The index of the sentence `span` starts in."""
    if not sentences:
        return None
    return max(0, bisect_right([a for a, _ in sentences], span[0]) - 1)


def judgment(result: str) -> bool:
    """A yes/no result with nothing after it ("Yes", "no."): a comparison's outcome, which
    names nothing to look for."""
    return bool(_YES_NO.match(result)) and not _YES_NO.sub("", result).strip(_CLOSING)


def _parts(result: str) -> list[str]:
    """The result and the pieces a model writes it in: "Germany (the German military)",
    "Yes, a film director", "Corlan Arena, Vesk"."""
    whole = _YES_NO.sub("", result).strip()
    return [p for p in [whole, *_PARTS.split(whole)] if p.strip(_CLOSING)]


def _words_written(phrase: str, text: str) -> bool:
    """`phrase` is written in `text` whole (on word boundaries), or most of its content words are."""
    folded, said = fold(phrase)[0].strip(_CLOSING), fold(text)[0]
    if folded and re.search(rf"(?<!\w){re.escape(folded)}(?!\w)", said):
        return True
    wanted = content_stems(phrase)
    return bool(wanted) and len(wanted & content_stems(text)) / len(wanted) >= WORD_SHARE


def written_in(result: str | None, span: tuple[int, int], long_answer: str, linked: Linked,
               threshold: float) -> bool:
    """Whether `result` is written in `long_answer[span]`, or resolved there: an entity the
    linker saw mentioned in the span (a pronoun, an alias, a description) goes by that name."""
    if result is None or not result.strip():
        return False
    if judgment(result):
        return True
    a, b = span
    text = long_answer[a:b]
    parts = _parts(result)
    if any(_words_written(p, text) for p in parts):
        return True
    names = _names_in(span, linked)
    return any(same_answer(p, n, threshold) for p in parts for n in names)


def _names_in(span: tuple[int, int], linked: Linked) -> list[str]:
    """The names of the entities mentioned in `span`, and those references there resolve to."""
    a, b = span
    ids = {e.id for e in linked.entities
           for m in e.mentions if m.span is not None and a <= m.span[0] < b}
    for p in linked.propositions:
        if a <= p.span[0] < b:
            ids.update(e for e in (p.subject_entity, p.object_entity) if e)
            ids.update(r.to for r in p.resolutions)
    names = []
    for e in linked.entities:
        if e.id in ids or e.name in ids:
            names.append(e.name)
            names += [m.text for m in e.mentions]
    return names


def linked_input(hop_input: str | None, earlier: Sequence[Hop], question: str,
                 question_names: Sequence[str], threshold: float) -> bool:
    """Whether a hop starts from what the question names or earlier hops' results: most of
    its content words are written there ("1862 vs 1898" from two dated hops), or it is one of
    those names. An input with no content word ("that film", "them") refers back and passes."""
    wanted = content_stems(hop_input or "")
    if not wanted:
        return True
    sources = [question, *(h.result for h in earlier if h.result), *(h.input for h in earlier if h.input)]
    pooled = set().union(*(content_stems(s) for s in sources))
    if len(wanted & pooled) / len(wanted) >= WORD_SHARE:
        return True
    return any(same_answer(hop_input or "", n, threshold)
               for n in [*question_names, *(h.result for h in earlier if h.result)])
