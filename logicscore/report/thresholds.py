"""The gate's thresholds (docs/gate-ci.md): `[tool.logicscore.gate]` in pyproject.toml with the
flags on top, each key and value checked, a bad one a `GateInputError` that names it."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InputError
from .aggregate import CATEGORIES, METRICS

# The failure types a share limit names (complete is no failure).
FAILURES = CATEGORIES[1:]


class GateInputError(InputError):
    """A gate that cannot be evaluated: bad thresholds, unreadable or incomparable runs."""


# A share or a mean between 0 and 1: a number (an integer is fine), never a boolean (TOML's
# `true` is not 1.0), nan or infinity, never negative.
Share = Annotated[float, Field(ge=0, le=1, strict=True, allow_inf_nan=False)]
# `max_unverified`: a count of records (5), a share of the scored ones (0.1) or a percentage
# ("10%"); `limit_of` reads it.
Limit = Annotated[int, Field(ge=0, strict=True)] | Share | Annotated[str, Field(pattern=r"^\s*\d+(\.\d+)?\s*%\s*$")]


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
    # Records complete in the baseline and not in the run (0 when a baseline is given).
    max_regressed: Annotated[int, Field(ge=0, strict=True)] | None = None
    min_records: Annotated[int, Field(ge=0, strict=True)] | None = None
    # Records whose completeness the text left undecided; unset, they neither pass nor fail.
    max_unverified: Limit | None = None

    def is_empty(self) -> bool:
        return not any(v not in (None, {}) for v in self.model_dump().values())


def parse_limit(text: str | None, option: str = "--max-unverified") -> int | float | str | None:
    """A flag's `5`, `0.1` or `10%` as the value `Thresholds.max_unverified` takes."""
    if text is None:
        return None
    value = text.strip()
    if value.endswith("%"):
        return value
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise GateInputError(f"{option} {text!r}: give a count (5), a share (0.1) or a percentage (10%)") from None


def limit_of(limit: int | float | str, scored: int) -> tuple[float, str]:
    """(the highest count of unverified records `limit` allows among `scored`, how it reads):
    an integer is a count, a float a share, "N%" a percentage."""
    if isinstance(limit, str):
        share = float(limit.strip().rstrip("%").strip()) / 100
        if share > 1:
            raise GateInputError(f"max_unverified {limit!r}: a percentage is at most 100%")
        return share * scored, f"{limit.strip()} of {scored} scored"
    if isinstance(limit, float):
        return limit * scored, f"{limit:g} of {scored} scored"
    return float(limit), "records"


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
        if loc[0] == "max_unverified":  # a union: each member's error would only confuse
            raise GateInputError(f"{where}: {name(loc[0])}: give a count (5), a share between 0 and 1 (0.1) "
                                 f"or a percentage (\"10%\"){shown}") from None
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
