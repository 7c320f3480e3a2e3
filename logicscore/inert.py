"""Text from records made inert for the medium a person opens: terminal, markdown, XML.

Ids, meta values, entity names, error messages and signatures come from input files, so they
may carry terminal escape sequences, bidi overrides, markdown or HTML markup, or characters
XML forbids. Every renderer passes such text through the helper of its medium, so what a
person sees is the text itself, never an instruction to their terminal or browser
(docs/reliability.md). HTML pages are escaped by their template engine (autoescape).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")

# Characters a terminal acts on or that reorder or hide text: C0 and C1 controls (ESC starts
# every escape sequence), DEL, and the Unicode format characters (bidi overrides and
# isolates, zero-width spaces and joiners), plus the line and paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_SHOWN = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# XML 1.0 allows only these characters (https://www.w3.org/TR/xml/#charsets); a carriage
# return is allowed but read back as a line feed, so it is shown escaped too.
_XML_FORBIDDEN = re.compile("[^\t\n\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Markdown that could change what a cell or a line means once rendered: emphasis, code,
# links and images, tables, strikethrough, raw HTML and entities, and the escape itself. An
# underscore inside a word (`grounded_chain`) never starts emphasis, so it stays as it is.
_MD_SPECIAL = re.compile(r"[\\`*\[\]|~]|(?<![^\W_])_|_(?![^\W_])")
_MD_ENTITY = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def _escape_char(char: str) -> str:
    if char in _SHOWN:
        return _SHOWN[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe(char: str) -> bool:
    return unicodedata.category(char) in _UNSAFE_CATEGORIES


def visible(text: str) -> str:
    """`text` on one line with every control, format and separator character shown as its
    Python escape (`\\x1b`, `\\u202e`, `\\n`), so nothing in it acts on what displays it."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape_char(c) if _unsafe(c) else c for c in text)


def terminal(text: Any) -> str:
    """Text for the terminal: escape sequences, bidi overrides and line breaks shown escaped.
    Rich markup is not interpreted when the result is wrapped in `rich.text.Text`."""
    return visible(str(text))


def markdown(text: Any) -> str:
    """Text for one markdown table cell or inline run: on one line, markup escaped, and the
    HTML a renderer would pass through written as entities."""
    line = visible(str(text))
    line = "".join(_MD_ENTITY.get(c, c) for c in line)
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), line)


def markdown_code(lines: list[str], info: str = "text") -> list[str]:
    """A fenced markdown code block of `lines`, each on one line, whose fence no backtick run
    in the text can close (a fence is longer than any run of backticks inside)."""
    shown = [visible(line) for line in lines]
    longest = max((len(run) for line in shown for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", *shown, fence]


def xml_text(text: Any) -> str:
    """Text for an XML attribute or element: characters XML 1.0 forbids (most controls,
    lone surrogates, U+FFFE/U+FFFF) shown as their escapes; the XML writer escapes the rest."""
    return _XML_FORBIDDEN.sub(lambda m: _escape_char(m.group()), str(text))


def inert_copy(value: T, helper=terminal) -> T:
    """A copy of `value` (a pydantic model, dataclass, list, tuple or dict, nested) with every
    string passed through `helper`; what it renders then needs no care field by field."""
    if isinstance(value, str):
        return helper(value)
    if isinstance(value, BaseModel):
        updates = {}
        for name in type(value).model_fields:
            old = getattr(value, name)
            new = inert_copy(old, helper)
            if new is not old:
                updates[name] = new
        return value.model_copy(update=updates) if updates else value
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: inert_copy(getattr(value, f.name), helper) for f in fields(value) if f.init}
        return replace(value, **changes)
    if isinstance(value, list):
        return [inert_copy(v, helper) for v in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(inert_copy(v, helper) for v in value)  # type: ignore[return-value]
    if isinstance(value, dict):
        return {inert_copy(k, helper): inert_copy(v, helper) for k, v in value.items()}  # type: ignore[return-value]
    return value
