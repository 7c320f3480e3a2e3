"""Relation words along the parse, for the rules extractor: the clause a token belongs to,
the path from a clause's predicate down to an object, the lowest common ancestor of two
tokens, and the one proposition a concluding sentence states."""

from __future__ import annotations

from bisect import bisect_left
from functools import cached_property
from typing import Any

from ...lexicon.function_words import DEFINITE_DETERMINERS, LOCATING_PREPOSITIONS
from ...lexicon.kinds import DESCRIPTOR_NOUNS, DESCRIPTORS
from ...lexicon.names import PERSON_RELATIONS
from .draft import Draft, SentenceBase
from .mentions import Arg
from .syntax import ANSWER_IS, HEADING, Cues, Tree, member_role, misparsed_verb, np_text

_SUBJ = ("nsubj", "nsubjpass")
_PRED_DEPS = frozenset({"relcl", "acl", "advcl", "ccomp", "csubj", "parataxis", "conj"})
# The labels besides ROOT a predicate may have: a misparsed verb is "amod", a noun
# apposition "appos".
_MAYBE_PRED = _PRED_DEPS | {"amod", "appos"}
# "the stadium", "this film": a definite description of a kind of thing.
_DESCRIPTION_HEADS = DESCRIPTOR_NOUNS | DESCRIPTORS
_DESCRIBING_CLAUSES = ("relcl",)


