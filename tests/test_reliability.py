"""Reliability (docs/reliability.md): one record per input line whatever the line holds, typed errors,
nothing lost when a run is killed, bounded time and memory on huge input."""

from __future__ import annotations

import importlib.util
import io as pyio
import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore import Auditor, io
from logicscore.cli import app
from logicscore.errors import InputError, Timeout

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_bad_input = _load(DATA / "make_bad_input.py", "make_bad_input")
soak = _load(ROOT / "scripts" / "kill_resume_soak.py", "kill_resume_soak")

OK, ERR = "ok", "error"
IE = "InputError"

# One row per physical line of the corpus built by tests/data/make_bad_input.py:
# (case, status, error type, id the record must carry; None: it has no usable id of its own,
# so it carries its line number, as a record without an id does).
BAD_INPUT_TABLE = [
    ("good, after a UTF-8 BOM", OK, None, "good"),
    ("truncated JSON", ERR, IE, None),
    ("not JSON", ERR, IE, None),
    ("blank line", ERR, IE, None),
    ("whitespace-only line", ERR, IE, None),
    ("missing long_answer", ERR, IE, "missing-long-answer"),
    ("missing every field", ERR, IE, "missing-all"),
    ("null long_answer", ERR, IE, "null-long-answer"),
    ("null optional fields", OK, None, "null-optional-fields"),
    ("number question", ERR, IE, "number-question"),
    ("list answer", ERR, IE, "list-answer"),
    ("object long_answer", ERR, IE, "nested-long-answer"),
    ("nested meta passes through", OK, None, "nested-meta"),
    ("duplicate id, first", OK, None, "dup"),
    ("duplicate id, second", OK, None, "dup"),
    ("empty long answer", OK, None, "empty-long-answer"),
    ("whitespace long answer", OK, None, "whitespace-long-answer"),
    ("citations only", OK, None, "citations-only"),
    ("punctuation only", OK, None, "punctuation-only"),
    ("empty question", OK, None, "empty-question"),
    ("empty short answer", OK, None, "empty-answer"),
    ("top-level array", ERR, IE, None),
    ("top-level string", ERR, IE, None),
    ("top-level null", ERR, IE, None),
    ("top-level number", ERR, IE, None),
    ("list id", ERR, IE, None),
    ("boolean id", ERR, IE, None),
    ("integer id", OK, None, "12345"),
    ("string hops", ERR, IE, "hops-string"),
    ("string question_entities", ERR, IE, "question-entities-string"),
    ("proposition without object", ERR, IE, "propositions-malformed"),
    ("documents as a list of numbers", ERR, IE, "documents-list"),
    ("unknown fields ignored", OK, None, "extra-fields"),
    ("alias field names", OK, None, "aliases"),
    # Written back they would be null: refused, naming the number (issue 38).
    ("NaN and Infinity in meta", ERR, "InputError", "nan-meta"),
    ("trailing comma", ERR, IE, None),
    ("single quotes", ERR, IE, None),
    ("two objects on one line", ERR, IE, None),
    # generated lines
    ("CRLF ending", OK, None, "crlf"),
    ("BOM in the middle of the file", OK, None, "bom-mid-file"),
    ("invalid UTF-8", ERR, IE, None),
    ("Latin-1 byte", ERR, IE, None),
    ("raw NUL inside a string", ERR, IE, None),
    ("escaped control characters", OK, None, "escaped-controls"),
    ("lone surrogate escape", ERR, IE, "lone-surrogate"),
    ("surrogate pair escape (emoji)", OK, None, "paired-surrogates"),
    ("5000-digit integer", ERR, IE, None),
    ("100,000-deep nesting", ERR, IE, None),
    ("500-deep meta", ERR, IE, "deep-meta"),
    ("90-deep meta passes through", OK, None, "deep-meta-90"),
    ("5 MB long answer (over --max-chars)", ERR, IE, "5mb-long-answer"),
    ("5 MB of garbage", ERR, IE, None),
    ("5 MB meta", OK, None, "5mb-meta"),
    ("last line without newline", OK, None, "no-final-newline"),
]


