"""Per-hop grounding: each chain hop against the documents its sentence cites (rules path)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from logicscore import Auditor
from logicscore.cli import app
from logicscore.errors import InputError
from logicscore.pipeline.ground import resolve
from logicscore.pipeline.ground.rules import Document, names, states
from logicscore.io import to_record
from logicscore.models import QARecord

QUESTION = "Where was the director of Glass Harbor born?"
CHAIN = "Glass Harbor was directed by Tobias Renner{m1}. Tobias Renner was born in Osk{m2}."
DIRECTED = "Glass Harbor is a 1998 drama directed by Tobias Renner."


def record(m1=" [1]", m2=" [2]", documents=None, **extra) -> QARecord:
    docs = {"1": DIRECTED, "2": "Tobias Renner was born in Osk in 1950."} if documents is None else documents
    return QARecord(**{"id": "g", **extra}, question=QUESTION, answer="Osk",
                    long_answer=CHAIN.format(m1=m1, m2=m2), documents=docs)


def statuses(result) -> list[str]:
    return [row.status for row in result.grounding]


# Each row: what the second hop's sentence cites, the documents, its expected status.
ROWS = [
    ("grounded", " [2]", None, "grounded"),
    ("a document about the right names stating another relation", " [2]",
     {"1": DIRECTED, "2": "Tobias Renner died in Osk in 2001."}, "ungrounded"),
    ("a document stating the relation of another place", " [2]",
     {"1": DIRECTED, "2": "Tobias Renner was born in Velmora."}, "ungrounded"),
    ("a document about someone else", " [2]",
     {"1": DIRECTED, "2": "Ilse Varga was born in Osk."}, "ungrounded"),
    ("no marker", "", None, "uncited"),
    ("a marker naming no document", " [Doc9]", None, "unknown_citation"),
]


@pytest.mark.slow
@pytest.mark.parametrize("why,m2,documents,expected", ROWS, ids=[r[0] for r in ROWS])
def test_each_status_of_a_hop(auditor, why, m2, documents, expected):
    result = auditor.audit_record(record(m2=m2, documents=documents))
    assert result.chain and statuses(result) == ["grounded", expected]
    assert result.scores.grounded_chain == 0.5 if expected != "grounded" else result.scores.grounded_chain == 1.0
    flagged = [s for s in result.diagnosis.signals if s.kind == "ungrounded_hop"]
    assert len(flagged) == (expected == "ungrounded")
    if flagged:
        assert flagged[0].message == ("hop 2 (Tobias Renner born in Osk) is asserted but not "
                                      "supported by document 2")


@pytest.mark.slow
def test_documents_as_a_list_are_numbered_from_one_and_doc_markers_name_them(auditor):
    docs = [DIRECTED, "Tobias Renner was born in Osk."]
    result = auditor.audit_record(record(m1=" [Doc1]", m2=" [doc 2]", documents=docs))
    assert statuses(result) == ["grounded", "grounded"]
    assert [row.supported_by for row in result.grounding] == [["1"], ["2"]]
    assert result.meta.grounder == "ground:rules" and "ground" not in result.meta.signature


@pytest.mark.slow
def test_a_record_without_documents_keeps_its_bytes_and_the_runs_signature(auditor):
    plain = auditor.audit_record(record()).model_copy()
    bare = QARecord(id="g", question=QUESTION, answer="Osk", long_answer=CHAIN.format(m1=" [1]", m2=" [2]"))
    out = json.loads(auditor.audit_record(bare).to_json())
    assert "grounding" not in out and "grounded_chain" not in out["scores"]
    assert "ground" not in out["meta"]["signature"] and "grounder" not in out["meta"]
    # Documents are the record's own fact: the run's signature is one, the grounder is the record's.
    assert out["meta"]["signature"] == auditor.signature == plain.meta.signature
    assert json.loads(plain.to_json())["meta"]["grounder"] == "ground:rules"
    assert auditor.grounded_signature == f"{auditor.signature}|ground:rules"


@pytest.mark.slow
def test_grounding_off_ignores_documents():
    result = Auditor(grounder="off", timing=False).audit_record(record())
    assert result.grounding is None and result.scores.grounded_chain is None
    assert "ground" not in result.meta.signature and result.meta.grounder is None


@pytest.mark.slow
def test_a_broken_chain_is_grounded_along_its_best_partial_chain(auditor):
    # Nothing links Glass Harbor to Tobias Renner: the chain is broken, its partial part is checked.
    text = "Tobias Renner was born in Osk [1]. Glass Harbor won a prize [2]."
    result = auditor.audit_record(QARecord(id="b", question=QUESTION, answer="Osk", long_answer=text,
                                           documents=["Tobias Renner was born in Osk."]))
    assert result.scores.completeness == 0
    assert result.grounding and all(r.status in ("grounded", "unknown_citation") for r in result.grounding)


@pytest.mark.slow
def test_documents_without_a_chain_give_no_share(auditor):
    result = auditor.audit_record(QARecord(id="n", question=QUESTION, answer="Osk",
                                           long_answer="I do not know.", documents=["Osk is a town."]))
    out = json.loads(result.to_json())
    assert out["grounding"] == [] and "grounded_chain" not in out["scores"]
    assert out["meta"]["grounder"] == "ground:rules"


def test_an_unknown_grounder_is_a_config_error_naming_the_known():
    with pytest.raises(Exception, match="unknown grounder 'nope'; available: llm, rules"):
        Auditor(grounder="nope")


# ---- the rules grounder's matching, row by row on invented text

def doc(text: str) -> Document:
    return Document.of(text)


@pytest.mark.parametrize("forms,text,found", [
    (("Tobias Renner",), "Tobias Renner was born in Osk.", True),
    (("She",), "She was born in Osk.", False),                                 # a pronoun never counts
    (("1950",), "born in Osk in 1950", True),                                  # a year is a value it states
    (("Austrian",), "was an Austrian painter", True),
    (("Tobias Renner",), "Tobias Aurel Maximilian Renner (1950) was", True),   # the full name
    (("Tobias Renner",), "Tobias Klee met Ana Renner", False),                # not one name
    (("Tobias Renner",), "Tobias Klee and Renner", False),
    (("T. A. Renner",), "Tobias Aurel Renner was a painter", True),           # initials
    (("Glass Harbor 2",), "Glass Harbour is a film of 1998", False),          # a sequel's number
    (("Glass Harbor",), "Glass Harbour is a film of 1998", True),             # spelling, fuzzy
    (("Ilse Varga", "Varga"), "Ilse Vargas sings", True),
])
def test_a_document_names_an_entity(forms, text, found):
    assert names(forms, doc(text), 85) is found


@pytest.mark.parametrize("relation,text,found", [
    ("born in", "Tobias Renner was born in Osk", True),
    ("born in", "Tobias Renner died in Osk", False),
    ("born in", "Osk is the birthplace of Tobias Renner", True),     # the relation's family
    ("direct by", "the director of the film was Tobias Renner", True),
    ("sing by", "a song sung by Ilse Varga", True),                   # an irregular past form
    ("win", "she won the Osk Prize", True),
    ("be", "anything at all", True),                                  # no content word
    ("related to", "Osk and Tobias Renner", True),                    # a placeholder relation
    ("star in", "Ilse Varga starred in Glass Harbor", True),
    ("star in", "Ilse Varga directed Glass Harbor", False),
])
def test_a_document_states_a_relation(relation, text, found):
    assert states(relation, doc(text).stems) is found


@pytest.mark.parametrize("marker,documents,expected", [
    ("Doc3", {"3": "x"}, "3"), ("3", {"Doc3": "x"}, "Doc3"), ("doc 2", {"2": "x"}, "2"),
    ("Doc3", {"Doc3": "x", "3": "y"}, "Doc3"), ("4", {"3": "x"}, None), ("s3", {"3": "x"}, None),
    ("[2]", {"2": "x"}, "2"),  # the llm extractor keeps the brackets
])
def test_a_marker_resolves_to_a_document(marker, documents, expected):
    assert resolve(marker, documents) == expected


# ---- input: documents as a dict, a list, or a RAG tool's context field

@pytest.mark.parametrize("field", ["documents", "retrieved_contexts", "retrieval_context", "contexts"])
def test_a_context_list_is_read_as_numbered_documents(field):
    rec = to_record({"question": "q", "answer": "a", "long_answer": "l", field: ["one", "two"]}, 1)
    assert rec.documents == {"1": "one", "2": "two"}


def test_documents_that_are_not_texts_are_an_input_error_naming_the_field():
    with pytest.raises(InputError, match="documents"):
        to_record({"question": "q", "answer": "a", "long_answer": "l", "documents": [1, 2]}, 3)
    with pytest.raises(InputError, match="documents"):
        to_record({"question": "q", "answer": "a", "long_answer": "l", "documents": "one text"}, 3)


# ---- the command line: score, explain, report, gate

runner = CliRunner()


@pytest.fixture
def scored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no pyproject above may leak gate thresholds
    rows = [record().model_dump(exclude_none=True),
            record(documents={"1": DIRECTED, "2": "Tobias Renner died in Osk."}, id="h").model_dump(
                exclude_none=True)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "--no-timing", "-q"])
    assert result.exit_code == 0, result.output
    return src, out


@pytest.mark.slow
def test_score_writes_grounding_and_off_leaves_it_out(scored, tmp_path):
    src, out = scored
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [[g["status"] for g in r["grounding"]] for r in lines] == [["grounded"] * 2, ["grounded", "ungrounded"]]
    assert [r["scores"]["grounded_chain"] for r in lines] == [1.0, 0.5]
    off = tmp_path / "off.jsonl"
    assert runner.invoke(app, ["score", str(src), "-o", str(off), "--grounding", "off", "-q"]).exit_code == 0
    assert all("grounding" not in json.loads(line) for line in off.read_text().splitlines())
    bad = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "x.jsonl"), "--grounding", "nope"])
    assert bad.exit_code != 0 and "unknown grounder 'nope'" in bad.output


@pytest.mark.slow
def test_score_resumes_a_grounded_output(scored):
    src, out = scored
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "--resume", "--no-timing", "-q"])
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.slow
def test_explain_says_which_hop_its_document_does_not_support(scored):
    src, _ = scored
    result = runner.invoke(app, ["explain", str(src), "--id", "h"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "grounding: 0.50 of the chain's hops grounded" in result.output
    assert "hop 2 (Tobias Renner born in Osk) is asserted but not supported by document 2" in result.output
    assert "hop 1 (Glass Harbor direct by Tobias Renner) is supported by document 1" in result.output
    assert "\ngrounder: ground:rules\n" in result.output


@pytest.mark.slow
def test_report_has_a_grounding_table_only_for_runs_with_documents(scored, tmp_path):
    _, out = scored
    md = tmp_path / "r.md"
    assert runner.invoke(app, ["report", str(out), "--md", str(md)]).exit_code == 0
    text = md.read_text()
    assert "## Grounding" in text
    assert "| mean grounded_chain (share of chain hops grounded) | 0.750 |" in text
    assert "| records with an ungrounded hop | 1 (50.0%) |" in text
    assert "| chain hops ungrounded | 1 (25.0%) |" in text
    from logicscore.report.synthetic import make_result
    plain = tmp_path / "plain.jsonl"
    plain.write_text(make_result("p").to_json() + "\n", encoding="utf-8")
    assert runner.invoke(app, ["report", str(plain), "--md", str(md)]).exit_code == 0
    assert "Grounding" not in md.read_text()


@pytest.mark.slow
def test_gate_min_grounded_from_flags_and_pyproject(scored, tmp_path):
    _, out = scored
    assert runner.invoke(app, ["gate", str(out), "--min-grounded", "0.75"]).exit_code == 0
    failed = runner.invoke(app, ["gate", str(out), "--min-grounded", "0.8", "--json"])
    assert failed.exit_code == 1
    check = json.loads(failed.stdout)["checks"][0]
    assert check["name"] == "mean grounded_chain" and check["value"] == 0.75 and not check["passed"]
    (tmp_path / "pyproject.toml").write_text("[tool.logicscore.gate]\nmin_grounded = 0.9\n")
    assert runner.invoke(app, ["gate", str(out)]).exit_code == 1
    assert runner.invoke(app, ["gate", str(out), "--min-grounded", "0.5"]).exit_code == 0


def test_gate_min_grounded_fails_a_run_without_documents(tmp_path, monkeypatch):
    from logicscore.report.synthetic import make_result
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run.jsonl"
    run.write_text(make_result("p").to_json() + "\n", encoding="utf-8")
    result = runner.invoke(app, ["gate", str(run), "--min-grounded", "0.1", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["checks"][0]["value"] is None


@pytest.mark.slow
def test_workers_give_the_bytes_of_one_process_with_and_without_documents(tmp_path):
    rows = [record(id="a"), record(id="b").model_copy(update={"documents": None}), record(id="c", m2="")]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in rows), encoding="utf-8")
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}.jsonl"
        result = runner.invoke(app, ["score", str(src), "-o", str(out), "--no-timing", "-q", "-w", workers])
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    metas = [json.loads(line)["meta"] for line in outs[0].decode().splitlines()]
    assert len({m["signature"] for m in metas}) == 1
    assert [m.get("grounder") for m in metas] == ["ground:rules", None, "ground:rules"]


@pytest.mark.slow
def test_a_rag_run_where_some_records_carry_documents_is_one_run_to_report_and_gate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = [record(id="a"), record(id="b").model_copy(update={"documents": None})]
    src, out, md = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "r.md"
    src.write_text("".join(r.model_dump_json(exclude_none=True) + "\n" for r in rows), encoding="utf-8")
    assert runner.invoke(app, ["score", str(src), "-o", str(out), "--no-timing", "-q"]).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len({r["meta"]["signature"] for r in lines}) == 1
    assert [r["meta"].get("grounder") for r in lines] == ["ground:rules", None]
    result = runner.invoke(app, ["gate", str(out), "--min-completeness", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["grounders"] == {"ground:rules": 1}
    assert runner.invoke(app, ["report", str(out), "--md", str(md)]).exit_code == 0
    text = md.read_text()
    assert "MIXED" not in text and "| grounded by ground:rules | 1 |" in text
