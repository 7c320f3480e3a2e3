import logicscore
from logicscore import Auditor
from logicscore.pipeline.extract import BUILTIN, available


def test_api_all_is_exactly_the_public_surface():
    import types

    public = {n for n, v in vars(logicscore).items()
              if not n.startswith("_") and not isinstance(v, types.ModuleType) and n != "annotations"}
    assert set(logicscore.__all__) - {"__version__"} == public
    assert all(hasattr(logicscore, n) for n in logicscore.__all__)


def test_api_extractor_registry_snapshot():
    assert BUILTIN == {
        "rules": "logicscore.pipeline.extract.rules:RulesExtractor",
        "given": "logicscore.pipeline.extract.given:GivenExtractor",
        "llm": "logicscore.pipeline.extract.llm:LLMExtractor",
    }
    assert set(BUILTIN) <= set(available())


def test_api_signature_golden_given():
    # No question read yet, so no spaCy model named (see test_stages for the other case).
    assert Auditor("given").signature == (
        "logicscore:0.1.0|extractor:given|question:rules|coref:rules|fuzzy:85|alts:16|det:rules|hops:rules")
    assert Auditor("given", fuzzy_threshold=90, max_alternatives=3).signature.endswith(
        "fuzzy:90|alts:3|det:rules|hops:rules")


def test_api_signature_golden_rules(auditor):  # the chain path: conftest's auditor has hops off
    assert auditor.signature == (
        "logicscore:0.1.0|extractor:rules|spacy:en_core_web_sm-3.8.0|spacy_disabled:senter,lemmatizer|"
        "question:rules|coref:rules|"
        "fuzzy:85|alts:16|det:rules")


def test_api_audit_many_keeps_order_and_count():
    recs = [
        logicscore.QARecord(id=str(i), question="Q?", answer="A", long_answer="x",
                            question_entities=["B"],
                            propositions=[{"subject": "A", "relation": "r", "object": "B"}] if i % 2 else None)
        for i in range(6)
    ]
    out = list(Auditor("given", timing=False).audit_many(recs))
    assert [r.id for r in out] == [str(i) for i in range(6)]
    assert [r.status for r in out] == ["error", "ok"] * 3
    assert out[0].error.type == "InputError"
