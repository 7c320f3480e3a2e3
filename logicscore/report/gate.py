"""The CI gate: thresholds on a run (and on its drop against a baseline) to a pass/fail verdict.

Thresholds come from `[tool.logicscore.gate]` in pyproject.toml, overridden by flags. Runs
audited under different signatures are not compared unless the caller allows it: a score
that moved because a setting changed is not a regression of the answers. Whether a record
had documents is its own fact (`meta.grounder`), not a setting of the run: grounded records
are compared with grounded ones only.

Two limits hold by default once any is set (docs/gate-ci.md): no errored record
(`max_errors` 0) and, against a baseline, no record that was complete and is not any more
(`max_regressed` 0). An errored record also counts as incomplete in the completeness mean.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from xml.etree import ElementTree as ET


from ..inert import terminal, xml_text
from ..models import AuditResult
from .aggregate import METRICS, UNVERIFIED, Aggregate
from .diff import Move
from .failing import describe, is_failing, unverified_reason
from .signatures import changed, mixed
from .thresholds import GateInputError, Thresholds, limit_of



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
    """One record as a JUnit test case: its id, input line and, when it fails, why; an
    unverified record is skipped, with what could not be checked."""

    id: str | None
    line: int | None
    failure: str | None = None
    skipped: str | None = None

    def to_json_dict(self) -> dict:
        # `skipped` only where there is one, so runs without unverified records keep their bytes.
        return {k: v for k, v in asdict(self).items() if k != "skipped" or v is not None}


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
    # Records of the run that were decided in the baseline and are unverified now.
    went_unverified: list[Case] = field(default_factory=list)
    # Records complete in the baseline and not in the run, in the run's order.
    regressed: list[Move] = field(default_factory=list)
    # The grounders' keys of the run's grounded records, and how many each grounded.
    grounders: dict[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    @property
    def unverified(self) -> list[Case]:
        return [c for c in self.cases if c.skipped is not None]

    def to_json_dict(self) -> dict:
        out = {"passed": self.passed, "exit_code": self.exit_code, "records": self.records,
               "signatures": self.signatures, "baseline_signatures": self.baseline_signatures,
               "grounders": self.grounders,
               "checks": [asdict(c) for c in self.checks], "skipped": self.skipped,
               "regressed_records": [asdict(m) for m in self.regressed],
               "failing_records": [c.to_json_dict() for c in self.cases if c.failure is not None]}
        # Only runs that have unverified records say so: the others keep their bytes.
        if self.unverified or self.went_unverified:
            out["unverified_records"] = [c.to_json_dict() for c in self.unverified]
            out["went_unverified"] = [c.to_json_dict() for c in self.went_unverified]
        return out

    def mark_regressed(self) -> None:
        """Say in each regressed record's JUnit case that it was complete in the baseline."""
        regressed = {(m.id, m.line) for m in self.regressed}
        for case in self.cases:
            if (case.id, case.line) in regressed:
                case.failure = f"regressed (complete in the baseline): {case.failure}"


def aggregate(results: Iterable[AuditResult], what: str, cases: list[Case] | None = None) -> Aggregate:
    """The run's accumulators; with `cases`, each record's JUnit case is appended to it."""
    agg = Aggregate()
    for result in results:
        agg.add(result)
        if cases is not None:
            cases.append(Case(result.id, result.meta.line, describe(result) if is_failing(result) else None,
                              unverified_reason(result)))
    if agg.total == 0:
        raise GateInputError(f"{what} has no records: was `logicscore score` run on an empty input?")
    return agg


def regressions(baseline: Iterable[AuditResult], run: Iterable[AuditResult],
                what: str) -> tuple[Aggregate, list[Move], list[Move]]:
    """The baseline's accumulators; its records that were complete and are not any more:
    errored, a chain that broke, or gone from the run (new "missing"; a dropped question is
    not a kept one), matched as `diff` matches them; and its decided records that are
    unverified now."""
    from .diff import diff

    moved = diff(baseline, run)
    if moved.old.total == 0:
        raise GateInputError(f"{what} has no records: was `logicscore score` run on an empty input?")
    gone = [Move(e.id, e.line, "complete", "missing") for e in moved.only_old if e.category == "complete"]
    # Complete, then unverified: not shown broken, so named apart (`went_unverified`), not failed.
    went = [m for m in moved.unverified_moves() if m.new == UNVERIFIED]
    return moved.old, [m for m in moved.moves if m.old == "complete" and m.new != UNVERIFIED] + gone, went


def _check(name: str, value: float | None, op: str, threshold: float, detail: str = "") -> Check:
    # A measure that cannot be computed (nothing scored) fails: the gate never passes by default.
    ok = value is not None and (value >= threshold if op == ">=" else value <= threshold)
    return Check(name, value, op, threshold, ok, detail)


