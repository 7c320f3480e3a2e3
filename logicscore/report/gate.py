"""The CI gate: thresholds on a run (and on its drop against a baseline) to a pass/fail verdict.

Thresholds come from `[tool.logicscore.gate]` in pyproject.toml, overridden by flags. Runs
audited under different signatures are not compared unless the caller allows it: a score
that moved because a setting changed is not a regression of the answers.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated
from xml.etree import ElementTree as ET

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InputError
from ..inert import terminal, xml_text
from ..models import AuditResult
from .aggregate import CATEGORIES, METRICS, Aggregate
from .failing import describe, is_failing
from ..signature import differences

FAILURES = CATEGORIES[1:]


class GateInputError(InputError):
    """A gate that cannot be evaluated: bad thresholds, unreadable or incomparable runs."""


# A share or a mean between 0 and 1: a number (an integer is fine), never a boolean (TOML's
# `true` is not 1.0), nan or infinity, never negative.
Share = Annotated[float, Field(ge=0, le=1, strict=True, allow_inf_nan=False)]


class Thresholds(BaseModel):
    """Every limit the gate checks; None (or an empty table) means not checked."""

    model_config = ConfigDict(extra="forbid")

    min_completeness: Share | None = None
    min_conciseness: Share | None = None
    min_determinateness: Share | None = None
    # Mean share of chain hops grounded in their cited documents (records with documents).
    min_grounded: Share | None = None
    max_failure: dict[str, Share] = Field(default_factory=dict)
    max_errors: Share | None = None
    max_regression: dict[str, Share] = Field(default_factory=dict)
    min_records: Annotated[int, Field(ge=0, strict=True)] | None = None

    def is_empty(self) -> bool:
        return not any(v not in (None, {}) for v in self.model_dump().values())


def parse_pairs(pairs: Iterable[str], option: str, known: Iterable[str]) -> dict[str, float]:
    """`["broken=0.2"]` -> `{"broken": 0.2}`, naming the flag and the known keys on error."""
    names = list(known)
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in names:
            raise GateInputError(f"{option} {pair!r}: expected NAME=SHARE with NAME one of "
                                 f"{', '.join(names)}")
        try:
            out[key] = float(value)
        except ValueError:
            raise GateInputError(f"{option} {pair!r}: {value!r} is not a number") from None
    return out


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start`, as pytest and ruff look for theirs."""
    for folder in [start, *start.parents]:
        if (folder / "pyproject.toml").is_file():
            return folder / "pyproject.toml"
    return None


def load_thresholds(pyproject: Path | None, overrides: dict) -> Thresholds:
    """`[tool.logicscore.gate]` of `pyproject` with every non-empty override on top; a bad
    table, key, type or value is a `GateInputError` naming it."""
    flags = {k: v for k, v in overrides.items() if v not in (None, {})}
    _validate(flags, "the gate options", lambda key: f"--{key.replace('_', '-')}")
    base = _table(pyproject) if pyproject is not None else {}
    where = f"[tool.logicscore.gate] in {pyproject}"
    _validate(base, where, str)
    for key, value in flags.items():
        base[key] = {**base.get(key, {}), **value} if isinstance(value, dict) else value
    return _validate(base, where if pyproject else "the gate options", str)


def _table(pyproject: Path) -> dict:
    """The `[tool.logicscore.gate]` table of `pyproject` ({} when it has none)."""
    from ..io import read_whole

    try:
        data = tomllib.loads(read_whole(pyproject, str(pyproject)).decode("utf-8"))
    except InputError as exc:
        raise GateInputError(exc.message) from None
    except UnicodeDecodeError as exc:
        raise GateInputError(f"{pyproject}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise GateInputError(f"{pyproject}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise GateInputError(f"{pyproject}: not valid TOML ({exc})") from None
    table: object = data
    for depth, key in enumerate(("tool", "logicscore", "gate")):
        if not isinstance(table, dict):
            break
        table = table.get(key, {})
        if not isinstance(table, dict):
            name = ".".join(("tool", "logicscore", "gate")[:depth + 1])
            kind = "an array of tables ([[...]])" if isinstance(table, list) else f"{type(table).__name__} {table!r}"
            raise GateInputError(f"{pyproject}: {name} must be a table ([{name}]), not {kind}")
    assert isinstance(table, dict)
    return dict(table)


def _validate(values: dict, where: str, name) -> Thresholds:
    """`values` as Thresholds, or a GateInputError naming the first bad key (as `name` shows it)."""
    try:
        thresholds = Thresholds.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first["loc"]]
        key = name(loc[0]) + "".join(f".{p}" for p in loc[1:])
        got = first.get("input")
        shown = "" if isinstance(got, dict) else f" (got {got!r})"
        raise GateInputError(f"{where}: {key}: {first['msg']}{shown}") from None
    for key in thresholds.max_failure:
        if key not in FAILURES:
            raise GateInputError(f"{where}: {name('max_failure')}: unknown failure type {key!r} "
                                 f"(one of {', '.join(FAILURES)})")
    for key in thresholds.max_regression:
        if key not in (*METRICS, *FAILURES):
            raise GateInputError(f"{where}: {name('max_regression')}: unknown measure {key!r} (one of "
                                 f"{', '.join((*METRICS, *FAILURES))})")
    return thresholds


