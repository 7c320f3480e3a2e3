"""The question's named rules (logicscore.pipeline.question.rules): each rule's rows, with invented
names, hold with every rule and fail with that rule left out; and the package has no cycle."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

# rule → [(question, expected [(name, anchor)])]
ROWS: dict[str, list[tuple[str, list[tuple[str, bool]]]]] = {
    "quoted": [
        ('Who wrote "the last of us"?', [("last of us", True)]),
        ('Who wrote "a song for the tide"?', [("song for the tide", True)]),
    ],
    "entities": [
        ("Who founded Oxfam in 1942?", [("Oxfam", True), ("1942", False)]),
    ],
    "proper_runs": [
        ("Which American film directed by Q came out in 1994?",
         [("American", False), ("Q", True), ("1994", False)]),
        ("Who voices Tarko in the Moss Tarko movie?", [("Tarko", True), ("Moss Tarko", True)]),
    ],
    "title_runs": [
        ("Where is the Oh Yes performer from?", [("Oh Yes", True)]),
        ("Who sang Let Me Go on the album?", [("Let Me Go", True)]),
    ],
    "wh_names": [
        ("Which song by The Who did Ilo Vask cover?", [("The Who", True), ("Ilo Vask", True)]),
        ("Who played the lead in Tarn Who in 1970?", [("Tarn Who", True), ("1970", False)]),
    ],
    "work_titles": [
        ("Who wrote the song Under My Wing?", [("Under My Wing", True)]),
    ],
    "conjoined_words": [
        ("Are Afterwards and The Velmora (Film) from the same country?",
         [("Afterwards", True), ("Velmora", True)]),
        ("Is Nowhere or Red Lake the older film?", [("Nowhere", True), ("Red Lake", True)]),
        ("Did Yesterday or Osk Road come out first?", [("Yesterday", True), ("Osk Road", True)]),
    ],
    "trim": [
        ("Who is the singer in the song Brassfield's first album?", [("Brassfield", True)]),
    ],
    "model_number": [
        ("Which airline flew the Corvane 720?", [("Corvane 720", True)]),
        ("Who won the Grand Trophy 50?", [("Grand Trophy 50", True)]),
    ],
    "needs_capital": [
        ("Which year did the third season of Dovecote air?", [("Dovecote", True)]),
    ],
    "no_disambiguator": [
        ("When did Ada Brennick (Cyclist)'s mother die?", [("Ada Brennick", True)]),
    ],
    "no_epithet": [
        ("Who was the son of Tomas Verrel, 3rd Duke of Marlow?", [("Tomas Verrel", True)]),
    ],
    "no_bare_role": [
        ("Captain  Tomas Verrel led which raid?", [("Tomas Verrel", True)]),
        ("Actress and daughter of Joe Brask wrote what?", [("Joe Brask", True)]),
        ("Who was the Senator who sponsored the Tull Act?", [("Tull Act", True)]),
    ],
    "comparison": [
        ("Which film came out first, The Long Hall or Rain, My Darling?",
         [("Long Hall", True), ("Rain, My Darling", True)]),
    ],
    "people_or_language": [
        ("Which Sunni scholar wrote the book?", [("Sunni", False)]),
        ("Which Republican senator was born in Ohio?", [("Republican", False), ("Ohio", True)]),
        ("Where did the Sunni scholar who wrote the Brask Codex live?",
         [("Sunni", False), ("Brask Codex", True)]),
    ],
    "generic_name": [
        ("Which Danish architect was born in 1921?", [("Danish", False), ("1921", False)]),
    ],
    "described_person": [
        ("Tarn Osk was the father of the Danish Basketball Player who won what?",
         [("Tarn Osk", True), ("Danish Basketball Player", False)]),
    ],
    "describing_adjectives": [
        ("In Ancient Egyptian religion, who judged the dead?", [("Ancient Egyptian", False)]),
        ("Which Ancient Roman road led to Osk?", [("Ancient Roman", False), ("Osk", True)]),
        ("Who led the Medieval Italian guild of Tarn?", [("Medieval Italian", False), ("Tarn", True)]),
    ],
    "asked_for": [
        ("In which U.S. state is Tarn Hospital?", [("U.S.", False), ("Tarn Hospital", True)]),
        ("Who coaches what Western rowing club?", [("Western", False)]),
        ("The Velmora hotel is located in which US city?", [("Velmora", True), ("US", False)]),
        ("Which Velvet Crow member played the drums in Norway?",
         [("Velvet Crow", False), ("Norway", True)]),
    ],
}

# rule → [(question, long answer, expected [(name, anchor)])]: the `apart` rules read a
# window the long answer writes as one name against the question's own parse.
APART_ROWS: dict[str, list[tuple[str, str, list[tuple[str, bool]]]]] = {
    "two_full_names": [
        ("Who coached Ilo Vask and Dan Oxmoor-Vask at Tarn?",
         "Ilo Vask and Dan Oxmoor-Vask trained at Tarn under Ada Brennick.",
         [("Ilo Vask", True), ("Dan Oxmoor-Vask", True), ("Tarn", True)]),
        ("Which team signed Case Moe and Colt Moe during different years?",
         "Case Moe and Colt Moe played for the Tarn Hawks.", [("Case Moe", True), ("Colt Moe", True)]),
        ("Which label released Tarn Hill and Osk Bay Blues?",
         "Tarn Hill and Osk Bay Blues were released by Pell Records.",
         [("Tarn Hill", True), ("Osk Bay Blues", True)]),
    ],
    "spoken_of_as_several": [
        ("Zeta and Orbit are what kind of journals?", "Zeta and Orbit are science journals.",
         [("Zeta", True), ("Orbit", True)]),
        ("Which city is home to both Tarn and Velmora?", "Tarn and Velmora are both in Osk.",
         [("Tarn", True), ("Velmora", True)]),
        ("Brask and Pell were founded in which year?", "Brask and Pell were founded in 1901.",
         [("Brask", True), ("Pell", True)]),
    ],
    "cut_description": [
        ("Which road joins Osk and Tarn county's seat?",
         "The road that joins Osk and Tarn county's seat is Route 9.", [("Osk", True), ("Tarn", True)]),
        ("Who mapped the Brask and Velmora valley farms?",
         "The Brask and Velmora valley farms were mapped by Ilo Vask.",
         [("Brask", True), ("Velmora", True)]),
        ("Which river forms the border between Velmora and Tarn district's country?",
         "The border between Velmora and Tarn district's country is the Pell River.",
         [("Velmora", True), ("Tarn", True)]),
    ],
    "place_after": [
        ("Who chairs the Hall Council in Velmora?", "The Hall Council in Velmora is chaired by Ilo Vask.",
         [("Hall Council", True), ("Velmora", True)]),
        ("What is Opry Hall in Nashville, Tennessee?", "Opry Hall in Nashville, Tennessee is a mall.",
         [("Opry Hall", True), ("Nashville", True), ("Tennessee", True)]),
        ("When did Tarn College in London open?", "Tarn College in London opened in 1901.",
         [("Tarn College", True), ("London", True)]),
    ],
}

# A title the answer writes whole stays one name: no `apart` rule holds for it.
KEPT_APART_ROWS = [
    ("Who sang in Moss and the Tide?", "Moss and the Tide is a 1990 musical.", [("Moss and the Tide", True)]),
]

# Rows that hold with every rule but that no single rule's absence breaks: a band read as a
# people after "The" stays an anchor; a year after a name is its edition, not its number.
KEPT_ROWS = [
    ("The Vandals are a band whose drummer married which actress?", [("Vandals", True)]),
    ("Who won Tarnfield 2010?", [("Tarnfield", True), ("2010", False)]),
]


@pytest.fixture(scope="module")
def nlp():
    from logicscore.parsing.loader import load

    return load()


def _names(question, nlp, rules=None, context=None):
    from logicscore.pipeline.question.detect import RULES, detect

    return [(q.name, q.anchor) for q in detect(question, nlp, context, rules or RULES)]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "expected"),
                         [row for rows in ROWS.values() for row in rows] + KEPT_ROWS)
def test_question_rules_rows(nlp, question, expected):
    assert _names(question, nlp) == expected


@pytest.mark.slow
@pytest.mark.parametrize("rule", sorted(ROWS))
def test_question_rules_each_rule_is_needed(nlp, rule):
    from logicscore.pipeline.question.detect import RULES

    without = RULES.without(rule)
    assert without.names() != RULES.names()
    assert any(_names(q, nlp, without) != expected for q, expected in ROWS[rule])


@pytest.mark.slow
@pytest.mark.parametrize(("question", "context", "expected"),
                         [row for rows in APART_ROWS.values() for row in rows] + KEPT_APART_ROWS)
def test_question_apart_rows(nlp, question, context, expected):
    assert _names(question, nlp, context=context) == expected


@pytest.mark.slow
@pytest.mark.parametrize("rule", sorted(APART_ROWS))
def test_question_apart_each_rule_is_needed(nlp, rule):
    from logicscore.pipeline.question.detect import RULES

    without = RULES.without(rule)
    assert any(_names(q, nlp, without, c) != expected for q, c, expected in APART_ROWS[rule])


def test_question_rules_every_rule_has_rows():
    from logicscore.pipeline.question.detect import RULES

    assert set(RULES.names()) == set(ROWS) | set(APART_ROWS)
    assert len(RULES.names()) == len(set(RULES.names())) + 1  # "trim" also trims comparisons


def test_question_rules_run_in_order():
    from logicscore.pipeline.question import rules

    assert [r.name for r in rules.SOURCES] == [
        "quoted", "entities", "proper_runs", "title_runs", "wh_names", "work_titles", "conjoined_words"]
    assert [r.name for r in rules.STEPS] == [
        "trim", "model_number", "needs_capital", "no_disambiguator", "no_epithet", "no_bare_role"]


MODULES = ["written", "rules", "context", "apart", "detect", "reader"]


@pytest.mark.parametrize("first", MODULES)
def test_question_package_imports_from_any_module(first):
    """Each module imported first, in a fresh interpreter, then the rest: no cycle."""
    order = [first] + [m for m in MODULES if m != first]
    code = ";".join(f"import logicscore.pipeline.question.{m}" for m in order)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("lower", "higher"), [
    pair for pair in itertools.combinations(MODULES, 2)])
def test_question_package_layers_import_only_downward(lower, higher):
    import ast
    import importlib

    module = importlib.import_module(f"logicscore.pipeline.question.{lower}")
    tree = ast.parse(Path(module.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert higher not in imported
    private = [a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               for a in node.names if a.name.startswith("_")]
    assert private == []


# Reading the question against the long answer (question.context, question.written), with
# invented names: (question, long answer, expected [(name, anchor)]). The real-data rows
# these rules came from are in tests/test_question.py.
CONTEXT_ROWS = [
    # A lowercase question is read case-blind against the names the answer writes.
    ("Who is the spouse of the actor that plays nova in guardians of the dawn?",
     "Guardians of the Dawn is a 1999 film. He played Nova.", [("Guardians of the Dawn", True)]),
    # A title that opens with a question word, or holds a comma, is one name.
    ("What city was the author of What We Say When We Say Goodbye born in?",
     "What We Say When We Say Goodbye is a 1990 novel.",
     [("What We Say When We Say Goodbye", True)]),
    ("What did the actor who played Tobin in Hold Me, Hold Me Not win?",
     "Hold Me, Hold Me Not is a 1970 film starring him.",
     [("Tobin", True), ("Hold Me, Hold Me Not", True)]),
    ("Who produced Harlan, Dune Marshal?", "Harlan, Dune Marshal is an American television series.",
     [("Harlan, Dune Marshal", True)]),
    # A wider window the answer writes replaces the piece the question's case suggests.
    ("Where was the composer of film After Midnight born?", "After Midnight: He shares credit.",
     [("After Midnight", True)]),
    # A first name the answer writes only inside a longer name takes it; the joining word
    # splits the question's run into two names.
    ("Who played the wife of the actor who played Ivo on Gone by Morning?",
     "He played Ivo Kestrel on Gone by Morning (2001 -- 2004).",
     [("Ivo Kestrel", True), ("Gone by Morning", True)]),
    # A role or an award named by its first word takes the one longer name the answer writes.
    ("Who was the spouse of the actor who played Marla in Dust Over Tandy?",
     "She played Marla Voss in Dust Over Tandy (1951).",
     [("Marla Voss", True), ("Dust Over Tandy", True)]),
    ("What did the actress in Glass Harbor win a Perrin for?",
     "Glass Harbor is a film. She won the 1960 Perrin Award for it.",
     [("Glass Harbor", True), ("Perrin Award", True)]),
    # A comma-joined run the answer only writes mid-sentence is a list; a place after a
    # comma is a second name; an epithet belongs to the name before it.
    ("Who wanted to reach Alvor, Brenta and Calde?",
     "He wanted to ride down the valley to reach Alvor, Brenta and Calde in June.",
     [("Alvor", True), ("Brenta and Calde", True)]),
    ("Which river in Dellow, Ohio drew the Tinkers?", "The Brask River near Dellow, Ohio drew the Tinkers.",
     [("Dellow", True), ("Ohio", True), ("Tinkers", True)]),
    ("Who is the father of Osric Vane, 2nd Baron Tull's father?",
     "Osric Vane, 2nd Baron Tull was a banker.", [("Osric Vane", True)]),
    # The question's first word is capitalised by its place: a preposition there opens no
    # title, though the answer writes "in" before it.
    ("In The Long Hall, who did Ada Brennick play?", "Ada Brennick played Bo in The Long Hall.",
     [("The Long Hall", True), ("Ada Brennick", True)]),
    # A title before a name is no name of its own.
    ("Which county was Senator Amos Drell from?",
     "Amos Drell of South Carolina moved to strike the clause.", [("Amos Drell", True)]),
    # What the answer never names stays whole and an anchor; no piece cuts off a part the
    # answer never writes.
    ("Who founded the Port Ellis Museum of Coastal Lamps?", "It opened in 2000.",
     [("Port Ellis Museum of Coastal Lamps", True)]),
    ("In 1999, Lantern Harvest LLC was purchased by which retailer?",
     "Lantern Harvest: In 1999 it was bought by Brisk Goods. Brisk Goods LLC sells.",
     [("1999", False), ("Lantern Harvest LLC", True)]),
    # A question that names nothing else: a lowercase noun the answer writes as a name is
    # one, even a dictionary word at a sentence's start; a kind word, a role word, the
    # asked-for noun, or a word the answer also writes in lowercase is not.
    ("Where was the discoverer of polonium born?", "Polonium was discovered by Ada Brask.",
     [("Polonium", True)]),
    ("Where was the discoverer of polonium born?",
     "The discoverer of polonium, Ada Brask, studied polonium.", []),
    ("Where was the director of the film born?", "Film: the director was Ada Brask.", []),
    ("Which element did the discoverer of argon study?",
     "Argon was found by Ada Brask. Element 18 is argon.", []),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "context", "expected"), CONTEXT_ROWS)
def test_question_rules_read_against_the_answer(nlp, question, context, expected):
    from logicscore.pipeline.question.detect import detect

    assert [(q.name, q.anchor) for q in detect(question, nlp, context)] == expected
