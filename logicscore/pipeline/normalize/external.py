"""Matching a question entity or the short answer to the clusters of the long answer
(docs/architecture.md): the mention rules first, then the looser ways questions write names."""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from ...lexicon.kinds import PLACE_MODIFIERS
from ...models import LITERAL_KINDS
from ..text.question_forms import role_name
from .abbreviations import abbreviates
from .clusters import MAX_ABBREVIATION_CHECKS, Cluster, FormIndex, kind_of
from ..text.mentions import DATE, YEAR, Form, analyze, capitalized, loose_key, tail


def _family_name(clusters: list[Cluster], form: Form) -> int | None:
    """The one cluster naming a person by surname alone ("Symington" for "Fife Symington",
    "Württemberg" for "Duke Adam of Württemberg") ahead of the relatives whose full names
    make it a family name there ("J. Fife Symington Jr."). A surname after them is one of
    them or the family ("Godfrey Baring … the Baring family"); a place's name has no kin
    ("Mexico" for "Mexico City")."""
    last = form.tokens[-1] if len(form.tokens) > 1 and not form.markers and all(form.caps) else ""
    lone = [ci for ci, c in enumerate(clusters) if c.forms and not c.recs[0].pronoun
            and all(f.tokens == (last,) for f in c.forms.values())]
    kin = [min(r.order for r in c.recs) for c in clusters if c.person and any(
        len(f.tokens) > 1 and f.tokens[-1] == last for f in c.forms.values())]
    if len(lone) != 1 or not kin or kind_of(clusters[lone[0]], last) in LITERAL_KINDS:
        return None
    return lone[0] if min(r.order for r in clusters[lone[0]].recs) < min(kin) else None


def expansion(clusters: list[Cluster], text: str, skip: int = -1) -> int | None:
    """The cluster `text` abbreviates or that abbreviates `text`; of several, the most
    mentioned, and none on a tie. A person's initials are no abbreviation: "NY" is not
    "Nancy Young"."""
    form = analyze(text)
    if sum(len(c.forms) + len(c.recs) for c in clusters) > MAX_ABBREVIATION_CHECKS:
        return None  # too many names to tell which one is meant
    found = [ci for ci, c in enumerate(clusters)
             if ci != skip and not c.recs[0].pronoun
             and (any(abbreviates(text, f) for f in c.forms.values())
                  or any(abbreviates(r.text, form) for r in c.recs))
             and kind_of(c, c.recs[0].text) != "person"]
    ranked = sorted(((len(clusters[ci].recs), ci) for ci in found), key=lambda x: (-x[0], x[1]))
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]


