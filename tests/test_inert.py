"""Each medium's helper over every hostile string: what it gives back is inert there."""

from __future__ import annotations

import re
import unicodedata
from xml.etree import ElementTree as ET

import pytest
from hostile_strings import HOSTILE
from markdown_it import MarkdownIt

from logicscore.inert import inert_copy, markdown, markdown_code, terminal, visible, xml_text
from logicscore.models import AuditResult, ResultMeta

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
ACTIVE = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def _active(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in ACTIVE]


def _unescape(shown: str) -> str:
    """The text `visible` escaped, read back (to check that nothing was lost)."""
    return re.sub(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|n|r|t)",
                  lambda m: {"n": "\n", "r": "\r", "t": "\t"}.get(m.group(1)) or chr(int(m.group(1)[1:], 16)),
                  shown)


@pytest.mark.parametrize("text", HOSTILE)
def test_inert_terminal_shows_every_control_escaped(text):
    shown = terminal(text)
    assert not _active(shown) and "\x1b" not in shown and "\n" not in shown
    assert _unescape(shown) == text  # nothing dropped, only shown
    assert terminal(shown) == shown  # already inert text stays as it is


@pytest.mark.parametrize("text", ["plain id 42", "Zoë Ångström", "東京", "emoji \U0001F600"])
def test_inert_terminal_leaves_ordinary_text_alone(text):
    assert terminal(text) == text == visible(text)


@pytest.mark.parametrize("text", HOSTILE)
def test_inert_markdown_cell_is_one_inert_cell(text):
    row = f"| {markdown(text)} | x |"
    table = "| a | b |\n|---|---|\n" + row + "\n"
    html = MD.render(table)
    assert "<img" not in html and "<script" not in html and "<svg" not in html and "<a " not in html
    assert "<em>" not in html and "<strong>" not in html and "<code>" not in html and "<s>" not in html
    # One body row of exactly two cells: no pipe or newline in the text split or ended it.
    body = html.split("<tbody>")[1]
    assert body.count("<tr>") == 1 and body.count("<td>") == 2
    assert not _active(markdown(text))


@pytest.mark.parametrize("text", HOSTILE)
def test_inert_markdown_code_block_cannot_be_closed_from_inside(text):
    block = markdown_code([f"id {text}", text, "after"])
    tokens = MD.parse("\n".join(block) + "\n\nafter the block\n")
    fences = [t for t in tokens if t.type == "fence"]
    assert len(fences) == 1
    assert fences[0].content.splitlines() == [visible(f"id {text}"), visible(text), "after"]
    assert tokens[-2].content == "after the block"
    assert not any(_active(line) for line in block)


@pytest.mark.parametrize("text", HOSTILE + ("\ud800 lone", "\ufffe\uffff", "\x00nul"))
def test_inert_xml_text_always_parses_back(text):
    root = ET.Element("testsuite", name=xml_text(text))
    ET.SubElement(root, "failure", message=xml_text(text)).text = xml_text(text)
    data = ET.tostring(root, encoding="unicode").encode("utf-8", "surrogatepass")
    parsed = ET.fromstring(data)
    assert parsed.get("name") == xml_text(text) and parsed[0].text == xml_text(text)


def test_inert_copy_reaches_every_nested_string():
    result = AuditResult(id="\x1b[2Jid", status="error",
                         meta=ResultMeta(signature="sig\u202e", record={"k": ["\x07v"]}))
    shown = inert_copy(result, terminal)
    assert shown.id == "\\x1b[2Jid" and shown.meta.signature == "sig\\u202e"
    assert shown.meta.record == {"k": ["\\x07v"]}
    assert result.id == "\x1b[2Jid"  # the original is untouched
