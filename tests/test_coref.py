"""Rule-based coreference: the pure resolver, and references found in parsed text."""

from __future__ import annotations

import pytest

from logicscore.pipeline.text.coref import Antecedent, Reference, noun_class, resolve


def ent(name, start, sentence, kind="other", subject=False, heads=(), plural=False):
    return Antecedent(name, start, sentence, kind, subject, tuple(heads), plural)


def ref(text, start, sentence, kind, head=None, subject=True):
    return Reference(text, start, start + len(text), sentence, kind, head, subject)


# (antecedents, references, expected [(ref text, resolved name, reason start)])
RESOLVE_CASES = [
    pytest.param(
        [ent("John Smith", 0, 0, "person", subject=True), ent("Springfield", 20, 0, "place")],
        [ref("He", 40, 1, "person")],
        [("He", "John Smith", "previous sentence's person subject")],
        id="he-previous-subject",
    ),
    pytest.param(
        [ent("John Smith", 0, 0, "person", subject=True), ent("Jane Doe", 20, 0, "person")],
        [ref("She", 40, 1, "person")],
        [("She", "Jane Doe", "last person mentioned")],
        id="she-another-person-came-after",
    ),
    pytest.param(
        [ent("John Smith", 0, 0, "person", subject=True), ent("Springfield", 20, 0, "place"),
         ent("Inception", 50, 1, "work")],
        [ref("He", 40, 1, "person"), ref("It", 70, 2, "thing")],
        [("He", "John Smith", "previous"), ("It", "Inception", "last non-person entity")],
        id="it-skips-person-subject",
    ),
    pytest.param(
        [ent("Inception", 0, 0, "work", subject=True), ent("Nolan", 30, 0, "person")],
        [ref("It", 40, 1, "thing")],
        [("It", "Inception", "previous sentence's non-person subject")],
        id="it-previous-non-person-subject",
    ),
    pytest.param(
        [ent("Inception", 10, 0, "work", heads=("film",)), ent("Paris", 40, 1, "place", subject=True)],
        [ref("the film", 60, 2, "thing", head="film")],
        [("the film", "Inception", "head noun 'film'")],
        id="definite-description-head-seen",
    ),
    pytest.param(
        [ent("Paris", 0, 0, "place", subject=True), ent("Inception", 30, 0, "work")],
        [ref("the film", 60, 1, "thing", head="film")],
        [("the film", "Inception", "last work entity")],
        id="definite-description-kind-compatible",
    ),
    # The kind its noun names comes first: "the band" after a song and its band.
    pytest.param(
        [ent("Blue Reed", 0, 0, "work", subject=True), ent("Velmar Group", 30, 0, "org")],
        [ref("the band", 60, 1, "thing", head="band")],
        [("the band", "Velmar Group", "last org entity")],
        id="definite-description-kind-first",
    ),
    pytest.param(
        [ent("John Smith", 0, 0, "person", subject=True), ent("Nolan", 30, 0, "person")],
        [ref("the director", 60, 1, "person", head="director")],
        [("the director", "Nolan", "last person mentioned")],
        id="person-description",
    ),
    pytest.param(
        [ent("Radiohead", 0, 0, "org", subject=True, plural=True), ent("Oxford", 30, 0, "place")],
        [ref("They", 40, 1, "plural")],
        [("They", "Radiohead", "previous subject is plural")],
        id="they-plural-subject",
    ),
    pytest.param(
        [ent("Nolan", 0, 0, "person", subject=True)],
        [ref("It", 40, 1, "thing")],
        [],
        id="it-without-non-person-stays-unresolved",
    ),
    pytest.param(
        [ent("2010", 0, 0, "date"), ent("Inception", 10, 0, "work", subject=True)],
        [ref("its", 40, 1, "thing", subject=False)],
        [("its", "Inception", "previous sentence's non-person subject")],
        id="its-never-a-date",
    ),
    pytest.param(
        [ent("Rowling", 0, 0, "other", subject=True)],
        [ref("She", 30, 1, "person")],
        [("She", "Rowling", "previous subject (no person found)")],
        id="unlabelled-subject-fallback",
    ),
    pytest.param(
        [ent("John Smith", 0, 0, "person", subject=True), ent("Springfield", 20, 0, "place")],
        [ref("He", 40, 1, "person"), ref("He", 80, 2, "person")],
        [("He", "John Smith", "previous"), ("He", "John Smith", "previous")],
        id="resolved-pronoun-chains",
    ),
]


@pytest.mark.parametrize(("antecedents", "references", "expected"), RESOLVE_CASES)
def test_coref_resolve(antecedents, references, expected):
    got = resolve(antecedents, references)
    assert [(r.ref.text, r.to.name) for r in got] == [(t, n) for t, n, _ in expected]
    for r, (_, _, reason) in zip(got, expected):
        assert r.reason.startswith(reason)