def match_external(clusters: list[Cluster], text: str, threshold: float,
                    index: FormIndex, question: str = "") -> int | None:
    """Cluster index for a question entity or short answer; never by surname alone.

    Questions capitalise loosely ("country Man", "the Lego Batman movie", "True North
    Trilogy"), so failing the mention rules, a cluster matches when keys agree with every
    word capitalised and a trailing work-type word dropped, or when the name ends a longer
    name of the text ("Goldwyn Productions" in "Samuel Goldwyn Productions"), or when a bare
    year is the year of a full date ("1972" and "November 1972"), or when a lone name is the
    last name of a titled ruler ("Setthathirath", "King Sai Setthathirat"), or when a figure
    is written inside a quantity or a span ("450" in "more than 450", "1572" in
    "1505–1572"); each only when exactly one cluster does. Last, a person's name matches its
    surname standing alone in a family's text, an abbreviation the name it shortens ("US",
    "United States"), and a name its abbreviation.

    `index` is `FormIndex(clusters, threshold)`: built once for the question entities and
    the answer matched to one list of clusters.
    """
    form = analyze(text)
    hit = index.best(form, persons=True)
    if hit:
        return hit[0]
    keys = {loose_key(form), loose_key(analyze(capitalized(text)))} - {""}
    live = [ci for ci, c in enumerate(clusters) if not c.recs[0].pronoun]
    live_forms = [(ci, tuple(clusters[ci].forms.values())) for ci in live]
    year = form.key if len(form.tokens) == 1 and YEAR.match(form.key) and form.key.isdigit() else None
    ruler = len(form.tokens) == 1 and form.caps[0] and not form.markers and len(form.key) >= 5
    figure = _figure(form)
    bare = _without_small_words(form)
    for test in (lambda f: loose_key(f) in keys,
                 # a question drops a small word of the name ("Bay Fundy", "Bay of Fundy")
                 lambda f: len(bare) > 1 and _without_small_words(f) == bare,
                 lambda f: tail(form, f) and not PLACE_MODIFIERS & set(f.tokens[:-len(form.tokens)]),
                 # a bare year answer is stated by a full date in that year ("born November 1972")
                 lambda f: year is not None and len(f.tokens) > 1 and f.tokens[-1] == year
                 and bool(DATE.match(f.key)),
                 lambda f: ruler and f.titled and len(f.tokens) > 1 and not f.markers
                 and fuzz.ratio(f.tokens[-1], form.key) >= min(100.0, threshold + 7),
                 # a figure is stated inside a quantity or a range ("45 miles", "more than
                 # 450", "661–80", "18th-century"), never inside a name
                 lambda f: figure and figure <= f.markers and not _named(f)):
        found = [ci for ci, forms in live_forms if any(map(test, forms))]
        if len(found) == 1:
            return found[0]
    family = _family_name(clusters, form)
    if family is not None:
        return family
    found_by_expansion = expansion(clusters, text)
    if found_by_expansion is not None or not role_name(question, text):
        return found_by_expansion
    # A question calls a character or an award by its first word ("played Scarlett", "won a
    # Tony") where the text writes it out ("Scarlett O'Hara", "Tony Award"); only a name no
    # other cluster shares. Elsewhere "Paris" never means "Paris Hilton".
    heads = [ci for ci in live if any(_head_of(form, f) for f in clusters[ci].forms.values())]
    return heads[0] if len(heads) == 1 else None


def _figure(form: Form) -> frozenset[str]:
    """The number or ordinal markers of a text that is nothing but figures ("450",
    "16,801", "18th"); empty otherwise."""
    numeric = form.markers and all(m[:2] in ("n:", "o:") for m in form.markers)
    return form.markers if numeric and len(form.markers) == len(form.tokens) else frozenset()


def _named(form: Form) -> bool:
    return any(word[:1].isupper() for word in re.findall(r"[^\W\d_]+", form.display))


def _head_of(short: Form, long: Form) -> bool:
    n = len(short.tokens)
    return (0 < n < len(long.tokens) and long.tokens[:n] == short.tokens and not short.markers
            and len(short.key) >= 3 and all(long.caps[n:]))


def _without_small_words(form: Form) -> tuple[str, ...]:
    return tuple(t for t in form.tokens if t not in ("of", "the"))


# Where a short answer is no name the long answer writes whole (docs/questions-and-answers.md,
# "Answer matching"): a place before its region, a list's first item, a name written inside a
# description.
_LIST_SEPARATORS = re.compile(r",\s*|;\s*|\s+(?:and|or|&)\s+", re.I)


def match_answer(clusters: list[Cluster], text: str, threshold: float, index: FormIndex,
                 asked: frozenset[int] = frozenset()) -> int | None:
    """The cluster a short answer names when `match_external` finds none.

    In order: the first part of a place with its region or of a list that names a cluster
    ("Lyon, France", "Royalists and Roundheads"); the longest cluster a description or a
    sentence writes inside it, other than the question's own `asked` clusters ("Velmoran
    origin" → "Velmoran").
    """
    parts = answer_parts(text)
    if parts:
        for part in parts:
            hit = match_external(clusters, part, threshold, index)
            if hit is not None and hit not in asked:
                return hit
    key = f" {analyze(text).key} "
    inside = [(len(f.key), ci) for ci, c in enumerate(clusters) if ci not in asked
              and not c.recs[0].pronoun for f in c.forms.values()
              if f.key and f" {f.key} " in key]
    return max(inside)[1] if inside else None


def answer_parts(text: str) -> list[str]:
    """The parts of a short answer that is a place with its region or a list ("Lyon, France",
    "Royalists and Roundheads"), in order; empty for an answer of one part."""
    parts = [p.strip(" .") for p in _LIST_SEPARATORS.split(text) if p.strip(" .")]
    return parts if len(parts) > 1 else []
