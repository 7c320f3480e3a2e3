"""Determinateness verdicts, rules path (docs/metrics.md)."""

from __future__ import annotations

import pytest

from logicscore.pipeline.chain import analyze
from logicscore.pipeline.determinate import functional, judge, relation_key, restates_question
from logicscore.pipeline.extract import Extraction
from logicscore.models import Proposition, QuestionEntity
from logicscore.pipeline.normalize.entities import link


def audit(triples, question_entities, answer, question=""):
    props = []
    for i, (s, r, o, *flags) in enumerate(triples):
        flag = flags[0] if flags else ""
        props.append(Proposition(
            id=f"P{i + 1}", text=f"{s} {r} {o}.", subject=s, relation=r, object=o,
            pattern="given", sentence=i, negated="neg" in flag, conclusion="concl" in flag))
    linked = link(Extraction(props), [QuestionEntity(name=n) for n in question_entities], answer)
    result = analyze(linked.propositions, linked.answer_entity, linked.question,
                     entities=linked.entities, answer_text=answer)
    return judge(question, linked, result), result


SEED = [
    ("John Smith", "born in", "Springfield"),
    ("John Smith", "starred in", "Inception"),
    ("Inception", "director", "Christopher Nolan"),
    ("Springfield", "located in", "Illinois"),
]
Q = "Who directed the film starring the actor born in Springfield?"


@pytest.mark.parametrize("triples, answer, verdict", [
    # Complete chain ending at SA, nothing competing.
    (SEED, "Christopher Nolan", "entailed"),
    # The seed broken example: no chain, nothing stated.
    ([("J.K. Rowling", "wrote", "Harry Potter"), ("United Kingdom", "has population", "67 million")],
     "United Kingdom", "underdetermined"),
    # Another director for the final relation: contradicted.
    (SEED + [("Inception", "director", "Tim Burton")], "Christopher Nolan", "contradicted"),
    # Passive and active voice name the same functional relation.
    (SEED + [("Tim Burton", "directed", "Inception")], "Christopher Nolan", "contradicted"),
    # A director directing another film is no competitor for this film's director.
    (SEED + [("Christopher Nolan", "directed", "Memento")], "Christopher Nolan", "entailed"),
    # SA negated against the chain's bridge entity.
    (SEED + [("Inception", "director", "Christopher Nolan", "neg")], "Christopher Nolan", "contradicted"),
    # A conclusion naming another answer.
    (SEED + [("the answer", "is", "Tim Burton", "concl")], "Christopher Nolan", "contradicted"),
    # SA stated explicitly as the answer, even without a complete chain.
    (SEED[2:3] + [("So the answer", "is", "Christopher Nolan", "concl")], "Christopher Nolan", "entailed"),
    # A proposition whose other side restates the question.
    ([("the director of the film starring the actor born in Springfield", "is", "Christopher Nolan")],
     "Christopher Nolan", "entailed"),
    # A multi-valued final relation with two values: LA yields no single answer.
    ([("John Smith", "born in", "Springfield"), ("John Smith", "starred in", "Inception"),
      ("John Smith", "starred in", "Memento")], "Inception", "underdetermined"),
    # SA never named and no conclusion.
    (SEED[:2], "Christopher Nolan", "underdetermined"),
    # A negated claim about SA unrelated to the chain does not contradict.
    (SEED + [("Christopher Nolan", "born in", "Paris", "neg")], "Christopher Nolan", "entailed"),
])
def test_determinate_verdicts(triples, answer, verdict):
    assert audit(triples, ["Springfield"], answer, Q)[0] == verdict


LOC = [
    ("Kim Lee", "joined", "The Quartet"),
    ("The Quartet", "is based in", "Tarova"),
]
QL = "Where is the band that Kim Lee joined based?"


@pytest.mark.parametrize("extra, verdict", [
    ([], "entailed"),
    # A second value for the final relation, in other words: contradicted (docs/metrics.md).
    ([("The Quartet", "is headquartered in", "Kasheim")], "contradicted"),
    ([("Kasheim", "is the home of", "The Quartet")], "contradicted"),
    # Tarova's being home to another band competes with nothing.
    ([("Tarova", "is the home of", "The Ensemble")], "entailed"),
    # Tarova lying in a country is another relation's value, not a second base.
    ([("Tarova", "lies in", "Quenovia")], "entailed"),
])
def test_determinate_paraphrased_competitor(extra, verdict):
    assert audit(LOC + extra, ["Kim Lee"], "Tarova", QL)[0] == verdict


@pytest.mark.parametrize("triples, answer, verdict", [
    # "X was directed by A" then "The director of X is B".
    ([("Inception", "was directed by", "Christopher Nolan"),
      ("Tim Burton", "director of", "Inception")], "Christopher Nolan", "contradicted"),
    # The answer as the film: another film's director is no competitor.
    ([("Christopher Nolan", "is the director of", "Inception"),
      ("Christopher Nolan", "directed", "Memento")], "Inception", "underdetermined"),
    # Co-founders are common: founding is not functional, so two founders leave LA with no
    # single answer, not with a contradiction.
    ([("Acme", "was founded by", "Christopher Nolan"), ("Tim Burton", "founded", "Acme")],
     "Christopher Nolan", "underdetermined"),
    # Capital is functional both ways.
    ([("Linines", "capital of", "Oronia"), ("Linines", "is the capital of", "Zaneria")],
     "Oronia", "contradicted"),
])
def test_determinate_relation_families(triples, answer, verdict):
    anchor = triples[0][0] if triples[0][0] != answer else triples[0][2]
    assert audit(triples, [anchor], answer, "")[0] == verdict


def test_determinate_answer_absent_with_other_conclusion():
    verdict, result = audit(SEED[:2] + [("answer", "is", "Tim Burton", "concl")], ["Springfield"],
                            "Christopher Nolan", Q)
    assert result.diagnosis.answer_absent and verdict == "contradicted"


@pytest.mark.parametrize("relation, key", [
    ("directed by", (("direc",), True)),
    ("director", (("direc",), False)),
    ("was not born in", (("born",), False)),
    ("wrote", (("writ",), False)),
])
def test_determinate_relation_key(relation, key):
    assert relation_key(relation) == key


@pytest.mark.parametrize("s, r, o, entity, expected", [
    ("X", "born in", "A", "X", True),
    ("X", "directed by", "A", "X", True),
    ("X", "director", "A", "X", True),
    ("X", "directed", "A", "X", False),   # a director directs many films
    ("A", "directed", "X", "X", True),    # but a film has one director
    ("X", "starred in", "A", "X", False),
    ("X", "is the home of", "A", "A", True),   # A is based in one place
    ("X", "is the home of", "A", "X", False),  # a city is home to many
    ("A", "founded", "X", "X", False),         # co-founders
    ("X", "married to", "A", "A", True),       # symmetric, both sides
    ("X", "has population", "A", "X", False),  # unknown phrase: stem fallback
])
def test_determinate_functional(s, r, o, entity, expected):
    p = Proposition(id="P1", text="", subject=s, relation=r, object=o, pattern="given",
                    subject_entity=s, object_entity=o)
    assert functional(p, entity) is expected


@pytest.mark.parametrize("text, loose, expected", [
    ("the director of the film starring the actor born in Springfield", False, True),
    ("the director", True, True),
    ("the director", False, False),
    ("Illinois", False, False),
])
def test_determinate_restates_question(text, loose, expected):
    assert restates_question(text, Q, loose=loose) is expected
