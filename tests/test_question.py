"""Question entities (docs/metrics.md): detection, and which are anchors."""

from __future__ import annotations

import pytest

from logicscore.pipeline.question import is_generic


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
    from logicscore.parsing.loader import load

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
    # A name inside "what/which … noun" describes what is asked for: no chain end.
    ("Who is the commissioner of what National sports league?", [("National", False)]),
    ("Which Hells Angel member stabbed a fan in the United States?",
     [("Hells Angel", False), ("United States", True)]),
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
    # Capitalised words the tagger calls anything but proper nouns still name a title.
    ("Where is the Oh Yeah performer from?", [("Oh Yeah", True)]),
    # NER reads a band after "The" as a people; a real people stays generic.
    ("The Joggers are a band whose singer is the son of which chemist?", [("Joggers", True)]),
    ("The French won which battle?", [("French", False)]),
    ("Who sang Let It Be on the album?", [("Let It Be", True)]),
    ("Who played in Batman Under the Red Hood?", [("Batman", True), ("Red Hood", True)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "expected"), DETECT_CASES)
def test_question_detect(nlp, question, expected):
    from logicscore.pipeline.question import detect_question_entities

    got = detect_question_entities(question, nlp)
    assert [(q.name, q.anchor) for q in got] == expected
    assert all(q.entity is None and q.reached is False for q in got)


@pytest.mark.slow
def test_question_detect_loads_default_pipeline():
    from logicscore.pipeline.question import detect_question_entities

    assert [q.name for q in detect_question_entities("Where was Nolan born?")] == ["Nolan"]


@pytest.mark.parametrize("name", ["25 years", "seven members", "Jewish", "Mexican-American",
                                  "Russian–British", "Serbian and Croatian", "11–1", "1932 American"])
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
     [("Leslie Knope", True), ("Parks and Recreation", True)]),
    ("Who played the king that was king of england in 1951 in the king's speech?",
     "George VI was King of the United Kingdom. The King's Speech: Colin Firth plays him.",
     [("1951", False), ("King's Speech", True)]),
    ("What character in A League of their Own was played by Geena Davis?",
     "A League of Their Own: In 1988, Dottie Hinson (Geena Davis) attends the opening.",
     [("League of Their Own", True), ("Geena Davis", True)]),
    # Lowercase words at the ends of a span describe the name.
    ("Who voices Batman in the Lego Batman movie?", None, [("Batman", True), ("Lego Batman", True)]),
    ("Who is talking about in the song Cry?", None, [("Cry", True)]),
    # A span the answer never writes loses to one it does, and keeps its other name.
    ("Who played the girlfriend of Alex P. Keaton's actor on Family Ties in Back to the Future?",
     "The character was played by Claudia Wells in Back to the Future.",
     [("Alex P. Keaton", True), ("Family Ties", True), ("Back to the Future", True)]),
]


