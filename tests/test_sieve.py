"""The coreference sieve in the linker, for every extractor (docs/coreference.md).

Each pass has rows of invented text in three phrasings. The same answer is audited twice:
as `given` propositions (the linker's sieve over proposition arguments) and as prose through
the `rules` extractor (the same passes on the parse). Each chain is complete only when its
reference is resolved; the control rows without the antecedent are not.
"""

from __future__ import annotations

import pytest

from logicscore import Auditor
from logicscore.pipeline.extract import Extraction
from logicscore.models import Proposition
from logicscore.pipeline.normalize.sieve import resolve_arguments

# (pass, question, answer, given triples, prose for the rules extractor)
CASES = [
    ("identity", "Who directed the film Ana Ruiz starred in?", "Paul Moss",
     [("Ana Ruiz", "starred in", "a 2004 film"), ("the film", "is", "Red Lake"),
      ("Red Lake", "directed by", "Paul Moss")],
     "Ana Ruiz starred in a 2004 film. The film is Red Lake. Red Lake was directed by Paul Moss."),
    ("identity", "Who founded the label that signed Tavi Orr?", "Ada Morne",
     [("Tavi Orr", "signed with", "a small label"), ("this label", "was", "Velmar Records"),
      ("Ada Morne", "founded", "Velmar Records")],
     "Tavi Orr signed with a small label. This label was Velmar Records. "
     "Ada Morne founded Velmar Records."),
    ("identity", "In which city was the team Kim Lett coached founded?", "Dorrel",
     [("Kim Lett", "coached", "a football team"), ("the team in question", "is", "Vask United"),
      ("Vask United", "founded in", "Dorrel")],
     "Kim Lett coached a team. The team in question is Vask United. "
     "Vask United was founded in Dorrel."),
    ("strict head", "Who directed the film Ana Ruiz starred in?", "Paul Moss",
     [("Ana Ruiz", "starred in", "the film Red Lake"), ("the film", "directed by", "Paul Moss")],
     "Ana Ruiz starred in the film Red Lake. The film was directed by Paul Moss."),
    ("strict head", "Who founded the band Kim Lett sang in?", "Ada Morne",
     [("Kim Lett", "sang in", "the band Tarn Hollow"), ("Ada Morne", "founded", "this band")],
     "Kim Lett sang in the band Tarn Hollow. Ada Morne founded this band."),
    ("strict head", "Who recorded the song Piet Arlo wrote?", "Kim Lett",
     [("Piet Arlo", "wrote", "the song Glass Tide"), ("that song", "recorded by", "Kim Lett")],
     "Piet Arlo wrote the song Glass Tide. That song was recorded by Kim Lett."),
    ("relaxed head", "Where is the company founded by Orla Venn based?", "Dorrel",
     [("Orla Venn", "founded", "Velmar Records"), ("the company", "based in", "Dorrel")],
     "Orla Venn founded Velmar Records in 1990. The company is based in Dorrel."),
    ("relaxed head", "In which country is the town where Tomas Ebb was born?", "Norland",
     [("Tomas Ebb", "born in", "Marrow"), ("the town", "lies in", "Norland")],
     "Tomas Ebb was born in Marrow. The town lies in Norland."),
    ("relaxed head", "Who bought the label Lina Sorel founded?", "Dan Fry",
     [("Lina Sorel", "founded", "Velmar Records"), ("the label", "bought by", "Dan Fry")],
     "Lina Sorel founded Velmar Records. The label was bought by Dan Fry."),
    ("pronoun", "Where was the director of Red Lake born?", "Dorrel",
     [("Red Lake", "directed by", "Paul Moss"), ("he", "born in", "Dorrel")],
     "Red Lake was directed by Paul Moss. He was born in Dorrel."),
    ("pronoun", "Where did the author of Glass Tide study?", "Vask College",
     [("Glass Tide", "written by", "Lina Sorel"), ("she", "studied at", "Vask College")],
     "Glass Tide was written by Lina Sorel. She studied at Vask College."),
    ("pronoun", "Who owns the company that makes the Orbit?", "Ada Morne",
     [("Orbit", "made by", "Velmar Group"), ("it", "owned by", "Ada Morne")],
     "The Orbit is made by Velmar Group. It is owned by Ada Morne."),
    ("pair", "Where do Ana Ruiz and Kim Lett live?", "Dorrel",
     [("Ana Ruiz and Kim Lett", "are", "painters"), ("they", "live in", "Dorrel")],
     "Ana Ruiz and Kim Lett are painters. They live in Dorrel."),
    ("pair", "Where did Tomas Ebb and Lina Sorel teach?", "Vask College",
     [("Tomas Ebb and Lina Sorel", "studied", "law"), ("both of them", "taught at", "Vask College")],
     "Tomas Ebb and Lina Sorel studied together. Both of them taught at Vask College."),
    ("pair", "Where were Piet Arlo and Ada Morne born?", "Hollin",
     [("Piet Arlo and Ada Morne", "wrote", "novels"), ("They", "were born in", "Hollin")],
     "Piet Arlo and Ada Morne wrote novels. They were both born in Hollin."),
    ("surname", "Where was the director of Red Lake born?", "Dorrel",
     [("Red Lake", "directed by", "Paul Moss"), ("Moss", "born in", "Dorrel")],
     "Red Lake was directed by Paul Moss. Moss was born in Dorrel."),
    ("surname", "Which college did the author of Glass Tide attend?", "Vask College",
     [("Glass Tide", "written by", "Lina Sorel"), ("Sorel", "attended", "Vask College")],
     "Glass Tide was written by Lina Sorel. Sorel attended Vask College."),
    ("surname", "Whom did the founder of Velmar Records marry?", "Dan Fry",
     [("Velmar Records", "founded by", "Ada Morne"), ("Morne", "married", "Dan Fry")],
     "Velmar Records was founded by Ada Morne. Morne married Dan Fry."),
]
IDS = [f"{c[0]}-{i % 3}" for i, c in enumerate(CASES)]