@pytest.fixture(scope="module")
def bad_corpus(tmp_path_factory) -> tuple[Path, list[str]]:
    path = tmp_path_factory.mktemp("bad") / "bad_input.full.jsonl"
    return path, make_bad_input.build(path)


@pytest.fixture(scope="module")
def bad_results(bad_corpus, auditor) -> list:
    path, _ = bad_corpus
    with path.open("rb") as fh:
        return list(auditor.audit_many(io.read_lines(fh)))


def test_reliability_bad_corpus_table_matches_file(bad_corpus):
    _, names = bad_corpus
    assert len(names) == len(BAD_INPUT_TABLE)


@pytest.mark.parametrize("number, case, status, error_type, record_id",
                         [(i, *row) for i, row in enumerate(BAD_INPUT_TABLE, start=1)],
                         ids=[row[0] for row in BAD_INPUT_TABLE])
def test_reliability_bad_line_gets_one_typed_record(bad_results, number, case, status, error_type,
                                                     record_id):
    result = bad_results[number - 1]
    assert result.meta.line == number
    assert (result.status, result.error and result.error.type) == (status, error_type), (
        result.error and result.error.message)
    assert result.id == (str(number) if record_id is None else record_id)
    if status == ERR:
        assert result.scores is None
        assert result.error.line == number
        assert f"line {number}" in result.error.message or "record" in result.error.message
        assert len(result.error.message) < 2100  # never echoes a 5 MB input
    else:
        scores = result.scores
        assert 0 <= scores.conciseness <= 1 and 0 <= scores.partial_completeness <= 1
        json.loads(result.to_json())


@pytest.mark.parametrize("case", ["empty-long-answer", "whitespace-long-answer", "citations-only",
                                  "punctuation-only"])
def test_reliability_answer_without_content_scores_zero(bad_results, case):
    (result,) = [r for r in bad_results if r.id == case]
    assert result.scores.completeness == 0
    assert result.scores.conciseness == 0
    assert result.determinateness != "entailed"
    assert result.diagnosis.answer_absent


def test_reliability_meta_passes_through_untouched(bad_results):
    (nested,) = [r for r in bad_results if r.id == "nested-meta"]
    assert nested.meta.record == {"a": {"b": {"c": [1, {"d": None}, "x"]}}, "z": [[[]]]}
    (nan,) = [r for r in bad_results if r.id == "nan-meta"]
    assert nan.status == "error" and "the number NaN is not finite" in nan.error.message
    assert nan.meta.record == {}  # never a record whose NaN became null


def test_reliability_cli_exit_code_policy(bad_corpus, tmp_path):
    """Error records are data (exit 0); --strict turns any of them into exit 1."""
    path, names = bad_corpus
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    res = runner.invoke(app, ["score", str(path), "-o", str(out), "--no-timing", "-q"])
    assert res.exit_code == 0, res.output
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 == len(names)  # one line per input line, \n-ended
    records = [json.loads(line) for line in lines[:-1]]
    assert [r["meta"]["line"] for r in records] == list(range(1, len(names) + 1))
    assert [r["status"] for r in records] == [row[1] for row in BAD_INPUT_TABLE]
    res = runner.invoke(app, ["score", str(path), "-o", str(tmp_path / "strict.jsonl"), "--no-timing",
                              "-q", "--strict"])
    assert res.exit_code == 1
    assert (tmp_path / "strict.jsonl").read_bytes() == out.read_bytes()  # still wrote everything


def test_reliability_strict_passes_clean_input(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "question": "Where was Alma Reyes born?", "answer": "Tovar",
                               "long_answer": "Alma Reyes was born in Tovar."}) + "\n")
    res = CliRunner().invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", "--strict"])
    assert res.exit_code == 0


