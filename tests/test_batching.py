"""Batched parsing: `audit_many` parses each window with `nlp.pipe`, same records as one by one."""

import json
from pathlib import Path

import pytest

from logicscore import Auditor
from logicscore.models import QARecord

pytestmark = pytest.mark.slow
EXAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "examples.jsonl"


def _records() -> list[QARecord]:
    rows = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]
    records = [QARecord.model_validate(r) for r in rows]
    # The same long answer twice in a window shares one parse; a cited one is parsed clean.
    cited = records[0].model_copy(update={"id": "cited", "long_answer": records[0].long_answer + " [1]"})
    return [*records, records[1].model_copy(update={"id": "again"}), cited]


def _count_parses(monkeypatch) -> list[str]:
    import logicscore.parsing.loader
    import logicscore.pipeline.question.detect

    seen: list[str] = []
    real = logicscore.parsing.loader.parse

    def counted(nlp, text):
        seen.append(text)
        return real(nlp, text)

    monkeypatch.setattr(logicscore.parsing.loader, "parse", counted)
    monkeypatch.setattr(logicscore.pipeline.question.detect, "parse", counted)
    return seen


def test_batching_audit_many_equals_one_by_one():
    records = _records()
    one = Auditor(timing=False)
    alone = [one.audit_record(r).model_dump_json() for r in records]
    many = Auditor(timing=False)
    many.signature  # loaded, as the CLI has it: every window is batched  # noqa: B018
    assert [r.model_dump_json() for r in many.audit_many(records)] == alone


def test_batching_prepared_window_parses_nothing_alone(monkeypatch):
    auditor = Auditor(timing=False)
    auditor.signature  # noqa: B018 - loads the model before parses are counted
    seen = _count_parses(monkeypatch)
    results = list(auditor.audit_many(_records()))
    assert all(r.status == "ok" for r in results)
    assert seen == []


def test_batching_unprepared_record_still_parses(monkeypatch):
    auditor = Auditor(timing=False)
    auditor.signature  # noqa: B018 - loads the model before parses are counted
    seen = _count_parses(monkeypatch)
    # A question no other test asks: detection's cache has not seen it.
    record = QARecord(id="alone", question="Who directed the film Quorvane?", answer="Ada Brisk",
                      long_answer="Quorvane was directed by Ada Brisk [1].")
    assert auditor.audit_record(record).status == "ok"
    assert seen == [record.question, "Quorvane was directed by Ada Brisk."]


def test_batching_leaves_spacy_unloaded_for_given_entities():
    record = QARecord(id="g", question="Who directed Inception?", answer="Christopher Nolan",
                      long_answer="Inception was directed by Christopher Nolan.",
                      question_entities=["Inception"],
                      propositions=[{"subject": "Inception", "relation": "directed by",
                                     "object": "Christopher Nolan"}])
    auditor = Auditor(extractor="given", timing=False)
    [result] = auditor.audit_many([record])
    assert result.status == "ok" and "spacy" not in result.meta.signature
