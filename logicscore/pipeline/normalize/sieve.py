"""The linker's coreference sieve over proposition arguments (docs/coreference.md).

Whatever extractor wrote the propositions, an argument that points back — a pronoun ("he",
"they", "both of them") or a definite or demonstrative description ("the film", "this
organization", "the film in question") — is replaced here by the name it points to, before
the linker clusters mentions. The passes run in order, most precise first, each over every
argument still open, in sentence order:

1. `identity`: "the N is NAME" names the nearest earlier description with head noun N, and
   "NAME is a N …" says N of NAME (`heads`, read by the strict head pass);
2. the passes of `coref.PASSES` (title, strict head, relaxed head, pronoun).

Exact, alias and surname links come before it and need no reference: they are the linker's
clustering (`entities.py`), where a lone surname joins the nearest earlier person with it,
the rule the rules extractor applies on its parse (`coref.lone_surname`).

An argument read off a parse (any pattern but `given` and `llm`) was resolved by these same
passes on the parse (`extract/references.py`), where binding and a pleonastic "it" can be
seen; here it is an antecedent only. A plural reference to a written pair ("Ana Ruiz and Kim
Lett … They …") makes one proposition per member.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...lexicon.coreference import COPULA_FORMS, DESCRIBING, IN_QUESTION, PAIR_REFERENCES, POINTING
from ...lexicon.kinds import DESCRIPTOR_NOUNS, PERSON_NOUNS
from ...lexicon.names import ARTICLES
from ...lexicon.pronouns import PERSON_PRONOUNS, PLURAL_PRONOUNS, THING_PRONOUNS
from ..flow import Extraction
from ...models import LITERAL_KINDS, Proposition, Resolution
from ..text import coref
from ..text.relations import person_args


# The patterns of propositions whose arguments were not read off a parse.
_UNPARSED = frozenset({"given", "llm"})
_WORD = re.compile(r"[\w'’-]+")


@dataclass
class _Slot:
    """One argument of one proposition, in sentence order."""

    prop: int  # index in the extraction's propositions
    role: int  # 0 subject, 1 object
    text: str
    order: int
    sentence: int
    span: tuple[int, int]
    kind: str = "other"
    heads: tuple[str, ...] = ()
    subject: bool = False
    to: str | None = None  # the name it was resolved to
    to_kind: str = "other"
    reason: str = ""
    members: list[str] = field(default_factory=list)  # a written pair's names
    closed: bool = False  # the description side of an identity statement: no reference
    parsed: bool = False  # read off a parse, where the sieve already ran: an antecedent only


def resolve_arguments(extraction: Extraction) -> Extraction:
    """`extraction` with every open reference among its arguments resolved by the sieve; the
    same object when nothing was open (every rules extraction, and most others)."""
    props = extraction.propositions
    if not any(p.pattern in _UNPARSED for p in props):
        return extraction  # every argument was resolved on a parse
    slots = _slots(extraction)
    if not any(_open(s) for s in slots):
        return extraction
    _identities(slots, props)
    _sieve(slots)
    if all(s.to is None for s in slots):
        return extraction
    return replace(extraction, propositions=_rewrite(props, slots))


def _slots(extraction: Extraction) -> list[_Slot]:
    kinds = {m.text: m.kind for m in extraction.mentions if m.kind}
    props = extraction.propositions
    ordered = sorted(range(len(props)), key=lambda i: (props[i].sentence, props[i].span[0], i))
    out: list[_Slot] = []
    for i in ordered:
        p = props[i]
        persons = person_args(p.relation)
        for role, text in enumerate((p.subject, p.object)):
            if not text.strip():
                continue
            heads = _heads(text)
            kind = kinds.get(text) or (
                "person" if persons[role] and not p.negated else
                next((c for c in map(coref.noun_class, heads) if c), "other"))
            out.append(_Slot(i, role, text, len(out), p.sentence, _span(p, text), kind, heads,
                             subject=role == 0, members=_members(text, kind),
                             parsed=p.pattern not in _UNPARSED))
    return out


def _span(p: Proposition, arg: str) -> tuple[int, int]:
    """Where `arg` is written in the long answer, else the proposition's own span."""
    lo, hi = p.span
    if hi - lo == len(p.text) and hi > lo:
        at = p.text.casefold().find(arg.casefold())
        if at >= 0:
            return (lo + at, lo + at + len(arg))
    return (lo, hi)


def _heads(text: str) -> tuple[str, ...]:
    """The descriptor nouns written with a name ("the film Red Lake" → film)."""
    words = _WORD.findall(text)
    if not any(w[:1].isupper() for w in words[1:]) and not (words and words[0][:1].isupper()
                                                            and words[0].lower() not in DESCRIBING):
        return ()
    return tuple(w for w in (x.lower() for x in words if x.islower()) if w in DESCRIPTOR_NOUNS)


def _members(text: str, kind: str) -> list[str]:
    """The names of a written pair or list ("Ana Ruiz and Kim Lett"), else none."""
    if " and " not in text or kind in LITERAL_KINDS:
        return []
    parts = [x.strip() for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if x.strip()]
    if len(parts) < 2 or not all(x[:1].isupper() for x in parts):
        return []
    return parts


