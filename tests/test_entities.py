"""Mention normalization and entity linking."""

from __future__ import annotations

import pytest

from linking import entity_of, props

from logicscore.pipeline.extract import Extraction, Mention
from logicscore.models import Proposition, QuestionEntity, Resolution
from logicscore.pipeline.normalize.entities import link, normalize, same_answer


@pytest.mark.parametrize("text, expected", [
    ("the film Inception", "inception"),
    ("the city of Springfield", "springfield"),
    ("Inception (film)", "inception"),
    ("the 2010 film Inception", "inception"),
    ("Christopher Nolan's film Inception", "inception"),
    ("the American film director Christopher Nolan", "christopher nolan"),
    ("J. K. Rowling", "jk rowling"),
    ("J.K. Rowling", "jk rowling"),
    ("JK Rowling's", "jk rowling"),
    ("Émile Zola", "emile zola"),
    ("King Henry I", "henry i"),
    ("Sir Walter Scott", "walter scott"),
    ("The Beatles", "beatles"),
    ("the Inception film", "inception"),
    ("1,000 people", "1000 people"),
    # Names stay whole: capitalized type words are part of the name.
    ("City of London", "city of london"),
    ("New York City", "new york city"),
    ("the 3rd Earl of Derby", "3rd earl of derby"),
    ("Inception's director", "inception director"),
    ("Paris Hilton", "paris hilton"),
    ("the film", "film"),
    # All-lowercase input (given propositions) still loses its descriptor.
    ("the film inception", "inception"),
    # A capital "A" followed by another initial is an initial, not the article.
    ("A. J. Mintu", "aj mintu"),
    ("A J Mintu", "aj mintu"),
    ("A Beautiful Mind", "beautiful mind"),
    # Legal-form suffixes go; "F.C" without its last dot is no regnal "C".
    ("Tottenham Hotspur F.C", "tottenham hotspur"),
    ("Bank of America Corporation", "bank of america"),
    ("Governor Johnson Hagood", "johnson hagood"),
    # A roman numeral inside a name is an initial, not a regnal number.
    ("John C Smith", "john c smith"),
    # One date, whichever order: day first.
    ("January 16, 1898", "16 january 1898"),
    ("16 January 1898", "16 january 1898"),
    # An unclosed parenthesis runs to the end.
    ("Vsevolod Gantmakher (October 8, 1935 – March 5, 2015", "vsevolod gantmakher"),
])
def test_entities_normalize(text, expected):
    assert normalize(text) == expected




@pytest.mark.parametrize("a, b, same", [
    ("Paris", "Paris Hilton", False),
    ("Paris Hilton", "Paris", False),
    ("the film Inception", "Inception", True),
    ("Inception", "Inception, a 2010 film", True),
    ("J. K. Rowling", "J.K. Rowling", True),
    ("Christopher Nolan", "Christopher Nolen", True),   # fuzzy
    ("Henry I", "Henry II", False),
    ("King Henry I", "Henry I", True),
    ("Henry", "Henry I", False),
    ("1st Earl of Derby", "3rd Earl of Derby", False),
    ("Apollo 11", "Apollo 13", False),
    ("Springfield", "West Springfield", False),
    ("John Smith", "Jane Smith", False),
    ("A. J. Mintu", "A J Mintu", True),
    ("Arsenal F.C.", "Arsenal", True),
    # One regnal name with an epithet; a different number never.
    ("Henry III", "Henry III of England", True),
    ("Niccolò III", "Niccolò III d'Este", True),
    ("Henry II", "Henry III of England", False),
    ("Henry III of England", "Henry III of France", False),
    # A polity named by its adjective.
    ("Ottoman", "Ottoman Empire", True),
    ("Soviet", "Soviet Union", True),
])
def test_entities_pairs(a, b, same):
    linked = link(Extraction(props((a, "r", "x"), ("y", "r", b))), [], "")
    assert (entity_of(linked, a) == entity_of(linked, b)) is same


def test_entities_rowling_spellings_and_surname_one_entity():
    ex = Extraction(props(("J. K. Rowling", "wrote", "Harry Potter"),
                          ("J.K. Rowling", "born in", "Yate"),
                          ("Rowling", "lives in", "Edinburgh")),
                    mentions=[Mention("J. K. Rowling", 0, 13, "person")])
    linked = link(ex, [], "")
    ids = {entity_of(linked, t) for t in ("J. K. Rowling", "J.K. Rowling", "Rowling")}
    assert ids == {"E1"}
    e1 = linked.entities[0]
    assert e1.kind == "person" and e1.name == "J. K. Rowling"
    assert [m.reason for m in e1.mentions] == ["first mention", "normalized", "surname of J. K. Rowling"]