@pytest.mark.parametrize(("noun", "kind"), [
    ("film", "work"), ("band", "org"), ("city", "place"), ("director", "person"), ("idea", None),
])
def test_coref_noun_class(noun, kind):
    assert noun_class(noun) == kind


@pytest.fixture(scope="session")
def nlp():
    from logicscore.parsing.loader import load

    return load()


# (text, expected [(reference text, kind, head)])
FIND_CASES = [
    ("John Smith was born there. He starred in it.", [("He", "person", None), ("it", "thing", None)]),
    ("Its director is Nolan.", [("Its", "thing", None)]),
    ("The film was a hit.", [("The film", "thing", "film")]),
    ("They toured Europe.", [("They", "plural", None)]),
    # Restrictive modifiers and identifying copulas are not anaphors; nor is pleonastic "it".
    ("The director of Inception is Nolan.", []),
    ("The film directed by Nolan won.", []),
    ("The film is Inception.", []),
    ("It is unclear whether Nolan won.", []),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "expected"), FIND_CASES)
def test_coref_find_references(nlp, text, expected):
    from logicscore.pipeline.text.coref import find_references

    doc = nlp(text)
    names = {t.i for t in doc if t.pos_ == "PROPN"}  # what the extractor passes as mentions
    got = find_references(doc, names)
    assert [(r.text, r.kind, r.head) for r in got] == expected


# End to end through the extractor: (long answer, expected [(reference, resolved to)])
PIPELINE_CASES = [
    ("John Smith was born in Springfield. He starred in Inception. It was directed by Nolan.",
     [("He", "John Smith"), ("It", "Inception")]),
    ("John Smith starred in the film Inception. The film was directed by Nolan.",
     [("The film", "Inception")]),
    ("Inception was directed by Nolan. Its score was written by Hans Zimmer.",
     [("Its", "Inception")]),
    # A noun of no known kind joins only the mention it was seen with (strict head).
    ("The Velmar Awards ceremony took place in 2013. Red Lake was nominated at this ceremony.",
     [("this ceremony", "Velmar Awards")]),
    ("The 38th Annual Velmar Awards ceremony was held in Dorrel. The film that won at the "
     "ceremony is Red Lake.", [("the ceremony", "Annual Velmar Awards")]),
    ("Orn Lake froze during the Grey Fen expedition. Ana Ruiz led that expedition.",
     [("that expedition", "Grey Fen")]),
    # ... and to nothing when no mention was seen with it.
    ("Ana Ruiz attended the Velmar Awards. Red Lake was nominated at this ceremony.", []),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "expected"), PIPELINE_CASES)
def test_coref_through_extractor(text, expected):
    from logicscore.pipeline.extract.rules import RulesExtractor
    from logicscore.models import QARecord

    record = QARecord(id="c", question="q?", answer="a", long_answer=text)
    props = RulesExtractor().extract(record, []).propositions
    got = []
    for p in props:
        for r in p.resolutions:
            if (r.text, r.to) not in got:
                got.append((r.text, r.to))
            assert text[r.span[0]:r.span[1]] == r.text
            assert r.reason
    assert got == expected


def test_coref_titled_sentence_prefers_its_title():
    # "Before Sunset: He …": NER leaves the title's kind unknown; the body is about it.
    title = Antecedent("Yuen Shun-yi", 0, 0, "other", subject=True, topic=True)
    out = resolve([title], [ref("He", 14, 0, "person")])
    assert [(r.ref.text, r.to.name, r.reason) for r in out] == [
        ("He", "Yuen Shun-yi", "the sentence's title")]


def test_coref_titled_sentence_plural():
    title = Antecedent("Nashua Pride", 0, 0, "other", subject=True, topic=True)
    out = resolve([title], [ref("They", 14, 0, "plural")])
    assert [r.to.name for r in out] == ["Nashua Pride"]


def _titled(kind: str) -> Antecedent:
    return Antecedent("Huma Gun Anmogaldi", 0, 1, kind, subject=True, topic=True)


def test_coref_titled_sentence_it_beats_earlier_things():
    # NER tags many film titles PERSON; "It" as the body's subject is still the title.
    earlier = Antecedent("Italian", 0, 0, "other")
    it = Reference("It", 20, 22, 1, "thing", subject=True)
    out = resolve([earlier, _titled("person")], [it])
    assert [(r.to.name, r.reason) for r in out] == [("Huma Gun Anmogaldi", "the sentence's title")]


def test_coref_titled_sentence_description_beats_head_noun_history():
    # "Evan Almighty: The film was directed by …" after another film was mentioned.
    earlier = Antecedent("Lassie Come-Home", 0, 0, "work", heads=("film",))
    the_film = Reference("The film", 20, 28, 1, "thing", head="film", subject=True)
    out = resolve([earlier, _titled("other")], [the_film])
    assert [r.to.name for r in out] == ["Huma Gun Anmogaldi"]


