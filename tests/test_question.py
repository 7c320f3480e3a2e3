"""Question entities (SPEC §4.3): detection, and which are anchors."""

from __future__ import annotations

import pytest

from logicscore.question import is_generic


@pytest.mark.parametrize(("name", "generic"), [
    ("American", True), ("Americans", True), ("French", True), ("Mandarin", True),
    ("1934", True), ("1990s", True), ("the 1990s", True), ("42", True), ("3.5 million", True),
    ("first", True), ("2nd", True), ("2Nd", True), ("", True),
    ("Springfield", False), ("Harry Potter", False), ("Maroon 5", False), ("X", False),
    ("American Airlines", False), ("May 5, 1994", False), ("Christopher Nolan", False),
])
def test_question_is_generic(name, generic):
    assert is_generic(name) is generic


@pytest.fixture(scope="session")
def nlp():
    from logicscore.nlp import load

    return load()


# (question, expected [(name, anchor)] in order of appearance)
DETECT_CASES = [
    ("Who is the director of the film that stars the actor born in Springfield?",
     [("Springfield", True)]),
    ("What country is the birthplace of the author of Harry Potter?", [("Harry Potter", True)]),
    ("Which American film directed by X came out in 1994?",
     [("American", False), ("X", True), ("1994", False)]),
    # "X or Y" split; the wh-phrase is not an entity.
    ("Who was born first, Paul Anka or Bob Dylan?", [("Paul Anka", True), ("Bob Dylan", True)]),
    ("Which film has the director who died later, The More The Merrier or Sleep, My Love?",
     [("More The Merrier", True), ("Sleep, My Love", True)]),
    # Epithets belong to the name before them.
    ("Who was the father of Robert Devereux, 2nd Earl of Essex?", [("Robert Devereux", True)]),
    ("Who is Edward Howard, 2Nd Earl Of Carlisle's paternal grandfather?",
     [("Edward Howard", True)]),
    ("What is the date of death of Hermann Ii, Landgrave Of Hesse's father?", [("Hermann Ii", True)]),
    # Quoted titles stay whole; proper-noun runs allow inner "of the".
    ('When was "The Man Who Knew Too Much" released?', [("Man Who Knew Too Much", True)]),
    ("What is the name of the Bank of the United States founder?",
     [("Bank of the United States", True)]),
    # A title after "film" may contain lowercase words; a trailing "(…" disambiguator is cut.
    ("Where was the director of film A Day Of Roses In August born?",
     [("Day Of Roses In August", True)]),
    ("Where was the performer of song Euphoria (Usher Song) born?", [("Euphoria", True)]),
    # Ordinals are not question entities at all.
    ("Who was the first president of the United States?", [("United States", True)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "expected"), DETECT_CASES)
def test_question_detect(nlp, question, expected):
    from logicscore.question import detect_question_entities

    got = detect_question_entities(question, nlp)
    assert [(q.name, q.anchor) for q in got] == expected
    assert all(q.entity is None and q.reached is False for q in got)


@pytest.mark.slow
def test_question_detect_loads_default_pipeline():
    from logicscore.question import detect_question_entities

    assert [q.name for q in detect_question_entities("Where was Nolan born?")] == ["Nolan"]


@pytest.mark.parametrize("name", ["25 years", "seven members", "Jewish"])
def test_question_quantities_and_religions_are_generic(name):
    assert is_generic(name)


# Issue 4: (question, long answer or None, expected [(name, anchor)])
DETECT_REAL = [
    ("Where did the director of film Everything I Like graduate from?", None,
     [("Everything I Like", True)]),
    ("When did Bill Patterson (Racing Driver)'s father die?", None, [("Bill Patterson", True)]),
    ("When is the director of film Cass (2008 Film) 's birthday?", None, [("Cass", True)]),
    ("In what year did the Danish plant ecologist die?", None, [("Danish", False)]),
    ("The actor who plays copper in Fox and the Hound is a character in which film?",
     "The Fox and the Hound is a 1981 film.", [("Fox and the Hound", True)]),
    ("Where was the composer of film Before Sunset born?", "Before Sunset: He shares credit.",
     [("Before Sunset", True)]),
    # A wider window never cuts another name in two.
    ("Who played for the Seattle Seahawks in the National Football League?",
     "He played for the Seattle Seahawks in the National Football League (NFL).",
     [("Seattle Seahawks", True), ("National Football League", True)]),
    # Lowercase question words the long answer writes as a name; common words never.
    ("who plays leslie knope on parks and recreation?",
     "Amy Poehler plays Leslie Knope in Parks and Recreation, a sitcom.",
     [("leslie knope", True), ("parks and recreation", True)]),
    ("Who played the king that was king of england in 1951 in the king's speech?",
     "George VI was King of the United Kingdom. The King's Speech: Colin Firth plays him.",
     [("1951", False), ("king's speech", True)]),
    ("What character in A League of their Own was played by Geena Davis?",
     "A League of Their Own: In 1988, Dottie Hinson (Geena Davis) attends the opening.",
     [("League of their Own", True), ("Geena Davis", True)]),
    # Lowercase words at the ends of a span describe the name.
    ("Who voices Batman in the Lego Batman movie?", None, [("Batman", True), ("Lego Batman", True)]),
    ("Who is talking about in the song Cry?", None, [("Cry", True)]),
    # A span the answer never writes loses to one it does.
    ("Who played the girlfriend of Alex P. Keaton's actor on Family Ties in Back to the Future?",
     "The character was played by Claudia Wells in Back to the Future.",
     [("Alex P. Keaton", True), ("Back to the Future", True)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "context", "expected"), DETECT_REAL)
def test_question_detect_real(nlp, question, context, expected):
    from logicscore.question import detect_question_entities

    got = detect_question_entities(question, nlp, context=context)
    assert [(q.name, q.anchor) for q in got] == expected