def test_reliability_writer_never_loses_a_line():
    """A result that cannot be serialized still leaves one (error) line for its input line."""
    from logicscore.models import AuditResult, ResultMeta

    deep: object = 1
    for _ in range(300):
        deep = {"a": deep}
    out = pyio.StringIO()
    writer = io.ResultWriter(out)
    writer.write(AuditResult(id="deep", meta=ResultMeta(signature="s", line=3, record=deep)))
    writer.write(AuditResult(id="bad\ud800id", meta=ResultMeta(signature="s", line=4)))
    writer.write(AuditResult(id="fine\u2028", meta=ResultMeta(signature="s", line=5)))
    lines = out.getvalue().split("\n")
    assert len(lines) == 4 and lines[-1] == ""
    first, second, third = (json.loads(line) for line in lines[:3])
    assert (first["id"], first["status"], first["error"]["type"], first["meta"]["line"]) == (
        "deep", "error", "RuntimeError", 3)
    # its own id cannot be written (a lone surrogate): it carries its line number instead
    assert (second["id"], second["status"], second["meta"]["line"]) == ("4", "error", 4)
    assert third["id"] == "fine\u2028" and "\u2028" not in lines[2]  # escaped, not raw


# --- crash safety -----------------------------------------------------------------------------


def test_reliability_resume_cuts_torn_tail_and_finishes(tmp_path):
    """A record half-written when the process died is cut and redone, not kept or doubled."""
    src = tmp_path / "in.jsonl"
    soak.make_input(src, 40, seed=3)
    ref, out = tmp_path / "ref.jsonl", tmp_path / "out.jsonl"
    args = ["score", str(src), "--no-timing", "-q", "--extractor", "given"]
    runner = CliRunner()
    assert runner.invoke(app, [*args, "-o", str(ref)]).exit_code == 0
    full = ref.read_bytes()
    cut = full.index(b"\n", len(full) // 2) + 1
    for torn in (full[:cut] + full[cut:cut + 37], full[:cut], full[:cut - 1]):
        out.write_bytes(torn)
        assert runner.invoke(app, [*args, "-o", str(out), "--resume"]).exit_code == 0
        assert out.read_bytes() == full


def test_reliability_resume_on_missing_or_empty_output(tmp_path):
    src = tmp_path / "in.jsonl"
    soak.make_input(src, 5, seed=4)
    out = tmp_path / "out.jsonl"
    args = ["score", str(src), "-o", str(out), "--no-timing", "-q", "-x", "given", "--resume"]
    assert CliRunner().invoke(app, args).exit_code == 0
    first = out.read_bytes()
    assert CliRunner().invoke(app, args).exit_code == 0  # everything done: nothing appended
    assert out.read_bytes() == first and first.count(b"\n") == 5


def test_reliability_done_lines_ignores_foreign_lines(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"meta": {"line": 1}}\nnot json\n{"meta": {"line": "2"}}\n[]\n{"meta": {"line": 3}}\n')
    assert io.done_lines(out) == {1, 3}
    out.write_bytes(b'{"meta": {"line": 1}}' + b"x" * 200_000)  # torn tail longer than one block
    assert io.done_lines(out) == set() and out.read_bytes() == b""


def _soak_rounds(tmp_path, rounds: int, n: int, rules: bool, compare_bytes: bool = True):
    reference = soak.reference_run(tmp_path, n, rules) if compare_bytes else None
    for seed in range(rounds):  # one kill, then two kills with a resume in between
        ok, why = soak.run_round(tmp_path, seed=seed, n=n, rules=rules, reference=reference,
                                 kills=1 + seed % 2)
        assert ok, why


def test_reliability_kill_and_resume_given(tmp_path):
    """SIGKILL a real `python -m logicscore score` mid-run, resume: every line exactly once."""
    _soak_rounds(tmp_path, rounds=2, n=600, rules=False)


@pytest.mark.slow
def test_reliability_kill_and_resume_rules(tmp_path):
    _soak_rounds(tmp_path, rounds=1, n=60, rules=True, compare_bytes=False)  # ids and order only


# --- limits -----------------------------------------------------------------------------------


def test_reliability_max_chars_is_a_typed_error(auditor):
    small = Auditor(extractor="given", timing=False, max_chars=100)
    with pytest.raises(InputError, match="--max-chars"):
        small.audit(question="Q?", answer="A", long_answer="x" * 101, propositions=[])
    (res,) = small.audit_many([io.parse_line(json.dumps(
        {"id": "big", "question": "Q?", "answer": "A", "long_answer": "y" * 500}).encode(), 7)])
    assert (res.status, res.error.type, res.error.line, res.id) == ("error", "InputError", 7, "big")
    with pytest.raises(InputError, match="question has 11 characters"):  # a tenth for Q and SA
        small.audit(question="Q" * 11, answer="A", long_answer="L", propositions=[])
    with pytest.raises(InputError, match="answer has 11 characters"):
        small.audit(question="Q", answer="A" * 11, long_answer="L", propositions=[])
    assert small.audit(question="Q" * 10, answer="A" * 10, long_answer="L" * 100,
                       propositions=[]).status == "ok"


def test_reliability_timeout_is_a_typed_error_and_run_goes_on(monkeypatch):
    # A deadline long enough for a plain record on a loaded machine; the runaway one never ends.
    aud = Auditor(extractor="given", timing=False, timeout=1.5)

    def slow(record, hints):
        if record.id == "slow":
            while True:  # a runaway stage: only the deadline stops it
                pass
        return real(record, hints)

    real = aud.extractor.extract
    monkeypatch.setattr(aud.extractor, "extract", slow)
    good = {"question": "Where was Alma Reyes born?", "answer": "Tovar", "long_answer": "x",
            "propositions": [{"subject": "Alma Reyes", "relation": "born in", "object": "Tovar"}]}
    lines = [io.parse_line(json.dumps({"id": i, **good}).encode(), n) for n, i in
             enumerate(["a", "slow", "b"], start=1)]
    aud.spacy.nlp  # noqa: B018  the model loads before the clock starts, as a run's first record does
    aud.audit(**good)
    start = time.monotonic()
    results = list(aud.audit_many(lines))
    assert time.monotonic() - start < 10
    assert [(r.id, r.status) for r in results] == [("a", "ok"), ("slow", "error"), ("b", "ok")]
    assert results[1].error.type == Timeout.type and results[1].error.line == 2
    assert "--timeout" in results[1].error.message


def test_reliability_unexpected_exception_becomes_runtime_error(monkeypatch):
    aud = Auditor(extractor="given", timing=False)
    monkeypatch.setattr(aud.extractor, "extract", lambda record, hints: 1 / 0)
    (res,) = aud.audit_many([io.parse_line(b'{"id": "z", "question": "Q", "answer": "A", '
                                           b'"long_answer": "L", "propositions": []}', 4)])
    assert (res.status, res.error.type, res.error.line) == ("error", "RuntimeError", 4)
    assert "ZeroDivisionError" in res.error.message


bench = _load(ROOT / "scripts" / "bench_adversarial.py", "bench_adversarial")


@pytest.mark.slow
@pytest.mark.parametrize("case", list(bench.CASES))
def test_reliability_adversarial_input_finishes_in_bounded_time(case):
    """scripts/bench_adversarial.py cases at --quick sizes, in this process: generous bounds only
    (the script itself runs the full sizes, one fresh process each, with peak memory)."""
    row = bench.run_case(case, quick=True, trace=False, timeout=60)
    assert row["status"] in row["expected_status"] and row["status"] != "error:Timeout", row
    assert row["seconds"] < 30, row
    assert row["alternatives"] <= 16


# --- regressions found by scripts/fuzz.py (same oracle as the fuzzer) ------------------------

FUZZ_CRASHERS = DATA / "fuzz_crashers.jsonl"


def _crashers() -> list[dict]:
    return [json.loads(line) for line in FUZZ_CRASHERS.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def fuzzer():
    return _load(ROOT / "scripts" / "fuzz.py", "fuzz").Fuzzer()


@pytest.mark.parametrize("case", _crashers(), ids=lambda c: c["name"])
def test_reliability_fuzz_crasher_regression(case, fuzzer):
    if case["target"] == "reader":
        fuzzer.check_reader(bytes.fromhex(case["hex"]))
    else:
        record = {k: v for k, v in case["record"].items() if k != "id"}
        fuzzer.check_extractor(record)