@pytest.mark.parametrize(("ref_", "title_kind", "expected"), [
    (Reference("the film", 40, 48, 1, "thing", head="film", subject=False), "other", "Lassie"),
    (Reference("He", 20, 22, 1, "person", subject=True), "work", None),
    (Reference("The city", 20, 28, 1, "thing", head="city", subject=True), "work", "Lassie"),
])
def test_coref_titled_sentence_limits(ref_, title_kind, expected):
    # Only the body's subject, and never across a known clash of kinds.
    earlier = Antecedent("Lassie", 0, 0, "other", heads=("film", "city"))
    out = resolve([earlier, _titled(title_kind)], [ref_])
    assert [r.to.name for r in out] == ([expected] if expected else [])


# The sieve's passes, by name, most precise first.
def test_coref_passes_in_order():
    from logicscore.pipeline.text.coref import PASSES

    assert [name for name, _ in PASSES] == ["title", "strict head", "relaxed head", "pronoun"]


def test_coref_description_before_pronoun_across_text():
    # A description after a pronoun is resolved in its own (earlier) pass, and the pronoun
    # then sees it: both point to the film, not the person.
    ants = [ent("Orla Venn", 0, 0, "person", subject=True),
            ent("Marrow Bay", 25, 0, "work", heads=("film",))]
    refs = [ref("The film", 50, 1, "thing", head="film"), ref("it", 80, 1, "thing", subject=False)]
    got = resolve(ants, refs)
    assert [(r.ref.text, r.to.name) for r in got] == [("The film", "Marrow Bay"), ("it", "Marrow Bay")]


def test_coref_object_never_its_own_subject():
    # "Tavi Orr performed in this film": the object is bound away from its verb's subject.
    ants = [Antecedent("Glass Tide", 0, 0, "work"),
            Antecedent("Tavi Orr", 30, 1, "work", subject=True, token=7)]
    this_film = Reference("this film", 50, 59, 1, "thing", head="film", subject=False,
                          bound=frozenset({7}))
    assert [r.to.name for r in resolve(ants, [this_film])] == ["Glass Tide"]


# Identity statements give a name its description's head noun, so a later description of
# that kind points to it (three phrasings each; invented names).
IDENTITY_CASES = [
    ("The film starring Orla Venn is Marrow Bay. Tavi Orr wrote music for this film.",
     [("this film", "Marrow Bay")]),
    ("The movie in question was Glass Tide. The Pell Quartet performed in the movie.",
     [("the movie", "Glass Tide")]),
    ("Marrow Bay is a 2004 film by Orla Venn. The band Tarn Hollow recorded a song for the film.",
     [("the film", "Marrow Bay")]),
    ("The singer of the band was Kim Lett. Ada Morne toured with this singer in 1990.",
     [("this singer", "Kim Lett")]),
    ("The organization that Ada Morne led is the Northern Reed League. Piet Arlo later joined "
     "this organization.", [("this organization", "Northern Reed League")]),
    ("Piet Arlo is the novelist who wrote Glass Tide. Ada Morne reviewed the novelist's books.",
     [("the novelist", "Piet Arlo")]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "expected"), IDENTITY_CASES)
def test_coref_identity_statement_then_description(text, expected):
    from logicscore.pipeline.extract.rules import RulesExtractor
    from logicscore.models import QARecord

    record = QARecord(id="c", question="q?", answer="a", long_answer=text)
    props = RulesExtractor().extract(record, []).propositions
    got = []
    for p in props:
        for r in p.resolutions:
            if (r.text, r.to) not in got:
                got.append((r.text, r.to))
    assert got == expected


# "They" / "both of them" after a conjoined pair: each of the pair (invented text).
PAIR_CASES = [
    ("Ana Ruiz and Kim Lett are painters. They live in Dorrel.", ("Ana Ruiz", "Kim Lett"), "Dorrel"),
    ("Tomas Ebb and Lina Sorel studied together. Both of them taught at Vask College.",
     ("Tomas Ebb", "Lina Sorel"), "Vask College"),
    ("Piet Arlo and Ada Morne wrote novels. They were both born in Hollin.",
     ("Piet Arlo", "Ada Morne"), "Hollin"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "pair", "place"), PAIR_CASES)
def test_coref_plural_pronoun_to_conjoined_pair(text, pair, place):
    from logicscore.pipeline.extract.rules import RulesExtractor
    from logicscore.models import QARecord

    record = QARecord(id="c", question="q?", answer="a", long_answer=text)
    props = RulesExtractor().extract(record, []).propositions
    assert set(pair) <= {p.subject for p in props if p.object == place}