# Names read against the long answer: case, punctuation and "&" do not matter, the name is
# taken as the answer writes it, and what the answer never names stays as asked.
DETECT_WRITTEN = [
    ("Who is the spouse of the actor that plays vision in avengers age of ultron?",
     "He played the Vision in Iron Man 3 (2013), Avengers: Age of Ultron (2015) and others.",
     [("Avengers: Age of Ultron", True)]),
    ("What city was the author of What We Talk About When We Talk About love born in?",
     "What We Talk About When We Talk About Love is a 1981 collection by Raymond Carver.",
     [("What We Talk About When We Talk About Love", True)]),
    ("What other film is the cast member of Now You See Him, Now You Don't a character for?",
     "Now You See Him, Now You Don't is a 1972 film starring Kurt Russell.",
     [("Now You See Him, Now You Don't", True)]),
    ("Who is the host of Who Wants to be a Millionaire in the country of MacGruder and Loud?",
     "MacGruder and Loud: It aired on ABC. Who Wants to Be a Millionaire: Hosts included him.",
     [("Who Wants to Be a Millionaire", True), ("MacGruder and Loud", True)]),
    ("Who directed Covenant, The Sword, and the Arm of the Lord?",
     "The Covenant, The Sword, and the Arm of the Lord (CSA) was a militia.",
     [("Covenant, The Sword, and the Arm of the Lord", True)]),
    ("Who produced Walker, Texas Ranger?",
     "Walker, Texas Ranger is an American action television series.",
     [("Walker, Texas Ranger", True)]),
    # A comma-joined run the answer only writes mid-sentence is a list, not a title.
    ("Who wanted to capture Boulogne, Calais and Dunkirk?",
     "He wanted to rush up the coast to capture Boulogne, Calais and Dunkirk in May.",
     [("Boulogne", True), ("Calais and Dunkirk", True)]),
    # A name glued into a longer one is not written alone ("Barney" in "Barney Stinson"),
    # so the longer span splits at its joining word and keeps both names.
    ("What character does the actor who played Barney on How I Met Your Mother play?",
     "He played Barney Stinson on How I Met Your Mother (2005 -- 2014).",
     [("Barney Stinson", True), ("How I Met Your Mother", True)]),
    # The one longer name a bare first name heads; never a title or a second name.
    ("Who was the spouse of the actor who played Scarlett in Gone With the Wind?",
     "She played Scarlett O'Hara in Gone with the Wind (1939).",
     [("Scarlett O'Hara", True), ("Gone with the Wind", True)]),
    ("What did the actress in My Fair Lady win a Tony for?",
     "My Fair Lady is a film. She won the 1954 Tony Award for Ondine.",
     [("My Fair Lady", True), ("Tony Award", True)]),
    ("Who is the employer of the person Mach's principle was named after?",
     "Ernst Mach was an Austrian physicist.", [("Mach", True)]),
    ("Which Hells Angel member stabbed an attendant?", "Hells Angel Alan Passaro was acquitted.",
     [("Hells Angel", False)]),
    # Not a name: the wh-phrase's noun, a word capitalised to open a sentence, an epithet,
    # a date, a place after a comma, a title before a name, names the question writes apart.
    ("What heritage site is listed Seventeen Seventy?",
     "Heritage Site: it is at Seventeen Seventy.", [("Seventeen Seventy", True)]),
    ("When was the ruler that was dissolved after the Indian Rebellion of 1857 established?",
     "After the Indian Rebellion of 1857, the company was dissolved.",
     [("Indian Rebellion of 1857", True)]),
    ("Who is the father of Edward Baring, 1st Baron Revelstoke's father?",
     "Edward Baring, 1st Baron Revelstoke was a banker.", [("Edward Baring", True)]),
    ("Which river system in Chilhowie, Virginia was the starting place for Longhunters?",
     "The Holston River near Chilhowie, Virginia drew Longhunters.",
     [("Chilhowie", True), ("Virginia", True), ("Longhunters", True)]),
    ("Which telenovela was broadcast by Telefe from March 12 to December 19, 2012?",
     "Graduados is a telenovela which was broadcast by Telefe from March 12 to December 19.",
     [("Telefe", True), ("March 12 to December 19", True)]),
    ("Which county was Representative Thomas Tucker from?",
     "Thomas Tucker of South Carolina moved to strike the clause.", [("Thomas Tucker", True)]),
    ("Who played for the Seattle Seahawks in the National Football League?",
     "He played for the Seattle Seahawks in the National Football League (NFL).",
     [("Seattle Seahawks", True), ("National Football League", True)]),
    ("Which Mexican-American dog behaviorist trained Daddy?",
     "Daddy was the dog of Mexican-American behaviorist Cesar Millan.",
     [("Mexican-American", False), ("Daddy", True)]),
    # A piece may not cut off what the answer never names ("LLC"); an anchor the answer
    # lacks stays whole and an anchor.
    ("In 1999, Spirit Halloween LLC was purchased by which retailer?",
     "Spirit Halloween: In 1999 it was purchased by Spencer Gifts. Spencer Gifts LLC sells.",
     [("1999", False), ("Spirit Halloween LLC", True)]),
    ("Who founded the Hong Kong Museum of Coastal Defence?", "It opened in 2000.",
     [("Hong Kong Museum of Coastal Defence", True)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "context", "expected"), DETECT_WRITTEN)
def test_question_detect_written(nlp, question, context, expected):
    from logicscore.pipeline.question import detect_question_entities

    got = detect_question_entities(question, nlp, context=context)
    assert [(q.name, q.anchor) for q in got] == expected


@pytest.mark.slow
@pytest.mark.parametrize(("question", "context", "expected"), DETECT_REAL)
def test_question_detect_real(nlp, question, context, expected):
    from logicscore.pipeline.question import detect_question_entities

    got = detect_question_entities(question, nlp, context=context)
    assert [(q.name, q.anchor) for q in got] == expected


@pytest.mark.slow
@pytest.mark.parametrize(("question", "expected"), [
    ("When was the organization that manufactured BAe 146 abolished?", [("BAe 146", True)]),
    ("Who won Super Bowl 50?", [("Super Bowl 50", True)]),
])
def test_question_model_number_continues_the_name(nlp, question, expected):
    from logicscore.pipeline.question import detect_question_entities

    assert [(q.name, q.anchor) for q in detect_question_entities(question, nlp)] == expected
