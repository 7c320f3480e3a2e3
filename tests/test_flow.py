"""The stage flow: one way through the stages, completeness chosen by question type, the flow
types below every stage (docs/architecture.md, "The stage flow")."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from logicscore import Auditor
from logicscore.pipeline import registry as stages
from logicscore.pipeline.flow import Chain, Completed, Linked, Reading
from logicscore.models import QARecord

COMPARISON = QARecord(
    id="cmp", question="Which film was released earlier, Glass Harbor or Cold Meridian?",
    answer="Cold Meridian",
    long_answer="Glass Harbor was released in 1999. Cold Meridian was released in 1987. "
                "So Cold Meridian was released earlier.")
BRIDGE = QARecord(
    id="br", question="Who directed the film that Marta Ellison starred in?", answer="Tobias Renner",
    long_answer="Marta Ellison starred in the film Glass Harbor. It was directed by Tobias Renner.")
PACKAGE = Path(__file__).resolve().parent.parent / "logicscore"

# The stage each module's code belongs to, by module prefix (the longest prefix wins).
STAGE_OF = {
    "logicscore.pipeline.question": "read the question",
    "logicscore.pipeline.extract": "extract",
    "logicscore.pipeline.normalize": "link",
    "logicscore.pipeline.prose": "abstain",
    "logicscore.pipeline.complete": "complete", "logicscore.pipeline.compare": "complete",
    "logicscore.pipeline.chain": "complete", "logicscore.pipeline.graph": "complete",
    "logicscore.pipeline.kin_hops": "complete",
    "logicscore.pipeline.determinate": "judge",
    "logicscore.pipeline.hops": "hops", "logicscore.pipeline.offline": "hops",
    "logicscore.pipeline.signals": "signals and scores", "logicscore.pipeline.score": "signals and scores",
    "logicscore.pipeline.roles": "result",
}
# What every stage reads text with (logicscore/pipeline/text/): calls made inside it belong
# to no stage, so a later stage using it never goes back to an earlier one.
HELPERS = ("logicscore.pipeline.text",)


def _helper(module: str, function: str) -> bool:
    return any(h == module or module.startswith(h + ".") or h == f"{module}:{function}"
               for h in HELPERS)


def _stage(module: str) -> str | None:
    found = [p for p in STAGE_OF if module == p or module.startswith(p + ".")]
    return STAGE_OF[max(found, key=len)] if found else None


def _stages_visited(auditor: Auditor, record: QARecord) -> list[str]:
    """The stages whose code runs while `record` is audited, each run of calls once."""
    seen: list[str] = []
    inside = 0  # depth of calls within a helper

    def profile(frame, event, arg):
        nonlocal inside
        if event == "return" and inside:
            inside -= 1
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if inside or _helper(module, frame.f_code.co_name):
            inside += 1
        elif (stage := _stage(module)) and (not seen or seen[-1] != stage):
            seen.append(stage)

    sys.setprofile(profile)
    try:
        auditor.audit_record(record)
    finally:
        sys.setprofile(None)
    return seen


def test_a_comparison_record_never_returns_to_a_stage_it_left():
    auditor = Auditor(timing=False)
    assert auditor.audit_record(COMPARISON).question_type == "comparison"
    visited = _stages_visited(auditor, COMPARISON)
    assert visited == ["read the question", "extract", "link", "abstain", "complete", "judge",
                       "hops", "signals and scores", "result"]


def test_with_a_hop_stage_the_hops_come_after_the_judge_and_before_the_scores():
    auditor = Auditor(timing=False, hops="given")
    record = QARecord(**{**BRIDGE.model_dump(), "question_hops": [
        {"question": "Which film did Marta Ellison star in?", "answer": "Glass Harbor"},
        {"question": "Who directed #1?", "answer": "Tobias Renner"}]})
    assert auditor.audit_record(record).hops.complete
    visited = _stages_visited(auditor, record)
    assert visited.index("judge") < visited.index("hops") < visited.index("signals and scores")
    assert visited.count("hops") == 1


def test_the_auditor_is_a_loop_over_its_steps():
    tree = ast.parse((PACKAGE / "auditor" / "__init__.py").read_text(encoding="utf-8"))
    audit = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_audit")
    loops = [n for n in ast.walk(audit) if isinstance(n, ast.For)]
    assert len(loops) == 1 and ast.unparse(loops[0].iter) == "self.steps"
    # No stage is called from _audit itself: every one is a step of the loop.
    calls = {ast.unparse(n.func) for n in ast.walk(audit) if isinstance(n, ast.Call)}
    assert not {c for c in calls if c.startswith(("self.judge", "self.linker", "self.extractor"))}


def test_the_flow_module_imports_nothing_of_logicscore_but_models():
    tree = ast.parse((PACKAGE / "pipeline" / "flow.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level}
    assert imported == {"models"}


def test_completeness_is_chosen_by_question_type():
    auditor = Auditor(timing=False)
    assert {t: s.name for t, s in auditor.completeness_of.items()} == {
        "bridge": "chain", "intersection": "chain", "comparison": "sides", "yesno": "sides"}
    assert set(auditor.completeness) == {"chain", "sides", "abstained"}
    # The sides' analysis is the record's: the stated years select the answer, each side established.
    result = auditor.audit_record(COMPARISON)
    assert result.determinateness == "entailed" and result.scores.completeness == 1
    assert [(s.name, s.established) for s in result.sides] == [("Glass Harbor", True), ("Cold Meridian", True)]


class NoChain:
    """A completeness stage that finds nothing, for the bridge type."""

    name: ClassVar[str] = "nothing"
    question_types: ClassVar[tuple[str, ...]] = ("bridge",)
    calls: ClassVar[list[str]] = []

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def __init__(self, config: NoChain.Config | None = None):
        self.config = config or self.Config()

    def complete(self, record: QARecord, linked: Linked, reading: Reading) -> Completed:
        NoChain.calls.append(reading.qtype)
        return Completed(Chain())

    def signature(self) -> list[tuple[str, object]]:
        return [("completeness", self.name)]


def test_a_registered_completeness_takes_its_question_type(monkeypatch):
    default = Auditor(timing=False, hops="off").audit_record(BRIDGE)
    assert default.scores.completeness == 1 and len(default.chain) == 2
    monkeypatch.setitem(stages.BUILTIN["completeness"], "nothing", f"{__name__}:NoChain")
    monkeypatch.setattr(NoChain, "calls", [])
    auditor = Auditor(timing=False, hops="off")  # the completeness stage's own 0/1
    assert "|completeness:nothing|" in auditor.signature
    bridge = auditor.audit_record(BRIDGE)
    assert NoChain.calls == ["bridge"]
    assert bridge.chain == [] and bridge.scores.completeness == 0
    # Another type keeps its stage.
    assert auditor.audit_record(COMPARISON).scores.completeness == 1 and NoChain.calls == ["bridge"]