def test_entities_surname_joins_the_nearest_person_with_it():
    # Families share surnames: the lone one is the person named last before it.
    ex = Extraction(props(("J.K. Rowling", "wrote", "Harry Potter"),
                          ("Jane Rowling", "is", "her sister"),
                          ("Rowling", "lives in", "Edinburgh")),
                    mentions=[Mention("J.K. Rowling", 0, 12, "person"), Mention("Jane Rowling", 30, 42, "person"),
                              Mention("Rowling", 60, 67, "person")])
    linked = link(ex, [], "")
    assert entity_of(linked, "Rowling") == entity_of(linked, "Jane Rowling")
    assert entity_of(linked, "J.K. Rowling") != entity_of(linked, "Jane Rowling")


def test_entities_surname_joins_the_nearest_person_before_it_not_after():
    # "Ebb" is Ana Ebb, named last before it; Tomas Ebb comes after.
    ex = Extraction(props(("Ana Ebb", "wrote", "Glass Tide"), ("Ebb", "lives in", "Dorrel"),
                          ("Tomas Ebb", "born in", "Hollin")),
                    mentions=[Mention("Ana Ebb", 0, 7, "person"), Mention("Ebb", 30, 33, "person"),
                              Mention("Tomas Ebb", 50, 59, "person")])
    linked = link(ex, [], "")
    assert entity_of(linked, "Ebb") == entity_of(linked, "Ana Ebb") != entity_of(linked, "Tomas Ebb")


def test_entities_surname_needs_a_preceding_full_name():
    ex = Extraction(props(("Rowling", "wrote", "Harry Potter"), ("J.K. Rowling", "born in", "Yate")),
                    mentions=[Mention("J.K. Rowling", 40, 52, "person")])
    linked = link(ex, [], "")
    assert entity_of(linked, "Rowling") != entity_of(linked, "J.K. Rowling")


def test_entities_ids_in_order_of_first_appearance_and_arguments_are_nodes():
    linked = link(Extraction(props(("John Smith", "born in", "Springfield"),
                                   ("John Smith", "starred in", "a French comedy")), []), [], "")
    assert [(e.id, e.name) for e in linked.entities] == [
        ("E1", "John Smith"), ("E2", "Springfield"), ("E3", "French comedy")]
    assert [(p.subject_entity, p.object_entity) for p in linked.propositions] == [
        ("E1", "E2"), ("E1", "E3")]


def test_entities_question_and_answer_matching():
    linked = link(Extraction(props(("the film Inception", "director", "Christopher Nolan"),
                                   ("Paris Hilton", "visited", "Nolan"))),
                  [QuestionEntity(name="Inception"), QuestionEntity(name="Paris"),
                   QuestionEntity(name="1934", anchor=False)], "Christopher Nolan")
    assert [q.entity for q in linked.question] == ["E1", None, None]
    assert linked.answer_entity == "E2"
    assert linked.entities[0].name == "Inception"


@pytest.mark.parametrize("answer, expected", [
    ("christopher nolan", "E2"), ("Nolan", None), ("Tim Burton", None), ("", None)])
def test_entities_answer_never_by_surname(answer, expected):
    ex = Extraction(props(("Inception", "director", "Christopher Nolan")),
                    mentions=[Mention("Christopher Nolan", 20, 37, "person")])
    assert link(ex, [], answer).answer_entity == expected


@pytest.mark.parametrize("answer, expected", [("1972", "E2"), ("1975", None)])
def test_entities_year_answer_stated_by_full_date(answer, expected):
    ex = Extraction(props(("Jon S. Baird", "born", "November 1972"), ("Jon S. Baird", "won", "1972 Prize")))
    assert link(ex, [], answer).answer_entity == expected


@pytest.mark.parametrize("answer, stated, expected", [
    ("450", "more than 450", "E2"), ("661", "661–80", "E2"), ("18th", "18th-century", "E2"),
    ("45", "45 miles", "E2"), ("1572", "1505–1572", "E2"),
    ("45", "Route 45 Highway", None),   # inside a name the figure is not the answer
    ("46", "45 miles", None), ("45", "145 miles", None),
])
def test_entities_figure_answer_stated_inside_a_quantity(answer, stated, expected):
    ex = Extraction(props(("Ibn Sina", "wrote", stated)))
    assert link(ex, [], answer).answer_entity == expected


def test_entities_figure_answer_in_two_quantities_is_not_guessed():
    ex = Extraction(props(("Clarksville", "is", "45 miles"), ("Nashville", "has", "45 parks")))
    assert link(ex, [], "45").answer_entity is None


