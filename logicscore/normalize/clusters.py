"""Mention records and clusters, the building blocks of entity linking (`entities`) and of
matching question entities and the answer to them (`external`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import EntityKind
from .mentions import DATE, NUMBER, Form, compare, normalize

# Fuzzy comparisons per mention are capped so adversarial inputs stay bounded.
MAX_FUZZY_FORMS = 400
# Likewise the forms searched for what an abbreviation stands for, and the abbreviations
# resolved inside one text.
MAX_ABBREVIATION_CHECKS = 2000
MAX_ABBREVIATIONS = 40


@dataclass
class Rec:
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
class Cluster:
    recs: list[Rec] = field(default_factory=list)
    forms: dict[str, Form] = field(default_factory=dict)

    @property
    def person(self) -> bool:
        return any(r.person or r.kind == "person" or r.form.person_hint for r in self.recs)


def best(clusters: list[Cluster], form: Form, threshold: float,
          persons: bool) -> tuple[int, tuple[int, float, str]] | None:
    """The cluster `form` matches most strongly by the mention rules, and how."""
    top: tuple[int, tuple[int, float, str]] | None = None
    budget = MAX_FUZZY_FORMS
    for ci, cluster in enumerate(clusters):
        if cluster.recs[0].pronoun:
            continue
        for other in cluster.forms.values():
            budget -= 1
            hit = compare(form, other, threshold, persons and cluster.person)
            if hit and (top is None or hit[:2] > top[1][:2]):
                top = (ci, hit)
        if budget <= 0:
            break
    return top


def absorb(target: Cluster, other: Cluster, reason: str) -> None:
    """Move `other`'s mentions into `target`, recording why unless a finer reason exists."""
    for rec in other.recs:
        if rec.reason is None or rec.reason in ("exact", "normalized"):
            rec.reason = reason
    target.recs.extend(other.recs)
    target.forms.update(other.forms)


def kind_of(cluster: Cluster, name: str) -> EntityKind:
    """Majority NER kind of the mentions; regex for dates and numbers; person hints."""
    order = ["person", "place", "org", "work", "date", "number"]
    counts = {k: sum(r.kind == k for r in cluster.recs) for k in order}
    top = max(order, key=lambda k: (counts[k], -order.index(k)))
    if counts[top]:
        return top  # type: ignore[return-value]
    key = normalize(name)
    if DATE.match(key):
        return "date"
    if NUMBER.match(key):
        return "number"
    return "person" if cluster.person else "other"
