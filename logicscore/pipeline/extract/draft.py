"""Proposition drafts: what the rules extractor builds before propositions get their ids."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...models import Pattern, Proposition, Resolution


@dataclass(frozen=True, slots=True)
class SentenceBase:
    """What every proposition of one sentence shares."""

    text: str
    sentence: int
    citations: tuple[str, ...]
    span: tuple[int, int]
    hedged: bool


@dataclass(slots=True)
class Draft:
    """A proposition before it has an id: `order` sorts drafts into text order and
    `reason` keeps apart claims that would otherwise be duplicates; neither is output."""

    base: SentenceBase
    subject: str
    relation: str
    object: str
    pattern: Pattern
    negated: bool
    order: tuple[int, int, int]
    resolutions: list[Resolution] = field(default_factory=list)
    conclusion: bool = False
    reason: int | None = None

    def key(self) -> tuple:
        """Equal for two drafts that state the same claim (one of them is dropped)."""
        return (self.base.sentence, self.subject.lower(), self.relation, self.object.lower(),
                self.reason)

    def build(self, pid: str) -> Proposition:
        """The proposition with id `pid`."""
        b = self.base
        return Proposition(
            id=pid, text=b.text, sentence=b.sentence, citations=list(b.citations), span=b.span,
            hedged=b.hedged, subject=self.subject, relation=self.relation, object=self.object,
            pattern=self.pattern, negated=self.negated, resolutions=self.resolutions,
            conclusion=self.conclusion)