@dataclass
class Check:
    name: str
    value: float | None
    op: str
    threshold: float
    passed: bool
    detail: str = ""


@dataclass
class Case:
    """One record as a JUnit test case: its id, input line and, when it fails, why."""

    id: str | None
    line: int | None
    failure: str | None = None


@dataclass
class GateResult:
    checks: list[Check]
    records: int
    signatures: list[str]
    baseline_signatures: list[str] = field(default_factory=list)
    # One per record, in file order (filled when the run is aggregated with `cases=`).
    cases: list[Case] = field(default_factory=list)
    # Regression limits from the config that were not checked: no --baseline was given.
    skipped: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def to_json_dict(self) -> dict:
        return {"passed": self.passed, "exit_code": self.exit_code, "records": self.records,
                "signatures": self.signatures, "baseline_signatures": self.baseline_signatures,
                "checks": [asdict(c) for c in self.checks], "skipped": self.skipped,
                "failing_records": [asdict(c) for c in self.cases if c.failure is not None]}


def aggregate(results: Iterable[AuditResult], what: str, cases: list[Case] | None = None) -> Aggregate:
    """The run's accumulators; with `cases`, each record's JUnit case is appended to it."""
    agg = Aggregate()
    for result in results:
        agg.add(result)
        if cases is not None:
            cases.append(Case(result.id, result.meta.line, describe(result) if is_failing(result) else None))
    if agg.total == 0:
        raise GateInputError(f"{what} has no records: was `logicscore score` run on an empty input?")
    return agg


def _check(name: str, value: float | None, op: str, threshold: float, detail: str = "") -> Check:
    # A measure that cannot be computed (nothing scored) fails: the gate never passes by default.
    ok = value is not None and (value >= threshold if op == ">=" else value <= threshold)
    return Check(name, value, op, threshold, ok, detail)


def evaluate(run: Aggregate, thresholds: Thresholds, baseline: Aggregate | None = None,
             allow_signature_change: bool = False, flagged: Iterable[str] = ()) -> GateResult:
    """Check `run` against `thresholds` (and its drop from `baseline`); raises GateInputError.

    A regression limit needs a baseline: one given as a flag (its key in `flagged`) without
    one is a usage error; one from the config is listed as skipped, so a plain `gate` on the
    config that CI also runs with --baseline still checks everything else.
    """
    if thresholds.is_empty():
        raise GateInputError("no thresholds set: give e.g. --min-completeness 0.8, or a "
                             "[tool.logicscore.gate] table in pyproject.toml")
    skipped: list[str] = []
    if thresholds.max_regression and baseline is None:
        if "max_regression" in flagged:
            raise GateInputError("--max-regression needs --baseline OLD.jsonl to compare with")
        skipped = [f"max_regression {k}={v:g} (no --baseline)" for k, v in thresholds.max_regression.items()]
        thresholds = thresholds.model_copy(update={"max_regression": {}})
    sigs = run.signature_list()
    base_sigs = baseline.signature_list() if baseline else []
    if not allow_signature_change:
        if len(sigs) > 1:
            differ = "; ".join(d for other in sigs[1:] for d in differences(sigs[0], other))
            raise GateInputError(f"the run mixes {len(sigs)} signatures ({differ}); "
                                 "gate one configuration at a time or pass --allow-signature-change")
        if baseline is not None and base_sigs != sigs:
            differ = "; ".join(differences(base_sigs[0], sigs[0])) if len(base_sigs) == len(sigs) == 1 else (
                f"{' ; '.join(base_sigs)} → {' ; '.join(sigs)}")
            raise GateInputError(f"the baseline and the run were audited with different settings ({differ}); "
                                 "rescore the baseline with the same settings or pass --allow-signature-change")
    t = thresholds
    checks = []
    if run.scored == 0:
        # Nothing was scored: no mean, no share says anything, and the gate never passes on that.
        checks.append(Check("records scored", 0.0, ">=", 1, False,
                            f"every one of the {run.total} records errored"))
    if t.min_records is not None:
        checks.append(_check("records", float(run.total), ">=", t.min_records))
    for metric in ("completeness", "conciseness", "determinateness"):
        limit = getattr(t, f"min_{metric}")
        if limit is not None:
            checks.append(_check(f"mean {metric}", run.mean(metric), ">=", limit))
    if t.min_grounded is not None:
        checks.append(_check("mean grounded_chain", run.grounded.mean if run.grounded.n else None,
                             ">=", t.min_grounded, f"{run.grounded.n} records with documents"))
    for kind, limit in t.max_failure.items():
        checks.append(_check(f"share {kind}", run.share(kind), "<=", limit))
    if t.max_errors is not None:
        checks.append(_check("share errored", run.error_share, "<=", t.max_errors))
    for key, limit in t.max_regression.items():
        checks.append(_regression(key, limit, run, baseline))
    return GateResult(checks, run.total, sigs, base_sigs, skipped=skipped)


