"""Input formats (`--format`): RAGAS, DeepEval, promptfoo rows and HotpotQA / 2Wiki / MuSiQue
records read as logicscore records; auto-detection, its ambiguity error, typed errors per line."""

from __future__ import annotations

import io as pyio
import json

import pytest
from typer.testing import CliRunner

from benchmarks.realdata import make_cases
from benchmarks.realdata.datasets import parse_2wiki, parse_hotpot, parse_musique
from logicscore.cli import app
from logicscore.formats import FORMATS, NAMES, convert, detect, read_lines
from logicscore.formats.reply import final_answer
from test_realdata import HOTPOT, MUSIQUE, WIKI

RAGAS = {"user_input": "Where was the director of Timber Falls born?",
         "response": "Timber Falls was directed by Tony Giglio [1]. Tony Giglio was born in Medford [2].\n"
                     "Answer: Medford",
         "retrieved_contexts": ["Timber Falls is a 2007 film directed by Tony Giglio.",
                                "Tony Giglio was born in Medford."],
         "reference": "Tony Giglio was born in Medford."}
RAGAS_OLD = {"question": "Where was Ana Lund born?", "answer": "Ana Lund was born in Orvik. So the answer is Orvik.",
             "contexts": ["Ana Lund was born in Orvik."], "ground_truths": ["Orvik"]}
DEEPEVAL = {"input": "Which river flows through Tarsel?",
            "actual_output": "Tarsel lies in Vennmark. The Ossel flows through Vennmark. So the river is the Ossel.",
            "expected_output": "The Ossel", "retrieval_context": ["Tarsel lies in Vennmark."],
            "additional_metadata": {"run": 7}, "name": "case-1"}
PROMPTFOO = {"id": "r-1", "testIdx": 2, "promptIdx": 0, "success": True, "score": 1,
             "provider": {"id": "openai:chat:m", "label": "m"}, "prompt": {"raw": "Q: ...", "label": "qa"},
             "vars": {"question": "Who founded Brelm?", "context": "Brelm was founded by Ola Vind."},
             "response": {"output": "Brelm was founded by Ola Vind [1].\n**Final answer:** Ola Vind."}}


def _lines(*rows, fmt="auto", mapping=None):
    raw = b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows)
    return list(read_lines(pyio.BytesIO(raw), fmt, mapping))


def _record(row, fmt="auto"):
    (line,) = _lines(row, fmt=fmt)
    assert line.error is None, line.error
    return line.record


# ---- each adapter round-trips a sample row ----------------------------------------------------

def test_ragas_row_reads_its_answer_line_and_numbers_its_contexts():
    r = _record(RAGAS)
    assert (r.question, r.answer, r.gold_answer) == (RAGAS["user_input"], "Medford", RAGAS["reference"])
    assert r.long_answer == RAGAS["response"].split("\nAnswer:")[0]  # the answer line is not prose
    assert r.documents == {"1": RAGAS["retrieved_contexts"][0], "2": RAGAS["retrieved_contexts"][1]}
    assert r.meta == {"format": "ragas"}
    assert (r.answer_source, r.answer_rule) == ("answer_line", None)


def test_ragas_row_without_answer_line_takes_the_conclusion_it_states_never_the_reference():
    r = _record({**RAGAS, "response": "Tony Giglio directed it. So the answer is Medford, Oregon."})
    assert (r.answer, r.gold_answer) == ("Medford, Oregon", RAGAS["reference"])
    assert r.long_answer == "Tony Giglio directed it. So the answer is Medford, Oregon."
    assert (r.answer_source, r.answer_rule) == ("conclusion", "the_answer_is")


def test_ragas_row_with_no_stated_answer_is_an_input_error_naming_the_map():
    (line,) = _lines({**RAGAS, "response": "Tony Giglio was born in Medford."})
    assert line.record is None and line.error.type == "InputError"
    assert "--map answer=FIELD" in line.error.message and "no short answer" in line.error.message
    (mapped,) = _lines({**RAGAS, "response": "Tony Giglio was born in Medford.", "short": "Medford"},
                       mapping={"answer": "short"})
    r = mapped.record
    assert (r.answer, r.gold_answer, r.answer_source) == ("Medford", RAGAS["reference"], "answer_field")
    assert r.meta == {"format": "ragas"}  # the mapped field was read: it is no extra field


