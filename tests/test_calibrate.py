"""Perturbations carry the labels they claim; `calibrate` measures the auditor against them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from logicscore import QARecord, io
from logicscore.measure import calibrate, labelled
from logicscore.cli import app
from logicscore.models import AuditResult, ResultMeta, Side
from logicscore.measure.perturb import build
from logicscore.measure.perturb.text import removal_noise

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "corpora" / "examples.jsonl"


def _answer(rid: str, question: str, answer: str, long_answer: str) -> build.Answer:
    return build.Answer.of(QARecord(id=rid, question=question, answer=answer, long_answer=long_answer))


BRIDGE = _answer("q", "Who directed the film that Marta Ellison starred in?", "Tobias Renner",
                 "Marta Ellison starred in the film Glass Harbor. Glass Harbor was directed by "
                 "Tobias Renner. So the answer is Tobias Renner.")
DONORS = [
    _answer("d1", "Where was the author of The Quiet Orchard born?", "Brenmoor",
            "The Quiet Orchard was written by Ivo Marsh. Ivo Marsh was born in Brenmoor."),
    _answer("d2", "Who founded the label that signed Rena Voss?", "Halden Pryce",
            "Rena Voss signed with Oakline Records. Oakline Records was founded by Halden Pryce."),
]


def _rng() -> random.Random:
    return random.Random("test")


TWO_ANCHORS = _answer("t", "Who directed the film that Marta Ellison starred in with Oren Vale?",
                      "Tobias Renner", "Marta Ellison starred in the film Glass Harbor. Oren Vale "
                      "starred in Glass Harbor too. Glass Harbor was directed by Tobias Renner.")


def test_body_dropped_claims_incomplete_broken_and_keeps_the_answer():
    copy = build.drop_body(TWO_ANCHORS)
    assert copy.sound and (copy.complete, copy.failure) == (False, "broken")
    assert copy.record.long_answer == ("Oren Vale starred in Glass Harbor too. Glass Harbor was "
                                       "directed by Tobias Renner.")
    assert copy.record.id == "t#body_dropped" and copy.record.meta["source"] == "t"


def test_body_dropped_claims_no_failure_type_when_the_rest_is_shallow():
    copy = build.drop_body(BRIDGE)
    assert copy.sound and (copy.complete, copy.failure) == (False, None)
    assert copy.record.long_answer == ("Glass Harbor was directed by Tobias Renner. "
                                       "So the answer is Tobias Renner.")


def test_body_dropped_with_every_name_restated_is_discarded():
    restated = _answer("r", BRIDGE.record.question, "Tobias Renner",
                       "Marta Ellison starred in the film Glass Harbor. The film Marta Ellison "
                       "starred in was directed by Tobias Renner.")
    copy = build.drop_body(restated)
    assert not copy.sound and copy.discard == "every question name still written beside the answer"


def test_body_dropped_deviates_when_no_question_name_is_left_and_the_rest_goes_deep():
    deep = _answer("v", "Who directed the film that Marta Ellison starred in?", "Tobias Renner",
                   "Marta Ellison starred in the film Glass Harbor. Glass Harbor was shot in Port "
                   "Lune. Port Lune is the home of Tobias Renner.")
    copy = build.drop_body(deep)
    assert copy.sound and copy.failure == "deviated"
    assert "Marta Ellison" not in copy.record.long_answer


@pytest.mark.parametrize("long_answer,why", [
    ("Tobias Renner directed it.", "one sentence: no body sentence beside the answer's"),
    ("Marta Ellison starred in Glass Harbor. Its director is unknown.", "the short answer is not written"),
])
def test_body_dropped_unbuildable_is_counted_with_why(long_answer, why):
    copy = build.drop_body(_answer("u", BRIDGE.record.question, "Tobias Renner", long_answer))
    assert copy.record is None and copy.discard == why and not copy.sound


def test_cycle_claims_circular_and_reaches_no_question_name():
    copy = build.add_cycle(BRIDGE)
    assert copy.sound and (copy.complete, copy.failure) == (False, "circular")
    assert copy.record.long_answer == ("Glass Harbor was directed by Tobias Renner because Glass "
                                       "Harbor was directed by Tobias Renner. So the answer is "
                                       "Tobias Renner.")


def test_cycle_whose_answer_sentence_names_the_question_is_discarded():
    copy = build.add_cycle(_answer("c", BRIDGE.record.question, "Tobias Renner",
                                   "Marta Ellison starred in a film directed by Tobias Renner."))
    assert not copy.sound and "names the question" in copy.discard


def test_cycle_on_a_sentence_leaning_on_a_dropped_one_is_discarded():
    copy = build.add_cycle(_answer("c", BRIDGE.record.question, "Tobias Renner",
                                   "Marta Ellison starred in Glass Harbor. It was directed by Tobias Renner."))
    assert not copy.sound and "leans on a dropped one" in copy.discard


def test_comparisons_get_no_cycle_or_swap_but_a_side_dropped():
    answer = _answer("k", "Which opened first, Alda Road or Brill Lane?", "Brill Lane",
                     "Alda Road opened in 1990. Brill Lane opened in 1985. So Brill Lane opened first.")
    copies = {c.kind: c for c in build.perturb(answer, _compared(), DONORS)}
    assert copies["cycle"].record is None and copies["answer_swapped"].record is None
    assert copies["side_dropped"].sound and list(copies) == list(build.KINDS)


def test_answer_swapped_claims_broken_with_the_donor_answer():
    copy = build.swap_answer_side(BRIDGE, DONORS, _rng())
    assert copy.sound and (copy.complete, copy.failure) == (False, "broken")
    donor = next(d for d in DONORS if d.record.answer == copy.record.answer)
    assert donor.sentences[-1] in copy.record.long_answer
    assert "Tobias Renner" not in copy.record.long_answer
    assert copy.record.long_answer.startswith("Marta Ellison starred in the film Glass Harbor.")


def test_answer_swapped_refuses_a_donor_that_names_this_answer():
    sharing = [_answer("s", "Where was Glass Harbor shot?", "Port Lune",
                       "Glass Harbor premiered in May. Glass Harbor was shot in Port Lune.")]
    copy = build.swap_answer_side(BRIDGE, sharing, _rng())
    assert copy.record is None and "shares no name" in copy.discard


def test_answer_swapped_refuses_a_donor_sentence_that_leans_on_the_one_before():
    leaning = [_answer("l", "Who directed Port Lune?", "Halden Pryce",
                       "Port Lune is a film from 1970. It was directed by Halden Pryce.")]
    assert build.swap_answer_side(BRIDGE, leaning, _rng()).record is None


def test_distractor_claims_complete_and_keeps_every_sentence_in_order():
    copy = build.add_distractors(BRIDGE, DONORS, _rng())
    assert copy.sound and (copy.complete, copy.failure) == (True, None)
    added = [x for x in build.Answer.of(copy.record).sentences if x not in BRIDGE.sentences]
    kept = [x for x in build.Answer.of(copy.record).sentences if x in BRIDGE.sentences]
    assert kept == list(BRIDGE.sentences) and 1 <= len(added) <= 2
    assert all(x in {s for d in DONORS for s in d.sentences} for x in added)


def test_distractor_goes_before_or_after_the_answer_never_inside_it():
    """Inside, a distractor could capture a pronoun or a description ("the film")."""
    leaning = _answer("p", BRIDGE.record.question, "Tobias Renner",
                      "Marta Ellison starred in the film Glass Harbor. The film was directed by "
                      "Tobias Renner.")
    for seed in range(8):
        text = build.add_distractors(leaning, DONORS, random.Random(seed)).record.long_answer
        assert leaning.record.long_answer in text


def test_distractor_refuses_conclusions_and_sentences_that_lean_back():
    donors = [_answer("z", "Who founded Oakline Records?", "Halden Pryce",
                      "So Rena Voss and Ivo Marsh are not both singers. It was founded in 1970 "
                      "by Halden Pryce.")]
    assert build.add_distractors(BRIDGE, donors, _rng()).record is None


def _compared(kind: str = "comparison") -> AuditResult:
    return AuditResult(id="k", question_type=kind, sides=[Side(name="Alda Road"), Side(name="Brill Lane")],
                       meta=ResultMeta(signature="test"))


def test_side_dropped_claims_broken_and_keeps_the_conclusion():
    answer = _answer("k", "Which opened first, Alda Road or Brill Lane?", "Brill Lane",
                     "Alda Road opened in 1990. Brill Lane opened in 1985. So Brill Lane opened first.")
    copy = build.drop_side(answer, _compared())
    assert copy.sound and (copy.complete, copy.failure) == (False, "broken")
    assert copy.record.long_answer == "Brill Lane opened in 1985. So Brill Lane opened first."
    assert build.drop_side(answer, None).record is None


def test_side_dropped_still_named_elsewhere_is_discarded():
    answer = _answer("k", "Which opened first, Alda Road or Brill Lane?", "Brill Lane",
                     "Alda Road opened in 1990. Brill Lane opened in 1985, before Alda Road did.")
    copy = build.drop_side(answer, _compared())
    assert not copy.sound and copy.discard == "the dropped side is still named elsewhere"


def test_removal_noise_is_the_harness_rule():
    q = "Who directed the film that Marta Ellison starred in?"
    assert removal_noise(q, "Tobias Renner", "Marta Ellison starred in X.", "X was by Tobias Renner.") == ""
    assert removal_noise(q, "T", "Marta Ellison starred in X.", "Marta Ellison: T.") != ""


def test_each_perturbation_is_audited_as_it_claims(auditor):
    """The hand-built copies, read by the real pipeline, get the verdicts they claim."""
    copies = [build.drop_body(TWO_ANCHORS), build.add_cycle(BRIDGE),
              build.swap_answer_side(BRIDGE, DONORS, _rng()), build.add_distractors(BRIDGE, DONORS, _rng())]
    results = list(auditor.audit_many(c.record for c in copies))
    for copy, result in zip(copies, results):
        got = (bool(result.scores.completeness), result.diagnosis.failure)
        assert got == (copy.complete, copy.failure), (copy.kind, copy.record.long_answer)


def _lines(text: str):
    import io as _io

    return io.read_lines(_io.BytesIO(text.encode()))


def test_run_measures_and_is_deterministic(auditor):
    text = EXAMPLES.read_text(encoding="utf-8")
    first = calibrate.run(_lines(text), auditor, seed=3).to_json_dict()
    again = calibrate.run(_lines(text), auditor, seed=3).to_json_dict()
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    assert first["complete_records"] >= 2 and first["copies"]["sound"] > 0
    assert first["signature"].endswith("|calibrate:seed=3")
    assert set(first["by_failure"]) == {"broken", "circular", "deviated"}
    assert first["by_kind"]["side_dropped"]["not_built"]  # the examples have no comparison


def test_run_without_complete_records_raises(auditor):
    text = json.dumps({"id": "x", "question": "Who wrote Harry Potter?", "answer": "Kim Lo",
                       "long_answer": "Nobody knows."}) + "\n"
    with pytest.raises(calibrate.NoCompleteRecords, match="no record scores complete"):
        calibrate.run(_lines(text), auditor)


runner = CliRunner()


def test_cli_calibrate_json_counts_bad_lines(tmp_path):
    path = tmp_path / "mine.jsonl"
    path.write_text(EXAMPLES.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    result = runner.invoke(app, ["calibrate", str(path), "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["input_errors"] == 1 and data["lines"] == 7
    assert data["incomplete"]["claimed"] > 0


def test_cli_calibrate_workers_give_the_same_report():
    one = runner.invoke(app, ["calibrate", str(EXAMPLES), "--json", "-q"])
    two = runner.invoke(app, ["calibrate", str(EXAMPLES), "--json", "-q", "--workers", "2"])
    assert one.exit_code == two.exit_code == 0 and one.stdout == two.stdout


def test_cli_calibrate_markdown_and_table():
    md = runner.invoke(app, ["calibrate", str(EXAMPLES), "--md", "-q"])
    assert md.exit_code == 0 and "| failure: circular |" in md.stdout and "Discarded, label not sound:" in md.stdout
    table = runner.invoke(app, ["calibrate", str(EXAMPLES), "-q"])
    assert table.exit_code == 0 and "logicscore calibrate" in table.stdout


def test_cli_calibrate_failure_modes(tmp_path):
    empty = tmp_path / "none.jsonl"
    empty.write_text("{broken\n", encoding="utf-8")
    result = runner.invoke(app, ["calibrate", str(empty), "-q"])
    assert result.exit_code == 2 and "no record scores complete" in result.output
    assert "1 of 1 lines are not records" in result.output
    missing = runner.invoke(app, ["calibrate", str(tmp_path / "absent.jsonl")])
    assert missing.exit_code == 2 and "not found" in missing.output
    assert runner.invoke(app, ["calibrate"]).exit_code == 2


def test_labelled_bench_measures_body_sentence_removal(auditor):
    rec = {"id": "a", "question": BRIDGE.record.question, "answer": "Tobias Renner",
           "long_answer": BRIDGE.record.long_answer, "label_completeness": "complete",
           "label_question_type": "bridge"}
    report = labelled.run([rec, {**rec, "id": "b", "long_answer": "Tobias Renner directed it."}], auditor)
    removed = report.to_json_dict()["body_sentence_removed"]
    assert removed["bridge"] == {"built": 1, "sound": 1, "flagged": 1, "share": 1.0}
    assert removed["not_built"] == {"one sentence: no body sentence beside the answer's": 1}
    assert removed["discarded"] == {}
    assert "body sentence removed" in labelled.render_markdown(report)


def test_measure_precision_recall_and_unclaimed_failures():
    def outcome(complete, failure, got_complete, got_failure, kind="body_dropped"):
        copy = build.Perturbation(kind, "s", BRIDGE.record, complete, failure)
        return calibrate.Outcome(copy, got_complete, got_failure)

    outcomes = [outcome(False, "broken", False, "broken"), outcome(False, "broken", True, None),
                outcome(False, None, False, "deviated"), outcome(True, None, False, "broken", "distractor"),
                outcome(False, "circular", None, None, "cycle")]
    data = calibrate.measure([o.copy for o in outcomes], outcomes)
    assert data["incomplete"] == {"claimed": 4, "predicted": 3, "hits": 2, "precision": 0.6667,
                                  "recall": 0.5}
    assert data["by_failure"]["broken"] == {"claimed": 2, "predicted": 2, "hits": 1,
                                            "precision": 0.5, "recall": 0.5}
    assert data["by_failure"]["deviated"]["predicted"] == 0  # its copy claimed no failure type
    assert data["copies"]["failure_unclaimed"] == 1 and data["copies"]["errored"] == 1
    assert data["by_kind"]["body_dropped"]["failure_agrees"] == 0.5


def test_measure_counts_unverified_copies_apart_never_as_incomplete():
    def outcome(complete, failure, got_complete, got_failure, unverified=False, kind="body_dropped"):
        copy = build.Perturbation(kind, "s", BRIDGE.record, complete, failure)
        return calibrate.Outcome(copy, got_complete, got_failure, unverified)

    decided = [outcome(False, "broken", False, "broken"), outcome(True, None, True, None, kind="distractor")]
    unverified = [outcome(False, "broken", None, None, True), outcome(True, None, None, None, True, "distractor")]
    data = calibrate.measure([o.copy for o in decided + unverified], decided + unverified)
    alone = calibrate.measure([o.copy for o in decided], decided)
    # An unverified copy predicts nothing: the figures are those of the decided copies alone.
    for key in ("incomplete", "complete", "by_failure"):
        assert data[key] == alone[key]
    assert data["incomplete"] == {"claimed": 1, "predicted": 1, "hits": 1, "precision": 1.0, "recall": 1.0}
    assert data["copies"] == {**alone["copies"], "built": 4, "sound": 4, "kept_share": 1.0, "unverified": 2}
    assert data["copies"]["errored"] == 0 and "unverified" not in alone["copies"]
    assert data["by_kind"]["body_dropped"]["unverified"] == 1
    assert data["by_kind"]["body_dropped"]["sound"] == 2
    assert data["by_kind"]["body_dropped"]["completeness_agrees"] == 1.0


def test_calibrate_verdict_of_an_unverified_record_is_neither_complete_nor_errored():
    from logicscore.report.synthetic import make_result

    assert calibrate._verdict(make_result("u", "unverified")) == (None, None, True)
    assert calibrate._verdict(make_result("e", "error")) == (None, None, False)
    assert calibrate._verdict(make_result("b", "broken")) == (False, "broken", False)


def test_body_dropped_needs_a_question_name_to_cut():
    lowercase = _answer("w", "where was the discoverer of polonium born?", "Warsaw",
                        "Marie Curie discovered polonium. She was born in Warsaw.")
    copy = build.drop_body(lowercase)
    assert copy.record is None and "no name of the question" in copy.discard


def test_copies_keep_given_question_entities_and_clear_a_swapped_gold():
    record = BRIDGE.record.model_copy(update={"question_entities": ["Marta Ellison"],
                                              "gold_answer": "Tobias Renner"})
    given = build.Answer.of(record)
    assert build.drop_body(given).record.question_entities == ["Marta Ellison"]
    swapped = build.swap_answer_side(given, DONORS, _rng()).record
    assert swapped.gold_answer is None and swapped.question_entities == ["Marta Ellison"]
