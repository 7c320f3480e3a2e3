"""Typed option groups: a command takes a few dataclasses, `--help` shows one panel per group.

typer reads a command's options from its parameters, one each, so `score` took 35 of them and
`--help` listed them in one run. `grouped` lets a command take dataclasses instead: typer sees
each field as an option (in its group's panel, in field order, so the common ones go first) and
the command receives the filled dataclasses. A new option of the rules or the LLM path is a
field of `RulesOptions` or `LLMOptions`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from copy import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, get_args, get_origin, get_type_hints

import typer
from typer.models import ParameterInfo

from ..config import CLI_MAX_SENTENCES, CLI_TIMEOUT, default
from .common import (AltsOpt, BaseUrlOpt, CacheDirOpt, CacheOpt, ConcurrencyOpt, EngineOpt, EscalateOpt,
                     ExtractorOpt, FormatOpt, FuzzyOpt, GroundingOpt, HopsOpt, JudgeOpt, LLMModelOpt,
                     LLMTimeoutOpt, MapOpt, MaxBytesOpt, MaxCallsOpt, MaxTokensOpt, ModelOpt, OfflineOpt,
                     QuietOpt, StructuredOpt,
                     WorkersOpt, llm_default, llm_options)

# The defaults of AuditorConfig and of the LLM endpoint, read once: a dataclass default is a value.
_FUZZY_THRESHOLD = default("fuzzy_threshold")
_GROUNDER = default("grounder")
_HOPS = default("hops")
_JUDGE = default("judge")
_MAX_ALTERNATIVES = default("max_alternatives")
_MAX_CHARS = default("max_chars")
_CONCURRENCY_LLM = llm_default("concurrency")
_MAX_BODY_BYTES_LLM = llm_default("max_body_bytes")
_STRUCTURED_LLM = llm_default("structured")
_TIMEOUT_LLM = llm_default("timeout")


@dataclass
class InputOptions:
    """Which records to read, and how."""

    PANEL: ClassVar[str] = "Input"
    input: Annotated[Path, typer.Argument(help="Input JSONL: one {question, answer, long_answer} per line "
                                          "('-' for stdin).", allow_dash=True, readable=False,
                                          rich_help_panel="Arguments")]
    format: FormatOpt = "auto"
    map: MapOpt = field(default_factory=list)


@dataclass
class OutputOptions:
    """Where the records go and what they hold."""

    PANEL: ClassVar[str] = "Output"
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL ('-' for stdout); missing "
                                         "folders are created. Never the input file.", allow_dash=True)]
    resume: Annotated[bool, typer.Option("--resume", help="Keep OUTPUT and score only the input lines it "
                      "does not have yet (refused if OUTPUT was scored with other options).")] = False
    repair: Annotated[bool, typer.Option("--repair", help="With --resume: when OUTPUT has a damaged line "
                      "(cut, edited, a record missing or out of order), keep the records before it, move "
                      "the rest to OUTPUT.damaged and score them again.")] = False
    allow_signature_change: Annotated[bool, typer.Option("--allow-signature-change", help="With --resume: "
                                      "append even if the records already in OUTPUT carry another "
                                      "signature.")] = False
    text: Annotated[bool, typer.Option("--text/--no-text", help="Write the question, the short and gold "
                    "answers and each sentence's text into the records (--no-text: spans and roles only, "
                    "for answers that must not be copied).")] = True
    timing: Annotated[bool, typer.Option("--timing/--no-timing", help="Record meta.latency_ms "
                      "(--no-timing makes reruns byte-identical).")] = True


@dataclass
class RulesOptions:
    """The stages and the offline rules path's settings (docs/architecture.md)."""

    PANEL: ClassVar[str] = "Rules path"
    extractor: ExtractorOpt = "rules"
    determinateness: JudgeOpt = _JUDGE
    grounding: GroundingOpt = _GROUNDER
    hops: HopsOpt = _HOPS
    escalate: EscalateOpt = False
    fuzzy_threshold: FuzzyOpt = _FUZZY_THRESHOLD
    spacy_model: ModelOpt = None
    max_alternatives: AltsOpt = _MAX_ALTERNATIVES