def test_entities_coreference_reason_and_person():
    p = Proposition(id="P2", text="He starred in Inception.", subject="John Smith",
                    relation="starred in", object="Inception", pattern="given", sentence=1,
                    span=(30, 54), resolutions=[Resolution(text="He", span=(30, 32), to="John Smith",
                                                           reason="previous subject")])
    ex = Extraction(props(("John Smith", "born in", "Springfield")) + [p])
    linked = link(ex, [], "")
    e1 = linked.entities[0]
    assert e1.kind == "person" and e1.mentions[-1].reason == "coreference: He → John Smith"
    assert e1.mentions[-1].span == (30, 32)


def test_entities_unresolved_pronouns_never_merge():
    linked = link(Extraction(props(("it", "directed by", "Nolan"), ("it", "won", "an Oscar"))), [], "")
    assert linked.propositions[0].subject_entity != linked.propositions[1].subject_entity


@pytest.mark.parametrize("name, kind", [
    ("1950", "date"), ("12 May 1950", "date"), ("the 19th century", "date"),
    ("67 million", "number"), ("1,000 people", "number"), ("Springfield", "other")])
def test_entities_literal_kinds_by_regex(name, kind):
    linked = link(Extraction(props(("x", "r", name))), [], "")
    assert linked.entities[1].kind == kind


def test_entities_mention_kind_wins_and_fuzzy_reason():
    ex = Extraction(props(("Christopher Nolan", "directed", "Inception"),
                          ("Christopher Nolen", "born in", "London")),
                    mentions=[Mention("London", 60, 66, "place")])
    linked = link(ex, [], "")
    nolan = linked.entities[0]
    assert nolan.mentions[1].reason.startswith("fuzzy 9")
    assert next(e for e in linked.entities if e.name == "London").kind == "place"


@pytest.mark.parametrize("a, b, same", [
    ("Christopher Nolan", "christopher nolan", True),
    ("the film Inception", "Inception", True),
    ("Christopher Nolan", "Christopher Nolen", True),
    ("Paris", "Paris Hilton", False),
    ("Henry I", "Henry II", False),
    ("1998", "1999", False),
    ("yes", "no", False),
])
def test_entities_same_answer(a, b, same):
    assert same_answer(a, b, 85.0) is same


@pytest.mark.parametrize("full_kind, lone_kind, relation, same", [
    # NER on a lone unfamiliar surname is noise: it does not veto the merge.
    ("person", "place", "lives in", True),
    ("person", "work", "lives in", True),
    # A literal never joins a person.
    ("person", "date", "lives in", False),
    # The full name mislabelled ORG, but it fills a person slot ("X was born in"): person.
    ("org", "other", "born in", True),
    ("place", "place", "married to", True),
    # No person evidence at all: "York" stays apart from "New York".
    ("place", "place", "located in", False),
])
def test_entities_surname_merge_evidence(full_kind, lone_kind, relation, same):
    ex = Extraction(props(("Dara Quindez", relation, "Morova"), ("Quindez", "founded", "Acme")),
                    mentions=[Mention("Dara Quindez", 0, 12, full_kind), Mention("Quindez", 40, 47, lone_kind)])
    ex.propositions[0] = ex.propositions[0].model_copy(update={"span": (0, 30)})
    ex.propositions[1] = ex.propositions[1].model_copy(update={"span": (40, 60)})
    linked = link(ex, [], "")
    assert (entity_of(linked, "Dara Quindez") == entity_of(linked, "Quindez")) is same


def test_entities_negated_relation_is_no_person_evidence():
    ex = Extraction(props(("Dara Quindez", "was not born in", "Morova"), ("Quindez", "r", "Acme")),
                    mentions=[Mention("Dara Quindez", 0, 12, "place")])
    ex.propositions[0] = ex.propositions[0].model_copy(update={"negated": True})
    linked = link(ex, [], "")
    assert entity_of(linked, "Dara Quindez") != entity_of(linked, "Quindez")


@pytest.mark.parametrize("short, full, same", [
    # A person's name of two or more words ending the full name is that person.
    ("Michael Eavis", "Athelstan Joseph Michael Eavis", True),
    ("Yuen Siu-tien", "Simon Yuen Siu-tien", True),
    # Only the surname shared: not a tail.
    ("Harry Piel", "Hubert August Piel", False),
    # Regnal and ordinal numbers still guard.
    ("Henry Percy", "Henry Percy II", False),
    # A generational suffix guards like a regnal number: the son is not the father.
    ("Fife Symington", "John Fife Symington Jr.", False),
    ("Rick Howland", 'Richard "Rick" Howland', True),
    # Three or more words inside the full name, extra words names or particles.
    ("Juan Carlos Gumucio", "Juan Carlos Gumucio Quiroga", True),
    ("Pilar del Río", "María del Pilar del Río Sánchez", True),
])
def test_entities_person_name_tail(short, full, same):
    ex = Extraction(props((full, "born in", "Pilton"), (short, "founded", "Glastonbury")),
                    mentions=[Mention(full, 0, len(full), "person"), Mention(short, 40, 40 + len(short), "person")])
    linked = link(ex, [], "")
    assert (entity_of(linked, short) == entity_of(linked, full)) is same


