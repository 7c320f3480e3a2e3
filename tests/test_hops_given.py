"""`--hops given`: the dataset readers fill `question_hops` (MuSiQue's decomposition, 2Wiki's
evidence triples), the record carries them through every reader, and the given-hops stage
checks each one against the long answer (docs/formats.md, docs/metrics.md "Hops")."""

from __future__ import annotations

import importlib.util
import io as pyio
import json
from pathlib import Path

import pytest

from benchmarks.realdata import locate_data
from benchmarks.realdata.cases import remove_hop
from logicscore import Auditor
from logicscore.formats.datasets import parse_2wiki, parse_musique
from logicscore.formats import read_lines
from logicscore.formats.decomposition import musique_hops, wiki_hops
from logicscore.io import parse_map
from test_realdata import MUSIQUE, WIKI

# ---- the readers ---------------------------------------------------------------------------------

FILM_WIKI = {  # a comparison: one triple per compared film, naming each other nowhere
    **WIKI, "_id": "w9", "type": "comparison", "question": "Which film came out first, Dust Lark or Pale Orchard?",
    "answer": "Dust Lark",
    "evidences": [["Dust Lark", "publication date", "1961"], ["Pale Orchard", "publication date", "1974"]],
}
BRIDGE_WIKI = {  # a bridge comparison: a director's triple spells him as 2Wiki does, otherwise
    **WIKI, "_id": "w8", "type": "bridge_comparison",
    "question": "Which film has the director who died later, Dust Lark or Pale Orchard?", "answer": "Pale Orchard",
    "evidences": [["Dust Lark", "director", "André de Varo"], ["Pale Orchard", "director", "Ivo Stram"],
                  ["Andre DeVaro", "date of death", "1980"], ["Ivo Stram", "date of death", "1999"]],
}


def _read(row, fmt):
    raw = json.dumps(row).encode() + b"\n"
    (line,) = read_lines(pyio.BytesIO(raw), fmt)
    assert line.error is None, line.error
    return line.record


def test_musique_decomposition_becomes_the_given_hops_with_its_references():
    r = _read(MUSIQUE, "musique")
    assert [(h.question, h.answer) for h in r.question_hops] == [
        ("Van Hook Township >> located in", "Mountrail County"), ("#1 >> capital", "Stanley")]
    assert "question_hops" not in r.meta and "question_decomposition" not in r.meta


def test_2wiki_chain_triples_become_referencing_sub_questions():
    r = _read(WIKI, "2wiki")
    assert [(h.question, h.answer) for h in r.question_hops] == [
        ("What is the director of Timber Falls?", "Tony Giglio"), ("What is the place of birth of #1?", "Medford")]
    # A chain's subject is the object before it, however 2Wiki spells it.
    spelled = {**WIKI, "evidences": [["Timber Falls", "director", "Tony Giglio"],
                                     ["Anthony R. Giglio Jr.", "place of birth", "Medford"]]}
    assert wiki_hops(spelled)[1]["question"] == "What is the place of birth of #1?"


def test_2wiki_comparison_triples_stay_parallel_and_bridges_match_by_name():
    assert [h["question"] for h in wiki_hops(FILM_WIKI)] == [
        "What is the publication date of Dust Lark?", "What is the publication date of Pale Orchard?"]
    assert [h["question"] for h in wiki_hops(BRIDGE_WIKI)] == [
        "What is the director of Dust Lark?", "What is the director of Pale Orchard?",
        "What is the date of death of #1?", "What is the date of death of #2?"]
    unmatched = {**BRIDGE_WIKI, "evidences": [*BRIDGE_WIKI["evidences"][:2], ["Oda Lenk", "date of death", "1980"]]}
    assert wiki_hops(unmatched)[2]["question"] == "What is the date of death of Oda Lenk?"


@pytest.mark.parametrize("changes", [
    {"question_decomposition": []},
    {"question_decomposition": [{"id": 1, "answer": "Stanley", "paragraph_support_idx": 1}]},
    {"question_decomposition": "Van Hook Township >> located in"},
])
def test_musique_without_a_usable_decomposition_has_no_given_hops(changes):
    assert musique_hops({**MUSIQUE, **changes}) is None


