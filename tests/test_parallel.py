"""`--workers`: worker processes give the records one process gives, byte for byte, in order."""

import io as stdio
import json
import os
from pathlib import Path
from typing import ClassVar

import pytest
from typer.testing import CliRunner

from logicscore import io
from logicscore.pipeline import registry as stages
from logicscore.auditor import Auditor
from logicscore.cli import app
from logicscore.config import AuditorConfig
from logicscore.errors import ConfigError
from logicscore.pipeline.extract.given import GivenExtractor
from logicscore.models import QARecord
from logicscore.run.parallel import ParallelAuditor, audit_parallel

pytestmark = pytest.mark.slow
runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "examples.jsonl"


def _lines() -> bytes:
    """The worked examples with, between them, a broken line, a record missing its answer and
    one over --max-chars: every kind of record a worker sends back."""
    good = [line for line in EXAMPLES.read_text().splitlines() if line.strip()]
    odd = ['{"id": "broken", "question": ', json.dumps({"id": "no-answer", "question": "Who?"}),
           json.dumps({"id": "huge", "question": "Who wrote it?", "answer": "Ann",
                       "long_answer": "Ann wrote it. " * 400})]
    return ("\n".join([good[0], *odd, *good[1:]]) + "\n").encode()


def _dump(results) -> list[str]:
    return [r.model_dump_json() for r in results]


def test_parallel_records_equal_one_process_across_windows():
    config = AuditorConfig(timing=False, max_chars=2000)
    alone = _dump(Auditor(config=config).audit_many(io.read_lines(stdio.BytesIO(_lines()))))
    # Windows of two: the records come back from both workers, interleaved, yet in order.
    both = _dump(audit_parallel(config, io.read_lines(stdio.BytesIO(_lines())), 2, window=2))
    assert both == alone
    assert [json.loads(r)["status"] for r in both].count("error") == 3


def test_parallel_signature_names_spacy_from_the_first_record_that_loads_it():
    # The given path loads spaCy only for a record without question entities (the third):
    # one process names it from that record on, whichever worker audits the later ones.
    base = {"question": "Who directed Inception?", "answer": "Christopher Nolan",
            "long_answer": "Inception was directed by Christopher Nolan.",
            "propositions": [{"subject": "Inception", "relation": "directed by",
                              "object": "Christopher Nolan"}]}
    rows = [dict(base, id=str(n), **({"question_entities": ["Inception"]} if n != 2 else {}))
            for n in range(6)]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    config = AuditorConfig(extractor="given", timing=False)
    alone = list(Auditor(config=config).audit_many(io.read_lines(stdio.BytesIO(data))))
    both = list(audit_parallel(config, io.read_lines(stdio.BytesIO(data)), 2, window=1))
    assert [r.meta.signature for r in both] == [r.meta.signature for r in alone]
    assert "spacy" not in alone[1].meta.signature and "spacy" in alone[5].meta.signature


def _score(tmp_path, name, *extra):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_lines())
    out = tmp_path / name
    result = runner.invoke(app, ["score", str(src), "-o", str(out), "--no-timing", "-q",
                                 "--max-chars", "2000", *extra])
    return result, out


def test_parallel_cli_workers_two_is_byte_identical(tmp_path, monkeypatch):
    monkeypatch.setattr("logicscore.pipeline.registry.PREPARE_WINDOW", 2)
    one, out1 = _score(tmp_path, "one.jsonl")
    two, out2 = _score(tmp_path, "two.jsonl", "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert out2.read_bytes() == out1.read_bytes()


def test_parallel_cli_resume_with_workers(tmp_path, monkeypatch):
    monkeypatch.setattr("logicscore.pipeline.registry.PREPARE_WINDOW", 2)
    _, full = _score(tmp_path, "full.jsonl")
    lines = full.read_bytes().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(lines[:3]))
    resumed, _ = _score(tmp_path, "part.jsonl", "--resume", "--workers", "2")
    assert resumed.exit_code == 0, resumed.output
    assert part.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("options", [{"extractor": "llm"}, {"judge": "llm"}])
def test_parallel_refuses_the_llm_stages(options):
    with pytest.raises(ConfigError, match="--concurrency"):
        ParallelAuditor(AuditorConfig(**options), 2)


def test_parallel_cli_refuses_llm_with_workers(tmp_path):
    result, out = _score(tmp_path, "llm.jsonl", "--extractor", "llm", "--model", "m",
                         "--base-url", "http://127.0.0.1:9/v1", "--workers", "2")
    assert result.exit_code == 2 and "--concurrency" in result.output
    assert not out.exists()


class DyingExtractor(GivenExtractor):
    """The given extractor, but its process dies on the record with id "die" (an OOM kill)."""

    name: ClassVar[str] = "dying"

    def extract(self, record, hints):
        if record.id == "die":
            os._exit(9)
        return super().extract(record, hints)


def test_parallel_dead_worker_stops_the_run_instead_of_hanging(monkeypatch):
    monkeypatch.setitem(stages.BUILTIN["extractor"], "dying", f"{__name__}:DyingExtractor")
    record = QARecord(id="ok", question="Who directed Inception?", answer="Christopher Nolan",
                      long_answer="Inception was directed by Christopher Nolan.",
                      question_entities=["Inception"],
                      propositions=[{"subject": "Inception", "relation": "directed by",
                                     "object": "Christopher Nolan"}])
    records = [record, record.model_copy(update={"id": "die"}), record]
    results = audit_parallel(AuditorConfig(extractor="dying", timing=False), records, 2, window=1)
    seen = []
    with pytest.raises(ConfigError, match="worker process died"):
        seen.extend(r.id for r in results)
    # What came back before the lost window, in order (a killed worker may take its last
    # unsent window with it).
    assert seen in ([], ["ok"])
