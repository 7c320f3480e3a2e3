"""Entity linking (SPEC §4.2): one entity node per real-world thing.

Mentions are clustered in text order. A mention joins a cluster on an equal normalized key,
on containment whose extra words are lowercase descriptors, on a person's name inside the
full name (same first and last word; two or more words ending it; three or more inside it),
on one regnal name with an epithet, or on fuzzy similarity with the safeguards measured in
NOTES-rules-path.md. Afterwards a lone surname joins a person only when that surname is
unique among persons, a titled lone name ("Prince Albert") joins the text's only regnal
bearer of it ("Albert II"), and an abbreviation ("MLB") joins the name it shortens ("Major
League Baseball"), the most mentioned one when several fit. Otherwise clusters never merge
with each other, so one ambiguous mention cannot bridge two entities. Regnal, ordinal and
generational numbers ("II", "3rd", "Jr.") always guard.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..extract import Extraction
from ..models import Entity, EntityKind, Mention, Proposition, QuestionEntity
from ..question import role_name
from .abbreviations import abbreviates, abbreviation
from .mentions import (ARTICLES, DATE, NUMBER, YEAR, Form, analyze, capitalized, compare,
                       is_pronoun, loose_key, normalize, same_answer, tail)
from .aliases import alias_pairs
from .relations import person_args

__all__ = ["Linked", "link", "normalize", "same_answer"]

_HE_SHE = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})
# "East Los Angeles" is not "Los Angeles": such a first word makes another place.
_PLACE_MODIFIERS = frozenset("""
north south east west northern southern eastern western central upper lower greater new old
""".split())
# Fuzzy comparisons per mention are capped so adversarial inputs stay bounded.
_MAX_FUZZY_FORMS = 400
# Likewise the forms searched for what an abbreviation stands for, and the abbreviations
# resolved inside one text.
_MAX_ABBREVIATION_CHECKS = 2000
_MAX_ABBREVIATIONS = 40


@dataclass
class _Rec:
    """One mention occurrence before clustering."""

    text: str
    span: tuple[int, int] | None
    kind: str
    order: tuple[int, int, int]
    form: Form
    reason: str | None = None
    person: bool = False
    pronoun: bool = False


@dataclass
class _Cluster:
    recs: list[_Rec] = field(default_factory=list)
    forms: dict[str, Form] = field(default_factory=dict)

    @property
    def person(self) -> bool:
        return any(r.person or r.kind == "person" or r.form.person_hint for r in self.recs)


@dataclass
class Linked:
    """Propositions with entity ids, the entities, and the question and answer matched to them."""

    propositions: list[Proposition]
    entities: list[Entity]
    question: list[QuestionEntity]
    answer_entity: str | None


def _best(clusters: list[_Cluster], form: Form, threshold: float,
          persons: bool) -> tuple[int, tuple[int, float, str]] | None:
    best: tuple[int, tuple[int, float, str]] | None = None
    budget = _MAX_FUZZY_FORMS
    for ci, cluster in enumerate(clusters):
        if cluster.recs[0].pronoun:
            continue
        for other in cluster.forms.values():
            budget -= 1
            hit = compare(form, other, threshold, persons and cluster.person)
            if hit and (best is None or hit[:2] > best[1][:2]):
                best = (ci, hit)
        if budget <= 0:
            break
    return best


def _collect(extraction: Extraction) -> tuple[list[_Rec], list[tuple[_Rec | None, _Rec | None]]]:
    """Every mention occurrence in text order, and the pair of records per proposition."""
    recs: dict[tuple, _Rec] = {}
    seq = 0

    def add(key: tuple, text: str, span, kind: str, order, reason=None, person=False) -> _Rec:
        nonlocal seq
        if key not in recs:
            form = analyze(text)
            recs[key] = _Rec(text, span, kind, (*order, seq), form, reason, person,
                             pronoun=is_pronoun(text))
            seq += 1
        rec = recs[key]
        rec.kind = kind if rec.kind == "other" else rec.kind
        rec.reason = rec.reason or reason
        rec.person = rec.person or person
        return rec

    for text, start, end, kind in extraction.mentions:
        add((text, (start, end)), text, (start, end), kind or "other", (start, 0))
    by_text = {}
    for text, start, end, kind in extraction.mentions:
        by_text.setdefault(normalize(text), []).append((start, end, text))
    pairs: list[tuple[_Rec | None, _Rec | None]] = []
    for p in extraction.propositions:
        pair: list[_Rec | None] = []
        for arg, must_be_person in zip((p.subject, p.object), person_args(p.relation)):
            if not arg.strip():
                pair.append(None)
                continue
            res = next((r for r in p.resolutions if normalize(r.to) == normalize(arg)), None)
            if res is not None:
                reason = f"coreference: {res.text} → {res.to}"
                person = res.text.casefold() in _HE_SHE
                pair.append(add((arg, tuple(res.span)), arg, tuple(res.span), "other",
                                (res.span[0], 1), reason, person))
                continue
            span = _locate(p, arg, by_text.get(normalize(arg), []))
            key = (arg, span) if span else (arg, None, p.id if is_pronoun(arg) else "")
            pair.append(add(key, arg, span, "other", (span[0] if span else p.span[0], 1),
                            person=must_be_person and not p.negated))
        pairs.append((pair[0], pair[1]))
    return sorted(recs.values(), key=lambda r: r.order), pairs


def _locate(p: Proposition, arg: str, known: list[tuple[int, int, str]]) -> tuple[int, int] | None:
    """Char span of a proposition argument in the long answer, when it can be recovered."""
    lo, hi = p.span
    for start, end, text in known:
        # An unknown proposition span (0, 0) still pairs an argument with its first
        # identical mention, so one occurrence is not listed twice.
        if lo <= start and end <= hi or hi <= lo and text == arg:
            return (start, end)
    if hi - lo == len(p.text) and hi > lo:
        at = p.text.casefold().find(arg.casefold())
        if at >= 0:
            return (lo + at, lo + at + len(arg))
    return None


def _cluster(recs: list[_Rec], threshold: float) -> list[_Cluster]:
    clusters: list[_Cluster] = []
    exact: dict[str, int] = {}
    for rec in recs:
        key = rec.form.key
        if rec.pronoun or not key:
            clusters.append(_Cluster([rec], {}))
            continue
        if key in exact:
            ci = exact[key]
            first = clusters[ci].recs[0]
            rec.reason = rec.reason or ("exact" if rec.text == first.text else "normalized")
        else:
            hit = _best(clusters, rec.form, threshold, persons=True)
            if hit is None:
                clusters.append(_Cluster([], {}))
                ci = len(clusters) - 1
            else:
                ci = hit[0]
                name = clusters[ci].recs[0].form.display
                rec.reason = rec.reason or f"{hit[1][2]}: {name}"
            exact[key] = ci
        clusters[ci].recs.append(rec)
        clusters[ci].forms.setdefault(key, rec.form)
    return _merge_abbreviations(_merge_regnal(_merge_surnames(clusters)))


def _merge_regnal(clusters: list[_Cluster]) -> list[_Cluster]:
    """A titled lone name ("Prince Albert" → "Albert") joins the text's one regnal bearer of
    that name ("Albert II"), when no other entity has the name in it at all."""
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
        _absorb(target, c, f"only regnal {name.title()}: {target.recs[0].form.display}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


def _absorb(target: _Cluster, other: _Cluster, reason: str) -> None:
    """Move `other`'s mentions into `target`, recording why unless a finer reason exists."""
    for rec in other.recs:
        if rec.reason is None or rec.reason in ("exact", "normalized"):
            rec.reason = reason
    target.recs.extend(other.recs)
    target.forms.update(other.forms)