def evaluate(run: Aggregate, thresholds: Thresholds, baseline: Aggregate | None = None,
             allow_signature_change: bool = False, flagged: Iterable[str] = (),
             regressed: list[Move] | None = None) -> GateResult:
    """Check `run` against `thresholds` (and against `baseline`, whose records that regressed
    are `regressed`); raises GateInputError.

    A regression limit needs a baseline: one given as a flag (its key in `flagged`) without
    one is a usage error; one from the config is listed as skipped, so a plain `gate` on the
    config that CI also runs with --baseline still checks everything else.
    """
    if thresholds.is_empty() and baseline is None:
        raise GateInputError("no thresholds set: give e.g. --min-completeness 0.8, or a "
                             "[tool.logicscore.gate] table in pyproject.toml")
    skipped: list[str] = []
    if baseline is None:
        for key in ("max_regression", "max_regressed"):
            if key in flagged:
                raise GateInputError(f"--{key.replace('_', '-')} needs --baseline OLD.jsonl to compare with")
        skipped = [f"max_regression {k}={v:g} (no --baseline)" for k, v in thresholds.max_regression.items()]
        if thresholds.max_regressed is not None:
            skipped.append(f"max_regressed {thresholds.max_regressed} (no --baseline)")
        thresholds = thresholds.model_copy(update={"max_regression": {}, "max_regressed": None})
    if not allow_signature_change:
        refusal = mixed(run) or (changed(run, baseline) if baseline is not None else None)
        if refusal:
            raise GateInputError(refusal)
    t = thresholds
    checks = []
    if run.scored == 0:
        # Nothing was scored: no mean, no share says anything, and the gate never passes on that.
        checks.append(Check("records scored", 0.0, ">=", 1, False,
                            f"every one of the {run.total} records errored"))
    if t.min_records is not None:
        checks.append(_check("records", float(run.total), ">=", t.min_records))
    errored = sum(run.errors.values())
    for metric in ("completeness", "conciseness", "determinateness"):
        limit = getattr(t, f"min_{metric}")
        if limit is None:
            continue
        if metric == "completeness":
            # An errored record is not complete: the mean is over every decided or errored record.
            stat = run.stats[metric]
            mean = stat.total / (stat.n + errored) if stat.n + errored else None
            detail = "; ".join(d for d in (f"{errored} errored counted as incomplete" if errored else "",
                                           _beside(run, metric)) if d)
            checks.append(_check("mean completeness", mean, ">=", limit, detail))
        else:
            checks.append(_check(f"mean {metric}", run.mean(metric), ">=", limit, _beside(run, metric)))
    if t.min_grounded is not None:
        checks.append(_check("mean grounded_chain", run.grounded.mean if run.grounded.n else None,
                             ">=", t.min_grounded, f"{run.grounded.n} records with documents"))
    for kind, limit in t.max_failure.items():
        checks.append(_check(f"share {kind}", run.decided_share(kind), "<=", limit, _beside(run, kind)))
    if t.max_unverified is not None:
        most, unit = limit_of(t.max_unverified, run.scored)
        checks.append(Check("unverified records", float(run.unverified), "<=", most,
                            run.unverified <= most, f"limit {t.max_unverified} ({unit})"))
    default = " (default: set max_errors to allow some)" if t.max_errors is None else ""
    checks.append(_check("share errored", run.error_share, "<=", t.max_errors or 0.0,
                         f"{errored} of {run.total} errored{default}" if errored else ""))
    for key, limit in t.max_regression.items():
        checks.append(_regression(key, limit, run, baseline))
    moves = regressed or []
    if baseline is not None:
        checks.append(_regressed_check(moves, t.max_regressed))
    return GateResult(checks, run.total, run.signature_list(),
                      baseline.signature_list() if baseline else [], skipped=skipped,
                      regressed=moves, grounders=dict(run.grounders))


# How many regressed records a check's detail names before it gives a count: a screenful.
SHOWN = 20


def _regressed_check(moves: list[Move], limit: int | None) -> Check:
    names = [_name(m) for m in moves[:SHOWN]]
    more = f" and {len(moves) - SHOWN} more" if len(moves) > SHOWN else ""
    default = "" if limit is not None else " (default: set max_regressed to allow some)"
    detail = f"was complete: {', '.join(names)}{more}{default}" if moves else ""
    return _check("records regressed", float(len(moves)), "<=", limit or 0, detail)


def _name(m: Move | Case) -> str:
    return str(m.id if m.id is not None else f"line {m.line}")


def _regression(key: str, limit: float, run: Aggregate, baseline: Aggregate | None) -> Check:
    assert baseline is not None
    # A metric regresses when it drops; a failure type when its share rises.
    if key in METRICS:
        old, new = baseline.mean(key), run.mean(key)
        drop = None if old is None or new is None else old - new
        return _check(f"drop in mean {key}", drop, "<=", limit,
                      f"baseline {_f(old)}, now {_f(new)}")
    old, new = baseline.decided_share(key), run.decided_share(key)
    rise = None if old is None or new is None else new - old
    return _check(f"rise in share {key}", rise, "<=", limit, f"baseline {_f(old)}, now {_f(new)}")


