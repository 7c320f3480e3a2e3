"""The offline `rules` extractor: spaCy dependency patterns into propositions (docs/architecture.md)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from ...lexicon.function_words import PLURAL_QUANTIFIERS
from ...errors import ConfigError
from ...lexicon.names import KIN
from ...lexicon.numbers import in_words, number_forms
from ..text.phrases import answer_head
from ...lexicon.prose import RESTATEMENT
from ...lexicon.pronouns import RELATIVE_PRONOUNS
from ...lexicon.relations import GIVE_VERBS, MAKE_VERBS
from ...models import LITERAL_KINDS, Pattern, Proposition, QARecord, Resolution
from ...parsing.loader import doc_text
from ..text.mentions import DATE, normalize
from ..registry import SpacyPipeline
from . import Extraction, Mention
from ..text.clean import Stripped, strip_citations, strip_frames
from .draft import Draft, SentenceBase
from .mentions import Arg, find_mentions
from .nested import nested
from .paths import Paths
from .references import References
from .syntax import (causal, cues, join_headings, lemma_by_token, misparsed_verb,
                     naming_as_copula, parse_tree)

_SUBJ = ("nsubj", "nsubjpass")
_PATTERN_ORDER: tuple[Pattern, ...] = (
    "appos", "relcl", "acl", "conj", "poss", "copula", "passive", "prep", "svo")


class RulesConfig(BaseModel):
    """Options of the rules extractor."""

    model_config = ConfigDict(extra="forbid")
    spacy_model: str | None = None


class RulesExtractor:
    """Sentence split, citation stripping, mentions, coreference, dependency triples."""

    name: ClassVar[str] = "rules"
    Config: ClassVar[type[BaseModel]] = RulesConfig
    requires: ClassVar[tuple[str, ...]] = ("spacy",)

    def __init__(self, config: RulesConfig | None = None, spacy: SpacyPipeline | None = None):
        self.config = config or RulesConfig()
        model = self.config.spacy_model
        if spacy is not None and model is not None and model != spacy.model:
            raise ConfigError(f"the rules extractor was given spacy_model={model!r} but the "
                              f"shared pipeline is {spacy.model!r}; set spacy_model once, on "
                              "the Auditor (--spacy-model)")
        self.spacy = spacy if spacy is not None else SpacyPipeline(model)
        self._lemma: Any = None
        self._docs: dict[str, Any] = {}  # the current window's parses, by long answer
        # The current window's `strip_citations` results, by long answer: `prepare` strips
        # each answer to parse it, `extract` needs the same text, offsets and markers.
        self._stripped: dict[str, Stripped] = {}

    @property
    def nlp(self) -> Any:
        return self.spacy.nlp

    def signature(self) -> list[tuple[str, object]]:
        return [("extractor", "rules"), ("spacy", self.spacy.model_id()),
                ("spacy_disabled", self.spacy.disabled())]

    def prepare(self, records: list[QARecord]) -> None:
        """Parse the window's long answers in one `nlp.pipe`; `extract` takes them from here."""
        from ...parsing.loader import parse_many

        self._docs, self._stripped = {}, {}
        if not self.spacy.loaded:
            return  # the first record loads it, as unbatched: its signature says so first
        self._stripped = {a: strip_frames(strip_citations(a)) for a in dict.fromkeys(r.long_answer for r in records)}
        clean = {a: s[0] for a, s in self._stripped.items()}
        try:
            docs = parse_many(self.nlp, list(clean.values()))
        except Exception:  # noqa: BLE001 - each record then parses alone and fails alone
            return
        self._docs = {a: docs[c] for a, c in clean.items() if c in docs}

    def extract(self, record: QARecord, hints: list[str]) -> Extraction:
        """Decompose `record.long_answer` into propositions and entity mentions."""
        stripped = self._stripped.get(record.long_answer)
        clean, offsets, markers = stripped or strip_frames(strip_citations(record.long_answer))
        if len(clean) >= self.nlp.max_length:
            # The Auditor bounds input size (--max-chars); spaCy's own guard would turn a
            # deliberately raised limit into a crash.
            self.nlp.max_length = len(clean) + 1
        from ...parsing.loader import lemmatizer, parse

        if self._lemma is None:
            self._lemma = lemmatizer(self.nlp)
        doc = self._docs.get(record.long_answer)
        if doc is None:
            doc = parse(self.nlp, clean)
        # A count answered in digits may be written in words ("5": "five books").
        # A class named in the plural may be written in the singular ("Musicians": "a musician").
        # An answer written as a sentence is no mention: what it names is ("… is a mall").
        head = answer_head(record.answer, record.question)
        answers = (head,) if head else (
            (record.answer, *in_words(record.answer), *number_forms(record.answer))
            if record.answer.strip() else ())
        return _Run(doc, hints, offsets, markers, self.nlp.make_doc, self._lemma, answers).extract()