def _given(question, answer, triples, auditor):
    return auditor.audit(question, answer, " ".join(f"{s} {r} {o}." for s, r, o in triples),
                         propositions=[{"subject": s, "relation": r, "object": o}
                                       for s, r, o in triples])


@pytest.fixture(scope="module")
def given():
    return Auditor("given")


@pytest.mark.parametrize(("step", "question", "answer", "triples", "prose"), CASES, ids=IDS)
def test_sieve_given_chain_complete_only_when_resolved(given, step, question, answer, triples, prose):
    assert _given(question, answer, triples, given).scores.completeness == 1
    # Without the antecedent's statement the reference points nowhere: no chain.
    assert _given(question, answer, triples[1:], given).scores.completeness == 0


@pytest.mark.slow
@pytest.mark.parametrize(("step", "question", "answer", "triples", "prose"), CASES, ids=IDS)
def test_sieve_rules_chain_complete(step, question, answer, triples, prose):
    auditor = Auditor("rules")
    assert auditor.audit(question, answer, prose).scores.completeness == 1


def _props(*triples, pattern="given"):
    return [Proposition(id=f"P{i + 1}", text=f"{s} {r} {o}.", subject=s, relation=r, object=o,
                        pattern=pattern, sentence=i) for i, (s, r, o) in enumerate(triples)]


def test_sieve_reasons_name_the_pass():
    ex = Extraction(_props(("Ana Ruiz", "starred in", "a 2004 film"), ("the film", "is", "Red Lake"),
                           ("Red Lake", "directed by", "Paul Moss"), ("he", "born in", "Dorrel")))
    got = [(r.text, r.to, r.reason) for p in resolve_arguments(ex).propositions for r in p.resolutions]
    assert got == [("a 2004 film", "Red Lake", "identity: the film is Red Lake"),
                   ("he", "Paul Moss", "last person mentioned")]


def test_sieve_pair_gives_one_proposition_per_member():
    ex = Extraction(_props(("Ana Ruiz and Kim Lett", "are", "painters"), ("both of them", "live in", "Dorrel")))
    out = resolve_arguments(ex).propositions
    assert [(p.id, p.subject, p.object) for p in out] == [
        ("P1", "Ana Ruiz and Kim Lett", "painters"), ("P2", "Ana Ruiz", "Dorrel"), ("P3", "Kim Lett", "Dorrel")]


def test_sieve_both_of_them_needs_a_written_pair():
    ex = Extraction(_props(("Velmar Group", "owns", "Orbit"), ("both of them", "based in", "Dorrel")))
    assert resolve_arguments(ex) is ex


def test_sieve_parsed_arguments_are_antecedents_only():
    # A parse-pattern argument was resolved (or left open on purpose) by the extractor.
    ex = Extraction(_props(("Paul Moss", "directed", "Red Lake"), ("he", "born in", "Dorrel"), pattern="svo"))
    assert resolve_arguments(ex) is ex


def test_sieve_identity_statement_is_not_resolved_onto_itself():
    ex = Extraction(_props(("Ana Ruiz", "starred in", "the film Red Lake"), ("the film", "is", "Red Lake")))
    out = resolve_arguments(ex).propositions
    assert [(p.subject, p.object) for p in out] == [("Ana Ruiz", "the film Red Lake"), ("the film", "Red Lake")]
