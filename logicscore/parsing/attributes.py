"""The pipeline's `attribute_ruler`, compiled to lookups: the same annotations, a fraction of the time.

spaCy's ruler runs a `Matcher` over every token of every Doc and sets each match's attributes
through a `Span`; on short answers that is about a sixth of the whole parse. Its patterns in
the English pipelines read only a token's TAG, LOWER, DEP and IS_SPACE (a few span two tokens),
so the attributes a token receives are a function of those four values and, for the two-token
patterns, of its neighbours'. `AttributeTable` evaluates every pattern once per distinct
4-tuple, remembers the outcome, and applies it with spaCy's own `set_token_attrs`, in the
ruler's order (a later pattern overrides an earlier one, as the ruler sorts its matches by
pattern number). A pipeline whose patterns use anything else keeps spaCy's ruler
(`compile` returns None), so the table never guesses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

# The token attributes a compiled pattern may test, in the order of a token's key.
KEY_ATTRS = ("TAG", "LOWER", "DEP", "IS_SPACE")
FACTORY = "logicscore_attribute_table"
# Distinct token rows remembered; a long run starts over past this (a row's attributes
# depend on the row alone, so forgetting changes nothing but time).
MAX_ROWS = 20_000

View = tuple[str, str, str, bool]  # a token's (tag, lower, dep, is_space)
Test = Callable[[View], bool]
Key = tuple[int, str | bool]  # (position in a view, a value the pattern requires there)
T = TypeVar("T")
Effect = tuple[int, dict]  # (pattern number, the ruler's normalized attributes)
Multi = tuple[list["Spec"], int, Effect]  # (token specs, index of the token it sets, effect)
# A token row as the table remembers it: its view, the single-token attributes it receives
# and the multi-token patterns whose first token it matches (usually none).
Row = tuple[View, "dict | None", tuple[Multi, ...]]


class Unsupported(ValueError):
    """A pattern the table cannot evaluate; the pipeline keeps spaCy's ruler."""


class Spec:
    """One token pattern: its tests, and the values of one attribute it requires (its index
    keys), so a token is tested only against the patterns filed under its own values."""

    def __init__(self, spec: dict):
        wanted = {}
        for raw_attr, value in spec.items():
            if raw_attr.upper() not in KEY_ATTRS:
                raise Unsupported(f"attribute {raw_attr!r}")
            wanted[KEY_ATTRS.index(raw_attr.upper())] = value
        # The word first, then the tag, the dependency and the space flag: the attribute that
        # narrows the candidates most. A pattern that lists values is filed under each.
        self.keys: tuple[Key, ...] | None = next(
            ((tuple((at, v) for v in values)) for at in (1, 0, 2, 3)
             if (values := _required(wanted.get(at))) is not None), None)
        self._tests = tuple(_value_test(at, value) for at, value in wanted.items())

    def __call__(self, view: View) -> bool:
        # A loop, not all() over a generator: this runs for every new row, and the
        # generator costs more than the tests.
        for test in self._tests:  # noqa: SIM110
            if not test(view):
                return False
        return True


def _required(wanted: Any) -> tuple[str | bool, ...] | None:
    """The values an attribute test accepts, when it names them (equality or IN)."""
    if isinstance(wanted, (bool, str)):
        return (wanted,)
    if isinstance(wanted, dict) and len(wanted) == 1 and isinstance(wanted.get("IN"), list) \
            and all(isinstance(v, str) for v in wanted["IN"]):
        return tuple(dict.fromkeys(wanted["IN"]))
    return None


def _file(items: list[T], spec_of: Callable[[T], Spec]) -> tuple[dict[Key, list[T]], list[T]]:
    """`items` by the index keys of their spec, and those whose spec has none."""
    filed: dict[Key, list[T]] = {}
    unfiled: list[T] = []
    for item in items:
        keys = spec_of(item).keys
        if keys is None:
            unfiled.append(item)
        for key in keys or ():
            filed.setdefault(key, []).append(item)
    return filed, unfiled


def _candidates(filed: dict[Key, list[T]], unfiled: list[T], view: View) -> tuple[T, ...]:
    """The items filed under one of `view`'s values, and the unfiled ones. A spec is filed
    under one attribute only, and a view has one value of it: no item comes twice."""
    get = filed.get
    return (*get((1, view[1]), ()), *get((0, view[0]), ()), *get((2, view[2]), ()),
            *get((3, view[3]), ()), *unfiled)


def _value_test(at: int, wanted: Any) -> Test:
    if isinstance(wanted, (bool, str)):
        return lambda view: view[at] == wanted
    if not isinstance(wanted, dict) or len(wanted) != 1:
        raise Unsupported(f"value {wanted!r}")
    (op, arg), = wanted.items()
    if op == "REGEX" and isinstance(arg, str) and at != 3:
        pattern = re.compile(arg)  # the Matcher searches, it does not anchor
        return lambda view: bool(pattern.search(str(view[at])))
    if op in ("IN", "NOT_IN") and isinstance(arg, list) and at != 3 \
            and all(isinstance(v, str) for v in arg):
        values = frozenset(arg)
        if op == "IN":
            return lambda view: view[at] in values
        return lambda view: view[at] not in values
    raise Unsupported(f"operator {op!r}")


