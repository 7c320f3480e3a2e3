"""A completeness plugin that leaves an incomplete chain undecided, as the rules hop stage of
issue 40 leaves what the text cannot show: the built-in stage runs, then its chain is marked
`undecided` with an `unverified` signal. The integrations and the pytest plugin are tested on
the records a real Auditor makes this way (scores.completeness null)."""

from __future__ import annotations

from logicscore.models import Signal

WHY = "every entity is written but the rules could not join them"


class Undecided:
    """The wrapped stage's analysis, with an incomplete chain left undecided."""

    def __init__(self, inner):
        self.inner = inner
        self.name, self.Config, self.question_types = inner.name, inner.Config, inner.question_types

    def signature(self):
        return self.inner.signature()

    def complete(self, record, linked, reading):
        done = self.inner.complete(record, linked, reading)
        if not done.result.complete:
            done.result.undecided = WHY
            done.signals.append(Signal(kind="unverified", severity="info", message=WHY))
        return done


def leave_undecided(auditor):
    """`auditor` with every completeness stage wrapped (it is changed in place and returned)."""
    auditor.completeness = {name: Undecided(stage) for name, stage in auditor.completeness.items()}
    auditor.completeness_of = {t: auditor.completeness[s.name] for t, s in auditor.completeness_of.items()}
    return auditor