class _Run(Paths, References):
    """One extraction over one parsed long answer."""

    def __init__(self, doc: Any, hints: list[str], offsets: list[int], markers: list,
                 make_doc: Any, lemma: Any, answers: tuple[str, ...] = ()):
        self.doc = doc
        naming_as_copula(doc, lemma)
        self.lemma = lemma_by_token(lemma)
        self.offsets = offsets
        self.text = doc_text(doc)
        # A sentence's text is a slice of the Doc's: spaCy would join its tokens at each read.
        self.sents = join_headings([s for s in doc.sents if self._text(s).strip()], self.text)
        self.sent_of: dict[int, int] = {}
        for n, s in enumerate(self.sents):
            self.sent_of.update(dict.fromkeys(range(s.start, s.end), n))
        self.restating = {n for n, s in enumerate(self.sents) if RESTATEMENT.match(self._text(s))}
        self.mentions = find_mentions(doc, hints, make_doc, answers)
        self.known = {normalize(t) for t in dict.fromkeys(
            [*hints, *answers, *(m.arg.text for m in self.mentions)])}
        self.tree = parse_tree(doc)
        self.arg_at: dict[int, Arg] = {}
        self._clause: dict[int, int] = {}
        self._pred: dict[int, bool] = {}
        for m in self.mentions:
            for i in range(m.start, m.end):
                self.arg_at[i] = m.arg
        self.topics = self._topics()
        self._refine_kinds()
        self._resolve_references()
        self.identified = self._identify_descriptions()
        self.which_named = self._which_names_noun()
        self.citations = self._citations(markers)

    def extract(self) -> Extraction:
        props: list[Draft] = []
        for n, sent in enumerate(self.sents):
            drafts = self._sentence(n, sent)
            props.extend(self._restated(sent, drafts) if n in self.restating else drafts)
        seen: set[tuple] = set()
        out: list[Proposition] = []
        for p in sorted(props, key=lambda p: p.order):
            key = p.key()
            if key in seen:
                continue
            seen.add(key)
            out.append(p.build(f"P{len(out) + 1}"))
        # A restating sentence's names are the question's own words, not the answer's: the
        # question is matched to what the answer writes (only a description named later counts).
        named = {i for t in self.identified
                 for i in range(self.doc[t].left_edge.i, self.doc[t].right_edge.i + 1)}
        mentions = [Mention(m.arg.text, self._orig(m.arg.start), self._orig(m.arg.end - 1) + 1,
                            m.arg.kind) for m in self.mentions
                    if self.sent_of.get(m.start) not in self.restating or m.root in named]
        spans = [(self._orig(s.start_char), self._orig(s.end_char - 1) + 1) for s in self.sents]
        return Extraction(out, mentions, sentences=spans)

    def _citations(self, markers: list) -> dict[int, list[str]]:
        if not markers:
            return {}
        starts = [s.start_char for s in self.sents]
        out: dict[int, list[str]] = {}
        for pos, ids in markers:
            n = max(0, bisect_right(starts, pos - 1) - 1) if starts else 0
            bucket = out.setdefault(n, [])
            bucket.extend(i for i in ids if i not in bucket)
        return out

    # ---- subjects

    def _before_bracket(self, tok: Any) -> Arg | None:
        """The mention just before the open bracket `tok` stands in, if any."""
        depth = 0
        for i in range(tok.i - 1, tok.sent.start - 1, -1):
            text = self.doc[i].text
            if text == ")":
                depth += 1
            elif text == "(":
                if depth == 0:
                    arg = self.arg_at.get(i - 1)
                    return arg if arg is not None and arg.kind not in LITERAL_KINDS else None
                depth -= 1
        return None

    def _noun_arg(self, n: Any) -> Arg | None:
        """The entity a common noun stands for: its apposition, or an identifying copula."""
        if n.i in self.arg_at:
            return self.arg_at[n.i]
        for c in n.children:
            if c.dep_ == "appos" and c.i in self.arg_at:
                return self.arg_at[c.i]
        if n.dep_ == "appos" and n.head.i in self.arg_at:
            return self.arg_at[n.head.i]
        if self.lemma(n.head) == "be":  # "X is a film directed by Y"; "the actor … is X"
            other = {"nsubj": "attr", "attr": "nsubj"}.get(n.dep_)
            for c in n.head.children:
                if c.dep_ == other and c.i in self.arg_at:
                    return self.arg_at[c.i]
        return None

    def _subjects(self, p: Any, depth: int = 0) -> tuple[list[Arg], Any, str | None]:
        """(subject args, subject token, pattern the clause type implies)."""
        subj = next((c for c in p.children if c.dep_ in _SUBJ), None)
        if subj is not None:
            arg = self.arg_at.get(subj.i)
            if arg is None and subj.lower_ in RELATIVE_PRONOUNS and p.dep_ == "relcl":
                arg = self._noun_arg(self.doc[self.which_named.get(p.i, p.head.i)])
            if arg is None and self.lemma(p) == "be":
                # "The director of X is Kesard": the parser may call a name acomp.
                attr = next((c for c in p.children if c.dep_ in ("attr", "acomp")
                             and c.i in self.arg_at), None)
                arg = self.arg_at.get(attr.i) if attr is not None else None
            if arg is None:
                arg = self._noun_arg(subj)
            if arg is None and self._pair(subj):
                return self._pair(subj), subj, "relcl" if p.dep_ == "relcl" else None
            if arg is None:
                return [], subj, None
            if arg.kind in LITERAL_KINDS or DATE.match(normalize(arg.text)):
                # "Sophie of Saxe-Lauenburg (died: 9 September 1473) was a regent": the
                # parser took the date for the subject; the name before the bracket is.
                outer = self._before_bracket(subj)
                if outer is not None:
                    return [outer], subj, None
            group = [arg] + [self.arg_at[c.i] for c in subj.conjuncts if c.i in self.arg_at]
            return self._pair(subj) or group, subj, "relcl" if p.dep_ == "relcl" else None
        if misparsed_verb(p):
            # "X, which was directed by Y, starred Z": the main clause's subject.
            root = p.sent.root
            subj = next((c for c in root.children if c.dep_ in _SUBJ), root)
            arg = self.arg_at.get(subj.i) or self.arg_at.get(root.i)
            return ([arg] if arg else []), None, None
        if p.dep_ in ("relcl", "acl", "appos"):
            if p.head.dep_ == "pobj" and (
                    (p.dep_ == "appos" and self.lemma(p).lower() in KIN)
                    or (p.dep_ == "acl" and self.lemma(p).lower() in MAKE_VERBS)):
                # "born in 1345 in Burg Grebenstein, the son of Louis", "a drama from
                # Columbia Pictures, directed by Nathan Juran": the parser hangs these on
                # the nearest noun; they describe the clause's subject.
                args, _, _ = self._subjects(self.doc[self._clause_of(p.head.i)], depth + 1)
                if args and depth < 8:
                    return args, None, "appos"
            arg = self._noun_arg(p.head)
            return ([arg] if arg else []), None, p.dep_
        if p.dep_ in ("conj", "advcl", "xcomp") and depth < 8:
            args, _, _ = self._subjects(self.doc[self._clause_of(p.head.i)], depth + 1)
            return args, None, "conj" if p.dep_ == "conj" else None
        return [], None, None

    def _pair(self, subj: Any) -> list[Arg]:
        """The pair a plural subject stands for: "They", "Both of them", "Both"."""
        if subj.i in self.groups:
            return self.groups[subj.i]
        if subj.lower_ in PLURAL_QUANTIFIERS:
            for c in subj.children:
                if c.dep_ == "prep" and c.lower_ == "of":
                    them = next((g for g in c.children if g.i in self.groups), None)
                    if them is not None:
                        return self.groups[them.i]
        return []

    # ---- sentences

    def _sentence(self, n: int, sent: Any) -> list[Draft]:
        """The claims of sentence n: a conclusion, then each predicate's, nested names, the
        heading's link and the co-occurrences nothing else covers."""
        text = self._text(sent).strip()
        args = self._args_in(sent)
        found = cues(text)
        base = SentenceBase(
            text=text, sentence=n, citations=tuple(self.citations.get(n, [])),
            span=(self._orig(sent.start_char), self._orig(sent.end_char - 1) + 1),
            hedged=found.hedged,
        )
        cue = found.conclusion
        props: list[Draft] = []
        # "So Much Love: In 1967 it was covered …" is a titled sentence, not a conclusion
        # (asked only of a sentence with a cue).
        if cue and not self._titled(n, text, found) and not self._in_mention(sent, cue.start()):
            props = self._conclusion(sent, args, base)
            # "Therefore, Nolan, who was born in London, …" still states a claim linking
            # two entities; "So the answer is X" and "Thus, X is the answer" state only X.
            if found.answer_is or len(args) < 2 or self._says_answer(text, sent):
                return props
        covered: set[int] = set()
        # Each argument is an object of the one clause it sits in.
        in_clause: dict[int, list[Arg]] = {}
        for a in args:
            in_clause.setdefault(self._clause_of(a.top), []).append(a)
        preds = sorted(in_clause.keys() | set(self._preds_in(sent.start, sent.end)))
        for pi in preds:
            self._predicate(pi, in_clause.get(pi, []), base, props, covered)
        for outer, inner in nested(args, self.known):
            props.append(self._prop(base, outer, inner, "of", "nested", False))
        pairs = self._place_pairs(args)
        stated = {frozenset((d.subject, d.object)) for d in props} if pairs else set()
        for place, larger in pairs:
            if frozenset((place.text, larger.text)) not in stated:
                props.append(self._prop(base, place, larger, "in", "appos", False))
        self._topic_link(n, args, base, props, covered)
        self._cooccurrences(args, base, props, covered)
        return props

    def _says_answer(self, text: str, sent: Any) -> bool:
        """Whether a word of `sent` (whose text is `text`) has the lemma "answer". The rule
        lemmatizer's English tables reach "answer" only by dropping a suffix of a word
        holding it ("answers", "answered"), so a sentence without it is not lemmatized."""
        return "answer" in text.lower() and any(self.lemma(t) == "answer" for t in sent)

    def _predicate(self, pi: int, below: list[Arg], base: SentenceBase, props: list[Draft],
                   covered: set[int]) -> None:
        """The claims one predicate states between its subjects and the arguments `below` it
        (those whose clause it is)."""
        p = self.doc[pi]
        subjects, subj_tok, how = self._subjects(p)
        objects = [a for a in below if all(a is not s for s in subjects)]
        rel = next((c for c in p.children if c.lower_ in RELATIVE_PRONOUNS
                    and c.dep_ not in _SUBJ), None) if how in ("relcl", "acl") else None
        if rel is not None:
            extra = self._noun_arg(p.head)  # "the film that Nolan directed": that = film
            if extra is not None and all(extra is not s for s in subjects):
                objects.append(replace(extra, top=rel.i))
                covered.add(id(extra))
        for k, s in enumerate(subjects):
            for o in objects:
                if o.text.lower() == s.text.lower():
                    continue
                relation, tags, negated = self._path(o, p, subj_tok)
                if k > 0:
                    tags.add("conj")
                if how:
                    tags.add(how)
                pattern = next(t for t in _PATTERN_ORDER if t in tags or t == "svo")
                props.append(self._prop(base, s, o, relation, pattern, negated))
                if causal(p):  # "A because A restated": two claims, mutual support
                    props[-1].reason = pi
                covered.update((id(s), id(o)))
        self._given_to(p, objects, base, props, covered)
        self._purpose(p, subjects, base, props, covered)

    def _given_to(self, p: Any, objects: list[Arg], base: SentenceBase, props: list[Draft],
                  covered: set[int]) -> None:
        """What a verb of giving gives goes to its dative."""
        if p.i not in self._dative_heads:
            return
        dative = next((self.arg_at[c.i] for c in p.children
                       if c.dep_ == "dative" and c.i in self.arg_at), None)
        if dative is not None and self.lemma(p).lower() in GIVE_VERBS:
            # "The album earned him the Grammy": what is given goes to him.
            for o in objects:
                if o is not dative and self.doc[o.top].dep_ == "dobj" \
                        and o.text.lower() != dative.text.lower():
                    props.append(self._prop(base, dative, o, self.lemma(p).lower(), "svo",
                                            self._negated(p)))
                    covered.update((id(dative), id(o)))

    def _purpose(self, p: Any, subjects: list[Arg], base: SentenceBase, props: list[Draft],
                 covered: set[int]) -> None:
        """A "for X to ..." clause: what the head verb made is for X."""
        if p.dep_ == "advcl" and subjects and any(
                c.dep_ == "mark" and c.lower_ == "for" for c in p.children):
            # "wrote the song for Audrey Hepburn to sing": the song is for her.
            head = self.doc[self._clause_of(p.head.i)]
            obj = next((self.arg_at[c.i] for c in head.children
                        if c.dep_ == "dobj" and c.i in self.arg_at), None)
            if obj is None:  # "wrote the song for X": the writers, when the song is unnamed
                obj = next(iter(self._subjects(head)[0]), None)
            if obj is not None and obj.text.lower() != subjects[0].text.lower():
                props.append(self._prop(base, obj, subjects[0],
                                        f"{self.lemma(head).lower()} for", "prep", False))
                covered.update((id(obj), id(subjects[0])))

    def _topic_link(self, n: int, args: list[Arg], base: SentenceBase, props: list[Draft],
                    covered: set[int]) -> None:
        """A titled section's heading links to what its body says first."""
        topic = self.topics.get(n)
        if topic is None or len(args) < 2:
            return  # most sentences have no title
        named = {t.lower() for p in props for t in (p.subject, p.object)}
        if topic.text.lower() not in named:
            # The title links to what the body says first: its subject, else its first entity.
            body = [a for a in args if a is not topic and a.text.lower() != topic.text.lower()]
            said = {p.subject.lower() for p in props}
            first = next((a for a in body if a.text.lower() in said and a.kind not in LITERAL_KINDS),
                         next((a for a in body if id(a) in covered), body[0] if body else None))
            if first is not None:
                props.append(self._prop(base, topic, first, "about", "cooccur", False))
                covered.update((id(topic), id(first)))

    def _cooccurrences(self, args: list[Arg], base: SentenceBase, props: list[Draft],
                       covered: set[int]) -> None:
        """Arguments no claim covers join the sentence's hub through their tree path."""
        if len(args) >= 2:
            # A date opening the clause ("In 1925 he …") is no hub for the rest.
            anchor = next((a for a in args if id(a) in covered and a.kind not in LITERAL_KINDS),
                          next((a for a in args if id(a) in covered), args[0]))
            for o in args:
                if id(o) in covered or o is anchor or o.text.lower() == anchor.text.lower() \
                        or self._unnamed_between(anchor.top, o.top):
                    continue
                relation = self._path(o, self.doc[self._lca(anchor.top, o.top)], None)[0]
                props.append(self._prop(base, anchor, o, relation or "co-occurs with",
                                        "cooccur", False))

    def _prop(self, base: SentenceBase, s: Arg, o: Arg, relation: str, pattern: Pattern,
              negated: bool) -> Draft:
        resolutions = [Resolution(text=a.resolution.ref.text,
                                  span=(self._orig(a.start), self._orig(a.end - 1) + 1),
                                  to=a.text, reason=a.resolution.reason)
                       for a in (s, o) if a.resolution is not None]
        return Draft(base, subject=s.text, relation=relation, object=o.text, pattern=pattern,
                      negated=negated, order=(base.sentence, min(s.start, o.start), max(s.start, o.start)),
                      resolutions=resolutions)

    def _orig(self, i: int) -> int:
        return self.offsets[min(max(i, 0), len(self.offsets) - 1)]
