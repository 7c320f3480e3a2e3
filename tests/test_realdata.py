"""Real-data harness: case builders on hand-made records shaped like the datasets, the
metric arithmetic on hand-built results, and one slow run of the real pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logicscore.models import (
    AuditResult, Diagnosis, Entity, Mention, Proposition, QuestionEntity, ResultMeta, Scores,
)
from benchmarks.realdata import (
    DataNotFound, Item, evaluate, load_items, locate_data, make_cases, resolve_name,
)
from benchmarks.realdata.cases import Case
from benchmarks.realdata.datasets import parse_2wiki, parse_entailmentbank, parse_hotpot, parse_musique
from benchmarks.realdata.diagnose import (_loosely_same, evidence_pairs, named_alike, why_complete,
                                         why_incomplete)
from benchmarks.realdata.measure import summarize
from logicscore.formats.datasets import _step_input
from logicscore.formats.text import (
    as_answer_line, capitalized_phrases, carries, content_words, display_title, names_alone,
    names_entity, names_subject, split_sentences,
)

# ---- records shaped like the real files (field names and nesting as in shared/data) ----

WIKI = {
    "_id": "w1", "type": "compositional",
    "question": "Where was the director of film Timber Falls born?",
    "answer": "Medford",
    "context": [
        ["Tony Giglio", ["Tony Giglio is an American film director.", "He was born in Medford."]],
        ["Timber Falls", ["Timber Falls is a 2007 horror film directed by Tony Giglio."]],
        ["Josh Randall", ["Josh Randall is an American actor.", "He starred in many films."]],
        ["Brianna Brown", ["Brianna Brown is an American actress from Texas."]],
    ],
    # listed answer-side first: the order must come from `evidences`, not from here
    "supporting_facts": [["Tony Giglio", 1], ["Timber Falls", 0]],
    "evidences": [["Timber Falls", "director", "Tony Giglio"], ["Tony Giglio", "place of birth", "Medford"]],
    "evidences_id": [], "entity_ids": "Q1_Q2", "answer_id": None, "dev_row_index": 3,
}
WIKI_OTHER = {
    **WIKI, "_id": "w2", "question": "Where was the husband of Octavie Coudreau born?", "answer": "Sonnac",
    "context": [
        ["Octavie Coudreau", ["Her husband was the explorer Henri Coudreau."]],
        ["Henri Coudreau", ["Henri Anatole Coudreau was born in Sonnac."]],
        ["Anthony Robinson (Unitarian)", ["Anthony Robinson was an English minister."]],
    ],
    "supporting_facts": [["Octavie Coudreau", 0], ["Henri Coudreau", 0]],
    "evidences": [["Octavie Coudreau", "spouse", "Henri Coudreau"],
                  ["Henri Coudreau", "place of birth", "Sonnac"]],
}
HOTPOT = {
    "_id": "h1", "type": "bridge", "level": "hard",
    "question": "Which Canadian band released a song called Counterparts?",
    "answer": "Rush",
    "supporting_facts": [["Nobody's Hero", 0], ["Nobody's Hero", 1], ["Neil Peart", 1], ["Neil Peart", 0]],
    "context": [
        ["Nobody's Hero", ["\"Nobody's Hero\" is a song by Canadian band Rush.",
                           " It was a single from Counterparts."]],
        ["Neil Peart", ["Neil Peart is a drummer.", " He was inducted into the Hall of Fame."]],
        ["Jeff Porcaro", ["Jeffrey Porcaro was an American drummer.", " He played with the band Toto.",
                          " He died in 1992 in Hidden Hills."]],
    ],
}
MUSIQUE = {
    "id": "2hop__1_2", "question": "What is the seat of the county where Van Hook Township is located?",
    "answer": "Stanley", "answer_aliases": [], "answerable": True,
    "paragraphs": [
        {"idx": 0, "title": "Port Blair", "is_supporting": False,
         "paragraph_text": "Port Blair is the capital of the islands. It is a town."},
        {"idx": 1, "title": "Mountrail County", "paragraph_text":
            "Mountrail County is a county in North Dakota. Its seat is Stanley.", "is_supporting": True},
        {"idx": 2, "title": "Van Hook Township, Mountrail County, North Dakota", "is_supporting": True,
         "paragraph_text": "Van Hook Township is a township in Mountrail County. Its population was 42."},
    ],
    "question_decomposition": [
        {"id": 1, "question": "Van Hook Township >> located in", "answer": "Mountrail County",
         "paragraph_support_idx": 2},
        {"id": 2, "question": "#1 >> capital", "answer": "Stanley", "paragraph_support_idx": 1},
    ],
}
EB = {
    "id": "e1", "question": "Which event occurs on a daily cycle?", "answer": "The Sun rises and sets.",
    "hypothesis": "the sun rising and setting is the event that occurs once per day",
    "context": "sent1: a b sent2: c d",
    "proof": "sent2 & sent3 -> int1: the sun rises daily; int1 & sent1 -> hypothesis; ",
    "depth_of_proof": 2, "length_of_proof": 2,
    "meta": {"triples": {"sent1": "the sun rising is a kind of event", "sent2": "the sun rises in the east",
                         "sent3": "the east is a direction", "sent4": "a cat is an animal"},
             "intermediate_conclusions": {"int1": "the sun rises daily", "int2": "the hypothesis"},
             "distractors": ["sent4"]},
}


def hotpot(**changes):
    return {**HOTPOT, **changes}


# ---- text helpers ----

@pytest.mark.parametrize("sentence, title, expected", [
    ("He was born in Medford.", "Tony Giglio", False),
    ("Tony Giglio is a director.", "Tony Giglio", True),
    ("Henri Anatole Coudreau was born in Sonnac.", "Henri Coudreau", True),   # person run
    ("Mathew was educated in Dublin.", "James Charles Mathew", False),        # surname alone
    ("He was the son of Jean II d'Estrées.", "Jean d'Estrées", False),        # regnal number
    ("He was born in Dallas.", "Usher (musician)", False),
    ("Usher was born in Dallas.", "Usher (musician)", True),                  # disambiguator dropped
    ("Van Hook Township is a township.", "Van Hook Township, Mountrail County, North Dakota", True),
    ("The Édith Piaf song was a hit.", "Edith Piaf", True),                   # accents
    ("It stars Nonso Anozie as Cass Pennant.", "Cass (2008 film)", False),    # inside a name
    ("The film follows Quebec Route 132.", "Route 132 (film)", False),
    ("The Escapist is a 2002 film.", "The Escapist (2002 film)", True),       # article before
])
def test_realdata_names_subject(sentence, title, expected):
    assert names_subject(sentence, title) is expected


@pytest.mark.parametrize("sentence, title, expected", [
    (" He was born in Dallas", "Usher (musician)", ("Usher: He was born in Dallas.", True)),
    ("Usher was born in Dallas.", "Usher (musician)", ("Usher was born in Dallas.", False)),
    ("He said \"yes.\"", None, ("He said \"yes.\"", False)),
])
def test_realdata_answer_line_prefixes_title(sentence, title, expected):
    assert as_answer_line(sentence, title) == expected


def test_realdata_text_helpers():
    assert display_title("Euphoria (Usher song)") == "Euphoria"
    paragraph = "It was published by W. W. Norton. He met Dr. Smith in the U.S. Army. Then it ended."
    assert split_sentences(paragraph) == [
        "It was published by W. W. Norton.", "He met Dr. Smith in the U.S. Army.", "Then it ended."]
    assert carries("She was an American writer.", "an American")
    assert carries("won the award for Best Actress in Ondine", "for Best Actress")
    assert not carries("Parisian life", "Paris")
    assert names_alone("Tony Giglio: He directed it.", "Tony Giglio")
    assert not names_alone("James Charles Mathew: Born in Cork.", "Charles Mathew")
    assert split_sentences("It was released by Warner Bros. Records. It sold.") == [
        "It was released by Warner Bros. Records.", "It sold."]


def test_realdata_step_input_helpers():
    # initials joined, plural and tense endings dropped, stop words and a possessive's "s" gone
    assert content_words("Who voices J.A.R.V.I.S. in Mach's film?") == content_words(
        "jarvis voice mach films")
    assert content_words("translated") == content_words("translation")
    assert names_entity("A.P.J. Abdul Kalam was born in 1931.", "APJ Abdul Kalam")
    assert names_entity("Van Hook Township is small.", "Van Hook Township, North Dakota")
    assert not names_entity("Mathew was educated in Dublin.", "James Mathew")
    assert capitalized_phrases(
        "Whose sister played Susie in Miracle on 34th Street, the Fox film?") == [
        "Whose", "Susie", "Miracle on 34th Street", "Fox"]
    assert capitalized_phrases("Where does CKIS-FM broadcast?") == ["Where", "CKIS-FM"]


# ---- builders: hop order, prefixing, type splitting ----

def test_realdata_2wiki_orders_hops_by_evidences_and_prefixes():
    item = parse_2wiki(WIKI)
    assert [h.title for h in item.hops] == ["Timber Falls", "Tony Giglio"]
    assert [line.text for line in item.gold_lines()] == [
        "Timber Falls is a 2007 horror film directed by Tony Giglio.",
        "Tony Giglio: He was born in Medford.",
    ]
    assert item.scored and item.evidences[0] == ("Timber Falls", "director", "Tony Giglio")
    assert {d.title for d in item.distractors} == {"Josh Randall", "Brianna Brown"}


@pytest.mark.parametrize("qtype, scored", [
    ("compositional", True), ("inference", False), ("comparison", False), ("bridge_comparison", False),
])
def test_realdata_2wiki_type_split(qtype, scored):
    item = parse_2wiki({**WIKI, "type": qtype})
    assert item.scored is scored and item.qtype == qtype


def test_realdata_hotpot_answer_paragraph_last():
    item = parse_hotpot(HOTPOT)
    assert [h.title for h in item.hops] == ["Neil Peart", "Nobody's Hero"]
    # every supporting sentence of a paragraph, in sentence order, leading spaces trimmed
    assert [line.text for line in item.hops[0].lines] == [
        "Neil Peart is a drummer.", "Neil Peart: He was inducted into the Hall of Fame."]
    assert item.hops[1].lines[1].text == "Nobody's Hero: It was a single from Counterparts."


def test_realdata_hotpot_answer_in_both_uses_bridge_title():
    # the answer "Rush" is in neither: the paragraph whose title the other names goes last
    record = hotpot(answer="Counterparts single", context=[
        ["Nobody's Hero", ["\"Nobody's Hero\" is a song.", " It was released."]],
        ["Neil Peart", ["Neil Peart drummed on Nobody's Hero.", " He was inducted."]],
    ])
    assert [h.title for h in parse_hotpot(record).hops] == ["Neil Peart", "Nobody's Hero"]


@pytest.mark.parametrize("record_type, answer, qtype, scored", [
    ("bridge", "Rush", "bridge", True),
    ("comparison", "Rush", "comparison", False),
    ("comparison", "yes", "yes/no", False),
    ("bridge", "No", "yes/no", False),
])
def test_realdata_hotpot_type_split(record_type, answer, qtype, scored):
    item = parse_hotpot(hotpot(type=record_type, answer=answer))
    assert (item.qtype, item.scored) == (qtype, scored)


def test_realdata_musique_decomposition_order_and_answer_sentences():
    item = parse_musique(MUSIQUE)
    assert item.scored and item.qtype == "2hop"
    assert [line.text for line in item.gold_lines()] == [
        "Van Hook Township is a township in Mountrail County.",
        "Mountrail County: Its seat is Stanley.",
    ]
    assert {d.title for d in item.distractors} == {"Port Blair"}
    # the prefix names step 2's input ("#1" = Mountrail County): nothing added
    assert not any("added" in note for note in item.notes)


def musique_record(question, steps, paragraphs):
    """A MuSiQue-shaped record: steps as (question, answer, paragraph index)."""
    return {
        "id": "2hop__7_8", "question": question, "answer": steps[-1][1], "answer_aliases": [],
        "answerable": True,
        "paragraphs": [{"idx": i, "title": t, "paragraph_text": text, "is_supporting": True}
                       for i, (t, text) in enumerate(paragraphs)],
        "question_decomposition": [
            {"id": i, "question": q, "answer": a, "paragraph_support_idx": p}
            for i, (q, a, p) in enumerate(steps)],
    }


WOODS = musique_record(
    "Who is the sibling of the actress who played Susan Walker in Miracle on 34th Street?",
    [("who played susan walker in miracle on 34th street", "Natalie Wood", 0),
     ("#1 >> sibling", "Lana Wood", 1)],
    [("Natalie Wood", "Natalie Wood (born 1938) was an American actress. She played Susan Walker "
                      "in Miracle on 34th Street. She died in 1981."),
     ("Lana Wood", "Lana Wood (born 1946) is an American actress. She is the younger sister "
                   "of Natalie Wood. She appeared in Diamonds Are Forever.")],
)


def test_realdata_musique_adds_the_sentence_naming_the_step_input():
    item = parse_musique(WOODS)
    assert [[line.text for line in h.lines] for h in item.hops] == [
        # free-text step: the sub-answer's sentence says nothing of Susan Walker
        ["Natalie Wood (born 1938) was an American actress.",
         "Natalie Wood: She played Susan Walker in Miracle on 34th Street."],
        # "#1 >> sibling": the input is step 1's answer, named only by the second sentence
        ["Lana Wood (born 1946) is an American actress.",
         "Lana Wood: She is the younger sister of Natalie Wood."],
    ]
    assert item.notes == ("step 1: sentence 2 added for the step's input",
                          "step 2: sentence 2 added for the step's input")
    assert parse_musique(WOODS) == item


def test_realdata_musique_input_in_lower_case_step_and_initials():
    record = musique_record(
        "Who voices Jarvis in Avengers: Age of Ultron?",
        [("who voices jarvis in avengers age of ultron", "Paul Bettany", 0)],
        [("Paul Bettany", "Paul Bettany (born 27 May 1971) is an English actor. He is married to "
                          "Jennifer Connelly. He is known for his voice role as J.A.R.V.I.S. in "
                          "Avengers: Age of Ultron (2015).")],
    )
    assert [line.text for line in parse_musique(record).gold_lines()] == [
        "Paul Bettany (born 27 May 1971) is an English actor.",
        "Paul Bettany: He is known for his voice role as J.A.R.V.I.S. in Avengers: Age of Ultron (2015).",
    ]


def test_realdata_musique_one_shared_relation_word_adds_nothing():
    # "#1" is named by the answer's sentence; "acting" alone is the relation, not a subject
    record = musique_record(
        "Where did the actress who played Susan Walker in Miracle on 34th Street study acting?",
        [("who played susan walker in miracle on 34th street", "Natalie Wood", 0),
         ("Where did #1 study acting?", "Hollywood Professional School", 1)],
        [("Natalie Wood", WOODS["paragraphs"][0]["paragraph_text"]),
         ("Natalie Wood", "Her acting career began at four. Natalie Wood attended the "
                          "Hollywood Professional School.")],
    )
    item = parse_musique(record)
    assert [line.text for line in item.hops[1].lines] == [
        "Natalie Wood attended the Hollywood Professional School."]
    assert item.notes == ("step 1: sentence 2 added for the step's input",)


def test_realdata_musique_step_input():
    def step(question, answer="x"):
        return {"question": question, "answer": answer}

    assert _step_input(step("Martin of #1 >> place of death"), ["Tours"], "") == (
        ["Martin of Tours"], [], set())
    names, phrases, words = _step_input(
        step("who played #1 in willy wonka and the chocolate factory", "Julie Dawn Cole"),
        ["Veruca Salt"], "Who played Veruca Salt in Willy Wonka and the Chocolate Factory?")
    assert names == ["Veruca Salt"]
    assert phrases == ["Willy Wonka and the Chocolate Factory"]  # "Who" has no content word
    assert words == content_words("played willy wonka chocolate factory")
    # the sub-answer's own words are where the hop ends, not where it starts
    assert _step_input(step("Who is the Mach's principle named after?", "Ernst Mach"), [],
                       "Who employed the person Mach's principle is named after?")[1:] == (
        [], {"principl"})


def test_realdata_entailmentbank_proof_order():
    item = parse_entailmentbank(EB)
    assert [[line.text for line in h.lines] for h in item.hops] == [
        ["The sun rises in the east.", "The east is a direction.", "The sun rises daily."],
        ["The sun rising is a kind of event."],
    ]
    assert [d.text for d in item.distractors] == ["A cat is an animal."]


# ---- perturbations and their labels ----

def cases_of(records, parser, seed=0):
    return list(make_cases([parser(r) for r in records], seed))


def test_realdata_perturbation_labels():
    built = cases_of([WIKI, WIKI_OTHER], parse_2wiki)
    first = [c for c in built if isinstance(c, Case) and c.record_id == "w1"]
    assert [(c.kind, c.label) for c in first] == [
        ("gold", "complete"), ("hop_removed", "incomplete"), ("replaced", "incomplete"),
        ("distractor", "complete")]
    gold, removed, replaced, padded = first
    assert removed.long_answer == "Tony Giglio: He was born in Medford."
    # the first hop is replaced by the other record's first sentence, at the same place
    assert [line.role for line in replaced.lines] == ["foreign", "gold"]
    assert replaced.lines[0].text == "Octavie Coudreau: Her husband was the explorer Henri Coudreau."
    # 2–3 distractors from this record's other paragraphs, never inside a hop
    extra = [line for line in padded.lines if line.role == "distractor"]
    assert 2 <= len(extra) <= 3 and {line.title for line in extra} <= {"Josh Randall", "Brianna Brown"}
    assert [line.text for line in padded.lines if line.role == "gold"] == [line.text for line in gold.lines]


def test_realdata_hotpot_removes_whole_bridge_paragraph():
    removed = next(c for c in cases_of([HOTPOT, hotpot(_id="h2")], parse_hotpot)
                   if isinstance(c, Case) and c.kind == "hop_removed")
    assert all(line.title == "Nobody's Hero" for line in removed.lines)
    assert len(removed.lines) == 2


def test_realdata_unscored_types_get_gold_only_and_are_kept():
    built = cases_of([hotpot(type="comparison"), hotpot(_id="h2", answer="yes")], parse_hotpot)
    assert [(c.kind, c.scored, c.qtype) for c in built] == [
        ("gold", False, "comparison"), ("gold", False, "yes/no")]


def test_realdata_unbuildable_perturbation_is_reported():
    single = hotpot(supporting_facts=[["Neil Peart", 0]])
    built = cases_of([single], parse_hotpot)
    reasons = [c for c in built if not isinstance(c, Case)]
    assert [(kind, why) for _, kind, why in reasons] == [
        ("hop_removed", "fewer than 2 hops"), ("replaced", "fewer than 2 hops")]


def test_realdata_cases_are_seeded():
    def texts(seed):
        return [c.long_answer for c in cases_of([WIKI, WIKI_OTHER], parse_2wiki, seed) if isinstance(c, Case)]
    assert texts(3) == texts(3)


def test_realdata_noisy_label_when_removed_subject_still_named():
    record = {**WIKI, "context": [
        ["Tony Giglio", ["Tony Giglio directed Timber Falls.", "He was born in Medford."]],
        ["Timber Falls", ["Timber Falls is a 2007 horror film directed by Tony Giglio."]],
        ["Josh Randall", ["Josh Randall is an American actor."]],
    ], "supporting_facts": [["Tony Giglio", 0], ["Tony Giglio", 1], ["Timber Falls", 0]]}
    item = parse_2wiki(record)
    from benchmarks.realdata.cases import remove_hop
    # Timber Falls' own sentence alone: "Tony Giglio directed Timber Falls" still links it.
    assert remove_hop(item, 0).noisy
    # By default the restatement goes with its hop, and the label holds.
    removed = next(c for c in cases_of([record], parse_2wiki)
                   if isinstance(c, Case) and c.kind == "hop_removed")
    assert not removed.noisy and "Timber Falls" not in removed.long_answer
    assert removed.long_answer == "Tony Giglio: He was born in Medford."


def test_realdata_restatement_kept_when_it_carries_the_answer():
    from benchmarks.realdata.cases import gap_removal
    item = _item("Who directed Inception?", "Christopher Nolan",
                 ("Inception", "Inception is a 2010 film."),
                 ("Christopher Nolan", "Christopher Nolan directed Inception."))
    # Dropping the restatement would drop the answer: nothing sound to build.
    removal = gap_removal(item)
    assert removal.hop == 0 and removal.noise and len(removal.dropped) == 1


def test_realdata_label_sound_when_a_question_name_is_cut_off():
    from benchmarks.realdata.cases import remove_hop
    item = _item(
        "What character does the actor who played Barney on How I Met Your Mother play in "
        "Batman Under the Red Hood?", "Nightwing",
        ("Neil Patrick Harris", "Neil Patrick Harris played Barney Stinson on How I Met Your "
         "Mother."),
        ("Batman Under the Red Hood", "Batman Under the Red Hood stars Neil Patrick Harris as "
         "Nightwing."))
    # The second hop still names Neil Patrick Harris, but no longer How I Met Your Mother.
    assert not remove_hop(item, 0).noisy
    # A nationality is no anchor: losing "English" leaves every named anchor linked.
    film = _item("Who starred in The Human Factor alongside English actor Derek Jacobi?",
                 "John Gielgud",
                 ("Derek Jacobi", "Derek Jacobi is an English actor."),
                 ("The Human Factor", "The Human Factor starred Derek Jacobi and John Gielgud."))
    assert remove_hop(film, 0).noisy


def test_realdata_record_leaves_question_entities_to_the_auditor():
    case = next(c for c in cases_of([WIKI], parse_2wiki) if isinstance(c, Case))
    record = case.record()
    assert record.question_entities is None and record.answer == "Medford"
    assert record.id == "2wikimultihopqa:w1#gold" and record.meta["label"] == "complete"


# ---- metric arithmetic on hand-built results ----

def fake(case: Case, complete: int, conciseness: float = 0.5) -> AuditResult:
    return AuditResult(
        id=case.id, scores=Scores(completeness=complete, conciseness=conciseness if complete else 0.0,
                                  determinateness=0, partial_completeness=1.0 if complete else 0.5,
                                  conciseness_partial=conciseness),
        question_entities=[QuestionEntity(name="Timber Falls", entity=None)],
        answer_entity=None, diagnosis=Diagnosis(), meta=ResultMeta(signature="test"),
    )


def test_realdata_summary_metrics():
    items = [parse_2wiki(WIKI), parse_2wiki(WIKI_OTHER)]
    cases = [c for c in make_cases(items, 0) if isinstance(c, Case)]
    # w1: everything right; w2: gold complete, hop removal missed, padding breaks it
    verdicts = {("w1", "gold"): (1, .5), ("w1", "hop_removed"): (0, .5), ("w1", "replaced"): (0, .5),
                ("w1", "distractor"): (1, .25), ("w2", "gold"): (1, .5), ("w2", "hop_removed"): (1, .5),
                ("w2", "replaced"): (0, .5), ("w2", "distractor"): (0, .5)}
    pairs = [(c, fake(c, *verdicts[(c.record_id, c.kind)])) for c in cases]
    section = summarize("2wikimultihopqa", items, 0, pairs, [])
    m = section["metrics"]
    assert m["completeness_recall"] == 1.0
    assert m["hop_removed_recall"] == 0.5 and m["replaced_recall"] == 1.0
    assert m["completeness_precision"] == 0.75  # 3 of 4 predicted complete are labelled so
    assert m["distractor_conciseness_fell"] == 0.5 and m["distractor_broke_completeness"] == 0.5
    assert section["causes"]["distractor_broke"] == {"answer lost after padding": 1}
    assert section["cases"]["gold"] == 2 and section["types"]["compositional"]["gold_complete"] == 1.0
    json.dumps(section)  # plain data


# ---- failure causes on hand-built results ----

def gold_case() -> Case:
    return next(c for c in cases_of([WIKI], parse_2wiki) if isinstance(c, Case))


def entity(eid, name, *spans):
    return Entity(id=eid, name=name, mentions=[Mention(text=name, span=sp) for sp in spans])


def result_for(case, entities, props, question, answer_entity, complete=0):
    return AuditResult(
        id=case.id, scores=Scores(completeness=complete, conciseness=0.0, determinateness=0,
                                  partial_completeness=0.5, conciseness_partial=0.5),
        question_entities=question, answer_entity=answer_entity, entities=entities,
        propositions=props, diagnosis=Diagnosis(failure=None if complete else "broken"),
        meta=ResultMeta(signature="test"))


def prop(pid, subj, obj, s_id, o_id, span):
    return Proposition(id=pid, text="", subject=subj, relation="r", object=obj, span=span,
                       subject_entity=s_id, object_entity=o_id)


def test_realdata_cause_answer_split_across_mentions():
    case = gold_case()
    text = case.long_answer  # "Timber Falls is … Tony Giglio. Tony Giglio: He was born in Medford."
    case = Case(**{**case.__dict__, "answer": "Giglio: He"})
    start = text.index("Giglio: He")
    ents = [entity("E1", "Giglio", (start, start + 6)), entity("E2", "He", (start + 8, start + 10))]
    result = result_for(case, ents, [], [QuestionEntity(name="Timber Falls", entity=None)], None)
    assert why_incomplete(case, result)[0] == "answer split across mentions"


@pytest.mark.parametrize("question, cause", [
    ([], "no question entity detected"),
    ([QuestionEntity(name="Timber Falls", entity=None)], "question entity in text but not matched"),
    ([QuestionEntity(name="Chocolate Factory", entity=None)], "question entity not in LA text"),
])
def test_realdata_cause_question_side(question, cause):
    case = gold_case()
    end = len(case.long_answer)
    ents = [entity("E9", "Medford", (end - 8, end - 1))]
    props = [prop("P1", "Tony Giglio", "Medford", "E9", "E9", (0, 5))]
    assert why_incomplete(case, result_for(case, ents, props, question, "Medford"))[0] == cause


def test_realdata_cause_label_noise_and_evidence_pairs():
    case = gold_case()
    text = case.long_answer
    a, b = text.index("Timber Falls"), text.index("Tony Giglio")
    ents = [entity("E1", "Timber Falls", (a, a + 12)), entity("E2", "Tony Giglio", (b, b + 11)),
            entity("E3", "Medford", (len(text) - 8, len(text) - 1))]
    props = [prop("P1", "Timber Falls", "Tony Giglio", "E1", "E2", (0, 10)),
             prop("P2", "Tony Giglio", "Medford", "E2", "E3", (len(text) - 20, len(text)))]
    result = result_for(case, ents, props, [QuestionEntity(name="Timber Falls", entity="E1", reached=True)],
                        "Medford", complete=1)
    assert [row["found"] for row in evidence_pairs(case, result)] == [True, True]
    noisy = Case(**{**case.__dict__, "kind": "hop_removed",
                    "noise": "removed hop's subject still named"})
    assert why_complete(noisy, result)[0].startswith("label noise")


@pytest.mark.parametrize("gold, form, expected", [
    ("Hermann II of Hesse", "Hermann II", True),          # Wikidata label longer than the text
    ("Mary Elisabeth Hansen Mead", "Mary Mead", True),    # same first and last name
    ("Moulins", "Château de Moulins", True),
    ("Paris", "Lyon", False),
])
def test_realdata_lenient_evidence_names(gold, form, expected):
    assert _loosely_same(gold, form) is expected


@pytest.mark.parametrize("gold, form, expected", [
    ("Hermann II of Hesse", "Hermann II", True),          # word-boundary containment
    ("Moulins", "Château de Moulins", True),
    ("the film Inception", "Inception", True),            # same_answer: descriptors
    ("Henry I", "Henry II", False),                       # regnal numbers differ
    ("Henry", "Henry II", False),
    ("16 January 1898", "January 16, 1898", True),        # one date, two orders
    ("Thomas Cochrane, 8th Earl of Dundonald", "Thomas Cochrane", True),   # label epithet
    ("Thomas Cochrane, 8th Earl of Dundonald", "Thomas Cochrane, 10th Earl of Dundonald", False),
    ("Mary Elisabeth Hansen Mead", "Mary Mead", False),   # lenient only
    ("Paris", "Lyon", False),
])
def test_realdata_strict_evidence_names(gold, form, expected):
    assert named_alike(gold, form) is expected


# ---- locating the data, and the slow end-to-end run ----

def test_realdata_locate_data_env(tmp_path, monkeypatch):
    monkeypatch.setenv("LOGICSCORE_DATA", str(tmp_path))
    assert locate_data() == tmp_path
    monkeypatch.setenv("LOGICSCORE_DATA", str(tmp_path / "missing"))
    with pytest.raises(DataNotFound):
        locate_data()


def test_realdata_locate_data_walks_up(tmp_path, monkeypatch):
    monkeypatch.delenv("LOGICSCORE_DATA", raising=False)
    (tmp_path / "shared" / "data").mkdir(parents=True)
    repo = tmp_path / "main" / "logicscore"
    repo.mkdir(parents=True)
    assert locate_data(repo) == tmp_path / "shared" / "data"


def test_realdata_unknown_dataset_lists_known():
    assert resolve_name("2wiki") == "2wikimultihopqa"
    with pytest.raises(ValueError, match="known: 2wikimultihopqa"):
        resolve_name("squad")


def _data() -> Path:
    try:
        return locate_data(Path(__file__))
    except DataNotFound:
        pytest.skip("shared/data is not present (set LOGICSCORE_DATA)")


def test_realdata_loaders_read_every_dataset():
    data = _data()
    for name in ("2wiki", "hotpotqa", "musique", "entailmentbank"):
        items, _ = load_items(name, data, limit=5)
        assert len(items) == 5 and all(isinstance(i, Item) and i.hops for i in items)


@pytest.mark.slow
def test_realdata_report_has_every_key(auditor):
    data = _data()
    report = evaluate(data, limit=3, auditor=auditor)
    assert set(report) == {"settings", "datasets", "by_type"}
    by_type = report["by_type"]["sections"]
    assert "all" in by_type and set(by_type["all"]) == {
        "items", "side_removed_cases", "errors", "type_match", "gold_complete",
        "side_removed_incomplete", "gap_names_side"}
    assert list(report["datasets"]) == ["2wikimultihopqa", "hotpotqa", "musique", "entailmentbank"]
    keys = {"targets_apply", "records", "duplicates_skipped", "scored_records", "types", "cases",
            "not_built", "errors", "metrics", "targets", "causes", "examples"}
    metrics = {"completeness_recall", "hop_removed_recall", "hop_removed_recall_clean", "replaced_recall",
               "replaced_recall_clean", "completeness_precision", "completeness_precision_clean",
               "distractor_conciseness_fell",
               "distractor_broke_completeness"}
    evidence = {"evidence_pair_recall", "evidence_pair_recall_lenient", "evidence_pair_recall_all_types",
                "evidence_pair_connected_all_types", "bridge_precision"}
    for name, section in report["datasets"].items():
        assert keys <= set(section), name
        expected = metrics | (evidence if name == "2wikimultihopqa" else set())
        assert set(section["metrics"]) == expected, name
        assert section["records"] == 3 and not section["errors"], name
    assert report["datasets"]["entailmentbank"]["note"]
    assert report == evaluate(data, limit=3, auditor=auditor)  # deterministic
    json.dumps(report)


def test_realdata_noisy_label_when_every_question_name_survives():
    # Removing Neil Peart's paragraph leaves "Canadian", "Counterparts" and "Rush" written:
    # no named anchor lost its support, so "incomplete" is not a sound label.
    removed = next(c for c in cases_of([HOTPOT], parse_hotpot)
                   if isinstance(c, Case) and c.kind == "hop_removed")
    assert removed.noisy and removed.noise == "every question name still written beside the answer"


def test_realdata_label_sound_when_a_question_name_is_removed():
    removed = next(c for c in cases_of([MUSIQUE], parse_musique)
                   if isinstance(c, Case) and c.kind == "hop_removed")
    assert "Van Hook" not in removed.long_answer
    assert not removed.noisy and removed.noise == ""


def test_realdata_question_names_for_label_noise():
    from logicscore.measure.perturb.text import question_names as _question_names
    names = _question_names("What type of media does Hot Pixel and PlayStation Portable have?")
    assert "Hot Pixel" in names and "PlayStation Portable" in names
    assert _question_names("What game did the team with an 11-1 record play?") == []
    assert _question_names("In True Grit, who did the star play?") == ["True Grit"]
    assert _question_names("Where did the presenter of Tim Russert (Talk Show) die?") == [
        "Tim Russert"]


def _item(question, answer, *hops):
    from benchmarks.realdata.cases import Hop, Item, Line
    return Item(dataset="hotpotqa", id="x", qtype="bridge", scored=True, question=question,
                answer=answer, hops=tuple(Hop(title, (Line(text, title, i),))
                                          for i, (title, text) in enumerate(hops)))


def test_realdata_gap_hop_moves_to_a_hop_whose_removal_is_sound():
    from benchmarks.realdata.cases import gap_hop, remove_hop
    item = _item(
        "Carroll County, Ohio is named after the only Catholic signatory to the Declaration of "
        "Independence, who is he?", "Charles Carroll of Carrollton",
        ("Charles Carroll of Carrollton", "Charles Carroll of Carrollton: He was the only "
         "Catholic signatory of the Declaration of Independence."),
        ("Carroll County, Ohio", "Carroll County, Ohio: It is named for Charles Carroll of "
         "Carrollton, the last surviving signer of the Declaration of Independence."))
    # Without the first hop the second still names its subject: "incomplete" would be unsound.
    assert remove_hop(item, 0).noisy
    assert gap_hop(item) == 1
    removed = remove_hop(item)
    assert not removed.noisy and "Carroll County" not in removed.long_answer
    # The replaced case takes out the same hop.
    from dataclasses import replace

    from benchmarks.realdata.cases import replace_hop
    donor = replace(_item("Who wrote Dune?", "Frank Herbert",
                          ("Dune", "Dune is a novel by Frank Herbert."),
                          ("Frank Herbert", "He was born in Tacoma.")), id="donor")
    replaced = replace_hop(item, [item, donor], seed=0)
    assert [line.role for line in replaced.lines] == ["gold", "foreign"] and not replaced.noisy


def test_realdata_gap_hop_stays_on_the_question_side_when_nothing_is_sounder():
    from benchmarks.realdata.cases import gap_hop, remove_hop
    item = _item("Who directed Inception?", "Christopher Nolan",
                 ("Inception", "Inception is a film directed by Christopher Nolan."),
                 ("Christopher Nolan", "Christopher Nolan: He was born in London."))
    assert gap_hop(item) == 0 and not remove_hop(item).noisy
    # The answer's own hop is never taken out to make a label sound: nothing would be tested.
    lone = _item("Who directed Inception in London?", "Christopher Nolan",
                 ("London", "London is a city where Inception was directed."),
                 ("Inception", "Inception was directed by Christopher Nolan in London."))
    assert gap_hop(lone) == 0 and remove_hop(lone).noisy



def test_realdata_not_in_the_cli():
    # The harness reads this repository's sample files, so the installed CLI has no way in;
    # `scripts/eval_real.py` runs it, and `logicscore bench` scores its cases as a corpus.
    from typer.testing import CliRunner

    from logicscore.cli import app
    res = CliRunner().invoke(app, ["bench", "--real"])
    assert res.exit_code == 2 and "--real" in res.output
    res = CliRunner().invoke(app, ["bench"])
    said = " ".join(res.output.split())
    assert res.exit_code == 2 and "corpus generate" in said and "--real" not in said