@pytest.mark.parametrize("others, same", [
    ((), True),                             # the text's only Albert
    (("Albert Camus",), False),             # another Albert: ambiguous
    (("Albert I",), False),                 # two regnal Alberts
])
def test_entities_titled_name_joins_unique_regnal(others, same):
    triples = [("Albert II", "born in", "Monaco"), ("Prince Albert", "founded", "a foundation")]
    triples += [(o, "visited", "Paris") for o in others]
    linked = link(Extraction(props(*triples)), [], "")
    assert (entity_of(linked, "Albert II") == entity_of(linked, "Prince Albert")) is same


def test_entities_plain_name_never_joins_regnal():
    linked = link(Extraction(props(("Henry I", "r", "x"), ("Henry", "r", "y"))), [], "")
    assert entity_of(linked, "Henry I") != entity_of(linked, "Henry")


def test_entities_capitalised_pronoun_form_is_a_name():
    linked = link(Extraction(props(("Desire Inc.", "based in", "US"), ("it", "helped", "us"))), [], "US")
    assert linked.answer_entity == entity_of(linked, "US")
    assert entity_of(linked, "us") != entity_of(linked, "US")


def test_entities_question_entity_matches_person_tail():
    ex = Extraction(props(("Athelstan Joseph Michael Eavis", "founded", "Glastonbury Festival")),
                    mentions=[Mention("Athelstan Joseph Michael Eavis", 0, 30, "person")])
    linked = link(ex, [QuestionEntity(name="Michael Eavis"), QuestionEntity(name="Eavis")], "")
    assert [q.entity for q in linked.question] == ["E1", None]


@pytest.mark.parametrize("question, text, matched", [
    ("country Man", "Country Man", True),               # question case is unreliable
    ("Lego Batman", "The Lego Batman Movie", True),     # a trailing work-type word
    ("True North Trilogy", "True North", True),
    ("Goldwyn Productions", "Samuel Goldwyn Productions", True),   # ends a longer name
    ("Los Angeles", "East Los Angeles", False),         # another place
    ("Paris", "Paris Hilton", False),
    ("Mexico City", "Mexico", False),                   # place types are not dropped
])
def test_entities_question_matching_loose(question, text, matched):
    linked = link(Extraction(props((text, "r", "Somewhere Else"))), [QuestionEntity(name=question)], "")
    assert (linked.question[0].entity == "E1") is matched


def test_entities_question_loose_match_needs_one_cluster():
    linked = link(Extraction(props(("Texas Supreme Court", "r", "Ohio Supreme Court"))),
                  [QuestionEntity(name="Supreme Court")], "")
    assert len(linked.entities) == 2
    assert linked.question[0].entity is None


@pytest.mark.parametrize("text, marker", [
    ("Gerhard VII, Duke of Jülich-Berg", "r:vii"),   # a comma epithet after the number
    ("Honoré V, Prince of Monaco", "r:v"),
    ("Henry VIII", "r:viii"),
])
def test_entities_regnal_number_before_epithet(text, marker):
    from logicscore.pipeline.text.mentions import analyze
    assert marker in analyze(text).markers


def _linked_question(question_text, name, props_):
    return link(Extraction(props(*props_), []), [QuestionEntity(name=name)], "",
                question_text=question_text)


def test_entities_role_first_name_matches_the_full_name():
    linked = _linked_question("Who married the actress who played Scarlett in Gone with the Wind?",
                              "Scarlett", [("Vivien Leigh", "played", "Scarlett O'Hara")])
    assert linked.question[0].entity == entity_of(linked, "Scarlett O'Hara")


@pytest.mark.parametrize("question_text", [
    "Who was born in Paris?",                 # no role: "Paris" is never "Paris Hilton"
    "Who was born in Paris in France?",
])
def test_entities_plain_name_never_matches_a_longer_one(question_text):
    linked = _linked_question(question_text, "Paris", [("Paris Hilton", "born in", "New York")])
    assert linked.question[0].entity is None


def test_entities_role_name_needs_a_unique_full_name():
    linked = _linked_question("Who played Paul in Breakfast at Tiffany's?", "Paul",
                              [("Paul Varjak", "met", "Holly"), ("Paul Newman", "met", "Joanne")])
    assert linked.question[0].entity is None
