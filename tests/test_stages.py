"""The stage seam: registries, configs, ConfigError messages, the shared spaCy pipeline."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from logicscore import Auditor, AuditorConfig, ConfigError
from logicscore.pipeline import registry as stages
from logicscore.config import CLI_TIMEOUT, default


def test_stages_registry_snapshot():
    assert stages.BUILTIN == {
        "question_reader": {"rules": "logicscore.pipeline.question.reader:RulesQuestionReader"},
        "extractor": {
            "rules": "logicscore.pipeline.extract.rules:RulesExtractor",
            "given": "logicscore.pipeline.extract.given:GivenExtractor",
            "llm": "logicscore.pipeline.extract.llm:LLMExtractor",
        },
        "linker": {"rules": "logicscore.pipeline.normalize.entities:RulesLinker"},
        "judge": {"rules": "logicscore.pipeline.determinate:RulesJudge",
                  "llm": "logicscore.pipeline.llm_judge:LLMJudge"},
        "hops": {"rules": "logicscore.pipeline.hops.rules:RulesHops",
                 "llm": "logicscore.pipeline.hops.llm:LLMHops",
                 "given": "logicscore.pipeline.hops.given:GivenHops"},
        "grounder": {"rules": "logicscore.pipeline.ground.rules:RulesGrounder",
                     "llm": "logicscore.pipeline.ground.llm:LLMGrounder"},
        "completeness": {
            "chain": "logicscore.pipeline.complete:ChainCompleteness",
            "sides": "logicscore.pipeline.complete:SidesCompleteness",
            "abstained": "logicscore.pipeline.complete:Abstained",
        },
    }


@pytest.mark.parametrize("kind", sorted(stages.BUILTIN))
def test_stages_every_builtin_loads_with_name_config_and_signature(kind):
    for name in stages.BUILTIN[kind]:
        cls = stages.stage_class(kind, name)
        assert cls.name == name
        assert cls.Config.model_config.get("extra") == "forbid"
        assert callable(cls.signature)


@pytest.mark.parametrize("options, expected", [
    ({"extractor": "nope"}, "unknown extractor 'nope'; available: given, llm, rules"),
    ({"question_reader": "llm"}, "unknown question reader 'llm'; available: rules"),
    ({"linker": "x"}, "unknown linker 'x'; available: rules"),
    ({"judge": "nope"}, "unknown judge 'nope'; available: llm, rules"),
    ({"foo": 1}, "bad options for extractor 'rules': foo: unknown option (allowed: spacy_model)"),
    ({"extractor": "given", "foo": 1},
     "bad options for extractor 'given': foo: unknown option (allowed: none)"),
    ({"judge_options": {"temperature": 0}},
     "bad options for judge 'rules': temperature: unknown option (allowed: none)"),
    ({"fuzzy_threshold": 200},
     "bad options for the Auditor: fuzzy_threshold=200: input should be less than or equal to 100"),
    ({"max_alternatives": -1}, "max_alternatives=-1: input should be greater than or equal to 0"),
    ({"max_chars": 0}, "max_chars=0: input should be greater than or equal to 1"),
    ({"timeout": 0}, "timeout=0: input should be greater than 0"),
    ({"timing": "sometimes"}, "timing='sometimes': input should be a valid boolean"),
])
def test_stages_bad_options_raise_config_error(options, expected):
    with pytest.raises(ConfigError) as err:
        Auditor(**options)
    assert expected in err.value.message


def test_stages_unknown_kind_lists_the_kinds():
    with pytest.raises(ConfigError, match="kinds: question_reader, extractor, linker, judge"):
        stages.available("ranker")


def test_stages_config_object_and_keywords_agree():
    by_config = Auditor(config=AuditorConfig(extractor="given", fuzzy_threshold=90, max_alternatives=3))
    by_keywords = Auditor("given", fuzzy_threshold=90, max_alternatives=3)
    assert by_config.config == by_keywords.config
    assert by_config.signature == by_keywords.signature
    # A keyword beside config= overrides that one field only.
    mixed = Auditor(config=by_config.config, max_alternatives=5)
    assert mixed.config.fuzzy_threshold == 90 and mixed.config.max_alternatives == 5


def test_stages_defaults_are_the_config_fields():
    auditor = Auditor()
    assert auditor.config == AuditorConfig()
    assert (default("fuzzy_threshold"), default("max_alternatives"), default("max_chars"),
            default("timeout"), default("spacy_model")) == (85.0, 16, 200_000, None, None)
    assert CLI_TIMEOUT == 300.0


def test_stages_extractor_gets_the_shared_pipeline():
    auditor = Auditor("rules")
    assert auditor.extractor.spacy is auditor.spacy is auditor.question_reader.spacy


def test_stages_conflicting_spacy_models_are_a_config_error():
    with pytest.raises(ConfigError, match="set spacy_model once"):
        Auditor(config=AuditorConfig(spacy_model="en_core_web_sm",
                                     extractor_options={"spacy_model": "en_core_web_md"}))


def test_stages_missing_spacy_model_is_honoured_not_ignored():
    # The given extractor parses nothing, but the question reader needs the model.
    auditor = Auditor("given", spacy_model="no_such_spacy_model_xyz", timing=False)
    assert next(auditor.audit_many([_record()])).status == "ok"  # entities given: no parse
    # A missing model is no fault of the record: it stops the run (ConfigError, not a record).
    with pytest.raises(ConfigError, match="'no_such_spacy_model_xyz' is not installed"):
        next(auditor.audit_many([_record(question_entities=None)]))


def _record(**extra):
    from logicscore import QARecord

    fields = {"id": "q", "question": "Who directed Inception?", "answer": "Christopher Nolan",
              "long_answer": "Inception was directed by Christopher Nolan.",
              "question_entities": ["Inception"],
              "propositions": [{"subject": "Inception", "relation": "directed by",
                                "object": "Christopher Nolan"}]}
    fields.update(extra)
    return QARecord(**fields)


_FRESH = textwrap.dedent("""
    import json, sys
    from logicscore import Auditor, QARecord
    rec = json.loads(sys.argv[1])
    auditor = Auditor("given", timing=False)
    result = next(auditor.audit_many([QARecord(**rec)]))
    print(json.dumps({"spacy": "spacy" in sys.modules, "status": result.status,
                      "complete": result.scores.completeness, "signature": auditor.signature,
                      "record": result.meta.signature}))
