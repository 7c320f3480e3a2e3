"""Turns links into sentences, tracking mentions so references stay resolvable.

A pronoun or a definite description ("The film") is only written when the coreference rules
of docs/coreference.md (as `logicscore.pipeline.text.coref` implements them) resolve it to the intended
entity: otherwise the gold graph and the graph an extractor can recover would differ.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .labels import Link
from .schema import BY_NAME, NOUN

_SLOT = re.compile(r"\{(\w+)\}")


@dataclass
class Ent:
    id: int
    name: str
    type: str
    first: str = ""
    last: str = ""
    pronoun: str = ""
    role: str = "person"

    def noun(self) -> str:
        return self.role if self.type == "person" else NOUN[self.type]


@dataclass
class Unit:
    """One sentence: one or two links, or a conclusion (links=[])."""

    kind: str                  # single | merge | because | restate | conclusion
    links: list[Link]
    shared: int | None = None  # merge: the entity both links share
    answer: int | None = None  # conclusion: the entity stated as the answer


@dataclass
class Writer:
    rng: random.Random
    ents: list[Ent]
    cite_style: str = "doc"
    tags: list[str] = field(default_factory=list)
    count: dict[int, int] = field(default_factory=dict)
    described: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)        # every mention, in text order
    prev_subject: int | None = None
    prev_nonperson: list[int] = field(default_factory=list)
    _subject: int | None = None
    _sentence_ents: list[int] = field(default_factory=list)

    def tag(self, name: str) -> None:
        if name not in self.tags:
            self.tags.append(name)

    def _person(self, eid: int) -> bool:
        return self.ents[eid].type == "person"

    def _last(self, person: bool) -> int | None:
        for eid in reversed(self.order):
            if self._person(eid) == person:
                return eid
        return None

    def mention(self, eid: int, initial: bool, possessive: bool) -> str:
        ent, seen = self.ents[eid], self.count.get(eid, 0)
        self.count[eid] = seen + 1
        roll = self.rng.random()
        if ent.type == "person":
            # he/she resolve to the previous sentence's subject when no person came after it.
            if (initial and not possessive and seen and self.prev_subject == eid
                    and self._last(True) == eid and roll < 0.35):
                self.tag("pronoun")
                return ent.pronoun
            if seen and roll > 0.6:
                self.tag("alias")
                return ent.last
            return ent.name
        noun = NOUN[ent.type]
        if (initial and not possessive and eid in self.described and self._last(False) == eid
                and set(self.prev_nonperson) <= {eid} and roll < 0.5):
            self.tag("definite_description")
            return f"The {noun}"
        if not seen and not possessive and roll < 0.3:
            self.described.append(eid)
            self.tag("descriptor")
            of = " of" if ent.type in ("city", "country") else ""
            return f"{'The' if initial else 'the'} {noun}{of} {ent.name}"
        return ent.name

    def fill(self, template: str, slots: dict[str, int]) -> str:
        """Fill `{S}`-style slots left to right, so mention order is text order."""
        out: list[str] = []
        mentioned: list[int] = []
        pos = 0
        for match in _SLOT.finditer(template):
            out.append(template[pos:match.start()])
            eid = slots[match.group(1)]
            initial = not "".join(out).strip()
            possessive = template.startswith("'s", match.end())
            out.append(self.mention(eid, initial, possessive))
            mentioned.append(eid)
            pos = match.end()
        out.append(template[pos:])
        self.order.extend(mentioned)
        self._subject = mentioned[0] if template.startswith("{") else None
        self._sentence_ents.extend(mentioned)
        return "".join(out)

    def sentence(self, unit: Unit) -> str:
        self._sentence_ents = []
        self._subject = None
        body = self._body(unit)
        self.prev_subject = self._subject
        self.prev_nonperson = [e for e in self._sentence_ents if not self._person(e)]
        body = body[0].upper() + body[1:]
        if unit.kind != "conclusion" and self.cite_style != "none" and self.rng.random() < 0.55:
            n = self.rng.randint(1, 5)
            body += f" [Doc{n}]" if self.cite_style == "doc" else f" [{n}]"
            self.tag("citation")
        return body + "."

    def _body(self, unit: Unit) -> str:
        if unit.kind == "conclusion":
            lead = self.rng.choice(("So the answer is", "Therefore, the answer is",
                                    "Thus, the answer is"))
            self.tag("conclusion")
            assert unit.answer is not None  # a conclusion unit names the answer
            return f"{lead} {{A}}".replace("{A}", self.ents[unit.answer].name)
        if unit.kind == "merge":
            return self._merge(unit)
        if unit.kind == "because":
            first, second = unit.links
            left = self._single_template(first, allow_whole=False)
            right = self._single_template(second, avoid=left)
            right = right[0].lower() + right[1:]     # "because the capital of …"
            self.tag("because")
            text = self.fill(left, {"S": first.s, "O": first.o})
            subject = self._subject
            # The connective leads the second template so it never opens with "He"/"The film".
            text += self.fill(" because " + right, {"S": second.s, "O": second.o})
            self._subject = subject
            return text
        link = unit.links[0]
        template = self._single_template(link)
        if unit.kind == "restate":
            lead = self.rng.choice(("Indeed, ", "In other words, ", "As noted, "))
            self.tag("restatement")
            return self.fill(lead + template, {"S": link.s, "O": link.o})
        return self.fill(template, {"S": link.s, "O": link.o})

    def _single_template(self, link: Link, allow_whole: bool = True, avoid: str = "") -> str:
        rel = BY_NAME[link.rel]
        if link.negated:
            self.tag("negation")
            return rel.neg
        if link.hedged:
            self.tag("hedge")
            return self.rng.choice(rel.hedge)
        options = [(f, "{S} " + t) for f, t in rel.pred_s] + [(f, "{O} " + t) for f, t in rel.pred_o]
        if allow_whole:
            options += list(rel.whole)
        # "Labs's" is not how anyone writes a possessive, and it trips tokenizers: skip
        # possessive templates whose possessor's name ends in "s".
        options = [o for o in options
                   if not any(self.ents[link.s if slot == "S" else link.o].name.endswith("s")
                              for slot in re.findall(r"\{(S|O)\}'s", o[1]))] or options
        options = [o for o in options if o[1] != avoid] or options
        form, template = self.rng.choice(options)
        self.tag(form)
        return template.replace("{NS}", self.ents[link.s].noun())

    def _merge(self, unit: Unit) -> str:
        first, second = unit.links
        x = unit.shared
        assert x is not None  # a merge unit joins two links at one entity
        y1 = first.o if first.s == x else first.s
        y2 = second.o if second.s == x else second.s
        choices = []
        p1, p2 = _preds(first, x), _preds(second, x)
        n1, n2 = _nps(first, x), _nps(second, x)
        t1 = _tails(first, x)
        if p1 and p2:
            who = "who" if self._person(x) else "which"
            choices.append(("conjunction", "{X} " + self.rng.choice(p1) + " and "
                            + self.rng.choice(p2).replace("{Y}", "{Z}")))
            choices.append(("relative_clause", "{X}, " + who + " " + self.rng.choice(p1) + ", "
                            + self.rng.choice(p2).replace("{Y}", "{Z}")))
        if n1 and p2:
            form, np = self.rng.choice(n1)
            choices.append((form, "{X}, " + np + ", " + self.rng.choice(p2).replace("{Y}", "{Z}")))
        if t1 and n2:
            form, np = self.rng.choice(n2)
            choices.append((form, self.rng.choice(t1) + ", " + np.replace("{Y}", "{Z}")))
        form, template = self.rng.choice(choices)
        self.tag(form)
        return self.fill(template, {"X": x, "Y": y1, "Z": y2})


def _preds(link: Link, x: int) -> list[str]:
    rel = BY_NAME[link.rel]
    if link.s == x:
        return [t.replace("{O}", "{Y}") for _, t in rel.pred_s]
    return [t.replace("{S}", "{Y}") for _, t in rel.pred_o]


def _nps(link: Link, x: int) -> list[tuple[str, str]]:
    rel = BY_NAME[link.rel]
    if link.s == x:
        return [(f, t.replace("{O}", "{Y}")) for f, t in rel.np_s]
    return [(f, t.replace("{S}", "{Y}")) for f, t in rel.np_o]


def _tails(link: Link, x: int) -> list[str]:
    """Sentences of `link` whose last slot is `x`, so an appositive can hang off it."""
    rel = BY_NAME[link.rel]
    if link.o == x:
        return ["{Y} " + t.replace("{O}", "{X}") for _, t in rel.pred_s]
    return ["{Y} " + t.replace("{S}", "{X}") for _, t in rel.pred_o]


def can_merge(first: Link, second: Link, x: int) -> bool:
    p1, p2 = _preds(first, x), _preds(second, x)
    return bool((p1 and p2) or (_nps(first, x) and p2) or (_tails(first, x) and _nps(second, x)))
