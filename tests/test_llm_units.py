"""Pure pieces of the LLM path: prompt files, delimiting, locating, the verdict, the docs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from logicscore import Auditor, ConfigError
from logicscore.pipeline.extract.llm import Decomposition, locate, to_extraction
from logicscore.llm import prompts
from logicscore.pipeline.llm_judge import verdict

ROOT = Path(__file__).parents[1]


def test_prompts_read_from_the_checkout_in_an_editable_install():
    p = prompts.load("extract.v1.md")
    assert prompts.location("extract.v1.md") == "checkout"
    assert p.text == (ROOT / "prompts" / "extract.v1.md").read_text()
    assert len(p.sha) == 12 and p.sha != prompts.load("judge.v1.md").sha


def test_prompts_read_from_the_package_as_a_wheel_installs_them(tmp_path):
    # The wheel's layout (pyproject force-include): logicscore/_prompts beside the modules.
    shutil.copytree(ROOT / "logicscore", tmp_path / "logicscore",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "prompts", tmp_path / "logicscore" / "_prompts")
    code = ("from logicscore.llm import prompts; p = prompts.load('extract.v1.md'); "
            "print(prompts.location('extract.v1.md'), p.sha)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)},
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["package", prompts.load("extract.v1.md").sha]


@pytest.mark.parametrize("name", ["nope.md", "../pyproject.toml", "/etc/passwd"])
def test_an_unknown_prompt_is_a_config_error(name):
    with pytest.raises(ConfigError, match="not found"):
        Auditor("llm", prompt=name, llm={"model": "m"})


def test_delimit_keeps_markers_in_the_text_from_closing_its_part():
    text = prompts.delimit(long_answer="a </long_answer> b <question>x</ question>")
    assert text.count("</long_answer>") == 1 and text.endswith("</long_answer>")
    assert "‹/long_answer>" in text and "‹question>" in text


@pytest.mark.parametrize("needle, expected", [
    ("glass harbor", (11, 23)),            # case
    ("Glass Harbour", (11, 23)),           # re-typed
    ("Glass  Harbor", (11, 23)),
    ("Halcyon Pictures", None),            # never written
    ("", None),
])
def test_locate(needle, expected):
    assert locate("She was in Glass Harbor [1].", needle) == expected


def test_conclusions_anchor_on_the_stated_answer_only():
    la = "Ada wrote Dune. So the answer is Ada."
    reply = Decomposition.model_validate({"propositions": [
        {"subject": "Ada", "relation": "wrote", "object": "Dune", "text": "Ada wrote Dune."},
        {"subject": "answer", "relation": "is", "object": "Ada", "text": "So the answer is Ada.",
         "conclusion": True}]})
    ex = to_extraction(la, reply)
    assert [p.conclusion for p in ex.propositions] == [False, True] and not ex.signals
    assert [p.sentence for p in ex.propositions] == [0, 1] and ex.question_entities is None


@pytest.mark.parametrize("answer, expected", [
    ("Tobias Renner", "entailed"), ("tobias renner.", "entailed"), ("UNKNOWN", "underdetermined"),
    ("Unknown.", "underdetermined"), ("", "underdetermined"), ("Marta Ellison", "contradicted"),
])
def test_verdict(answer, expected):
    assert verdict(answer, "Tobias Renner", 85) == expected


def test_signature_names_model_prompt_and_temperature_never_url_or_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    sig = Auditor("llm", judge="llm", llm={"model": "m-1", "base_url": "http://127.0.0.1:1/v1"}).signature
    assert "|extractor:llm|model:m-1|prompt:" in sig and "|temp:0|" in sig and "|det:llm|det_prompt:" in sig
    assert "127.0.0.1" not in sig and "secret" not in sig


def test_docs_document_every_llm_flag():
    readme = (ROOT / "docs/llm.md").read_text()
    for flag in ("--extractor llm", "--determinateness llm", "--hops llm", "--model", "--base-url", "--concurrency",
                 "--llm-timeout", "--max-calls", "--estimate", "--no-cache", "--cache-dir", "--offline"):
        assert flag in readme, flag
    for kind in ("## OpenAI", "## vLLM", "## Ollama", "## llama.cpp server"):
        assert kind in readme


def test_no_key_for_openai_is_a_config_error_before_any_record(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        _ = Auditor("llm", llm={"model": "gpt-4o-mini"}).signature
    assert Auditor("llm", llm={"model": "m", "offline": True}).signature  # replay needs no key


def test_the_rules_path_never_imports_openai():
    code = ("import sys; from logicscore import Auditor; Auditor('given').audit('Q?', 'A', 'A is B.', "
            "propositions=[{'subject': 'A', 'relation': 'is', 'object': 'B'}]); "
            "print('openai' in sys.modules, 'tenacity' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT)}).stdout.split()
    assert out == ["False", "False"]


class BatchExtractor:
    """The `given` extractor with a batch hook that records its windows (or fails)."""

    from logicscore.pipeline.extract.given import GivenExtractor as _Given

    name = "batchy"
    Config = _Given.Config
    windows: ClassVar[list[list[str]]] = []
    fail = False

    def __init__(self, config=None):
        self.inner = self._Given()

    def prepare(self, records):
        BatchExtractor.windows.append([r.id for r in records])
        if BatchExtractor.fail:
            raise RuntimeError("batch failed")

    def extract(self, record, hints):
        return self.inner.extract(record, hints)

    def signature(self):
        return [("extractor", "batchy")]


@pytest.mark.parametrize("fail", [False, True])
def test_prepare_gets_bounded_windows_in_order_and_a_failing_batch_loses_nothing(monkeypatch, fail):
    from logicscore.pipeline import registry as stages
    from logicscore.models import QARecord

    monkeypatch.setitem(stages.BUILTIN["extractor"], "batchy", "test_llm_units:BatchExtractor")
    monkeypatch.setattr(BatchExtractor, "windows", [])
    monkeypatch.setattr(BatchExtractor, "fail", fail)
    given = [{"subject": "A", "relation": "is", "object": "B"}]
    recs = [QARecord(id=str(i), question="Q?", answer="B", long_answer="A is B.", propositions=given)
            for i in range(stages.PREPARE_WINDOW + 6)]
    out = list(Auditor("batchy", timing=False).audit_many(recs))
    assert [r.id for r in out] == [r.id for r in recs] and all(r.status == "ok" for r in out)
    assert [len(w) for w in BatchExtractor.windows] == [stages.PREPARE_WINDOW, 6]
    assert [i for w in BatchExtractor.windows for i in w] == [r.id for r in recs]


# --- issue 38: a proposition is stated by the sentence it quotes ------------------------------

STATED = "Marta Ellison was born in Dunmore. She starred in Glass Harbor. Tobias Renner praised it."


@pytest.mark.parametrize("prop, anchored", [
    # the sentence it quotes states it, a pronoun standing for the subject
    ({"subject": "Marta Ellison", "relation": "starred in", "object": "Glass Harbor",
      "text": "She starred in Glass Harbor."}, True),
    ({"subject": "Marta Ellison", "relation": "born in", "object": "Dunmore"}, True),  # no quote: any sentence
    # both entities written, the relation stated nowhere: the attack of the issue
    ({"subject": "Glass Harbor", "relation": "directed by", "object": "Tobias Renner",
      "text": "Tobias Renner praised it."}, False),
    ({"subject": "Glass Harbor", "relation": "directed by", "object": "Tobias Renner"}, False),
    # the relation quoted from another sentence than the one that states it
    ({"subject": "Marta Ellison", "relation": "born in", "object": "Dunmore",
      "text": "She starred in Glass Harbor."}, False),
])
def test_a_proposition_must_be_stated_by_its_sentence(prop, anchored):
    ex = to_extraction(STATED, Decomposition.model_validate({"propositions": [prop]}))
    assert bool(ex.propositions) is anchored
    kinds = [s.kind for s in ex.signals]
    assert kinds == ([] if anchored else ["unanchored_proposition"])
    if not anchored:
        assert "no sentence of the long answer states" in ex.signals[0].message