def _beside(run: Aggregate, measure: str) -> str:
    """The unverified count beside a completeness measure, for a run that has unverified records."""
    if not run.unverified or measure in ("determinateness",):
        return ""
    return f"over {run.decided} decided records; {run.unverified} unverified left out"


def went_unverified(moves: list[Move], run: list[Case]) -> list[Case]:
    """The run's cases of the records `moves` names (decided in the baseline, unverified now)."""
    keys = {(m.id, m.line) for m in moves}
    return [c for c in run if c.skipped is not None and (c.id, c.line) in keys]


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def to_junit(result: GateResult) -> str:
    """JUnit XML: a testsuite of the checks (a <failure> on each failed one) and, when the
    result has its cases, a testsuite of the records: one testcase per record, a <failure>
    saying why on each failing one, so a CI page lists the records that failed."""
    failed = sum(not c.passed for c in result.checks)
    bad = sum(c.failure is not None for c in result.cases)
    total = {"tests": str(len(result.checks) + len(result.cases)), "failures": str(failed + bad),
             "errors": "0", "skipped": str(len(result.unverified))}
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
    skipped = sum(c.skipped is not None for c in cases)
    counts = {"tests": str(len(cases)), "failures": str(bad), "errors": "0", "skipped": str(skipped)}
    suite = ET.SubElement(root, "testsuite", {"name": "logicscore.records", "time": "0", **counts})
    for c in cases:
        name = xml_text(c.id if c.id is not None else f"line {c.line}")
        case = ET.SubElement(suite, "testcase", classname="logicscore.records", name=name, time="0")
        if c.skipped is not None:
            # Neither a pass nor a failure of completeness: the text could not tell.
            ET.SubElement(case, "skipped", message=xml_text(f"completeness unverified: {c.skipped}"))
        elif c.failure is not None:
            message = xml_text(c.failure)
            failure = ET.SubElement(case, "failure", type=message.split(":")[0].split(";")[0], message=message)
            failure.text = f"record {name} (input line {c.line}): {message}"


def render_table(result: GateResult, results: str | None = None):
    """A rich table of metric, value, threshold, verdict; under it the records that regressed
    and failed and, given the `results` path, the command that explains the first of them."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    verdict = "PASS" if result.passed else "FAIL"
    table = Table(title=f"logicscore gate: {verdict} ({result.records} records)", title_justify="left")
    for name in ("check", "value", "threshold", "verdict", "detail"):
        table.add_column(name, justify="right" if name in ("value", "threshold") else "left")
    for c in result.checks:
        # A check named "records …" counts records: shown without decimals.
        value = f"{c.value:.0f}" if c.name.startswith("records") and c.value is not None else _f(c.value)
        table.add_row(Text(terminal(c.name)), value, f"{c.op} {c.threshold:g}",
                      "pass" if c.passed else "FAIL", Text(terminal(c.detail)), style=None if c.passed else "red")
    failing = [c for c in result.cases if c.failure is not None]
    lines = [f"skipped: {terminal(s)}" for s in result.skipped]
    for what, items in (("regressed records (complete in the baseline)", result.regressed),
                        ("failing records", failing)):
        if items:
            shown = ", ".join(terminal(_name(c)) for c in items[:SHOWN])
            more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
            lines.append(f"{what} ({len(items)}): {shown}{more}")
    lines += _unverified_lines(result)
    first = (result.regressed or failing or [None])[0]
    if results is not None and first is not None:
        import shlex

        which = f"--id {shlex.quote(str(first.id))}" if first.id is not None else f"--line {first.line}"
        lines.append(terminal(f"next: logicscore explain {shlex.quote(results)} {which}"))
    lines += [f"signature: {terminal(s)}" for s in result.signatures]
    lines += [f"grounded: {n} records with documents, {terminal(g)}" for g, n in result.grounders.items()]
    lines += [f"baseline signature: {terminal(s)}" for s in result.baseline_signatures]
    return Group(table, *(Text(line, style="dim") for line in lines))


def _unverified_lines(result: GateResult) -> list[str]:
    """How many records were unverified and which went unverified against the baseline."""
    lines = []
    for cases, what in ((result.unverified, "unverified records"),
                        (result.went_unverified, "decided in the baseline, unverified now")):
        if cases:
            shown = ", ".join(terminal(str(c.id if c.id is not None else f"line {c.line}")) for c in cases[:20])
            more = f" and {len(cases) - 20} more" if len(cases) > 20 else ""
            lines.append(f"{what} ({len(cases)}): {shown}{more}")
    if result.unverified and not any(c.name == "unverified records" for c in result.checks):
        lines.append("unverified records neither pass nor fail the completeness checks; "
                     "limit them with --max-unverified (a count, a share or a percentage)")
    return lines