""")


def _fresh(record) -> dict:
    import json
    import os

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", _FRESH, record.model_dump_json()],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def test_stages_given_with_question_entities_loads_no_spacy():
    got = _fresh(_record())
    sig = "logicscore:0.1.0|extractor:given|question:rules|coref:rules|fuzzy:85|alts:16|det:rules|hops:rules"
    assert got == {"spacy": False, "status": "ok", "complete": 1, "signature": sig, "record": sig}


@pytest.mark.slow
def test_stages_given_without_question_entities_names_the_spacy_model():
    got = _fresh(_record(question_entities=None))
    sig = ("logicscore:0.1.0|extractor:given|question:rules|spacy:en_core_web_sm-3.8.0|"
           "coref:rules|fuzzy:85|alts:16|det:rules|hops:rules")
    assert got == {"spacy": True, "status": "ok", "complete": 1, "signature": sig, "record": sig}


# --- the CLI reads its defaults from AuditorConfig ------------------------------------------

def _cli_defaults(command: str) -> dict:
    import typer

    from logicscore.cli import app

    params = typer.main.get_command(app).commands[command].params
    return {p.name: p.default for p in params}


@pytest.mark.parametrize("command", ["score", "explain", "bench"])
def test_stages_cli_defaults_are_the_config_defaults(command):
    got = _cli_defaults(command)
    assert got["fuzzy_threshold"] == default("fuzzy_threshold")
    assert got["max_alternatives"] == default("max_alternatives")
    assert got["extractor"] == default("extractor") and got["spacy_model"] == default("spacy_model")


def test_stages_cli_score_limits_are_the_config_and_cli_defaults():
    got = _cli_defaults("score")
    assert got["max_chars"] == default("max_chars")
    assert got["timeout"] == CLI_TIMEOUT  # the library's default is no limit (None)


def test_stages_cli_help_shows_the_config_default():
    from typer.testing import CliRunner

    from logicscore.cli import app

    res = CliRunner().invoke(app, ["score", "--help"], env={"COLUMNS": "250"})
    assert res.exit_code == 0
    line = next(ln for ln in res.output.splitlines() if "--fuzzy-threshold" in ln)
    assert f"[default: {default('fuzzy_threshold')}]" in line


def test_stages_cli_bad_spacy_model_is_one_line_before_any_record(tmp_path):
    from typer.testing import CliRunner

    from logicscore.cli import app

    src = tmp_path / "in.jsonl"
    src.write_text('{"id": "1", "question": "Who?", "answer": "A", "long_answer": "A is B."}\n')
    res = CliRunner().invoke(app, ["score", str(src), "-o", str(tmp_path / "out.jsonl"),
                                   "--spacy-model", "no_such_spacy_model_xyz", "-q"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "Error: spaCy model 'no_such_spacy_model_xyz' is not installed" in " ".join(res.output.split())
    assert not (tmp_path / "out.jsonl").exists()