def test_ragas_extra_fields_go_to_meta_and_the_adapters_own_meta_wins():
    r = _record({**RAGAS, "model": "m-1", "format": "mine", "metadata": {"run": 9}})
    assert r.meta == {"model": "m-1", "format": "ragas", "metadata": {"run": 9}}


def test_native_extra_fields_go_to_meta_and_its_own_meta_wins():
    row = {"id": "a", "question": "Q", "answer": "A", "response": "L", "model": "m-1", "split": "dev",
           "label": "x", "meta": {"label": "y"}}
    r = _record(row)
    assert r.long_answer == "L" and r.meta == {"model": "m-1", "split": "dev", "label": "y"}


def test_ragas_before_0_2_names_its_long_answer_answer():
    r = _record(RAGAS_OLD)
    assert (r.question, r.answer, r.long_answer) == ("Where was Ana Lund born?", "Orvik", RAGAS_OLD["answer"])
    assert r.documents == {"1": "Ana Lund was born in Orvik."}
    assert (r.gold_answer, r.answer_source) == ("Orvik", "conclusion")


def test_deepeval_test_case():
    r = _record(DEEPEVAL)
    assert (r.id, r.question, r.answer, r.long_answer, r.gold_answer) == (
        "1", DEEPEVAL["input"], "the Ossel", DEEPEVAL["actual_output"], "The Ossel")
    assert r.documents == {"1": "Tarsel lies in Vennmark."}
    assert r.meta == {"format": "deepeval", "metadata": {"run": 7}, "name": "case-1"}
    assert (r.answer_source, r.answer_rule) == ("conclusion", "concluding_copula")


def test_promptfoo_result_line():
    r = _record(PROMPTFOO)
    assert (r.id, r.question, r.answer, r.long_answer) == (
        "r-1", "Who founded Brelm?", "Ola Vind", "Brelm was founded by Ola Vind [1].")
    assert r.documents == {"1": "Brelm was founded by Ola Vind."}
    assert r.meta["promptfoo"] == {"testIdx": 2, "promptIdx": 0, "success": True, "score": 1, "provider": "m"}


def test_promptfoo_json_output_is_its_json_text():
    row = {**PROMPTFOO, "vars": {"query": "Q?", "expected": "A"}, "response": {"output": {"x": 1}}}
    (line,) = _lines(row)
    assert "no short answer" in line.error.message  # the reference is never the short answer
    (line,) = _lines(row, mapping={"answer": "vars.expected"})
    r = line.record
    assert (r.question, r.answer, r.long_answer, r.gold_answer) == ("Q?", "A", '{"x": 1}', "A")


@pytest.mark.parametrize(("row", "parse", "fmt"), [(HOTPOT, parse_hotpot, "hotpotqa"), (WIKI, parse_2wiki, "2wiki"),
                                                 (MUSIQUE, parse_musique, "musique")])
def test_dataset_record_long_answer_is_the_harness_gold_answer(row, parse, fmt):
    r = _record(row)
    gold = next(c for c in make_cases([parse(row)]) if c.kind == "gold")
    assert r.meta["format"] == fmt
    assert (r.id, r.question, r.answer, r.gold_answer) == (gold.record_id, row["question"], row["answer"],
                                                           row["answer"])
    assert r.long_answer == gold.long_answer and r.hops == gold.hops


def test_dataset_paragraphs_become_numbered_titled_documents():
    r = _record(WIKI)
    assert list(r.documents) == ["1", "2", "3", "4"]
    assert r.documents["2"] == "Timber Falls: Timber Falls is a 2007 horror film directed by Tony Giglio."
    assert r.meta["titles"]["1"] == "Tony Giglio"
    assert _record(MUSIQUE).documents["2"].startswith("Mountrail County: Mountrail County is a county")


def test_native_records_read_as_before():
    row = {"id": 9, "query": "Q?", "short_answer": "A", "response": "L."}
    r = _record(row)
    assert (r.id, r.question, r.answer, r.long_answer, r.meta) == ("9", "Q?", "A", "L.", {})
    assert detect(row, 1).name == "logicscore"