def _merge_aliases(clusters: list[_Cluster], aliases: list[tuple[_Rec, _Rec]]) -> list[_Cluster]:
    """One entity for the two names of a "known as" proposition (`aliases.is_alias`)."""
    where = {id(r): c for c in clusters for r in c.recs}
    for s, o in aliases:
        a, b = where.get(id(s)), where.get(id(o))
        if a is None or b is None or a is b:
            continue
        _absorb(a, b, f"alias of {s.form.display or s.text}")
        for r in b.recs:
            where[id(r)] = a
        b.recs = []
    return [c for c in clusters if c.recs]


def _merge_surnames(clusters: list[_Cluster]) -> list[_Cluster]:
    """A lone capitalized surname joins the one earlier person cluster with that surname."""
    persons: dict[str, list[int]] = {}
    for ci, c in enumerate(clusters):
        if c.person:
            for f in c.forms.values():
                if len(f.tokens) >= 2 and ci not in persons.get(f.tokens[-1], []):
                    persons.setdefault(f.tokens[-1], []).append(ci)
    dead: set[int] = set()
    for ci, c in enumerate(clusters):
        forms = list(c.forms.values())
        if len(forms) != 1 or len(forms[0].tokens) != 1 or not forms[0].caps[0]:
            continue
        # NER on a lone invented or rare surname is noise ("a film directed by Quindez" →
        # place), so only a literal kind vetoes; the full name must be a unique, preceding
        # person, which is what keeps "Washington" the state off "George Washington".
        if any(r.kind in ("date", "number") for r in c.recs):
            continue
        owners = persons.get(forms[0].key, [])
        if len(owners) != 1 or owners[0] == ci or owners[0] in dead:
            continue
        target = clusters[owners[0]]
        if target.recs[0].order >= c.recs[0].order:
            continue  # only a *preceding* full name
        full = next(f.display for f in target.forms.values() if len(f.tokens) >= 2)
        _absorb(target, c, f"surname of {full}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


def _family_name(clusters: list[_Cluster], form: Form) -> int | None:
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
    if len(lone) != 1 or not kin or _kind(clusters[lone[0]], last) in ("date", "number"):
        return None
    return lone[0] if min(r.order for r in clusters[lone[0]].recs) < min(kin) else None


def _expansion(clusters: list[_Cluster], text: str, skip: int = -1) -> int | None:
    """The cluster `text` abbreviates or that abbreviates `text`; of several, the most
    mentioned, and none on a tie. A person's initials are no abbreviation: "NY" is not
    "Nancy Young"."""
    form = analyze(text)
    if sum(len(c.forms) + len(c.recs) for c in clusters) > _MAX_ABBREVIATION_CHECKS:
        return None  # too many names to tell which one is meant
    found = [ci for ci, c in enumerate(clusters)
             if ci != skip and not c.recs[0].pronoun
             and (any(abbreviates(text, f) for f in c.forms.values())
                  or any(abbreviates(r.text, form) for r in c.recs))
             and _kind(c, c.recs[0].text) != "person"]
    ranked = sorted(((len(clusters[ci].recs), ci) for ci in found), key=lambda x: (-x[0], x[1]))
    if not ranked or len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
        return None
    return ranked[0][1]


def _merge_abbreviations(clusters: list[_Cluster]) -> list[_Cluster]:
    """A cluster written only as one abbreviation ("U.S.", "MLB") joins the name it shortens,
    unless the two are known to be different kinds of thing."""
    dead: set[int] = set()
    tried = 0
    for ci, c in enumerate(clusters):
        words = [[w for w in r.text.split() if w.lower() not in ARTICLES] for r in c.recs]
        if len(c.forms) != 1 or not all(len(w) == 1 and abbreviation(w[0]) for w in words):
            continue
        tried += 1
        if tried > _MAX_ABBREVIATIONS:
            break
        ti = _expansion(clusters, c.recs[0].text, skip=ci)
        if ti is None or ti in dead:
            continue
        kinds = {_kind(d, d.recs[0].text) for d in (c, clusters[ti])} - {"other"}
        if len(kinds) > 1:
            continue  # "US" the country is not "Universal Studios" the company
        _absorb(clusters[ti], c, f"abbreviation of {clusters[ti].recs[0].form.display}")
        dead.add(ci)
    return [c for ci, c in enumerate(clusters) if ci not in dead]


def _kind(cluster: _Cluster, name: str) -> EntityKind:
    """Majority NER kind of the mentions; regex for dates and numbers; person hints."""
    order = ["person", "place", "org", "work", "date", "number"]
    counts = {k: sum(r.kind == k for r in cluster.recs) for k in order}
    best = max(order, key=lambda k: (counts[k], -order.index(k)))
    if counts[best]:
        return best  # type: ignore[return-value]
    key = normalize(name)
    if DATE.match(key):
        return "date"
    if NUMBER.match(key):
        return "number"
    return "person" if cluster.person else "other"


def _match_external(clusters: list[_Cluster], text: str, threshold: float,
                    question: str = "") -> int | None:
    """Cluster index for a question entity or short answer; never by surname alone.

    Questions capitalise loosely ("country Man", "the Lego Batman movie", "True North
    Trilogy"), so failing the mention rules, a cluster matches when keys agree with every
    word capitalised and a trailing work-type word dropped, or when the name ends a longer
    name of the text ("Goldwyn Productions" in "Samuel Goldwyn Productions"), or when a bare
    year is the year of a full date ("1972" and "November 1972"), or when a lone name is the
    last name of a titled ruler ("Setthathirath", "King Sai Setthathirat"); each only when
    exactly one cluster does. Last, a person's name matches its surname standing alone in a
    family's text, an abbreviation the name it shortens ("US", "United States"), and a name
    its abbreviation.
    """
    form = analyze(text)
    hit = _best(clusters, form, threshold, persons=True)
    if hit:
        return hit[0]
    keys = {loose_key(form), loose_key(analyze(capitalized(text)))} - {""}
    live = [ci for ci, c in enumerate(clusters) if not c.recs[0].pronoun]
    year = form.key if len(form.tokens) == 1 and YEAR.match(form.key) and form.key.isdigit() else None
    ruler = len(form.tokens) == 1 and form.caps[0] and not form.markers and len(form.key) >= 5
    for test in (lambda f: loose_key(f) in keys,
                 lambda f: tail(form, f) and not _PLACE_MODIFIERS & set(f.tokens[:-len(form.tokens)]),
                 # a bare year answer is stated by a full date in that year ("born November 1972")
                 lambda f: year is not None and len(f.tokens) > 1 and f.tokens[-1] == year
                 and bool(DATE.match(f.key)),
                 lambda f: ruler and f.titled and len(f.tokens) > 1 and not f.markers
                 and fuzz.ratio(f.tokens[-1], form.key) >= min(100.0, threshold + 7)):
        found = [ci for ci in live if any(test(f) for f in clusters[ci].forms.values())]
        if len(found) == 1:
            return found[0]
    family = _family_name(clusters, form)
    if family is not None:
        return family
    found_by_expansion = _expansion(clusters, text)
    if found_by_expansion is not None or not role_name(question, text):
        return found_by_expansion
    # A question calls a character or an award by its first word ("played Scarlett", "won a
    # Tony") where the text writes it out ("Scarlett O'Hara", "Tony Award"); only a name no
    # other cluster shares. Elsewhere "Paris" never means "Paris Hilton".
    heads = [ci for ci in live if any(_head_of(form, f) for f in clusters[ci].forms.values())]
    return heads[0] if len(heads) == 1 else None


def _head_of(short: Form, long: Form) -> bool:
    n = len(short.tokens)
    return (0 < n < len(long.tokens) and long.tokens[:n] == short.tokens and not short.markers
            and len(short.key) >= 3 and all(long.caps[n:]))


def link(extraction: Extraction, question: list[QuestionEntity], answer: str,
         threshold: float = 85.0, question_text: str = "") -> Linked:
    """Cluster mentions into entities and attach them to propositions, question and answer.

    Args:
        extraction: propositions plus the extractor's mentions `(text, start, end, kind)`.
        question: question entities; copies come back with `.entity` set.
        answer: the short answer SA.
        threshold: rapidfuzz similarity (0–100) for fuzzy merging.
        question_text: the question itself, which tells a role's first name ("played
            Scarlett") from a name that must match whole.
    Returns:
        a `Linked` with entity ids "E1", "E2"… in order of first appearance.
    """
    recs, pairs = _collect(extraction)
    clusters = _cluster(recs, threshold)
    clusters = _merge_aliases(clusters, alias_pairs(extraction.propositions, pairs, lambda r: r.kind))
    clusters = sorted(clusters, key=lambda c: min(r.order for r in c.recs))
    ids: dict[int, str] = {}
    entities: list[Entity] = []
    for ci, c in enumerate(clusters):
        c.recs.sort(key=lambda r: r.order)
        ids[id(c)] = eid = f"E{ci + 1}"
        proper = [r for r in c.recs if any(ch.isupper() for ch in r.form.display)] or c.recs
        top = max(proper, key=lambda r: (len(r.form.tokens), -c.recs.index(r)))
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
        entities.append(Entity(id=eid, name=name, kind=_kind(c, name), mentions=mentions))
    owner = {id(r): ids[id(c)] for c in clusters for r in c.recs}
    props = [
        p.model_copy(update={
            "subject_entity": owner.get(id(s)) if s else None,
            "object_entity": owner.get(id(o)) if o else None,
        })
        for p, (s, o) in zip(extraction.propositions, pairs)
    ]
    q_out = []
    for q in question:
        ci = _match_external(clusters, q.name, threshold, question_text)
        q_out.append(q.model_copy(update={"entity": ids[id(clusters[ci])] if ci is not None else None}))
    ai = _match_external(clusters, answer, threshold) if answer.strip() else None
    return Linked(props, entities, q_out, ids[id(clusters[ai])] if ai is not None else None)