def _description(text: str, pointing: bool) -> str | None:
    """The head noun of a description ("the film", "this rock band", "the film in question";
    with `pointing` False also "a 2004 film", "the film in which …"), None for a name."""
    words = _WORD.findall(text.replace("’", "'"))
    if len(words) < 2 or words[0].lower() not in (POINTING if pointing else DESCRIBING):
        return None
    rest = words[1:]
    if pointing:
        if tuple(rest[-2:]) == IN_QUESTION:
            rest = rest[:-2]
        if not rest or not all(w.islower() for w in rest):
            return None
        return rest[-1] if rest[-1] in DESCRIPTOR_NOUNS else None
    # An introducing description: its head is the first descriptor noun before any name,
    # and a name right after it makes the whole a name ("the film Red Lake").
    for k, w in enumerate(rest):
        if w[:1].isupper():
            return None
        if w.lower() in DESCRIPTOR_NOUNS:
            return None if rest[k + 1:k + 2] and rest[k + 1][:1].isupper() else w.lower()
    return None


def _pronoun(text: str) -> coref.RefKind | None:
    low = " ".join(text.lower().split())
    if low in PERSON_PRONOUNS:
        return "person"
    if low in THING_PRONOUNS:
        return "thing"
    if low in PLURAL_PRONOUNS or low in PAIR_REFERENCES:
        return "plural"
    return None


def _pair(text: str) -> bool:
    return " ".join(text.lower().split()) in PAIR_REFERENCES


def _open(s: _Slot) -> bool:
    if s.parsed or s.to is not None or s.closed:
        return False
    return _pronoun(s.text) is not None or _description(s.text, True) is not None


def _identities(slots: list[_Slot], props: Sequence[Proposition]) -> None:
    """Pass `identity`: "the N is NAME" names the nearest earlier description with head N
    (whose relations become NAME's); "NAME is a N …" says N of NAME."""
    by_prop: dict[int, list[_Slot]] = {}
    for s in slots:
        by_prop.setdefault(s.prop, []).append(s)
    for s in slots:
        if s.role != 0 or s.parsed or not _identity(props[s.prop].relation):
            continue
        pair = by_prop[s.prop]
        if len(pair) != 2:
            continue
        for desc, name in (pair, pair[::-1]):
            head = _description(desc.text, False)
            if head is None or _description(name.text, False) is not None or _pronoun(name.text):
                continue
            if name.kind in LITERAL_KINDS:
                break
            name.heads = (*name.heads, head)
            desc.closed = True
            if _description(desc.text, True) is not None:
                earlier = next((e for e in reversed(slots[:desc.order]) if e.to is None
                                and e.prop != s.prop and _description(e.text, False) == head
                                and _description(e.text, True) is None), None)
                if earlier is not None:
                    earlier.to, earlier.to_kind = name.text, name.kind
                    earlier.reason = f"identity: the {head} is {name.text}"
            break


def _identity(relation: str) -> bool:
    """A relation that says its two sides are one thing: "is", "was a", "are the"."""
    words = relation.lower().split()
    return 1 <= len(words) <= 2 and words[0] in COPULA_FORMS and (
        len(words) == 1 or words[1] in ARTICLES)


def _sieve(slots: list[_Slot]) -> None:
    """The passes of `coref.PASSES` over the pronouns and pointing descriptions still open."""
    ants: list[coref.Antecedent] = []
    refs: list[coref.Reference] = []
    for s in slots:
        if s.closed:
            continue
        kind = _pronoun(s.text)
        head = _description(s.text, True)
        if not s.parsed and s.to is None and (kind is not None or head is not None):
            refs.append(coref.Reference(
                s.text, s.order, s.order + 1, s.sentence,
                kind or ("person" if head in PERSON_NOUNS else "thing"), head=head,
                subject=s.subject, token=s.order))
            continue
        name = s.to or s.text
        if _description(name, False) is not None:
            continue  # an unnamed description ("a 2004 film") is no antecedent
        kind_of = s.to_kind if s.to else s.kind
        ants.append(coref.Antecedent(
            name, s.order, s.sentence, kind_of, subject=s.subject, heads=s.heads,
            plural=bool(s.members) or kind_of == "org", token=s.order))
    if not refs:
        return
    for res in coref.resolve(ants, refs):
        s = slots[res.ref.token]
        owner = next((a for a in slots if a.text == res.to.name and a.members), None)
        if _pronoun(s.text) == "plural" and owner is None and _pair(s.text):
            continue  # "both of them" stands for a pair, and none was written
        s.to, s.to_kind, s.reason = res.to.name, res.to.kind, res.reason
        if res.ref.kind == "plural" and owner is not None:
            s.members = owner.members


def _rewrite(props: Sequence[Proposition], slots: list[_Slot]) -> list[Proposition]:
    """The propositions with resolved arguments; a reference to a pair gives one proposition
    per member, and the ids are numbered again in order."""
    at: dict[tuple[int, int], _Slot] = {(s.prop, s.role): s for s in slots if s.to is not None}
    out: list[Proposition] = []
    for i, p in enumerate(props):
        choices: list[list[tuple[str, Resolution | None]]] = []
        for role, text in enumerate((p.subject, p.object)):
            s = at.get((i, role))
            if s is None or s.to is None:
                choices.append([(text, None)])
                continue
            names = s.members if s.members and _pronoun(s.text) == "plural" else [s.to]
            choices.append([(n, Resolution(text=s.text, span=s.span, to=n, reason=s.reason))
                            for n in names])
        for subj, sres in choices[0]:
            for obj, ores in choices[1]:
                if subj == obj and (sres or ores):
                    out.append(p)  # resolved onto itself, it would say nothing: kept as written
                    continue
                found = [r for r in (sres, ores) if r is not None]
                out.append(p.model_copy(update={"subject": subj, "object": obj,
                                                "resolutions": [*p.resolutions, *found]}))
    if len(out) != len(props):
        out = [q.model_copy(update={"id": f"P{n + 1}"}) for n, q in enumerate(out)]
    return out