@dataclass
class LLMOptions:
    """The LLM path's endpoint (--extractor, --determinateness or --grounding llm)."""

    PANEL: ClassVar[str] = "LLM path"
    base_url: BaseUrlOpt = None
    model: LLMModelOpt = None
    offline: OfflineOpt = False
    llm_timeout: LLMTimeoutOpt = _TIMEOUT_LLM
    concurrency: ConcurrencyOpt = _CONCURRENCY_LLM
    max_calls: MaxCallsOpt = None
    cache: CacheOpt = True
    cache_dir: CacheDirOpt = None
    structured: StructuredOpt = _STRUCTURED_LLM
    llm_max_bytes: MaxBytesOpt = _MAX_BODY_BYTES_LLM
    llm_max_tokens: MaxTokensOpt = None

    def endpoint(self) -> dict:
        """The endpoint options (AuditorConfig.llm)."""
        return llm_options(self.base_url, self.model, self.llm_timeout, self.concurrency, self.max_calls,
                           self.offline, self.cache, self.cache_dir, self.structured, self.llm_max_bytes,
                           self.llm_max_tokens)


# `score` only: the run's calls counted, none made. Shown in the LLM path's panel.
EstimateOpt = Annotated[bool, typer.Option("--estimate", rich_help_panel="LLM path", help="Print the LLM calls "
                        "and input tokens the run would make (JSON, stdout) and stop without calling.")]


@dataclass
class RunningOptions:
    """How the run goes: processes, limits per record, what it prints, when it fails."""

    PANEL: ClassVar[str] = "Running"
    workers: WorkersOpt = 1
    engine: EngineOpt = "local"
    quiet: QuietOpt = False
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 if any record errored.")] = False
    timeout: Annotated[float, typer.Option("--timeout", min=0, help="Seconds one record may take before "
                       "it becomes a Timeout record (0: no limit).")] = CLI_TIMEOUT
    max_chars: Annotated[int, typer.Option("--max-chars", min=1, help="Longest long answer scored "
                         "(characters; question and answer: a tenth of it); longer ones become InputError "
                         "records.")] = _MAX_CHARS
    max_sentences: Annotated[int, typer.Option("--max-sentences", min=0, help="Most sentences a long answer "
                             "may have; longer ones become InputError records before any parse (0: no "
                             "limit). With --max-chars and --timeout, the budget that keeps one huge answer "
                             "from taking minutes and a gigabyte.")] = CLI_MAX_SENTENCES

    def limits(self) -> dict[str, Any]:
        """The per-record limits (AuditorConfig), 0 meaning none."""
        return {"max_chars": self.max_chars, "timeout": self.timeout or None,
                "max_sentences": self.max_sentences or None}


def _in_panel(annotation: Any, panel: str) -> Any:
    """`annotation` with its typer option shown in `panel` (a copy: the shared one is untouched)."""
    if get_origin(annotation) is not Annotated:
        return annotation
    base, *extras = get_args(annotation)
    shown = []
    for extra in extras:
        if isinstance(extra, ParameterInfo) and extra.rich_help_panel is None:
            extra = copy(extra)
            extra.rich_help_panel = panel
        shown.append(extra)
    return Annotated[(base, *shown)]


def grouped(command):
    """The command as typer should see it: each option group parameter (a dataclass) spread
    into its fields, shown in the group's panel; the command is called with the groups filled."""
    hints = get_type_hints(command, include_extras=True)
    params, groups = [], {}
    for name, param in inspect.signature(command).parameters.items():
        kind = hints.get(name, param.annotation)
        if not dataclasses.is_dataclass(kind):
            params.append(param.replace(annotation=kind, kind=inspect.Parameter.KEYWORD_ONLY))
            continue
        fields = get_type_hints(kind, include_extras=True)
        panel = getattr(kind, "PANEL", None)
        groups[name] = (kind, [f.name for f in dataclasses.fields(kind)])
        for f in dataclasses.fields(kind):
            value = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            params.append(inspect.Parameter(
                f.name, inspect.Parameter.KEYWORD_ONLY, annotation=_in_panel(fields[f.name], panel),
                default=inspect.Parameter.empty if value is dataclasses.MISSING else value))

    @functools.wraps(command)
    def spread(**given: Any) -> Any:
        for name, (kind, names) in groups.items():
            given[name] = kind(**{n: given.pop(n) for n in names})
        return command(**given)

    spread.__signature__ = inspect.Signature(params)
    spread.__annotations__ = {p.name: p.annotation for p in params}
    return spread