def test_final_answer_line_forms():
    assert final_answer("x\nFinal answer: Oslo.") == ("Oslo", "x")
    assert final_answer("x\n**Answer:** Oslo") == ("Oslo", "x")
    assert final_answer("Answer: Oslo") == ("Oslo", "Answer: Oslo")
    assert final_answer("no answer here") is None


# ---- detection and its failure modes ------------------------------------------------------------

def test_a_line_with_two_formats_fields_is_an_error_naming_them():
    (line,) = _lines({**RAGAS, "answer": "Medford"})
    assert line.record is None and line.error.type == "InputError" and line.error.line == 1
    assert "logicscore (question, answer, long_answer); ragas (" in line.error.message
    assert "--format logicscore or --format ragas" in line.error.message
    # the chosen format settles it
    as_ragas = _lines({**RAGAS, "answer": "Medford"}, fmt="ragas")[0].record
    as_native = _lines({**RAGAS, "answer": "Medford"}, fmt="logicscore")[0].record
    # the native reading takes `retrieved_contexts` as its documents too, numbered alike
    assert as_ragas.documents == as_native.documents == {"1": RAGAS["retrieved_contexts"][0],
                                                          "2": RAGAS["retrieved_contexts"][1]}


def test_every_format_is_detected_from_its_own_fields():
    rows = {"logicscore": {"question": "Q", "answer": "A", "long_answer": "L"}, "ragas": RAGAS,
            "deepeval": DEEPEVAL, "promptfoo": PROMPTFOO, "hotpotqa": HOTPOT, "2wiki": WIKI, "musique": MUSIQUE}
    assert set(rows) == set(FORMATS) and NAMES[0] == "auto"
    assert {name: detect(row, 1).name for name, row in rows.items()} == {n: n for n in rows}


BAD = [
    ({"user_input": "Q", "response": "L"}, "ragas row: no short answer", "auto"),
    ({**RAGAS, "retrieved_contexts": "one string"}, None, "auto"),  # a single context is one document
    ({**RAGAS, "retrieved_contexts": [1, 2]}, "retrieved_contexts[1] must be a string", "auto"),
    ({**RAGAS, "retrieved_contexts": 5}, "retrieved_contexts must be a list of strings", "auto"),
    ({**RAGAS, "response": ["a"]}, "response must be a string", "auto"),
    ({"input": "Q", "actual_output": "L"}, "deepeval row: no short answer", "auto"),
    ({"input": "Q", "actual_output": None, "expected_output": "A"}, "deepeval row: missing actual_output", "auto"),
    ({**PROMPTFOO, "vars": {"prompt": "x"}}, "no question among vars", "auto"),
    ({**PROMPTFOO, "response": {"error": "x"}, "error": "rate limited"}, "promptfoo error: rate limited", "auto"),
    ({**HOTPOT, "context": "not a list"}, "not a HotpotQA record (ValueError", "auto"),
    ({**WIKI, "supporting_facts": [["No Such Title", 0]]}, "not a 2WikiMultihopQA record (KeyError", "auto"),
    ({**WIKI, "supporting_facts": [["Tony Giglio", 7]]}, "no supporting sentence", "auto"),
    ({**MUSIQUE, "question_decomposition": [{"question": "x"}]}, "not a MuSiQue record (KeyError", "auto"),
    ({"question": "Q", "long_answer": "L"}, "ragas row: missing response or answer", "ragas"),
    (RAGAS, "deepeval row: missing input", "deepeval"),
    ([1, 2], "expected a JSON object, got list", "ragas"),
    (b"{not json", "invalid JSON", "ragas"),
    (b"", "blank line", "hotpotqa"),
]


@pytest.mark.parametrize(("row", "needle", "fmt"), BAD)
def test_bad_rows_become_typed_errors_one_per_line(row, needle, fmt):
    lines = _lines({"question": "Q", "answer": "A", "long_answer": "L"}, row, fmt=fmt)
    assert [x.number for x in lines] == [1, 2]
    if needle is None:
        assert lines[1].error is None
        return
    error = lines[1].error
    assert lines[1].record is None and error.type == "InputError" and error.line == 2
    assert needle in error.message and error.message.startswith("line 2: ")


