"""Input formats: the rows other tools write and public QA records, read as logicscore records.

    from logicscore.formats import read_lines
    with open("ragas.jsonl", "rb") as fh:
        for result in auditor.audit_many(read_lines(fh, "ragas")):
            ...

`read` detects and converts (`auto`, or one of `FORMATS`); `rag` reads RAGAS, DeepEval and
promptfoo rows; `records` reads HotpotQA, 2WikiMultihopQA and MuSiQue records through the
dataset parsers (`datasets`, with `items` and `text`) the real-data figures use too.
"""

from __future__ import annotations

from .read import FORMATS, NAMES, Format, check_format, convert, detect, parse_line, read_lines

__all__ = ["FORMATS", "NAMES", "Format", "check_format", "convert", "detect", "parse_line", "read_lines"]
