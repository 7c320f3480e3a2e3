"""The stage seam: every kind of stage is chosen by name from a registry and built from a Config.

Kinds, in the order a record meets them: the question reader (the question's entities), the
extractor (propositions and mentions), the linker (entities), the completeness stage of the
record's question type (the chain, or a comparison's sides), the judge (determinateness)
the hop stage (`--hops`: the question's hops, each checked against the long answer) and, for
a record with documents, the grounder (chain hops against the documents they cite).
The records they pass and their protocols are in `logicscore.pipeline.flow`. Each registry maps names
to import paths and imports lazily, so `import logicscore` never pulls in spaCy; third-party
stages register through the entry-point group of their kind (`logicscore.extractors`,
`logicscore.question_readers`, `logicscore.linkers`, `logicscore.completeness`,
`logicscore.judges`, `logicscore.hop_stages`, `logicscore.grounders`). A stage declares the
shared resources it `requires` ("spacy", the pipeline the Auditor owns; "llm", the endpoint the
LLM stages share, with its cache and call budget) and gets them as keyword arguments.

Two optional hooks, looked up with getattr so a stage without them works unchanged:

- `prepare(records: list[QARecord]) -> None` (extractor and judge): the Auditor's
  `audit_many` calls it on each window of up to `PREPARE_WINDOW` records before auditing
  them one by one, in order. A stage does its batched work there (the LLM stages make their
  calls concurrently; a spaCy stage could run `nlp.pipe`) and keeps the results for the
  per-record call, which must still work for a record that was never prepared. `prepare`
  must not raise for one bad record: it keeps that record's error and raises it from the
  per-record call, so the error lands on that record alone.
- `reads_question: ClassVar[bool]` (extractor): the extractor's call also names the
  question's entities (`Extraction.question_entities`); for a record that gives none, the
  Auditor extracts first and hands those names to the question reader.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import ConfigError
# The protocols live with the records they pass (logicscore/pipeline/flow.py); named here too, where
# the registry that builds them is.
from .flow import Completeness, Extractor, Grounder, HopReader, Judge, Linker, QuestionReader, Stage

__all__ = [
    "BUILTIN", "PREPARE_WINDOW", "Completeness", "Extractor", "Grounder", "HopReader", "Judge", "Linker",
    "QuestionReader", "SpacyPipeline", "Stage", "available", "build", "describe", "stage_class",
    "validate",
]

# name → import path, per kind; plugins add theirs through entry points.
BUILTIN: dict[str, dict[str, str]] = {
    "question_reader": {"rules": "logicscore.pipeline.question.reader:RulesQuestionReader"},
    "extractor": {
        "rules": "logicscore.pipeline.extract.rules:RulesExtractor",
        "given": "logicscore.pipeline.extract.given:GivenExtractor",
        "llm": "logicscore.pipeline.extract.llm:LLMExtractor",
    },
    "linker": {"rules": "logicscore.pipeline.normalize.entities:RulesLinker"},
    "judge": {"rules": "logicscore.pipeline.determinate:RulesJudge", "llm": "logicscore.pipeline.llm_judge:LLMJudge"},
    # The question's hops, each checked against the long answer (`--hops`; "off" is no stage).
    "hops": {"rules": "logicscore.pipeline.hops.rules:RulesHops",
             "llm": "logicscore.pipeline.hops.llm:LLMHops",
             "given": "logicscore.pipeline.hops.given:GivenHops"},
    "grounder": {"rules": "logicscore.pipeline.ground.rules:RulesGrounder",
                     "llm": "logicscore.pipeline.ground.llm:LLMGrounder"},
    # Chosen per record by question type: each stage names the `question_types` it completes
    # (a type none names is completed as a "chain"); "abstained" completes an answer that
    # refuses, whatever its type.
    "completeness": {
        "chain": "logicscore.pipeline.complete:ChainCompleteness",
        "sides": "logicscore.pipeline.complete:SidesCompleteness",
        "abstained": "logicscore.pipeline.complete:Abstained",
    },
}
# Records per `prepare` call: enough to keep a few dozen LLM calls in flight, small enough
# that a crash or Ctrl-C loses little prepared work and memory stays flat.
PREPARE_WINDOW = 64
_LABEL = {"question_reader": "question reader", "extractor": "extractor", "linker": "linker",
          "judge": "judge", "hops": "hop stage", "grounder": "grounder", "completeness": "completeness stage"}
# The entry-point group of each kind: `logicscore.<kind>s`, but one completeness is not many.
_GROUP = {kind: f"logicscore.{kind}s" for kind in _LABEL} | {"completeness": "logicscore.completeness",
                                                             "hops": "logicscore.hop_stages"}


class SpacyPipeline:
    """The spaCy pipeline the Auditor shares among the stages that require "spacy".

    It loads on first use, so stages that never parse text keep spaCy unimported.
    """

    def __init__(self, model: str | None = None):
        self.model = model
        self._nlp: Any = None

    @property
    def loaded(self) -> bool:
        return self._nlp is not None

    @property
    def nlp(self) -> Any:
        """The loaded pipeline; raises `ConfigError` when the model is not installed."""
        if self._nlp is None:
            from ..parsing.loader import load

            self._nlp = load(self.model)
        return self._nlp

    def model_id(self) -> str:
        """The loaded model as "en_core_web_sm-3.8.0" (loading it if needed)."""
        from ..parsing.loader import model_id

        return model_id(self.nlp)

    def disabled(self) -> str | None:
        """The components a parse leaves out, comma-joined ("senter,lemmatizer"), for the
        signature: what the stages do not read is not run. None when every one runs."""
        from ..parsing.loader import disabled

        return ",".join(disabled(self.nlp)) or None


def available(kind: str) -> dict[str, str]:
    """Every stage name of `kind` with its import path: built-ins, then entry points."""
    table = dict(_builtin(kind))
    for ep in _plugins().select(group=_GROUP.get(kind, f"logicscore.{kind}s")):
        table.setdefault(ep.name, ep.value)
    return table


@cache
def _plugins() -> Any:
    """The installed packages' entry points, read once per process: each read scans every
    installed distribution, and an Auditor builds five stages."""
    return entry_points()


def stage_class(kind: str, name: str) -> Any:
    """The class registered as `name` for `kind`; `ConfigError` lists the known names."""
    table = available(kind)
    if name not in table:
        known = ", ".join(sorted(table))
        raise ConfigError(f"unknown {_LABEL[kind]} {name!r}; available: {known}")
    module, _, attr = table[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def build(kind: str, name: str, options: Mapping[str, object] | None = None,
          resources: Mapping[str, object] | None = None) -> Any:
    """Build the stage `name` of `kind` from validated `options` and the resources it requires.

    Raises:
        ConfigError: an unknown name, an unknown option or a bad value (each field listed
            with what it allows).
    """
    cls = stage_class(kind, name)
    config = validate(cls.Config, dict(options or {}), f"{_LABEL[kind]} {name!r}")
    wanted = {r: (resources or {})[r] for r in getattr(cls, "requires", ()) if r in (resources or {})}
    return cls(config, **wanted)


def validate(model: type[BaseModel], options: Mapping[str, object], where: str) -> Any:
    """`model(**options)`, with a pydantic error turned into a `ConfigError` field by field."""
    try:
        return model(**options)
    except ValidationError as exc:
        raise ConfigError(f"bad options for {where}: {describe(exc, model)}") from None


def describe(exc: ValidationError, model: type[BaseModel]) -> str:
    """Each failing field with pydantic's reason; an unknown field lists the allowed ones."""
    allowed = ", ".join(model.model_fields) or "none"
    parts = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"]) or "(options)"
        if err["type"] == "extra_forbidden":
            parts.append(f"{field}: unknown option (allowed: {allowed})")
        else:
            parts.append(f"{field}={err.get('input')!r}: {err['msg'].lower()}")
    return "; ".join(parts)


def _builtin(kind: str) -> dict[str, str]:
    if kind not in BUILTIN:
        raise ConfigError(f"unknown stage kind {kind!r}; kinds: {', '.join(BUILTIN)}")
    return BUILTIN[kind]