SAMPLES = [RAGAS, RAGAS_OLD, DEEPEVAL, PROMPTFOO, HOTPOT, WIKI, MUSIQUE,
           {"question": "Q", "answer": "A", "long_answer": "L"}, {}, {"response": None, "vars": 3},
           {"response": {"output": "x"}, "vars": {"question": 4}}, {"context": 1, "supporting_facts": 2},
           {"paragraphs": [{}], "question_decomposition": [1]}, {"user_input": {}, "response": "r"}]


@pytest.mark.parametrize("fmt", NAMES)
def test_any_row_under_any_format_is_one_record_or_one_typed_error(fmt):
    lines = _lines(*SAMPLES, fmt=fmt)
    assert [x.number for x in lines] == list(range(1, len(SAMPLES) + 1))
    for line in lines:
        assert (line.record is None) != (line.error is None)
        if line.error is not None:
            assert line.error.type == "InputError" and line.error.line == line.number


def test_a_row_of_another_shape_under_a_chosen_format_names_the_fields():
    (line,) = _lines({"vars": {"question": "Q"}}, fmt="promptfoo")
    assert line.error.message == ("line 1: not a promptfoo row (KeyError: 'response'); its fields: "
                                  "vars, response.output")


def test_an_errored_dataset_row_keeps_its_own_id():
    (line,) = _lines({**WIKI, "supporting_facts": [["No Such Title", 0]]})
    assert line.id == "w1"


def test_map_reads_from_the_row_as_written():
    data = convert({**DEEPEVAL, "extra": {"short": "Ossel"}}, 1, "deepeval", {"answer": "extra.short"})
    assert data["answer"] == "Ossel" and data["long_answer"] == DEEPEVAL["actual_output"]


# ---- the command line ----------------------------------------------------------------------------

runner = CliRunner()


@pytest.mark.slow
def test_score_reads_a_file_of_mixed_formats_line_by_line(tmp_path):
    rows = [RAGAS, DEEPEVAL, PROMPTFOO, HOTPOT, WIKI, MUSIQUE, {**RAGAS, "answer": "x"}, RAGAS_OLD]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "-q", "--no-timing"])
    assert result.exit_code == 0, result.output
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["meta"]["line"] for r in records] == list(range(1, 9))
    assert [r["status"] for r in records] == ["ok"] * 6 + ["error", "ok"]
    assert records[6]["error"]["type"] == "InputError" and "--format ragas" in records[6]["error"]["message"]
    assert [r["id"] for r in records[3:6]] == ["h1", "w1", "2hop__1_2"]
    assert records[4]["scores"]["completeness"] == 1  # the 2Wiki gold chain is complete
    assert [r["meta"]["record"]["format"] for r in records if r["status"] == "ok"] == [
        "ragas", "deepeval", "promptfoo", "hotpotqa", "2wiki", "musique", "ragas"]


@pytest.mark.slow
def test_score_with_a_chosen_format_and_explain_by_line(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({**RAGAS, "answer": "x", "reference": "Medford"}) + "\n" + json.dumps(DEEPEVAL) + "\n")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "-q", "--format", "ragas"])
    assert result.exit_code == 0, result.output
    first, second = (json.loads(x) for x in out.read_text().splitlines())
    assert first["status"] == "ok" and first["correct"] is True
    assert second["status"] == "error" and "ragas row: missing user_input or question" in second["error"]["message"]
    shown = runner.invoke(app, ["explain", str(src), "--line", "1", "--format", "ragas", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["id"] == "1"


def test_an_unknown_format_is_refused_before_anything_runs(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(RAGAS) + "\n")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "--format", "csv"])
    assert result.exit_code == 2 and not out.exists()
    assert "unknown --format 'csv'; formats: auto, logicscore, ragas, deepeval, promptfoo" in result.output
    result = runner.invoke(app, ["explain", str(src), "--line", "1", "--format", "csv"])
    assert result.exit_code == 2 and "unknown --format" in result.output