def _regression(key: str, limit: float, run: Aggregate, baseline: Aggregate | None) -> Check:
    assert baseline is not None
    # A metric regresses when it drops; a failure type when its share rises.
    if key in METRICS:
        old, new = baseline.mean(key), run.mean(key)
        drop = None if old is None or new is None else old - new
        return _check(f"drop in mean {key}", drop, "<=", limit,
                      f"baseline {_f(old)}, now {_f(new)}")
    old, new = baseline.share(key), run.share(key)
    rise = None if old is None or new is None else new - old
    return _check(f"rise in share {key}", rise, "<=", limit, f"baseline {_f(old)}, now {_f(new)}")


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def to_junit(result: GateResult) -> str:
    """JUnit XML: a testsuite of the checks (a <failure> on each failed one) and, when the
    result has its cases, a testsuite of the records: one testcase per record, a <failure>
    saying why on each failing one, so a CI page lists the records that failed."""
    failed = sum(not c.passed for c in result.checks)
    bad = sum(c.failure is not None for c in result.cases)
    total = {"tests": str(len(result.checks) + len(result.cases)), "failures": str(failed + bad),
             "errors": "0", "skipped": "0"}
    counts = {"tests": str(len(result.checks)), "failures": str(failed), "errors": "0", "skipped": "0"}
    root = ET.Element("testsuites", {"name": "logicscore gate", **total})
    suite = ET.SubElement(root, "testsuite", {"name": "logicscore.report.gate", "time": "0", **counts})
    props = ET.SubElement(suite, "properties")
    for sig in result.signatures:
        ET.SubElement(props, "property", name="signature", value=xml_text(sig))
    for sig in result.baseline_signatures:
        ET.SubElement(props, "property", name="baseline_signature", value=xml_text(sig))
    for c in result.checks:
        case = ET.SubElement(suite, "testcase", classname="logicscore.report.gate",
                             name=xml_text(f"{c.name} {c.op} {c.threshold:g}"), time="0")
        if not c.passed:
            failure = ET.SubElement(case, "failure", type="threshold",
                                    message=xml_text(f"{c.name} is {_f(c.value)}, limit {c.op} {c.threshold:g}"))
            failure.text = xml_text(c.detail) if c.detail else None
    if result.cases:
        _record_suite(root, result.cases, bad)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _record_suite(root: ET.Element, cases: list[Case], bad: int) -> None:
    counts = {"tests": str(len(cases)), "failures": str(bad), "errors": "0", "skipped": "0"}
    suite = ET.SubElement(root, "testsuite", {"name": "logicscore.records", "time": "0", **counts})
    for c in cases:
        name = xml_text(c.id if c.id is not None else f"line {c.line}")
        case = ET.SubElement(suite, "testcase", classname="logicscore.records", name=name, time="0")
        if c.failure is not None:
            message = xml_text(c.failure)
            failure = ET.SubElement(case, "failure", type=message.split(":")[0].split(";")[0], message=message)
            failure.text = f"record {name} (input line {c.line}): {message}"


def render_table(result: GateResult):
    """A rich table of metric, value, threshold, verdict."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    verdict = "PASS" if result.passed else "FAIL"
    table = Table(title=f"logicscore gate: {verdict} ({result.records} records)", title_justify="left")
    for name in ("check", "value", "threshold", "verdict", "detail"):
        table.add_column(name, justify="right" if name in ("value", "threshold") else "left")
    for c in result.checks:
        table.add_row(Text(terminal(c.name)), _f(c.value), f"{c.op} {c.threshold:g}",
                      "pass" if c.passed else "FAIL", Text(terminal(c.detail)), style=None if c.passed else "red")
    failing = [c for c in result.cases if c.failure is not None]
    lines = [f"skipped: {terminal(s)}" for s in result.skipped]
    if failing:
        shown = ", ".join(terminal(str(c.id if c.id is not None else f"line {c.line}")) for c in failing[:20])
        more = f" and {len(failing) - 20} more" if len(failing) > 20 else ""
        lines.append(f"failing records ({len(failing)}): {shown}{more}")
    lines += [f"signature: {terminal(s)}" for s in result.signatures]
    lines += [f"baseline signature: {terminal(s)}" for s in result.baseline_signatures]
    return Group(table, *(Text(line, style="dim") for line in lines))
