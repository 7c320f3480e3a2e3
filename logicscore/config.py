"""`AuditorConfig`: every option of an Auditor, each default defined here and nowhere else.

The CLI reads its flag defaults from these fields, so the library and the command line
cannot drift apart. One default differs on purpose: a library call has no time limit
(`timeout=None`), while `logicscore score` stops a record after `CLI_TIMEOUT` seconds,
because a command left running over a large file must not hang on one pathological answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Seconds per record for `logicscore score --timeout` (0 there means no limit).
CLI_TIMEOUT = 300.0
# Sentences per long answer for `logicscore score --max-sentences` (0 there means no limit).
# Real long answers have a handful (at most 7 in the shipped data); time and memory grow
# faster than the sentence count (2,000 short sentences: 17 s and 0.3 GB; 10,000: 165 s and
# 0.85 GB on the reference machine), so the command stops well before a gigabyte, unasked.
CLI_MAX_SENTENCES = 500


class AuditorConfig(BaseModel):
    """The whole recipe of an Auditor: stage names, their options and the run limits."""

    model_config = ConfigDict(extra="forbid")

    extractor: str = Field("rules", description="extractor name: rules, given, or a plugin's")
    question_reader: str = Field("rules", description="how the question's entities are read")
    linker: str = Field("rules", description="how mentions become entities")
    judge: str = Field("rules", description="how determinateness is decided")
    grounder: str = Field("rules", description="how chain hops are checked against the documents "
                                               "they cite: rules, llm, or off")
    hops: str = Field("rules", description="how the question's hops are checked: off, rules (offline: "
                                         "complete, incomplete or unverified), llm (one call per "
                                         "record) or given (the record's question_hops)")
    escalate: bool = Field(False, description="with hops='rules': the records the rules leave "
                                              "unverified go to the llm hop check, one call each")
    fuzzy_threshold: float = Field(
        85.0, ge=0, le=100, description="rapidfuzz similarity (0-100) at which two mentions merge")
    max_alternatives: int = Field(
        16, ge=0, description="cap on the same-length alternative chains reported")
    spacy_model: str | None = Field(
        None, description="spaCy pipeline shared by the stages that parse text (default: "
                          "en_core_web_sm if installed, else the bundled re-upload)")
    timing: bool = Field(True, description="record meta.latency_ms")
    # Bounds for huge or adversarial input (docs/reliability.md). Real long answers are a few thousand
    # characters; a 1,000,000-character one peaks near 2.5 GB and minutes of work, so the
    # default stops at 200,000 and a user who needs more raises it knowingly.
    max_chars: int = Field(
        200_000, ge=1, description="longest long answer scored (question and answer: a tenth)")
    timeout: float | None = Field(
        None, gt=0, description="seconds one record may take (None: no limit)")
    max_sentences: int | None = Field(
        None, ge=1, description="most sentences a long answer may have to be scored (None: no limit)")
    extractor_options: dict[str, Any] = Field(default_factory=dict)
    question_reader_options: dict[str, Any] = Field(default_factory=dict)
    linker_options: dict[str, Any] = Field(default_factory=dict)
    judge_options: dict[str, Any] = Field(default_factory=dict)
    grounder_options: dict[str, Any] = Field(default_factory=dict)
    hops_options: dict[str, Any] = Field(default_factory=dict)
    llm: dict[str, Any] = Field(
        default_factory=dict, description="the LLM endpoint shared by the llm stages: base_url, "
        "model, timeout, retries, concurrency, max_calls, cache, cache_dir, offline "
        "(logicscore.llm.options.EndpointConfig)")


def default(field: str) -> Any:
    """The default of one `AuditorConfig` field (what a CLI flag shows and uses)."""
    return AuditorConfig.model_fields[field].default

