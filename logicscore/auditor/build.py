"""Building an Auditor's stages from its `AuditorConfig` (docs/architecture.md, "The stage flow"):
each by name from the registry, with the Auditor's own options where a stage takes them."""

from __future__ import annotations

from typing import Any

from ..config import AuditorConfig
from ..errors import ConfigError
from ..pipeline import ground
from ..pipeline import registry as stages
from ..pipeline.flow import Completeness


def completeness_stages(c: AuditorConfig, shared: dict[str, Any]) -> dict[str, Completeness]:
    """Every registered completeness stage by name, built-ins first: a plugin's stage that
    names a question type takes it from the built-in one."""
    out: dict[str, Completeness] = {}
    for name in stages.available("completeness"):
        cls = stages.stage_class("completeness", name)
        base = ({"max_alternatives": c.max_alternatives}
                if "max_alternatives" in cls.Config.model_fields else {})
        stage = stages.build("completeness", name, base, shared)
        out[name] = stage
    return out


def hop_stage(c: AuditorConfig, shared: dict[str, Any]) -> stages.HopReader | None:
    """The hop stage the config names (None for "off"); it takes the Auditor's fuzzy
    threshold unless its options say otherwise."""
    if c.hops == "off":
        return None
    cls = stages.stage_class("hops", c.hops)
    base = {"fuzzy_threshold": c.fuzzy_threshold} if "fuzzy_threshold" in cls.Config.model_fields else {}
    return stages.build("hops", c.hops, {**base, **c.hops_options}, shared)


def escalation(c: AuditorConfig, shared: dict[str, Any]) -> stages.HopReader | None:
    """The llm hop stage that decides what the offline one leaves unverified (`escalate`)."""
    if not c.escalate:
        return None
    if not getattr(stages.stage_class("hops", c.hops), "offline", False):
        raise ConfigError(f"escalate goes with an offline hop stage (hops='rules'), not hops={c.hops!r}: "
                          "the records it leaves unverified are what escalation sends to the model")
    return stages.build("hops", "llm", {"fuzzy_threshold": c.fuzzy_threshold, **c.hops_options}, shared)


def grounder(c: AuditorConfig, shared: dict[str, Any]) -> ground.Grounder | None:
    """The grounder the config names (None for "off"); one with a fuzzy threshold takes
    the Auditor's unless its options say otherwise."""
    if c.grounder == "off":
        return None
    cls = stages.stage_class("grounder", c.grounder)
    base = {"fuzzy_threshold": c.fuzzy_threshold} if "fuzzy_threshold" in cls.Config.model_fields else {}
    return stages.build("grounder", c.grounder, {**base, **c.grounder_options}, shared)


def configure(extractor: str | None, config: AuditorConfig | None,
               options: dict[str, Any]) -> AuditorConfig:
    """One `AuditorConfig` from the keyword API: its fields, the rest as extractor options."""
    fields = dict(config.model_dump()) if config is not None else {}
    if extractor is not None:
        fields["extractor"] = extractor
    extra = {k: v for k, v in options.items() if k not in AuditorConfig.model_fields}
    fields.update({k: v for k, v in options.items() if k in AuditorConfig.model_fields})
    if extra:
        fields["extractor_options"] = {**fields.get("extractor_options", {}), **extra}
    return stages.validate(AuditorConfig, fields, "the Auditor")
