"""Mention records and clusters, the building blocks of entity linking (`entities`) and of
matching question entities and the answer to them (`external`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from ...models import EntityKind
from ..text.mentions import DATE, NUMBER, Form, compare, normalize, reads_persons

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


class FormIndex:
    """The clusters' forms, indexed so that one lookup compares only those that can match.

    What it stands for: comparing a form with the forms of the clusters in order until
    MAX_FUZZY_FORMS forms have been compared (pronoun clusters skipped), keeping the first
    strongest hit.
    Every rule of `compare` but fuzzy similarity needs a word in common (equal keys,
    containment, first and last name, tail, inner, polity, regnal name), and both fuzzy
    rules need `fuzz.ratio` ≥ threshold - 5; so comparing only the forms sharing a word or
    passing that ratio (rapidfuzz, over all the eligible keys at once) in the same order
    gives the same answer as comparing them all.

    Built from a cluster list as it is, or grown with `add` while clusters are being formed
    (a form is added to a cluster once, at the end of its `forms`).
    """

    def __init__(self, clusters: list[Cluster], threshold: float):
        self.clusters = clusters
        # Below this ratio no fuzzy rule of `compare` can accept (the epsilon only widens).
        self.threshold = threshold
        self.cutoff = min(100.0, threshold + 7, threshold - 5) - 1e-6
        self.sizes: dict[int, int] = {}  # forms added per cluster
        self.total = 0
        # The last cluster compared once the budget is spent; None: every cluster is.
        self.limit: int | None = None
        self.entries: list[tuple[int, int, Form]] = []  # (cluster, position in its forms, form)
        self.keys: list[str] = []
        self.words: dict[str, list[int]] = {}
        for ci, cluster in enumerate(clusters):
            if self.limit is not None:
                break
            if cluster.recs and cluster.recs[0].pronoun:
                continue
            for f in cluster.forms.values():
                self.add(ci, f)

    def add(self, ci: int, form: Form) -> None:
        """Record that `form` was just added at the end of cluster `ci`'s forms."""
        if self.limit is not None and ci > self.limit:
            return  # past the budget now, and the budget only moves earlier as clusters grow
        j = self.sizes.get(ci, 0)
        self.sizes[ci] = j + 1
        self.total += 1
        self._index(len(self.entries), (ci, j, form))
        if self.limit is not None or self.total >= MAX_FUZZY_FORMS:
            self._shrink()

    def _index(self, at: int, entry: tuple[int, int, Form]) -> None:
        self.entries.append(entry)
        self.keys.append(entry[2].key)
        for word in set(entry[2].tokens) | {entry[2].key}:
            self.words.setdefault(word, []).append(at)

    def _shrink(self) -> None:
        """Move the limit to the cluster where the budget runs out; drop what lies past it."""
        spent, limit = 0, None
        for ci in sorted(self.sizes):
            spent += self.sizes[ci]
            if spent >= MAX_FUZZY_FORMS:
                limit = ci
                break
        if limit is None or limit == self.limit:
            return
        self.limit = limit
        self.sizes = {ci: n for ci, n in self.sizes.items() if ci <= limit}
        kept = [e for e in self.entries if e[0] <= limit]
        self.entries, self.keys, self.words = [], [], {}
        for entry in kept:
            self._index(len(self.entries), entry)

    def best(self, form: Form, persons: bool) -> tuple[int, tuple[int, float, str]] | None:
        """The cluster `form` matches most strongly by `compare`, and how: the first of the
        strongest hits, in the clusters' order."""
        if not form.key:
            return None  # `compare` accepts nothing without a key
        found: set[int] = set()
        words = self.words
        for word in (*form.tokens, form.key):  # a set collects each entry once
            if word in words:
                found.update(words[word])
        if len(form.key) >= 4 and self.keys:
            found.update(i for _, _, i in process.extract(
                form.key, self.keys, scorer=fuzz.ratio, processor=None, limit=None,
                score_cutoff=max(0.0, self.cutoff)))
        if not found:
            return None
        top: tuple[int, tuple[int, float, str]] | None = None
        for ci, _, other in sorted(map(self.entries.__getitem__, found), key=_place):
            # The cluster's person test walks its mentions: asked only where `compare` reads it.
            person = persons and reads_persons(form, other) and self.clusters[ci].person
            hit = compare(form, other, self.threshold, person)
            if hit and (top is None or hit[:2] > top[1][:2]):
                top = (ci, hit)
        return top


def _place(entry: tuple[int, int, Form]) -> tuple[int, int]:
    """Where an indexed form stands: its cluster, then its position in the cluster's forms."""
    return entry[0], entry[1]


def absorb(target: Cluster, other: Cluster, reason: str) -> None:
    """Move `other`'s mentions into `target`, recording why unless a finer reason exists."""
    for rec in other.recs:
        if rec.reason is None or rec.reason in ("exact", "normalized"):
            rec.reason = reason
    target.recs.extend(other.recs)
    target.forms.update(other.forms)


# The kinds `kind_of` may vote for, in the order that breaks a tie.
_KIND_ORDER: tuple[EntityKind, ...] = ("person", "place", "org", "work", "date", "number")


def kind_of(cluster: Cluster, name: str) -> EntityKind:
    """Majority NER kind of the mentions; regex for dates and numbers; person hints."""
    counts: dict[str, int] = {}
    for r in cluster.recs:
        counts[r.kind] = counts.get(r.kind, 0) + 1
    top, most = None, 0
    for kind in _KIND_ORDER:  # the first of the most frequent
        if counts.get(kind, 0) > most:
            top, most = kind, counts[kind]
    if top is not None:
        return top
    key = normalize(name)
    if DATE.match(key):
        return "date"
    if NUMBER.match(key):
        return "number"
    return "person" if cluster.person else "other"