@pytest.mark.parametrize("evidences", [None, [], [["Timber Falls", "director"]], "Timber Falls"])
def test_2wiki_without_usable_evidences_is_still_read_with_no_given_hops(evidences):
    row = {**WIKI, "evidences": evidences} if evidences is not None else {k: v for k, v in WIKI.items()
                                                                         if k != "evidences"}
    r = _read(row, "2wiki")
    assert r.question_hops is None and r.long_answer and r.answer == "Medford"
    assert wiki_hops({**WIKI, "evidences": [["Timber Falls", "director", None]]}) is None


def test_a_step_without_an_answer_keeps_its_question():
    steps = [{**MUSIQUE["question_decomposition"][0]}, {"question": "#1 >> capital", "answer": "",
                                                        "paragraph_support_idx": 1}]
    assert musique_hops({**MUSIQUE, "question_decomposition": steps})[1] == {"question": "#1 >> capital"}


def test_native_lines_and_map_read_question_hops():
    row = {"question": "Q?", "answer": "A", "long_answer": "L.", "question_hops": ["Which film?", "Who?"]}
    r = _read(row, "auto")
    assert [(h.question, h.answer) for h in r.question_hops] == [("Which film?", None), ("Who?", None)]
    assert r.meta == {}
    mapped = {"question": "Q?", "answer": "A", "long_answer": "L.",
              "plan": {"steps": [{"question": "Which film?", "answer": "Grey Fen"}]}}
    raw = json.dumps(mapped).encode() + b"\n"
    (line,) = read_lines(pyio.BytesIO(raw), "auto", parse_map(["question_hops=plan.steps"]))
    assert line.record.question_hops[0].answer == "Grey Fen"


def test_given_hops_leave_a_run_without_hops_as_it_was(auditor):
    # The readers' new field is read, never echoed: without --hops the output is unchanged.
    for row, fmt in ((MUSIQUE, "musique"), (WIKI, "2wiki")):
        record = _read(row, fmt)
        assert record.question_hops
        bare = record.model_copy(update={"question_hops": None})
        assert auditor.audit_record(record).model_dump_json() == auditor.audit_record(bare).model_dump_json()


# ---- the given-hops stage: three invented rows per behaviour --------------------------------------

@pytest.fixture(scope="module")
def given():
    return Auditor(timing=False, hops="given")


def _hops(given, question, answer, long_answer, hops):
    r = given.audit(question=question, answer=answer, long_answer=long_answer, question_hops=hops)
    return r.hops


