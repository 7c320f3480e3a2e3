"""`explain`: one record for a person, given on the command line or found in a file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import ConfigError, LogicscoreError
from . import app
from .common import FormatOpt, MapOpt, console, fail, make_auditor, reason
from .options import LLMOptions, RulesOptions, grouped
from .paths import check_input, check_stdout


@app.command()
@grouped
def explain(
    file: Annotated[Path | None, typer.Argument(help="Input JSONL or a scored output file of "
                                                        "`logicscore score` (with --id or --line).",
                                                   readable=False)] = None,
    id_: Annotated[str | None, typer.Option("--id", help="Record id to explain from FILE: the "
                   "record's own id, else its line number (as `score` gives it).")] = None,
    line_: Annotated[int | None, typer.Option("--line", min=1, help="Explain line N of FILE.")] = None,
    question: Annotated[str | None, typer.Option("--question", "-Q", help="The question.")] = None,
    answer: Annotated[str | None, typer.Option("--answer", "-a", help="The short answer.")] = None,
    long_answer: Annotated[str | None, typer.Option("--long-answer", "-l", help="The long answer.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result record as JSON instead.")] = False,
    map_: MapOpt = [],
    format_: FormatOpt = "auto",
    *,
    rules: RulesOptions,
    llm: LLMOptions,
) -> None:
    """Explain one record for a person: propositions, chain, gap, redundancy, signals, merges.

    Either give -Q/--question, -a/--answer and -l/--long-answer, or FILE with --id or --line.
    """
    from .. import io
    from ..formats import check_format
    from ..report import render_explain

    try:
        mapping = io.parse_map(map_)
        check_format(format_)
    except ValueError as exc:
        fail(str(exc), 2)
    flags = (question, answer, long_answer)
    from_file = file is not None or id_ is not None or line_ is not None
    if any(flags) and not all(flags):
        fail("give all three of --question, --answer and --long-answer", 2)
    if all(flags) and from_file:
        fail("give either --question/--answer/--long-answer or FILE with --id/--line, not both", 2)
    if not all(flags) and (file is None or (id_ is None) == (line_ is None)):
        fail("give --question/--answer/--long-answer, or FILE with one of --id ID, --line N", 2)
    if file is not None:
        check_input(file, "file")
        check_stdout([file])
    auditor = make_auditor(rules.extractor, rules.fuzzy_threshold, rules.spacy_model, rules.max_alternatives,
                           False, judge=rules.determinateness, grounder=rules.grounding, hops=rules.hops,
                           escalate=rules.escalate,
                           llm=llm.endpoint())
    try:
        if all(flags):
            result = auditor.audit(question=question, answer=answer, long_answer=long_answer)
        else:
            assert file is not None  # checked with the flags above
            result = _find(io, auditor, file, id_, line_, (format_, mapping))
    except ConfigError as exc:  # options that cannot work: a usage error (docs/reliability.md)
        fail(exc.message, 2)
    except LogicscoreError as exc:
        fail(exc.message)
    except OSError as exc:
        fail(f"cannot read file {file}: {reason(exc)}", 2)
    if as_json:
        typer.echo(result.to_json())
    else:
        console().print(render_explain(result))


def _find(io, auditor, file: Path, id_: str | None, number: int | None, reading: tuple[str, dict[str, str]]):
    """The record with `id_` (or on line `number`): read back from a scored file, or
    audited from an input file (read as `reading`: format, --map). Ids are matched as `score`
    gives them."""
    from pydantic import ValidationError

    from ..formats import parse_line

    from ..models import AuditResult

    lines = 0
    with file.open("rb") as fh:
        for lines, raw in io.iter_raw(fh):
            if number is not None and lines != number:
                continue
            line = parse_line(raw, lines, *reading)
            if id_ is not None and line.id != id_:
                continue
            if line.record is None and b'"signature"' in raw:
                try:
                    return AuditResult.model_validate_json(raw)
                except ValidationError:
                    pass  # not a result after all: explain it as an input line
            return next(auditor.audit_many([line]))
    if number is not None:
        fail(f"{file} has {lines} lines, so no line {number}", 2)
    fail(f"no record with id {id_!r} in {file} (a record without an id has its line number as id)", 2)
