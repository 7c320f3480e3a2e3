"""Entity linking (docs/architecture.md): one entity node per real-world thing.

Mentions are clustered in text order. A mention joins a cluster on an equal normalized key,
on containment whose extra words are lowercase descriptors, on a person's name inside the
full name (same first and last word; two or more words ending it; three or more inside it),
on one regnal name with an epithet, or on fuzzy similarity with safeguards (tests/test_entities.py
holds the cases). Afterwards a lone surname joins the person with that surname named last
before it (docs/coreference.md), a titled lone name ("Prince Albert") joins the text's only regnal
bearer of it ("Albert II"), and an abbreviation ("MLB") joins the name it shortens ("Major
League Baseball"), the most mentioned one when several fit. Otherwise clusters never merge
with each other, so one ambiguous mention cannot bridge two entities. Regnal, ordinal and
generational numbers ("II", "3rd", "Jr.") always guard.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..flow import ExtractedMention, Extraction, Linked
from ...lexicon.names import ARTICLES
from ...lexicon.numbers import number_forms
from ...lexicon.pronouns import PERSON_PRONOUNS
from ...models import LITERAL_KINDS, Entity, Mention, Proposition, QARecord, QuestionEntity
from .abbreviations import abbreviation
from .aliases import alias_pairs
from .clusters import MAX_ABBREVIATIONS, Cluster, FormIndex, Rec, absorb, kind_of
from .external import answer_parts, expansion, match_answer, match_external
from ..text.mentions import analyze, is_pronoun, normalize, same_answer
from ..text.relations import person_args
from .conjoined import split_conjoined
from ..text.phrases import answer_head
from .sieve import resolve_arguments

__all__ = ["Linked", "link", "normalize", "same_answer"]


def _collect(extraction: Extraction) -> tuple[list[Rec], list[tuple[Rec | None, Rec | None]]]:
    """Every mention occurrence in text order, and the pair of records per proposition."""
    recs: dict[tuple, Rec] = {}
    seq = 0

    def add(key: tuple, text: str, span, kind: str, order, reason=None, person=False) -> Rec:
        nonlocal seq
        if key not in recs:
            recs[key] = Rec(text, span, kind, (*order, seq), analyze(text), reason, person,
                             pronoun=is_pronoun(text))
            seq += 1
        rec = recs[key]
        rec.kind = kind if rec.kind == "other" else rec.kind
        rec.reason = rec.reason or reason
        rec.person = rec.person or person
        return rec

    by_text: dict[str, list[ExtractedMention]] = {}
    for m in extraction.mentions:
        add((m.text, (m.start, m.end)), m.text, (m.start, m.end), m.kind or "other", (m.start, 0))
        by_text.setdefault(normalize(m.text), []).append(m)
    pairs: list[tuple[Rec | None, Rec | None]] = []
    for p in extraction.propositions:
        pair: list[Rec | None] = []
        for arg, must_be_person in zip((p.subject, p.object), person_args(p.relation)):
            if not arg.strip():
                pair.append(None)
                continue
            want = normalize(arg)
            res = next((r for r in p.resolutions if normalize(r.to) == want),
                       None) if p.resolutions else None
            if res is not None:
                reason = f"coreference: {res.text} → {res.to}"
                person = res.text.casefold() in PERSON_PRONOUNS
                pair.append(add((arg, tuple(res.span)), arg, tuple(res.span), "other",
                                (res.span[0], 1), reason, person))
                continue
            span = _locate(p, arg, by_text.get(want, []))
            key = (arg, span) if span else (arg, None, p.id if is_pronoun(arg) else "")
            pair.append(add(key, arg, span, "other", (span[0] if span else p.span[0], 1),
                            person=must_be_person and not p.negated))
        pairs.append((pair[0], pair[1]))
    return sorted(recs.values(), key=lambda r: r.order), pairs


def _locate(p: Proposition, arg: str, known: list[ExtractedMention]) -> tuple[int, int] | None:
    """Char span of a proposition argument in the long answer, when it can be recovered."""
    lo, hi = p.span
    for m in known:
        # An unknown proposition span (0, 0) still pairs an argument with its first
        # identical mention, so one occurrence is not listed twice.
        if (lo <= m.start and m.end <= hi) or (hi <= lo and m.text == arg):
            return (m.start, m.end)
    if hi - lo == len(p.text) and hi > lo:
        at = p.text.casefold().find(arg.casefold())
        if at >= 0:
            return (lo + at, lo + at + len(arg))
    return None


def _cluster(recs: list[Rec], threshold: float) -> list[Cluster]:
    clusters: list[Cluster] = []
    exact: dict[str, int] = {}
    index = FormIndex(clusters, threshold)
    for rec in recs:
        key = rec.form.key
        if rec.pronoun or not key:
            clusters.append(Cluster([rec], {}))
            continue
        if key in exact:
            ci = exact[key]
            first = clusters[ci].recs[0]
            rec.reason = rec.reason or ("exact" if rec.text == first.text else "normalized")
        else:
            hit = index.best(rec.form, persons=True)
            if hit is None:
                clusters.append(Cluster([], {}))
                ci = len(clusters) - 1
            else:
                ci = hit[0]
                name = clusters[ci].recs[0].form.display
                rec.reason = rec.reason or f"{hit[1][2]}: {name}"
            exact[key] = ci
            index.add(ci, rec.form)
        clusters[ci].recs.append(rec)
        clusters[ci].forms.setdefault(key, rec.form)
    return _merge_abbreviations(_merge_regnal(_merge_surnames(clusters)))


def _merge_regnal(clusters: list[Cluster]) -> list[Cluster]:
    """A titled lone name ("Prince Albert" → "Albert") joins the text's one regnal bearer of
    that name ("Albert II"), when no other entity has the name in it at all."""
    if not any(f.titled for c in clusters for f in c.forms.values()):
        return clusters  # the common case: no title was stripped from any name
    dead: set[int] = set()
    for ci, c in enumerate(clusters):
        forms = list(c.forms.values())
        if not forms or not any(f.titled for f in forms) or any(
                len(f.tokens) != 1 or f.markers or f.tokens != forms[0].tokens for f in forms):
            continue
        name = forms[0].tokens[0]
        holders = [di for di, d in enumerate(clusters) if di != ci and di not in dead
                   and any(name in f.tokens for f in d.forms.values())]
        if len(holders) != 1:
            continue
        target = clusters[holders[0]]
        if not all(len(f.tokens) >= 2 and f.tokens[0] == name and "r:" + f.tokens[1] in f.markers
                   for f in target.forms.values()):
            continue
        absorb(target, c, f"only regnal {name.title()}: {target.recs[0].form.display}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


def _merge_aliases(clusters: list[Cluster], aliases: list[tuple[Rec, Rec]]) -> list[Cluster]:
    """One entity for the two names of a "known as" proposition (`aliases.is_alias`)."""
    where = {id(r): c for c in clusters for r in c.recs}
    for s, o in aliases:
        a, b = where.get(id(s)), where.get(id(o))
        if a is None or b is None or a is b:
            continue
        absorb(a, b, f"alias of {s.form.display or s.text}")
        for r in b.recs:
            where[id(r)] = a
        b.recs = []
    return [c for c in clusters if c.recs]


def _merge_surnames(clusters: list[Cluster]) -> list[Cluster]:
    """A lone capitalized surname joins the person cluster with that surname mentioned last
    before it."""
    lone = [ci for ci, c in enumerate(clusters) if _lone_name(c)]
    if not lone:
        return clusters
    persons: dict[str, list[int]] = {}
    for ci, c in enumerate(clusters):
        if c.person:
            for f in c.forms.values():
                if len(f.tokens) >= 2 and ci not in persons.get(f.tokens[-1], []):
                    persons.setdefault(f.tokens[-1], []).append(ci)
    dead: set[int] = set()
    for ci in lone:
        c = clusters[ci]
        # NER on a lone invented or rare surname is noise ("a film directed by Quindez" →
        # place), so only a literal kind vetoes; the full name must be a preceding person,
        # which is what keeps "Washington" the state off "George Washington". Of several,
        # the one named last before it, since families share surnames: the rule the rules
        # extractor applies on its parse (`coref.lone_surname`, docs/coreference.md).
        if any(r.kind in LITERAL_KINDS for r in c.recs):
            continue
        first = c.recs[0].order
        before = [(max(r.order for r in clusters[oi].recs if r.order < first), oi)
                  for oi in persons.get(next(iter(c.forms.values())).key, [])
                  if oi != ci and oi not in dead and clusters[oi].recs[0].order < first]
        if not before:
            continue
        target = clusters[max(before)[1]]
        full = next(f.display for f in target.forms.values() if len(f.tokens) >= 2)
        absorb(target, c, f"surname of {full}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


def _lone_name(c: Cluster) -> bool:
    """The cluster is written only as one capitalized word (a surname, perhaps)."""
    if len(c.forms) != 1:
        return False
    form = next(iter(c.forms.values()))
    return len(form.tokens) == 1 and form.caps[0]


def _merge_abbreviations(clusters: list[Cluster]) -> list[Cluster]:
    """A cluster written only as one abbreviation ("U.S.", "MLB") joins the name it shortens,
    unless the two are known to be different kinds of thing."""
    dead: set[int] = set()
    tried = 0
    for ci, c in enumerate(clusters):
        if len(c.forms) != 1:
            continue
        if not all(_one_abbreviation(r.text) for r in c.recs):
            continue
        tried += 1
        if tried > MAX_ABBREVIATIONS:
            break
        ti = expansion(clusters, c.recs[0].text, skip=ci)
        if ti is None or ti in dead:
            continue
        kinds = {kind_of(d, d.recs[0].text) for d in (c, clusters[ti])} - {"other"}
        if len(kinds) > 1:
            continue  # "US" the country is not "Universal Studios" the company
        absorb(clusters[ti], c, f"abbreviation of {clusters[ti].recs[0].form.display}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


# Asked of the mentions of every one-name cluster; the answer depends on the text alone.
@lru_cache(maxsize=8192)
def _one_abbreviation(text: str) -> bool:
    """`text` is one abbreviation, articles aside (asked mention by mention, up to the first
    that is not: most clusters' first mention is a name)."""
    words = [w for w in text.split() if w.lower() not in ARTICLES]
    return len(words) == 1 and bool(abbreviation(words[0]))


def _display_rec(recs: list[Rec]) -> Rec:
    """The mention that names the entity: the longest name written with a capital, the
    earliest of equals (positions, not `list.index`: that compares the records field by
    field, quadratic in a big cluster)."""
    proper = [i for i, r in enumerate(recs) if any(map(str.isupper, r.form.display))]
    return recs[max(proper or range(len(recs)), key=lambda i: (len(recs[i].form.tokens), -i))]


def link(extraction: Extraction, question: list[QuestionEntity], answer: str,
         threshold: float = 85.0, question_text: str = "") -> Linked:
    """Cluster mentions into entities and attach them to propositions, question and answer.

    Args:
        extraction: propositions plus the extractor's mentions.
        question: question entities; copies come back with `.entity` set.
        answer: the short answer SA.
        threshold: rapidfuzz similarity (0–100) for fuzzy merging.
        question_text: the question itself, which tells a role's first name ("played
            Scarlett") from a name that must match whole.
    Returns:
        a `Linked` with entity ids "E1", "E2"… in order of first appearance.
    """
    # The coreference sieve, the same for every extractor (docs/coreference.md).
    extraction = split_conjoined(resolve_arguments(extraction))
    recs, pairs = _collect(extraction)
    clusters = _cluster(recs, threshold)
    clusters = _merge_aliases(clusters, alias_pairs(extraction.propositions, pairs))
    clusters = sorted(clusters, key=lambda c: min(r.order for r in c.recs))
    ids: dict[int, str] = {}
    entities: list[Entity] = []
    for ci, c in enumerate(clusters):
        c.recs.sort(key=lambda r: r.order)
        ids[id(c)] = eid = f"E{ci + 1}"
        top = c.recs[0] if len(c.recs) == 1 else _display_rec(c.recs)
        name = top.form.display or top.text
        mentions, seen = [], set()
        for i, r in enumerate(c.recs):
            if (r.text, r.span) in seen:
                continue
            seen.add((r.text, r.span))
            if i == 0:  # the cluster's founder joined nothing, unless coreference put it here
                reason = r.reason if r.reason and r.reason.startswith("coreference") else "first mention"
            else:
                reason = r.reason or "exact"
            mentions.append(Mention(text=r.text, span=r.span, reason=reason))
        entities.append(Entity(id=eid, name=name, kind=kind_of(c, name), mentions=mentions))
    owner = {id(r): ids[id(c)] for c in clusters for r in c.recs}
    props = [
        p.model_copy(update={
            "subject_entity": owner.get(id(s)) if s else None,
            "object_entity": owner.get(id(o)) if o else None,
        })
        for p, (s, o) in zip(extraction.propositions, pairs)
    ]
    q_out = []
    index = FormIndex(clusters, threshold)  # the clusters are final: one index for every name
    asked = set()
    for q in question:
        qi = match_external(clusters, q.name, threshold, index, question_text)
        q_out.append(q.model_copy(update={"entity": ids[id(clusters[qi])] if qi is not None else None}))
        if qi is not None:
            asked.add(qi)
    ai = match_external(clusters, answer, threshold, index) if answer.strip() else None
    if ai is None and answer.strip():
        ai = match_answer(clusters, answer, threshold, index, frozenset(asked))
    elif ai is not None:
        ai = _body_answer(clusters, ai, answer, threshold, index, pairs, extraction.propositions)
    return Linked(props, entities, q_out, ids[id(clusters[ai])] if ai is not None else None)


def _body_answer(clusters: list[Cluster], ai: int, answer: str, threshold: float, index: FormIndex,
                 pairs: list, props: list[Proposition]) -> int:
    """The answer's cluster `ai`, or the one the body writes when `ai` is written only where
    it is concluded: "So the answer is: Lausanne, Switzerland" names what the body wrote in
    part ("… in Lausanne in the canton of Vaud"), the mention a chain can reach
    (docs/questions-and-answers.md). Only the parts of a place with its region or of a list,
    or a class in the other number ("ponies": "a pony"): a name written inside a longer one
    ("Beijing" in "Beijing Ducks") is another thing."""
    if _in_body(clusters[ai], pairs, props):
        return ai
    for part in (*answer_parts(answer), *number_forms(answer)):
        hit = match_external(clusters, part, threshold, index)
        if hit is not None and hit != ai and _in_body(clusters[hit], pairs, props):
            return hit
    return ai


def _in_body(cluster: Cluster, pairs: list, props: list[Proposition]) -> bool:
    """Whether a proposition outside the concluding sentences has one of `cluster`'s mentions
    as an end ("So A and B were ponies" concludes of both)."""
    recs = {id(r) for r in cluster.recs}
    concluding = {p.sentence for p in props if p.conclusion and p.span != (0, 0)}
    return any(not p.conclusion and not (p.span != (0, 0) and p.sentence in concluding)
               and (id(s) in recs or id(o) in recs) for p, (s, o) in zip(props, pairs))


class RulesLinker:
    """The `linker` stage: `link` with the configured fuzzy threshold."""

    name: ClassVar[str] = "rules"

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        # No default here: the Auditor's `fuzzy_threshold` is the one place it is set.
        fuzzy_threshold: float = Field(ge=0, le=100)

    def __init__(self, config: RulesLinker.Config):
        self.config = config

    def link(self, extraction: Extraction, question: list[QuestionEntity],
             record: QARecord) -> Linked:
        """Entities of `extraction`, with the question entities and the answer matched to them."""
        # An answer written as a sentence is matched by what it names (docs/metrics.md).
        answer = answer_head(record.answer, record.question) or record.answer
        return link(extraction, question, answer, threshold=self.config.fuzzy_threshold,
                    question_text=record.question)

    def same_answer(self, a: str, b: str) -> bool:
        """Whether two short answers name the same thing (the gold answer and SA)."""
        return same_answer(a, b, self.config.fuzzy_threshold)

    def signature(self) -> list[tuple[str, object]]:
        threshold = self.config.fuzzy_threshold
        # The coreference sieve runs here for every extractor (docs/coreference.md).
        return [("coref", "rules"),
                ("fuzzy", str(int(threshold)) if float(threshold).is_integer() else str(threshold))]
