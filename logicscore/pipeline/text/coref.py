"""Rule-based coreference for the rules path (docs/coreference.md): pronouns and definite descriptions.

`find_references` reads a parsed Doc; `resolve` is pure and walks antecedents and references
in text order, so it can be tested without a model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ...lexicon.coreference import COMPATIBLE_KINDS as _COMPATIBLE
from ...lexicon.coreference import POINTING
from ...lexicon.kinds import DESCRIPTOR_NOUNS, ORG_NOUNS, PERSON_NOUNS, PLACE_NOUNS, VENUE_NOUNS, WORK_NOUNS
from ...lexicon.pronouns import PERSON_PRONOUNS, PLURAL_PRONOUNS, THING_PRONOUNS
from ...models import LITERAL_KINDS

RefKind = Literal["person", "thing", "plural"]



@dataclass(frozen=True)
class Antecedent:
    """An entity mention a reference may point to."""

    name: str
    start: int
    sentence: int
    kind: str = "other"
    subject: bool = False
    heads: tuple[str, ...] = ()
    plural: bool = False
    topic: bool = False  # the title of a "Title: body" sentence
    token: int = -1  # its root token, for the references whose clause binds it


@dataclass(frozen=True)
class Reference:
    """A pronoun or bare definite description ("the film") waiting for an antecedent."""

    text: str
    start: int
    end: int
    sentence: int
    kind: RefKind
    head: str | None = None
    subject: bool = False
    token: int = -1
    # Tokens of the mentions its own clause binds (its verb's subject, for an object): never
    # its antecedent ("X performed in this film" does not make X the film).
    bound: frozenset[int] = frozenset()
    # A description whose noun names no known kind ("this ceremony"): only a mention that
    # noun was seen with may be its antecedent (the strict head pass).
    strict: bool = False


@dataclass(frozen=True)
class Resolved:
    ref: Reference
    to: Antecedent
    reason: str


def noun_class(head: str | None) -> str | None:
    """The entity kind a descriptor noun implies ("film" → "work"), None when unknown."""
    if head in WORK_NOUNS:
        return "work"
    if head in ORG_NOUNS:
        return "org"
    if head in PLACE_NOUNS:
        return "place"
    if head in PERSON_NOUNS:
        return "person"
    return None


def _name_words(text: str) -> list[str]:
    return text.replace("’", "'").removesuffix("'s").split()


def full_name_surname(text: str, kind: str) -> str | None:
    """The surname a full name ends with ("Paul Moss" → "moss"), for a later lone surname;
    None for a one-word name or a kind no person is."""
    words = _name_words(text)
    if len(words) >= 2 and kind in ("person", "other") and words[-1][:1].isupper():
        return words[-1].lower()
    return None


def lone_surname(text: str, kind: str) -> str | None:
    """A one-word capitalized name that may be a surname ("Moss"); NER's kind for a lone
    surname is noise ("Gershwin" tagged a place), so only a literal kind rules it out. It
    stands for the *nearest* earlier full name ending with it (`full_name_surname`), since
    families share surnames (docs/coreference.md)."""
    words = _name_words(text)
    if len(words) == 1 and words[0][:1].isupper() and kind not in LITERAL_KINDS:
        return words[0].lower()
    return None


def resolve(antecedents: Iterable[Antecedent], references: Iterable[Reference]) -> list[Resolved]:
    """Resolve references by the sieve: each pass of `PASSES`, most precise first, over every
    reference still open, in text order (docs/coreference.md).

    A reference resolved by an earlier pass (or earlier in the same pass) is an antecedent
    for every later reference, so "He … He …" chains hold and a pronoun sees the names its
    descriptions were resolved to.
    """
    ants = sorted(antecedents, key=lambda a: a.start)
    refs = sorted(references, key=lambda r: r.start)
    done: dict[int, Resolved] = {}
    for _name, step in PASSES:
        for k, ref in enumerate(refs):
            if k in done:
                continue
            history = _history(ref, ants, refs, done)
            found = step(ref, history, _subjects(history))
            if found is not None:
                done[k] = Resolved(ref, found[0], found[1])
    return [done[k] for k in sorted(done)]


def _history(ref: Reference, ants: Sequence[Antecedent], refs: Sequence[Reference],
             done: Mapping[int, Resolved]) -> list[Antecedent]:
    """What `ref` may point to, in text order: the mentions at or before it (a mention precedes
    its use at one offset), and the references before it already resolved, each standing at
    its own place with its antecedent's name and kind. A mention `ref`'s clause binds (its
    subject, for an object reference) is left out: "X performed in this film" never means X."""
    out = [a for a in ants if a.start <= ref.start]
    for k, res in done.items():
        r = refs[k]
        if r.start < ref.start:
            out.append(replace(res.to, start=r.start, sentence=r.sentence, subject=r.subject,
                               token=r.token))
    out.sort(key=lambda a: a.start)
    return [a for a in out if a.token < 0 or a.token not in ref.bound]


def _subjects(history: Sequence[Antecedent]) -> dict[int, Antecedent]:
    subjects: dict[int, Antecedent] = {}
    for a in history:
        if a.subject and a.sentence not in subjects:
            subjects[a.sentence] = a
    return subjects


def _title(ref: Reference, history: Sequence[Antecedent],
           subjects: dict[int, Antecedent]) -> tuple[Antecedent, str] | None:
    """Pass 1: the body of a "Title: body" sentence is about its title."""
    if ref.strict:
        return None
    topic = _topic_of(ref, subjects, history)
    return (topic, "the sentence's title") if topic is not None else None


def _strict_head(ref: Reference, history: Sequence[Antecedent],
                 subjects: dict[int, Antecedent]) -> tuple[Antecedent, str] | None:
    """Pass 2: a description joins the nearest mention its head noun was said of ("the film"
    after "the film Inception", "Inception, a 2010 film", "the film … is Inception")."""
    if ref.head:
        for a in reversed(history):
            if ref.head in a.heads:
                return a, f"head noun '{ref.head}' seen with {a.name}"
    return None


def _relaxed_head(ref: Reference, history: Sequence[Antecedent],
                  subjects: dict[int, Antecedent]) -> tuple[Antecedent, str] | None:
    """Pass 3: a description joins the nearest mention of the kind its noun names."""
    return _by_agreement(ref, history, subjects) if ref.head and not ref.strict else None


def _pronoun(ref: Reference, history: Sequence[Antecedent],
             subjects: dict[int, Antecedent]) -> tuple[Antecedent, str] | None:
    """Pass 4: a pronoun, by number, animacy and the salience of subjects."""
    return None if ref.head else _by_agreement(ref, history, subjects)


Pass = Callable[[Reference, Sequence[Antecedent], dict[int, Antecedent]],
                tuple[Antecedent, str] | None]
# The sieve, most precise first; exact, alias and identity links come before it, from the
# linker's clustering and the extractor's copulas and appositions (docs/coreference.md).
PASSES: tuple[tuple[str, Pass], ...] = (
    ("title", _title),
    ("strict head", _strict_head),
    ("relaxed head", _relaxed_head),
    ("pronoun", _pronoun),
)


def _by_agreement(
    ref: Reference, history: Sequence[Antecedent], subjects: dict[int, Antecedent],
) -> tuple[Antecedent, str] | None:
    # The current sentence's subject counts when it precedes the reference ("X …, and it …").
    prev = subjects.get(ref.sentence) or subjects.get(ref.sentence - 1)
    if ref.kind == "person":
        return _person(prev, history)
    cls = noun_class(ref.head) if ref.head else None
    allowed = _COMPATIBLE.get(cls, _COMPATIBLE[None])
    if ref.head in VENUE_NOUNS:
        allowed = allowed | {"org"}
    if ref.kind == "plural":
        # A titled sentence is about its title: "Nashua Pride: They played …".
        if prev is not None and (prev.plural or (prev.topic and prev.kind in ("org", "other"))):
            return prev, "previous subject is plural"
        for a in reversed(history):
            if a.plural:
                return a, "last plural entity"
    if cls is not None and not (prev is not None and prev.kind in (cls, "other")):
        # "the band" after a song and its band is the band: the kind its noun names comes
        # before a previous subject of another known kind (of no known kind, it may be one).
        same = next((a for a in reversed(history) if a.kind == cls and a.sentence < ref.sentence), None)
        if same is not None:
            return same, f"last {cls} entity"
    if prev is not None and prev.kind in allowed:
        return prev, "previous sentence's non-person subject"
    for a in reversed(history):
        if a.kind in allowed:
            return a, "last non-person entity"
    return None


def _topic_of(ref: Reference, subjects: dict[int, Antecedent],
              history: Sequence[Antecedent]) -> Antecedent | None:
    """The title of a "Title: body" sentence, for the body's subject reference: "Evan
    Almighty: The film was directed by …", "Huma Gun Anmogaldi: It was released …". NER's
    kind for a title is unreliable (films tagged PERSON), so only a clash of descriptor
    noun or pronoun with a known, different kind rules the title out."""
    topic = subjects.get(ref.sentence)
    if topic is None or not topic.topic or not ref.subject or topic.kind in LITERAL_KINDS:
        return None
    if ref.kind == "person":
        # NER tags many person titles ORG or GPE; a person named in the body comes closer.
        later = any(a.kind == "person" and a.start > topic.start for a in history)
        return topic if topic.kind != "work" and not later else None
    if ref.kind == "plural":
        return topic if topic.plural or topic.kind in ("org", "other") else None
    cls = noun_class(ref.head) if ref.head else None
    if cls == "person":
        return topic if topic.kind in ("person", "other") else None
    if cls is not None and topic.kind not in _COMPATIBLE[cls] | {"person"}:
        return None
    return topic


def _person(
    prev: Antecedent | None, history: Sequence[Antecedent],
) -> tuple[Antecedent, str] | None:
    # A titled sentence is about its title, whose kind NER often leaves unknown.
    person_like = ("person", "other") if prev is not None and prev.topic else ("person",)
    if prev is not None and prev.kind in person_like:
        later = [a for a in history if a.kind == "person" and a.start > prev.start]
        if not later:
            return prev, ("the sentence's title" if prev.topic
                          else "previous sentence's person subject")
    for a in reversed(history):
        if a.kind == "person":
            return a, "last person mentioned"
    # NER often misses person names; an unlabelled previous subject is the best guess.
    if prev is not None and prev.kind == "other":
        return prev, "previous subject (no person found)"
    return None


def find_references(
    doc: Any, blocked: frozenset[int] | set[int] = frozenset(), lemma: Any = None,
    sentence_of: Mapping[int, int] | None = None,
) -> list[Reference]:
    """Pronouns and bare definite descriptions in a parsed Doc.

    Args:
        doc: a spaCy Doc with dependencies.
        blocked: token indices inside or attached to an entity mention (never references).
        lemma: token → lemma (default `Token.lemma_`), for parses that skip the lemmatizer.
        sentence_of: token index → sentence number, for a caller that numbers the
            sentences its own way (default: the Doc's sentences, every token); a token
            it leaves out is no reference.
    """
    lemma = lemma or (lambda t: t.lemma_)
    if sentence_of is None:
        sentence_of = {i: n for n, s in enumerate(doc.sents) for i in range(s.start, s.end)}
    refs: list[Reference] = []
    # Most tokens are neither pronoun nor noun: their parts of speech are read as one array
    # of numbers, and a Token is built (its sentence and dependency read) only for a candidate.
    strings = doc.vocab.strings
    wanted = {strings[name]: name for name in ("PRON", "DET", "NOUN")}
    for i, pos_id in enumerate(doc.to_array("POS").tolist()):
        pos = wanted.get(pos_id)
        if pos is None or i in blocked or i not in sentence_of:
            continue
        tok = doc[i]
        if pos != "NOUN":
            lower = tok.lower_
            kind: RefKind | None = (
                "person" if lower in PERSON_PRONOUNS else
                "thing" if lower in THING_PRONOUNS else
                "plural" if lower in PLURAL_PRONOUNS else None
            )
            if kind is None or _pleonastic(tok):
                continue
            refs.append(Reference(tok.text, tok.idx, tok.idx + len(tok), sentence_of[i], kind,
                                  subject=tok.dep_ in ("nsubj", "nsubjpass"), token=tok.i,
                                  bound=_bound(tok)))
        # The article test first: a noun without one needs no lemma (the lemmatizer's
        # suffix rules are the costly part of this loop).
        elif (det := _definite(tok)) is not None and _bare_definite(tok, lemma, blocked):
            head = lemma(tok).lower()
            kind = "person" if head in PERSON_NOUNS else "thing"
            refs.append(Reference(doc[det.i:tok.i + 1].text, det.idx, tok.idx + len(tok),
                                  sentence_of[i], kind, head=head,
                                  subject=tok.dep_ in ("nsubj", "nsubjpass"), token=tok.i,
                                  bound=_bound(tok), strict=head not in DESCRIPTOR_NOUNS))
    return refs


def _bound(tok: Any) -> frozenset[int]:
    """The subject of the verb whose object `tok` is, directly or through prepositions and the
    nouns they hang from ("X performed a promo for this film"): a non-reflexive object never
    points back to it. A possessive ("X won its title") or a subject binds nothing."""
    if tok.dep_ not in ("dobj", "pobj", "dative"):
        return frozenset()
    verb = tok.head
    for _ in range(6):
        if verb.pos_ in ("VERB", "AUX") or verb.head.i == verb.i:
            break
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX"):
        return frozenset()
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None:
        return frozenset()
    return frozenset({subj.i, *(c.i for c in subj.conjuncts)})


def _pleonastic(tok: Any) -> bool:
    """'It is unclear whether…', 'it was reported that…': an 'it' with no referent."""
    if tok.dep_ == "expl":
        return True
    if tok.lower_ != "it" or tok.dep_ not in ("nsubj", "nsubjpass"):
        return False
    deps = {c.dep_ for c in tok.head.children}
    return "ccomp" in deps and (tok.dep_ == "nsubjpass" or bool(deps & {"acomp", "attr"}))


def _definite(tok: Any) -> Any:
    """'the film', 'this book': the noun's first determiner, when it is a definite one."""
    det = next((c for c in tok.children if c.dep_ == "det"), None)
    return det if det is not None and det.lower_ in POINTING else None


def _bare_definite(tok: Any, lemma: Any, blocked: frozenset[int] | set[int]) -> bool:
    """A `_definite` noun, 'the film', alone: restrictive modifiers ("the film directed by X", "the director of
    Y") or an identifying copula ("the film is Inception") make it no anaphor."""
    if any(c.dep_ in ("prep", "relcl", "acl", "appos", "poss", "nmod")
           for c in tok.children):
        return False
    # A lowercase noun before it says what kind ("the theme park", "the rock band"); a name
    # there says which ("the Nolan film").
    if any(c.dep_ == "compound" and not (c.pos_ == "NOUN" and c.is_lower) for c in tok.children):
        return False
    if tok.dep_ in ("compound", "appos"):
        return False
    head = tok.head
    if tok.dep_ == "nsubj" and lemma(head) == "be" and any(
            c.dep_ == "attr" and c.i in blocked for c in head.children):
        return False
    return tok.dep_ != "attr"
