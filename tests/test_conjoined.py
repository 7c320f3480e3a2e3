"""Pass `conjoined_arguments`: a claim of "A and B" is a claim of each, when each is written
alone elsewhere (docs/coreference.md). Invented text throughout."""

from __future__ import annotations

import pytest

from logicscore.models import Proposition
from logicscore.pipeline.flow import ExtractedMention, Extraction
from logicscore.pipeline.normalize.conjoined import split_conjoined


def _p(pid: str, s: str, r: str, o: str) -> Proposition:
    return Proposition(id=pid, text=f"{s} {r} {o}.", subject=s, relation=r, object=o)


def _mention(text: str) -> ExtractedMention:
    return ExtractedMention(text, 0, len(text), "org")


# Three ways to write the two names together.
JOINED = ["Grey Orchard and Glass Tide", "both Grey Orchard and Glass Tide", "Grey Orchard, and Glass Tide"]


@pytest.mark.parametrize("joined", JOINED)
def test_a_conjunction_of_names_written_alone_is_split(joined):
    props = [_p("P1", "Lee Oram", "drum for", "Grey Orchard"),
             _p("P2", "Ana Ruiz", "sing for", "Glass Tide"),
             _p("P3", "dream pop", "genre of", joined)]
    out = split_conjoined(Extraction(props, [_mention(joined), _mention("Glass Tide")]))
    assert [(p.id, p.subject, p.object) for p in out.propositions] == [
        ("P1", "Lee Oram", "Grey Orchard"), ("P2", "Ana Ruiz", "Glass Tide"),
        ("P3", "dream pop", "Grey Orchard"), ("P4", "dream pop", "Glass Tide")]
    assert joined not in {m.text for m in out.mentions}


@pytest.mark.parametrize("joined", [
    "Orn and Vask",            # a name with "and" in it: never written apart
    "Grey Orchard and Vask",   # one part never written alone
    "rock and roll",
])
def test_a_name_with_and_stays_whole(joined):
    props = [_p("P1", "Lee Oram", "drum for", "Grey Orchard"), _p("P2", "Ana Ruiz", "join", joined)]
    extraction = Extraction(props, [_mention(joined)])
    assert split_conjoined(extraction) is extraction


@pytest.mark.parametrize("joined", JOINED)
def test_the_linker_ties_the_claim_to_each_name(joined):
    from logicscore.pipeline.normalize.entities import link

    props = [_p("P1", "Lee Oram", "drum for", "Grey Orchard"),
             _p("P2", "Ana Ruiz", "sing for", "Glass Tide"),
             _p("P3", "dream pop", "genre of", joined)]
    linked = link(Extraction(props, [_mention(joined)]), [], "dream pop")
    names = {e.id: e.name for e in linked.entities}
    shared = {names[p.object_entity] for p in linked.propositions if p.subject == "dream pop"}
    assert shared == {"Grey Orchard", "Glass Tide"}
    assert joined not in names.values()