# (question, short answer, long answer, given hops, [(stated, input) per hop], complete)
STATED = [
    ("Who directed the film that stars Ona Pell?", "Rik Dal",
     "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.",
     [{"question": "Which film stars Ona Pell?", "answer": "Grey Fen"},
      {"question": "Who directed #1?", "answer": "Rik Dal"}],
     [(True, "Ona Pell"), (True, "Grey Fen")], True),
    ("In which city was the founder of Brelm Works born?", "Tolvik",
     "Brelm Works was founded by Ada Venn in 1921. Venn, the daughter of a miller, was born in Tolvik.",
     [{"question": "Brelm Works >> founded by", "answer": "Ada Venn"},
      {"question": "#1 >> place of birth", "answer": "Tolvik"}],
     [(True, "Brelm Works"), (True, "Ada Venn")], True),
    ("What river flows through the capital of Ostrava Vale?", "the Lenn",
     "The capital of Ostrava Vale is Mirsk, and the Lenn flows through Mirsk.",
     [{"question": "What is the capital of Ostrava Vale?", "answer": "Mirsk"},
      {"question": "What river flows through #1?", "answer": "the Lenn"}],
     [(True, "Ostrava Vale"), (True, "Mirsk")], True),
]
UNSTATED = [  # the bridge is named, but no sentence ties it to the next hop's answer
    ("Who directed the film that stars Ona Pell?", "Rik Dal",
     "Ona Pell stars in Grey Fen. Rik Dal is a director.",
     [{"question": "Which film stars Ona Pell?", "answer": "Grey Fen"},
      {"question": "Who directed #1?", "answer": "Rik Dal"}],
     [(True, "Ona Pell"), (False, "Grey Fen")], False),
    ("In which city was the founder of Brelm Works born?", "Tolvik",
     "Ada Venn was born in Tolvik. Brelm Works is a foundry.",
     [{"question": "Brelm Works >> founded by", "answer": "Ada Venn"},
      {"question": "#1 >> place of birth", "answer": "Tolvik"}],
     [(False, "Brelm Works"), (True, "Ada Venn")], False),
    ("What river flows through the capital of Ostrava Vale?", "the Lenn",
     "Mirsk is a large city. The Lenn is a river of the north.",
     [{"question": "What is the capital of Ostrava Vale?", "answer": "Mirsk"},
      {"question": "What river flows through #1?", "answer": "the Lenn"}],
     [(False, "Ostrava Vale"), (False, "Mirsk")], False),
]
REFERENCES = [  # "#k" names where a hop starts: one answer it references must be written
    ("Which instrument did the teacher of the composer of Vesna Suite play?", "the oboe",
     "Vesna Suite was composed by Ilo Marr. Ilo Marr studied under Petra Quill. Quill played the oboe.",
     [{"question": "Vesna Suite >> composer", "answer": "Ilo Marr"},
      {"question": "#1 >> teacher", "answer": "Petra Quill"},
      {"question": "#2 >> instrument", "answer": "the oboe"}],
     [(True, "Vesna Suite"), (True, "Ilo Marr"), (True, "Petra Quill")], True),
    ("How far is the birthplace of Sela Orn from the city where Dorn Ives died?", "40 km",
     "Sela Orn was born in Kelm. Dorn Ives died in Varra. Kelm lies 40 km from Varra.",
     [{"question": "Where was Sela Orn born?", "answer": "Kelm"},
      {"question": "Where did Dorn Ives die?", "answer": "Varra"},
      {"question": "How far is #1 from #2?", "answer": "40 km"}],
     [(True, "Sela Orn"), (True, "Dorn Ives"), (True, "Kelm")], True),
    ("How far is the birthplace of Sela Orn from the city where Dorn Ives died?", "40 km",
     "Sela Orn was born in Kelm. Dorn Ives died in Varra. The old ferry route is 40 km long.",
     [{"question": "Where was Sela Orn born?", "answer": "Kelm"},
      {"question": "Where did Dorn Ives die?", "answer": "Varra"},
      {"question": "How far is #1 from #2?", "answer": "40 km"}],
     [(True, "Sela Orn"), (True, "Dorn Ives"), (False, "Kelm or Varra")], False),
]
NO_ANSWER = [  # the last hop's answer is the short answer; an earlier hop's is not guessed
    ("Who directed the film that stars Ona Pell?", "Rik Dal",
     "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.",
     [{"question": "Which film stars Ona Pell?", "answer": "Grey Fen"}, {"question": "Who directed #1?"}],
     [(True, "Ona Pell"), (True, "Grey Fen")], True),
    ("Who directed the film that stars Ona Pell?", "Rik Dal",
     "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.",
     ["Which film stars Ona Pell?", "Who directed that film?"],  # plain sub-questions: nothing to look for
     [(False, "Ona Pell"), (False, "#1")], False),
    ("In which city was the founder of Brelm Works born?", "Tolvik",
     "Brelm Works was founded by Ada Venn. Venn was born in Tolvik.",
     [{"question": "Brelm Works >> founded by"}, {"question": "#1 >> place of birth", "answer": "Tolvik"}],
     [(False, "Brelm Works"), (False, "#1")], False),
]
PARALLEL = [  # a sub-question that names its own subject starts from it, not from the hop before
    ("Which film came out first, Dust Lark or Pale Orchard?", "Dust Lark",
     "Dust Lark is a 1961 drama. Pale Orchard is a 1974 western.",
     [{"question": "What is the publication date of Dust Lark?", "answer": "1961"},
      {"question": "What is the publication date of Pale Orchard?", "answer": "1974"}],
     [(True, "Dust Lark"), (True, "Pale Orchard")], True),
    ("Who was born first, Mara Kell or Tobin Ashe?", "Tobin Ashe",
     "Mara Kell was born on 3 May 1950. Tobin Ashe, a painter, was born on 9 June 1931.",
     [{"question": "Mara Kell >> date of birth", "answer": "3 May 1950"},
      {"question": "Tobin Ashe >> date of birth", "answer": "9 June 1931"}],
     [(True, "Mara Kell"), (True, "Tobin Ashe")], True),
    ("Which film came out first, Dust Lark or Pale Orchard?", "Dust Lark",
     "Dust Lark is a 1961 drama. The western came out in 1974.",
     [{"question": "What is the publication date of Dust Lark?", "answer": "1961"},
      {"question": "What is the publication date of Pale Orchard?", "answer": "1974"}],
     [(True, "Dust Lark"), (False, "Pale Orchard")], False),
]


