"""Prompt files: shipped in the wheel as `logicscore/_prompts`, in a checkout as `prompts/`."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import ConfigError

# An editable install has no `_prompts` inside the package: the files sit at the top of the
# checkout, two levels above this module.
_CHECKOUT = Path(__file__).resolve().parents[2] / "prompts"
# A record's text containing a marker could close its part early and speak outside it.
_MARKER = re.compile(r"</?\s*(question|short_answer|long_answer|passage|hops|documents)\s*>",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Prompt:
    """A prompt's text and the first 12 hex digits of its sha256 (what the signature shows)."""

    name: str
    text: str
    sha: str


@cache
def load(name: str) -> Prompt:
    """The prompt file `name` (e.g. "extract.v1.md"); `ConfigError` when no such file exists."""
    data = _read(name)
    if data is None:
        raise ConfigError(f"prompt file {name!r} not found in logicscore/_prompts or {_CHECKOUT}; "
                          "reinstall logicscore or name an existing file")
    return Prompt(name=name, text=data.decode("utf-8"), sha=hashlib.sha256(data).hexdigest()[:12])


def _read(name: str) -> bytes | None:
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    packaged = resources.files("logicscore").joinpath("_prompts", name)
    if packaged.is_file():
        return packaged.read_bytes()
    local = _CHECKOUT / name
    return local.read_bytes() if local.is_file() else None


def location(name: str) -> str:
    """Where `name` is read from: "package" (an installed wheel) or "checkout"."""
    return "package" if resources.files("logicscore").joinpath("_prompts", name).is_file() else "checkout"


def delimit(**parts: str) -> str:
    """The user message: each field between its own markers, markers inside a field defused."""
    return "\n".join(f"<{name}>\n{_MARKER.sub(lambda m: m.group().replace('<', '‹'), text)}\n</{name}>"
                      for name, text in parts.items())