class Paths:
    """Mixin of `rules._Run`: needs doc, its text and tree, lemma, arg_at, topics, sent_of and
    restating."""

    doc: Any
    text: str  # doc_text(doc)
    tree: Tree
    lemma: Any
    arg_at: dict[int, Arg]
    topics: dict[int, Arg]
    sent_of: dict[int, int]  # token index → its sentence's index
    restating: set[int]  # sentences that restate the question
    _clause: dict[int, int]  # token index → its clause's predicate, as found
    _pred: dict[int, bool]  # token index → `_is_pred` of it, as found

    # ---- clauses

    @cached_property
    def _maybe_preds(self) -> list[int]:
        """The tokens labelled ROOT or a label of `_MAYBE_PRED`, in order: the only ones
        `_pred_at` may call a predicate."""
        return [i for i, dep in enumerate(self.tree.deps) if dep == "ROOT" or dep in _MAYBE_PRED]

    @cached_property
    def _amods(self) -> dict[int, list[int]]:
        """Token index → its children labelled "amod", in order: the only children
        `misparsed_verb` may take for a verb."""
        out: dict[int, list[int]] = {}
        for i, dep in enumerate(self.tree.deps):
            if dep == "amod":
                out.setdefault(self.tree.heads[i], []).append(i)
        return out

    @cached_property
    def _dative_heads(self) -> frozenset[int]:
        """The tokens with a child labelled "dative": the only verbs `_given_to` reads."""
        tree = self.tree
        return frozenset(h for i, h in enumerate(tree.heads) if tree.deps[i] == "dative" and h != i)

    def _preds_in(self, start: int, end: int) -> list[int]:
        """The tokens start..end-1 that are predicates (`_pred_at`), trying only those whose
        label a predicate may have."""
        labelled = self._maybe_preds
        lo, hi = bisect_left(labelled, start), bisect_left(labelled, end)
        return [i for i in labelled[lo:hi] if self._pred_at(i)]

    def _pred_at(self, i: int) -> bool:
        """`_is_pred` of the token at index i; most labels rule it out without the token.
        Asked while the patterns run, once `arg_at` is final: a token's answer is kept."""
        dep = self.tree.deps[i]
        if dep == "ROOT":
            return True
        if dep not in _MAYBE_PRED:
            return False
        pred = self._pred.get(i)
        if pred is None:
            pred = self._pred[i] = self._is_pred(self.doc[i], dep)
        return pred

    def _is_pred(self, tok: Any, dep: str) -> bool:
        """Whether `tok`, labelled `dep` (not ROOT: `_pred_at` settles that), is a predicate."""
        if dep in _PRED_DEPS and tok.pos_ in ("VERB", "AUX"):
            return True
        if dep == "amod" and misparsed_verb(tok):
            return True
        # "Paris, the capital of France": an apposition with content of its own.
        return (dep == "appos" and tok.pos_ == "NOUN" and tok.i not in self.arg_at
                and tok.head.i in self.arg_at
                and any(c.dep_ in ("prep", "poss") for c in tok.children))

    def _clause_of(self, i: int) -> int:
        """The predicate whose clause holds the token at index i."""
        if i not in self._clause:
            verb = next((c for c in self._amods.get(i, ())
                         if misparsed_verb(self.doc[c])), None) if i in self.arg_at else None
            if verb is not None:
                self._clause[i] = verb  # "…, starred Halo Garley": Garley is its object
                return verb
            t = i
            while not self._pred_at(t) and self.tree.heads[t] != t:
                t = self.tree.heads[t]
            self._clause[i] = t
        return self._clause[i]

    # ---- relation words

    def _negated(self, t: Any) -> bool:
        """Whether a "not" hangs from token t."""
        return t.i in self.tree.negated

    def _text(self, span: Any) -> str:
        """`span.text`, sliced from the Doc's text (spaCy joins the tokens at each read)."""
        return self.text[span.start_char:span.end_char]

    def _path(self, o: Arg, p: Any, subj_tok: Any) -> tuple[str, set[str], bool]:
        """Relation words from the clause predicate down to the object, and pattern tags."""
        chain = [o.top]
        heads = self.tree.heads
        while chain[-1] != p.i and heads[chain[-1]] != chain[-1]:
            chain.append(heads[chain[-1]])
        chain.reverse()
        if subj_tok is not None and subj_tok.i in chain:
            chain = chain[chain.index(subj_tok.i):]  # inside the subject phrase
        tags: set[str] = set()
        if self.lemma(p) == "be":
            tags.add("copula")
        if chain[0] != p.i and (subj_tok is None or chain[0] != subj_tok.i):
            chain = [o.top]  # the object is not below the predicate: no path words
            if p.head.i == o.top and misparsed_verb(p):
                return self.lemma(p).lower(), tags, False
        words: list[str] = []
        mark = 0
        negated = self._negated(p)
        # Labels are read from the tree; a token is made only for its word and part of speech.
        deps, negations = self.tree.deps, self.tree.negated
        for k, i in enumerate(chain):
            dep = deps[i]
            below = deps[chain[k + 1]] if k + 1 < len(chain) else None  # the next one's label
            if dep == "conj" and i != p.i:
                tags.add("conj")
            if dep == "agent":
                tags.add("passive")
            if below == "poss":
                tags.add("poss")
            if dep == "appos" and k == 1 and subj_tok is not None and chain[0] == subj_tok.i:
                tags.add("appos")  # "Atlanta, Georgia": the subject's own apposition
            negated = negated or i in negations
            if i == o.top:
                continue
            if i in self.arg_at:
                if below is None or below not in ("appos", "conj"):
                    del words[mark:]  # "in London, England by X": only what follows the last entity
                continue
            t = self.doc[i]
            pos = t.pos_
            if pos in ("VERB", "AUX") and self.lemma(t) != "be":
                words.append("born" if self.lemma(t) == "bear" else self.lemma(t).lower())
                words.extend(c.lower_ for c in t.children if c.dep_ == "prt")
                mark = len(words)
            elif pos == "ADP":
                words.append(t.lower_)
                tags.add("prep")
            elif pos in ("NOUN", "ADJ"):
                words.append(self.lemma(t).lower())
                if below == "poss":
                    words.append("of")
        if len(words) >= 3 and words[-1] == "of":
            words.pop()  # "have population of 67 million" reads as "have population"
        if not words:
            words = ["be"] if tags & {"copula", "appos"} else ["related to"]
        return " ".join(words), tags, negated

    def _lca(self, a: int, b: int) -> int:
        heads = self.tree.heads
        up = {a}
        t = a
        while heads[t] != t:
            t = heads[t]
            up.add(t)
        t = b
        while t not in up and heads[t] != t:
            t = heads[t]
        return t

    def _unnamed_between(self, a: int, b: int) -> bool:
        """Whether the parse joins tokens a and b only through a subject that describes a
        thing it never names: in "The stadium named after X is in P", X is not in P; the
        stadium is, and the text does not say which stadium that is."""
        lca = self._lca(a, b)
        if self.lemma(self.doc[lca]) == "be":
            return False  # "The character he played is Y" restates, then names: a link
        if any(self._held_role(self.doc[lca], self.doc[x]) for x in (a, b)):
            return True  # "A Monster Folk member, teamed up with Y": the member is never named
        for start in (a, b):
            t, below = self.doc[start], None
            # "the suburb where he lived": a pronoun in the clause is someone named outside it.
            pronoun = t.pos_ == "PRON"
            while t.i != lca and t.head.i != t.i:
                if below is not None and t.i not in self.arg_at and self._describes_unnamed(
                        t, below, lca, pronoun):
                    return True
                t, below = t.head, t
        return False

    def _held_role(self, t: Any, below: Any) -> bool:
        """"A Monster Folk member teamed up with Y": token t is one of the group's people, and
        the text never says who (no name beside it, not the complement of "be")."""
        return (below.i in self.arg_at and member_role(below, t) and t.i not in self.arg_at
                and t.dep_ not in ("attr", "appos", "compound")
                and not any(c.dep_ == "appos" for c in t.children))

    def _describes_unnamed(self, t: Any, below: Any, lca: int, pronoun: bool = False) -> bool:
        """Whether token t, met on the way up from `below`, is a thing described, not named."""
        # Only a clause or a preposition between them: "The 1974 X team" is X, and so is
        # "the city of X".
        if (t.dep_ in _SUBJ and t.head.i == lca
                and (below.dep_ in ("acl", "relcl") or (below.dep_ == "prep" and below.lower_ != "of"))
                and self.lemma(t).lower() in _DESCRIPTION_HEADS
                and any(c.lower_ in DEFINITE_DETERMINERS for c in t.children if c.dep_ == "det")):
            return True
        if self._held_role(t, below) or self._unnamed_relative(t, below, lca):
            return True
        # "the birth of a child who was born in B": B is where the child was born, a thing
        # the relative clause describes and never names. Named are an apposition or a
        # copula's complement ("the film X, which Y appeared in"), a thing the clause names
        # ("the division, which is Z"), and what a pronoun in the clause points to outside
        # it ("the suburb where he lived").
        if (pronoun or t.pos_ != "NOUN" or below.dep_ not in _DESCRIBING_CLAUSES
                or t.dep_ in ("appos", "attr") or any(c.dep_ == "appos" for c in t.children)
                or (self.lemma(below) == "be" and not self._own_subject(below))
                or below.pos_ not in ("VERB", "AUX")
                or any(c.dep_ == "aux" and c.lower_ == "to" for c in below.children)):
            return False  # an infinitive after the noun is mostly a misparse ("to season three")
        if t.dep_ == "dobj" and self.lemma(t.head) == "have":
            return False  # "X has a footprint that serves Y": what X has is X's own
        # "the award that he received", after a sentence that says which award that is; a
        # sentence restating the question says only that one is asked for (docs/coreference.md).
        definite = any(c.lower_ in DEFINITE_DETERMINERS for c in t.children if c.dep_ == "det")
        return not (definite and self._written_before(t))

    def _written_before(self, t: Any) -> bool:
        """Whether a sentence before t's writes t's noun, other than one restating the question."""
        return any(self.lemma(u) == self.lemma(t) for u in self.doc[:t.sent.start]
                   if self.sent_of.get(u.i) not in self.restating)

    @staticmethod
    def _own_subject(clause: Any) -> bool:
        """Whether a relative "be" clause has a subject other than its relative word: "from
        whom new coins were a proclamation by X" says what the coins were, it names no one;
        "which is Z" names the thing it is said of."""
        return any(c.dep_ in _SUBJ and c.tag_ not in ("WDT", "WP", "WP$") and c.pos_ != "PRON"
                   for c in clause.children)

    def _unnamed_relative(self, t: Any, below: Any, lca: int) -> bool:
        """Rule `unnamed_relative`: "X's brother was born in B", "the founder of X was born
        in B": B is the brother's, a person the text never names, not X's."""
        # The clause must have a verb of its own: in "The author of X is Y" misparsed with Y
        # as the root, Y names the author.
        return (t.dep_ in _SUBJ and t.head.i == lca and t.i not in self.arg_at
                and self.doc[lca].pos_ == "VERB" and lca not in self.arg_at
                and (below.dep_ == "poss" or (below.dep_ == "prep" and below.lower_ == "of"))
                and self.lemma(t).lower() in PERSON_RELATIONS
                and not any(c.dep_ == "appos" for c in t.subtree))  # "…, Ilo Vask, was born"

    def _place_pairs(self, args: list[Arg]) -> list[tuple[Arg, Arg]]:
        """(place, larger place) written "A, B" ("born in Honolulu, Hawaii"): one place and
        the one containing it, one value for "born in", not two."""
        out = []
        for a, b in zip(args, args[1:]):
            between = self.text[a.end:b.start]
            if between.strip() != ",":
                continue
            kinds = {a.kind, b.kind}
            top, tail = self.doc[a.top], self.doc[b.top]
            # After "in"/"at"/"from", an apposition is where the place is, whatever NER
            # made of two unfamiliar names.
            located = (top.dep_ == "pobj" and top.head.lower_ in LOCATING_PREPOSITIONS
                       and tail.dep_ == "appos" and tail.head.i == top.i)
            if not kinds & {"work", "date", "number"} and (
                    located or ("place" in kinds and kinds <= {"place", "other"})):
                out.append((a, b))
        return out

    def _conclusion(self, sent: Any, args: list[Arg], base: SentenceBase) -> list[Draft]:
        """One proposition stating the result; it never bridges (docs/metrics.md)."""
        m = ANSWER_IS.search(base.text)
        x = m.group("x").strip().strip(".\"'“”").strip() if m else ""
        subject = "answer"
        if m is not None and x:
            text = self._text(sent)
            start = sent.start_char + (len(text) - len(text.lstrip())) + m.start("x")
            inside = [a for a in args if a.start >= start]
            obj = inside[0].text if inside else x
        else:
            root = sent.root
            subj = next((c for c in root.children if c.dep_ in _SUBJ), None)
            attr = next((c for c in root.children if c.dep_ == "attr"), None)
            if self.lemma(root) == "be" and subj is not None and attr is not None:
                if self.lemma(attr) == "answer":  # "Thus, Nolan is the answer."
                    subj, attr = attr, subj
                subject = "answer" if self.lemma(subj) == "answer" else np_text(subj, self.arg_at)
                obj = np_text(attr, self.arg_at)
            elif args:
                obj = args[-1].text
            else:
                return []
        return [Draft(base, subject=subject, relation="be", object=obj, pattern="conclusion",
                       negated=False, order=(base.sentence, sent.start_char, 0), conclusion=True)]

    def _titled(self, n: int, text: str, found: Cues) -> bool:
        """Whether sentence n (whose text is `text`) is "Title: body", where a cue opening
        the body states no conclusion; "The answer is: X" is one all the same."""
        return bool((n in self.topics or HEADING.match(text)) and not found.answer_is)

    def _in_mention(self, sent: Any, offset: int) -> bool:
        """Whether a conclusion cue is part of a name ("So Much Love" is a song)."""
        text = self._text(sent)
        lead = len(text) - len(text.lstrip())
        pos = sent.start_char + lead + offset
        return any(a.start <= pos < a.end for a in self._args_in(sent))

    @cached_property
    def _arg_tokens(self) -> list[int]:
        """The tokens `arg_at` holds, in order: asked while the patterns run, once it is final."""
        return sorted(self.arg_at)

    def _args_in(self, sent: Any) -> list[Arg]:
        tokens = self._arg_tokens
        found: dict[int, Arg] = {}
        for i in tokens[bisect_left(tokens, sent.start):bisect_left(tokens, sent.end)]:
            arg = self.arg_at[i]
            found.setdefault(id(arg), arg)
        return sorted(found.values(), key=lambda a: a.start)