@pytest.mark.parametrize(("question", "answer", "long_answer", "hops", "expected", "complete"),
                         STATED + UNSTATED + REFERENCES + NO_ANSWER + PARALLEL)
def test_given_hops_are_checked_against_the_long_answer(given, question, answer, long_answer, hops,
                                                        expected, complete):
    check = _hops(given, question, answer, long_answer, hops)
    assert check.stage == "given" and len(check.hops) == len(hops)
    assert [(h.stated, h.input) for h in check.hops] == expected
    assert check.complete is complete
    for h in check.hops:
        assert h.stated == (h.why is None)  # an unstated hop says why
    if all(isinstance(h, dict) and h.get("answer") for h in hops):  # every "#k" filled in
        assert not any("#" in h.asks for h in check.hops)
PLAIN = [  # no "#k" anywhere: a later hop goes on from the hop before, or from a subject it names
    ("Who directed the film that stars Ona Pell?", "Rik Dal",
     "Ona Pell stars in Grey Fen. Grey Fen was directed by Rik Dal.",
     [{"question": "Which film stars Ona Pell?", "answer": "Grey Fen"},
      {"question": "Who directed the film that stars Ona Pell?", "answer": "Rik Dal"}],
     [(True, "Ona Pell"), (True, "Grey Fen")], True),
    ("In which city was the founder of Brelm Works born?", "Tolvik",
     "Brelm Works was founded by Ada Venn. She was born in Tolvik.",
     [{"question": "Who founded Brelm Works?", "answer": "Ada Venn"},
      {"question": "Where was that person born?", "answer": "Tolvik"}],
     [(True, "Brelm Works"), (True, "Ada Venn")], True),
    ("What river flows through the capital of Ostrava Vale?", "the Lenn",
     "The capital of Ostrava Vale is Mirsk. The Lenn flows through Ostrava Vale.",
     [{"question": "What is the capital of Ostrava Vale?", "answer": "Mirsk"},
      {"question": "What river flows through it?", "answer": "the Lenn"}],
     [(True, "Ostrava Vale"), (False, "Mirsk")], False),
]


@pytest.mark.parametrize(("question", "answer", "long_answer", "hops", "expected", "complete"), PLAIN)
def test_plain_decompositions_chain_each_hop_to_the_one_before(given, question, answer, long_answer, hops,
                                                               expected, complete):
    check = _hops(given, question, answer, long_answer, hops)
    assert [(h.stated, h.input) for h in check.hops] == expected and check.complete is complete


@pytest.mark.parametrize("row", NO_ANSWER[1:])
def test_a_hop_with_no_answer_is_unstated_and_says_so(given, row):
    question, answer, long_answer, hops, _, _ = row
    first = _hops(given, question, answer, long_answer, hops).hops[0]
    assert first.result is None and first.why == "the record gives no answer for this hop"


