"""Mention kinds and coreference for the rules extractor: pronouns, descriptions, titled
sentences ("Title: body") and lone surnames, written into `arg_at` before patterns run."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...lexicon.coreference import DESCRIBING, IN_QUESTION, NAMING_RELATIVES, PERSON_VERBS, POINTING
from ...lexicon.generic import is_generic
from ...lexicon.kinds import DESCRIPTOR_NOUNS, PERSON_NOUNS
from ...lexicon.names import ARTICLES
from ...models import LITERAL_KINDS
from ..text import coref
from .draft import Draft
from .mentions import Arg, Placed
from .syntax import Tree, descriptors, member_role, top_token

_SUBJ = ("nsubj", "nsubjpass")


class References:
    """Mixin of `rules._Run`: needs doc, its text and tree, lemma, sents, sent_of, mentions,
    arg_at, topics."""

    doc: Any
    text: str
    tree: Tree
    lemma: Any
    sents: list
    sent_of: dict[int, int]
    mentions: list[Placed]
    arg_at: dict[int, Arg]
    topics: dict[int, Arg]
    identified: dict[int, int]
    groups: dict[int, list[Arg]]  # a plural pronoun's token → the pair it stands for
    # Per mention, in `mentions` order: its descriptor nouns, found once here for the kinds
    # and read again by the coreference.
    _heads: list[tuple[str, ...]]

    def _refine_kinds(self) -> None:
        self._heads = []
        for placed in self.mentions:
            start, end, arg = placed.start, placed.end, placed.arg
            root = self.doc[placed.root]
            heads = descriptors(root, start, end, self.lemma)
            self._heads.append(heads)
            cls = next((coref.noun_class(h) for h in heads if coref.noun_class(h)), None)
            if cls:
                arg.kind = cls
            elif arg.kind in ("other", "org") and self._animate(root):
                arg.kind = "person"  # "J.K. Rowling wrote …" is tagged ORG by the small model
            elif arg.kind not in LITERAL_KINDS and self._described_person(root):
                arg.kind = "person"
            top = top_token(self.doc, root, self.arg_at)
            arg.top = root.i if member_role(root, top) else top.i

    def _animate(self, root: Any) -> bool:
        """Agent of a person verb (active subject, or "by X"), born, or a "who" clause."""
        verb = root.head
        if root.dep_ == "pobj" and verb.dep_ == "agent":
            verb = verb.head
        elif root.dep_ == "nsubjpass":
            return self.lemma(verb) == "bear"
        elif root.dep_ != "nsubj":
            return any(c.dep_ == "relcl" and any(g.lower_ == "who" for g in c.children)
                       for c in root.children)
        return self.lemma(verb).lower() in PERSON_VERBS

    def _described_person(self, root: Any) -> bool:
        """A name the other side of "be" describes with a person noun is a person, whatever
        NER made of it: "The emperor who built X was Caligula", "Ilo was the king of Y"."""
        verb = root.head
        if root.dep_ not in ("attr", "nsubj") or self.lemma(verb).lower() != "be":
            return False
        other = "nsubj" if root.dep_ == "attr" else "attr"
        return any(c.dep_ == other and c.i not in self.arg_at
                   and self.lemma(c).lower() in PERSON_NOUNS for c in verb.children)

    def _topics(self) -> dict[int, Arg]:
        """Sentences written "Title: body" (or "Name, Epithet: body"): the body is about the
        sentence's first mention."""
        out: dict[int, Arg] = {}
        for n, sent in enumerate(self.sents):
            if ":" not in self.text[sent.start_char:sent.end_char]:
                continue  # no ":" in the text, so no colon token
            colon = next((t.i for t in sent if t.text == ":"), None)
            if colon is None or colon - sent.start > 16:
                continue
            head = self.doc[sent.start:colon]
            # A title word NER left out ("Gillies" of "Gillies MacKinnon:") still heads.
            if not all(t.i in self.arg_at or t.is_punct or t.is_space or t.is_title
                       or t.lower_ in ARTICLES or t.lower_ == "of" for t in head):
                continue
            first = next((self.arg_at[t.i] for t in head if t.i in self.arg_at), None)
            if first is not None:
                out[n] = first
        return out

    def _resolve_references(self) -> None:
        blocked = set(self.arg_at)
        for placed in self.mentions:
            blocked.add(placed.arg.top)
        # Numbered by this extraction's sentences; a token of none (blank text) refers to nothing.
        refs = coref.find_references(self.doc, blocked, self.lemma, self.sent_of)
        # A description of no known kind refers only to a mention its noun was seen with.
        seen = {h for heads in self._heads for h in heads}
        refs = [r for r in refs if not r.strict or r.head in seen]
        # `coref.resolve` reads a mention only as the antecedent of a later reference (or of
        # one at its offset): most answers hold no reference, and no mention past the last
        # one is read.
        last = max((r.start for r in refs), default=-1)
        antecedents = []
        pairs: dict[str, list[Arg]] = {}
        self.groups = {}
        for placed, heads in zip(self.mentions, self._heads):
            arg = placed.arg
            if arg.start > last:
                continue
            if is_generic(arg.text):
                continue  # "its adaptation" never means "American" or "1993"
            top = self.doc[arg.top]
            group = self._conjoined(top, arg)
            if group:
                pairs.setdefault(arg.text, group)
            antecedents.append(coref.Antecedent(
                arg.text, arg.start, self.sent_of.get(top.i, 0), arg.kind,
                subject=self._main_subject(top, arg) or self.topics.get(
                    self.sent_of.get(top.i, -1)) is arg,
                topic=self.topics.get(self.sent_of.get(top.i, -1)) is arg,
                heads=heads, plural=bool(group) or arg.kind == "org"
                or self.doc[placed.root].tag_ in ("NNPS", "NNS"),
                token=top.i,
            ))
        for res in coref.resolve(antecedents, refs):
            r = res.ref
            self.arg_at[r.token] = Arg(res.to.name, r.token, r.start, res.to.kind, res, r.end)
            if r.kind == "plural" and res.to.name in pairs:
                # "They", "both of them" after "A and B": each of the pair.
                self.groups[r.token] = [
                    replace(a, top=r.token, start=r.start, end=r.end,
                            resolution=coref.Resolved(r, res.to, f"the pair {res.to.name}"))
                    for a in pairs[res.to.name]]
        self._resolve_surnames()

    def _conjoined(self, top: Any, arg: Arg) -> list[Arg]:
        """The members of a conjoined pair a mention opens ("Ana Ruiz and Kim Lett" as two
        mentions, or one mention written so), for a later "they" or "both of them"."""
        if top.dep_ == "conj":
            return []
        members = [self.arg_at[c.i] for c in top.conjuncts if c.i in self.arg_at]
        if members:
            return [arg, *(m for m in members if m is not arg)]
        if " and " in arg.text and arg.kind not in LITERAL_KINDS:
            return [arg]
        return []

    def _identify_descriptions(self) -> dict[int, int]:
        """A description named by a later identity statement stands for the name: "… the 2004
        film in which Ana Ruiz played Kim. The film is Red Lake." makes the first "film" Red
        Lake, so Ana Ruiz played in Red Lake (the strict head match of docs/coreference.md,
        across sentences). Returns each identified noun → the sentence naming it."""
        out: dict[int, int] = {}
        named_at: dict[int, Arg] = {}
        for verb in self.doc:
            if verb.pos_ not in ("AUX", "VERB") or self.lemma(verb) != "be":
                continue
            noun = next((c for c in verb.children if c.dep_ == "nsubj"), None)
            name = next((c for c in verb.children if c.dep_ == "attr" and c.i in self.arg_at), None)
            if noun is None or name is None:
                # "Red Lake is the film": the same identity, the other way round.
                noun = next((c for c in verb.children if c.dep_ == "attr"), None)
                name = next((c for c in verb.children if c.dep_ == "nsubj" and c.i in self.arg_at), None)
            if (noun is None or name is None or noun.i in self.arg_at or noun.pos_ != "NOUN"
                    or not any(c.dep_ == "det" and c.lower_ in POINTING for c in noun.children)
                    or not self._bare(noun)):
                continue
            arg = self.arg_at[name.i]
            if arg.kind in LITERAL_KINDS:
                continue
            named_at[noun.i] = arg
        if not named_at:
            return out
        for i, arg in sorted(named_at.items()):
            head = self.lemma(self.doc[i]).lower()
            if head not in DESCRIPTOR_NOUNS:
                continue
            here = self.sent_of.get(i, -1)
            earlier = next((t for t in range(i - 1, -1, -1)
                            if self._description(t, head) and -1 < self.sent_of.get(t, -1) < here), None)
            if earlier is None:
                continue
            tok = self.doc[earlier]
            ref = coref.Reference(tok.text, tok.idx, tok.idx + len(tok), self.sent_of[earlier],
                                  "thing", head=head, token=earlier)
            ante = coref.Antecedent(arg.text, arg.start, here, arg.kind)
            res = coref.Resolved(ref, ante, f"identity: the {head} is {arg.text}")
            self.arg_at[earlier] = Arg(arg.text, earlier, tok.idx, arg.kind, res, tok.idx + len(tok))
            out[earlier] = here
        return out

    def _description(self, t: int, head: str) -> bool:
        """Token t is a description with head noun `head` that nothing names yet."""
        tok = self.doc[t]
        return (tok.pos_ == "NOUN" and t not in self.arg_at and self.lemma(tok).lower() == head
                and any(c.dep_ in ("det", "poss") and c.lower_ in DESCRIBING for c in tok.children)
                and tok.dep_ not in ("attr", "appos", "compound")
                and not any(c.dep_ == "appos" and c.i in self.arg_at for c in tok.children)
                and not (tok.dep_ == "nsubj" and self.lemma(tok.head) == "be" and any(
                    c.dep_ == "attr" and c.i in self.arg_at for c in tok.head.children)))

    @staticmethod
    def _bare(noun: Any) -> bool:
        """A description that points back rather than describes anew: "the film", "this
        organization", "the film in question", not "the actress who starred in X"."""
        for c in noun.children:
            if c.dep_ in ("relcl", "acl", "poss", "appos"):
                return False
            if c.dep_ == "prep" and not any(
                    (c.lower_, g.lower_) == IN_QUESTION for g in c.children):
                return False
        return True

    def _restated(self, sent: Any, drafts: list[Draft]) -> list[Draft]:
        """The claims a sentence restating the question keeps: none of its own, only those
        inside a description a later sentence names ("the film in which Ana Ruiz played Kim"
        … "the film is Red Lake": Ana Ruiz played in Red Lake, and Kim)."""
        named = [t for t in self.identified if sent.start <= t < sent.end]
        if not named:
            return []
        inside = {i for t in named for i in range(self.doc[t].left_edge.i, self.doc[t].right_edge.i + 1)}
        starts = {self.arg_at[i].start for i in inside if i in self.arg_at}
        return [d for d in drafts if d.order[1] in starts and d.order[2] in starts]

    def _which_names_noun(self) -> dict[int, int]:
        """"the series created by X, which is Y": "which" never stands for a person, nor for
        the maker of a thing, so the clause names the noun X's phrase hangs from (the series
        is Y), whatever the parse attached it to. Returns each such clause's verb → that noun."""
        out: dict[int, int] = {}
        for i, dep in enumerate(self.tree.deps):
            if dep != "relcl":
                continue
            tok = self.doc[i]
            head = tok.head
            maker = head.dep_ == "pobj" and head.head.dep_ == "agent"  # "created by X"
            if (head.i not in self.arg_at or self.lemma(tok) != "be"
                    or not (maker or self.arg_at[head.i].kind == "person")
                    or not any(c.dep_ in _SUBJ and c.lower_ in NAMING_RELATIVES for c in tok.children)):
                continue
            named = next((self.arg_at[c.i] for c in tok.children
                          if c.dep_ in ("attr", "acomp") and c.i in self.arg_at), None)
            noun = head.head
            for _ in range(3):  # up through "by", "of" and the participle ("created by")
                if noun.pos_ == "NOUN" or noun.head.i == noun.i:
                    break
                noun = noun.head
            if named is not None and noun.pos_ == "NOUN" and noun.i not in self.arg_at:
                self.arg_at[noun.i] = replace(named, top=noun.i)
                out[tok.i] = noun.i
        return out

    def _resolve_surnames(self) -> None:
        """A lone surname stands for the nearest earlier full name ending with it ("Max Mack: …
        Mack was …"): the sieve's `surname` pass (`coref.lone_surname`), run on the parse."""
        last: dict[str, Arg] = {}
        for placed in self.mentions:
            start, end, arg = placed.start, placed.end, placed.arg
            surname = coref.full_name_surname(arg.text, arg.kind)
            if surname is not None:
                last[surname] = arg
                continue
            word = coref.lone_surname(arg.text, arg.kind) if end - start == 1 else None
            if word is not None and word in last:
                full = last[word]
                sent = self.sent_of.get(start, 0)
                ref = coref.Reference(arg.text, arg.start, arg.end, sent, "person", token=start)
                ante = coref.Antecedent(full.text, full.start, sent, full.kind)
                res = coref.Resolved(ref, ante, f"surname of {full.text}")
                self.arg_at[start] = Arg(full.text, arg.top, arg.start, full.kind, res, arg.end)

    def _main_subject(self, top: Any, arg: Arg) -> bool:
        head = top.head
        if top.dep_ in _SUBJ:
            return head.dep_ == "ROOT" or (head.dep_ == "conj" and head.head.dep_ == "ROOT")
        # Identifying copula: "The director of Inception is Christopher Nolan".
        return top.dep_ == "attr" and head.dep_ == "ROOT" and any(
            c.dep_ == "nsubj" and c.i not in self.arg_at for c in head.children)
