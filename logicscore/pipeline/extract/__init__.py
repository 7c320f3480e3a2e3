"""The Extractor seam: interchangeable decomposers of a long answer, chosen by name.

Names map to import paths and load lazily (`logicscore.pipeline.registry`, the seam every stage kind
shares), so `import logicscore` never pulls in spaCy. The records an extractor hands on
and its protocol are in `logicscore.pipeline.flow`. Third-party extractors register
through the `logicscore.extractors` entry-point group.
"""

from __future__ import annotations

from .. import registry as stages
from ..flow import Extraction, ExtractedMention, Extractor

# The extractor's mention was called `Mention` here; `models.Mention` is the linked one.
Mention = ExtractedMention

__all__ = ["BUILTIN", "Extraction", "ExtractedMention", "Extractor", "Mention", "available",
           "get_extractor"]

BUILTIN: dict[str, str] = stages.BUILTIN["extractor"]


def available() -> dict[str, str]:
    """Every extractor name with its import path: built-ins, then entry points."""
    return stages.available("extractor")


def get_extractor(name: str, **config: object) -> Extractor:
    """Import the extractor called `name` and build it with validated `config`.

    Raises:
        ConfigError: an unknown name (the known ones listed) or a bad option.
    """
    return stages.build("extractor", name, config)