@pytest.mark.parametrize(("row", "follows"), [
    (PARALLEL[0], None),  # the dates name no film: the comparison is left to the sides
    (PARALLEL[1], True),  # the last hop's sentence writes the short answer
    (("Were Dust Lark and Pale Orchard released in the same year?", "no",
      "Dust Lark is a 1961 drama. Pale Orchard is a 1974 western.", PARALLEL[0][3], [], True),
     True),  # a yes/no outcome names nothing to look for (`check.judgment`)
])
def test_a_comparison_s_given_hops_leave_the_comparison_open(given, row, follows):
    question, answer, long_answer, hops, _, complete = row
    check = _hops(given, question, answer, long_answer, hops)
    assert check.answer_follows is follows and check.complete is complete
    # A bridge question's last hop still has to yield the short answer.
    assert _hops(given, *STATED[0][:4]).answer_follows is True
    assert _hops(given, STATED[0][0], "Ona Pell", *STATED[0][2:4]).answer_follows is False


# ---- on the shared real data ---------------------------------------------------------------------

REAL = {"musique": "musique/musique_ans_dev_migres200.jsonl",
        "2wiki": "2wikimultihopqa/2wikimultihopqa_dev_sample500.jsonl"}
REAL_RECORDS = 12


def _real(fmt):
    """The first records of a shared dataset file, read as `--format FMT` reads them."""
    with open(locate_data(Path(__file__)) / REAL[fmt], "rb") as f:
        raw = b"".join(f.readline() for _ in range(REAL_RECORDS))
    lines = list(read_lines(pyio.BytesIO(raw), fmt))
    assert len(lines) == REAL_RECORDS and all(line.error is None for line in lines)
    return [line.record for line in lines], [json.loads(r) for r in raw.splitlines()]


@pytest.mark.parametrize(("fmt", "parse", "least"), [("musique", parse_musique, 10), ("2wiki", parse_2wiki, 10)])
def test_real_records_get_their_given_hops_checked(given, fmt, parse, least):
    records, rows = _real(fmt)
    results = list(given.audit_many(records))
    assert [r.id for r in results] == [r.id for r in records] and all(r.status == "ok" for r in results)
    for record, result in zip(records, results):
        assert result.hops.stage == "given"
        assert [h.result for h in result.hops.hops] == [h.answer for h in record.question_hops]
        assert not any("#" in h.asks for h in result.hops.hops)  # every reference filled in
    complete = sum(r.hops.complete for r in results)
    assert complete >= least, [(r.id, r.diagnosis.gap) for r in results if not r.hops.complete]
    # The same records with a hop's sentences taken out (a sound "incomplete" label) are not.
    removed = [(record, case) for record, row in zip(records, rows)
               if (case := remove_hop(parse(row))) is not None and not case.noise]
    assert len(removed) >= REAL_RECORDS // 2
    cut = list(given.audit_many([r.model_copy(update={"long_answer": c.long_answer}) for r, c in removed]))
    assert sum(not r.hops.complete for r in cut) >= len(cut) - 1
    assert all(r.hops.hops[0].why is None or r.hops.hops[0].why.startswith("no sentence") for r in cut)


def test_real_2wiki_comparisons_check_each_side_from_its_own_film(given):
    records, _ = _real("2wiki")
    sided = [r for r in records if r.meta["type"] in ("comparison", "bridge_comparison")]
    assert sided
    for result in given.audit_many(sided):
        check = result.hops
        assert check.answer_follows in (None, True)
        # Each film's director hop starts from that film, never from the other film's director.
        assert check.hops[1].input != check.hops[0].result


def test_the_measurement_script_counts_what_it_audits():
    path = Path(__file__).resolve().parents[1] / "scripts" / "eval_hops_given.py"
    spec = importlib.util.spec_from_file_location("eval_hops_given", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    report = script.measure("2wiki", 4, locate_data(path))
    whole = report["all"]
    assert whole["records"] == whole["with_hops"] == 4 and 0 <= whole["gold_complete"] <= 4
    assert sum(t["records"] for t in report["by_type"].values()) == 4
    assert whole["gold_complete_share"] == round(whole["gold_complete"] / 4, 3)
