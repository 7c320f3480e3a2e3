"""catalogue's registry lookups answered from an index of entry points while a pipeline loads.

catalogue keeps the environment's entry points as importlib's `SelectableGroups` and, at
every registry lookup, selects one group by testing every entry point installed. A spaCy
model load makes about 250 lookups (each weight file read asks for srsly's decoders), a
tenth of the load with a test environment's 170 entry points. The groups are a dict
already: handed that dict, catalogue takes its other path, `AVAILABLE_ENTRY_POINTS.get(group)`,
which gives the same entry points in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def indexed_entry_points() -> Iterator[None]:
    """Inside the block, catalogue finds a group's entry points by key; then as before."""
    import catalogue

    found = getattr(catalogue, "AVAILABLE_ENTRY_POINTS", None)
    index = by_group(found)
    if index is None:
        yield
        return
    catalogue.AVAILABLE_ENTRY_POINTS = index
    try:
        yield
    finally:
        # A block entered meanwhile (another thread's load) saw the index and left it alone.
        if catalogue.AVAILABLE_ENTRY_POINTS is index:
            catalogue.AVAILABLE_ENTRY_POINTS = found


def by_group(found: Any) -> dict[str, Any] | None:
    """`found`'s entry points by group, each group in its order; None when catalogue
    already looks them up by key (a plain dict) or holds something unknown."""
    if not hasattr(found, "select"):
        return None
    if isinstance(found, dict):  # SelectableGroups: EntryPoints by group (Python 3.10, 3.11)
        return dict(dict.items(found))
    groups: dict[str, list] = {}  # EntryPoints (Python 3.12 on): one flat sequence
    for entry_point in found:
        groups.setdefault(entry_point.group, []).append(entry_point)
    return groups