class AttributeTable:
    """A spaCy component setting exactly what the pipeline's `attribute_ruler` sets."""

    def __init__(self, vocab: Any, single: list[tuple[Spec, Effect]],
                 multi: list[Multi]):
        # The function the ruler itself writes with: the same writes, by construction.
        from spacy.tokens._retokenize import set_token_attrs  # noqa: PLC2701

        self.vocab = vocab
        self._set = set_token_attrs
        # Nearly every pattern names the word, tag, dependency or space flag it applies to:
        # a token is tested only against the patterns filed under its own values.
        self._filed, self._unfiled = _file(single, lambda item: item[0])
        self._multi_filed, self._multi_unfiled = _file(multi, lambda item: item[0][0])
        self._rows: dict[tuple[int, ...], Row] = {}

    @classmethod
    def compile(cls, ruler: Any) -> AttributeTable | None:
        """The table for a loaded `AttributeRuler`, or None when a pattern is beyond it."""
        single: list[tuple[Spec, Effect]] = []
        multi: list[Multi] = []
        try:
            for number, (attrs, index) in enumerate(zip(ruler.attrs, ruler.indices)):
                for pattern in ruler.matcher.get(str(number))[1]:
                    specs = [Spec(spec) for spec in pattern]
                    if not specs or not -len(specs) <= index < len(specs):
                        raise Unsupported(f"index {index} of a {len(specs)}-token pattern")
                    if len(specs) == 1:
                        single.append((specs[0], (number, attrs)))
                    else:
                        multi.append((specs, index % len(specs), (number, attrs)))
        except Unsupported:
            return None
        return cls(ruler.vocab, single, multi)

    def __call__(self, doc: Any) -> Any:
        if not len(doc):
            return doc
        found = [self._row(tuple(row)) for row in doc.to_array(list(KEY_ATTRS)).tolist()]
        extra = self._multi_effects(found)
        for i, (view, attrs, _) in enumerate(found):
            if i in extra:
                attrs = _merge(extra[i] + self._effects(view))
            if attrs:
                self._set(doc[i], attrs)
        return doc

    def pipe(self, docs: Iterable[Any], batch_size: int = 1000) -> Iterator[Any]:
        for doc in docs:
            yield self(doc)

    def _row(self, row: tuple[int, ...]) -> Row:
        """A token's view, its single-token attributes and the multi patterns it can start."""
        known = self._rows.get(row)
        if known is None:
            if len(self._rows) >= MAX_ROWS:
                self._rows.clear()
            strings = self.vocab.strings
            view = (strings[row[0]], strings[row[1]], strings[row[2]], bool(row[3]))
            known = self._rows[row] = (view, _merge(self._effects(view)), self._starts(view))
        return known

    def _effects(self, view: View) -> list[Effect]:
        return [effect for spec, effect in _candidates(self._filed, self._unfiled, view)
                if spec(view)]

    def _starts(self, view: View) -> tuple[Multi, ...]:
        """The multi-token patterns whose first token `view` matches."""
        return tuple(item for item in _candidates(self._multi_filed, self._multi_unfiled, view)
                     if item[0][0](view))

    def _multi_effects(self, found: list[Row]) -> dict[int, list[Effect]]:
        """The effects of multi-token matches, by the token each one sets; only a token whose
        row can start a pattern is tried, and its first token is not tested again."""
        out: dict[int, list[Effect]] = {}
        for start, (_, _, starts) in enumerate(found):
            for specs, index, effect in starts:
                end = start + len(specs)
                if end <= len(found) and all(
                        s(row[0]) for s, row in zip(specs[1:], found[start + 1:end])):
                    out.setdefault(start + index, []).append(effect)
        return out


def _merge(effects: list[Effect]) -> dict | None:
    """The attributes of `effects` applied in pattern order: the last one to set a field wins."""
    merged: dict = {}
    for _, attrs in sorted(effects, key=lambda e: e[0]):
        merged.update(attrs)
    return merged or None


def install(nlp: Any) -> bool:
    """Run a compiled table in place of `nlp`'s attribute_ruler, when it can; True if it does."""
    if "attribute_ruler" not in nlp.pipe_names or FACTORY in nlp.component_names:
        return FACTORY in nlp.pipe_names
    table = AttributeTable.compile(nlp.get_pipe("attribute_ruler"))
    if table is None:
        return False
    from spacy.language import Language

    if not Language.has_factory(FACTORY):
        Language.factory(FACTORY, func=_make)
    nlp.add_pipe(FACTORY, after="attribute_ruler", config={})
    nlp.disable_pipe("attribute_ruler")
    return True


def _make(nlp: Any, name: str) -> AttributeTable:
    table = AttributeTable.compile(nlp.get_pipe("attribute_ruler"))
    if table is None:  # install() compiled it a moment ago; the same ruler compiles again
        raise Unsupported("the attribute_ruler changed while it was being compiled")
    return table
