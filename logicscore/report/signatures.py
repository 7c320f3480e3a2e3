"""Whether runs can be compared: one signature per run, the same in the baseline, and grounded
records compared with grounded ones (docs/gate-ci.md, "Signatures").

A refusal names each key that differs and what most likely made it differ, so the message
says what to do rather than only that two strings differ.
"""

from __future__ import annotations

from .aggregate import Aggregate
from ..signature import Signature, differences

# The likely cause of a key differing between the records of one run, by key (a prefix).
_CAUSES = (
    ("ground", "some records carry documents and were scored by a logicscore that put the grounder "
               "in their signature (it is `meta.grounder` now): rescore the run"),
    ("spacy", "the spaCy model loaded part-way through the run (the records before it needed no "
              "parse): rescore the run"),
    ("structured", "the LLM endpoint's structured-output mode was settled after the first records"),
)
_OTHER = "the file joins runs scored with different settings"


def _causes(keys: list[str]) -> list[str]:
    found = [cause for prefix, cause in _CAUSES if any(k.startswith(prefix) for k in keys)]
    return found or [_OTHER]


def _keys(a: str, b: str) -> list[str]:
    try:
        x, y = Signature.parse(a).as_dict(), Signature.parse(b).as_dict()
    except ValueError:
        return []
    return [k for k in dict.fromkeys([*x, *y]) if x.get(k) != y.get(k)]


def mix(sigs: list[str]) -> str:
    """The keys that differ between a run's signatures and their likely cause, in one phrase."""
    differ = [d for other in sigs[1:] for d in differences(sigs[0], other)]
    keys = [k for other in sigs[1:] for k in _keys(sigs[0], other)]
    return f"{'; '.join(differ)}: likely {'; or '.join(_causes(keys))}"


def mixed(run: Aggregate) -> str | None:
    """Why the run's records carry more than one signature; None when they carry one."""
    sigs = run.signature_list()
    if len(sigs) < 2:
        return None
    return (f"the run mixes {len(sigs)} signatures ({mix(sigs)}). Gate one configuration at a "
            "time, or pass --allow-signature-change to compare them anyway")


def changed(run: Aggregate, baseline: Aggregate) -> str | None:
    """How the baseline's settings differ from the run's, its grounded records' grounder
    included; None when they are comparable. A run that grounds records its baseline did not
    (or the other way) is comparable: only grounded records are compared with grounded ones."""
    sigs, base = run.signature_list(), baseline.signature_list()
    if base != sigs:
        differ = "; ".join(differences(base[0], sigs[0])) if len(base) == len(sigs) == 1 else (
            f"{' ; '.join(base)} → {' ; '.join(sigs)}")
        return (f"the baseline and the run were audited with different settings ({differ}); "
                "rescore the baseline with the same settings or pass --allow-signature-change")
    old, new = list(baseline.grounders), list(run.grounders)
    if old and new and old != new:
        differ = "; ".join(differences(old[0], new[0])) if len(old) == len(new) == 1 else (
            f"{' ; '.join(old)} → {' ; '.join(new)}")
        return (f"the baseline's records with documents were grounded with other settings ({differ}); "
                "rescore the baseline with the same --grounding or pass --allow-signature-change")
    return None
